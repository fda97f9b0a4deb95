"""Seeded demo games at several stages (for people to look at, for goldens, for benchmarks).

Everything here is deterministic: fixed seeds, the engine's GreedyPlayer with fixed seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine import Game
from engine.geometry import MUSEUM_SIZE, WORKROOM_SIZE
from engine.players import GreedyPlayer
from engine.state import CORNERSTONE, MuseumColumn

from . import museum_png, studio_png, table_png
from .labels import Labels

DEMO_NAMES = ["Ada", "Bartholomew the Magnificent", "Chloé", "Dmitri"]


def play(players: int, seed: int, *, turns: int | None = None, max_moves: int = 5000) -> Game:
    """A GreedyPlayer game from ``seed``, stopped when ``turns`` turns have been played
    (at the start of the next turn, after its roll) or when it is over."""
    game = Game.new(players=players, seed=seed)
    bots = [GreedyPlayer(seed * 10 + i) for i in range(players)]
    for _ in range(max_moves):
        if game.is_over or (turns is not None and game.state.turn >= turns):
            break
        game.apply(bots[game.current_player].choose(game))
    return game


def busy_late_game(seed: int = 3, players: int = 4, built: float = 0.5) -> Game:
    """A position for the benchmark and the legibility test: late in a greedy game, then
    dressed up so that every workroom holds dice and a share ``built`` of the museum is built
    to its full heights (not reachable by the rules as such, but every structure is well
    formed)."""
    game = play(players, seed, turns=11 * players)
    s = game.state
    heights = game.museum_heights()
    corner = next(c for c, col in s.museum.items() if col.owners and col.owners[0] == CORNERSTONE)
    cv = s.museum[corner].value
    cx, cy = corner % MUSEUM_SIZE, corner // MUSEUM_SIZE
    other = cv + 1 if cv < 6 else cv - 1
    cells = sorted(heights)
    want = round(sum(heights.values()) * built)
    built = sum(len(col.owners) for col in s.museum.values())
    seat = 0
    for cell in cells:
        if built >= want:
            break
        if cell in s.museum:
            continue
        x, y = cell % MUSEUM_SIZE, cell // MUSEUM_SIZE
        value = cv if (x + y - cx - cy) % 2 == 0 else other
        owners = []
        for _ in range(heights[cell]):
            owners.append(seat % players)
            seat += 1
        s.museum[cell] = MuseumColumn(value, owners)
        built += len(owners)
    start = 2 * WORKROOM_SIZE + 2  # c3
    for p in s.players:
        for room in p.workrooms:
            if not room:
                room[start] = (3, 2)
                room[start + 1] = (4, 1)
                room[start + WORKROOM_SIZE] = (2, 1)
    return game


Stage = tuple[str, Callable[[], Game], str]  # name, game, picture kind


def stages() -> list[Stage]:
    """The demo pictures: (file stem, game factory, kind): 'table' | 'studio:N' |
    'marks:N' (the studio with the turn panel's letters) | 'museum', seen from a corner,
    or with '@flat' from above (the player's choice)."""
    return [
        ("start-4p", lambda: play(4, 11, turns=0), "table"),
        ("mid-3p", lambda: play(3, 5, turns=18), "table"),
        ("late-4p", lambda: play(4, 3, turns=44), "table"),
        ("late-2p", lambda: play(2, 8, turns=40), "table"),
        ("late-4p-studio-p2", lambda: play(4, 3, turns=44), "studio:1"),
        ("late-4p-studio-p3-marks", lambda: play(4, 3, turns=44), "marks:2"),
        ("late-4p-museum", lambda: play(4, 3, turns=44), "museum"),
        ("busy-4p", busy_late_game, "table"),
        ("finished-2p", lambda: play(2, 8), "table"),
        ("late-4p-flat", lambda: play(4, 3, turns=44), "table@flat"),
        ("late-4p-studio-p2-flat", lambda: play(4, 3, turns=44), "studio:1@flat"),
        ("late-4p-museum-flat", lambda: play(4, 3, turns=44), "museum@flat"),
    ]


DEMO_MARKS = {(0, 14): "A", (0, 15): "B", (1, 8): "C", (1, 20): "D"}  # workroom 1 c3 (a column), d3; 2: c2, c4


def picture(game: Game, kind: str, names: list[str] | None, labels: Labels) -> bytes:
    kind, _at, style = kind.partition("@")
    style = style or "iso"
    if kind == "table":
        return table_png(game, names, labels=labels, style=style)
    if kind.startswith("studio:"):
        return studio_png(game, int(kind.split(":")[1]), names, labels=labels, style=style)
    if kind.startswith("marks:"):
        return studio_png(game, int(kind.split(":")[1]), names, labels=labels, marks=DEMO_MARKS, style=style)
    if kind == "museum":
        return museum_png(game, labels=labels, style=style)
    raise ValueError(kind)


def write_demo(directory: Path, labels: Labels) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    cache: dict[str, Game] = {}
    for stem, make, kind in stages():
        key = stem.split("-")[0] + stem.split("-")[1]
        game = cache.get(key) or make()
        cache[key] = game
        names = DEMO_NAMES[: game.num_players]
        path = directory / f"{stem}.png"
        path.write_bytes(picture(game, kind, names, labels))
        out.append(path)
    return out
