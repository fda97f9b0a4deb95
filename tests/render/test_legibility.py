"""Legibility at Discord's sizes, computed from the layout model (no OCR), for both
cameras: isometric (the default) and from above (style="flat").

The table is judged shrunk to fit 550x400 (a laptop's preview box) and 360 px wide (a
phone): every die of the game is in the model; every value at least 10 px tall at the
laptop preview with 2 and 3 players, 9 px with 4 (the bot then posts the current player's
studio beside it, whose values reach 10 px); every column's height countable (its cubes
at least 4 px high there) or written (a height figure at least 7 px); no value lies under
a column drawn in front of it (a value a taller column hides is drawn again on a tag,
which covers no other value); on a phone the header shows whose turn it is and the last
turn's dice again with where they went (9 px).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

import pytest

import render
from bot.i18n.pictures import render_labels
from engine import Game
from engine.players import GreedyPlayer, Player, make_player
from render.camera import camera
from render.demo import DEMO_NAMES, busy_late_game, play
from render.model import DieGlyph, phone_scale, preview_scale
from render.names import _initials
from render.tableview import MIN_GLYPH, MIN_GLYPH_4P

EN = render_labels("en")
CUBE_PX = 4.0  # a cube's height at the laptop preview, so a column's dice can be counted
FIGURE_PX = 7.0  # ... or its height figure's


def dice_in_game(game: Game) -> int:
    """How many dice (a column counts once: its top die carries the value) the table must
    show: workroom and museum columns, artist dice, storeroom, storage, the abandoned pool
    and bonus dice on completed cards."""
    s = game.state
    n = sum(1 for col in s.museum.values() if col.owners)
    n += sum(slot.count for slot in s.artists if slot.card is not None and slot.owner is not None)
    n += len(s.pool)
    for p in s.players:
        n += sum(len(room) for room in p.workrooms) + len(p.storeroom) + len(p.storage)
        n += sum(v is not None for c in p.completed for v in c.dice)
    return n


def positions() -> list[tuple[str, Game]]:
    return [
        ("2p late", busy_late_game(8, players=2, built=0.9)),
        ("3p late", busy_late_game(5, players=3, built=0.9)),
        ("4p late, tall museum", busy_late_game(3, players=4, built=1.0)),
        ("3p mid", play(3, 5, turns=18)),
        ("4p late, played", play(4, 3, turns=44)),
        ("2p finished", play(2, 8)),
    ]


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(p: tuple[float, float], poly: tuple[tuple[float, float], ...]) -> bool:
    sign = 0
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
        c = (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1)
        if abs(c) < 1e-9:
            continue
        if sign and (c > 0) != (sign > 0):
            return False
        sign = 1 if c > 0 else -1
    return True


def hidden_values(dice: list[DieGlyph]) -> list[str]:
    """Values (on a top face) that a column drawn later covers: the middle of the numeral's
    ink box inside that column's outline."""
    out = []
    for i, a in enumerate(dice):
        if a.tag:
            continue
        x0, y0, x1, y1 = a.glyph
        points = [(x0 + (x1 - x0) * k / 4, y0 + (y1 - y0) * j / 4) for k in (1, 2, 3) for j in (1, 2, 3)]
        for b in dice[i + 1 :]:
            if b.outline and any(_inside(p, b.outline) for p in points):
                out.append(f"{b.where} covers the value of {a.where}")
    return out


def tags_on_values(dice: list[DieGlyph]) -> list[str]:
    return [
        f"the tag of {a.where} covers {b.where}"
        for a in dice
        if a.tag
        for b in dice
        if b is not a and _overlap(a.cell, b.glyph)
    ]


def _px(box: tuple[int, int, int, int], scale: float) -> float:
    return (box[3] - box[1]) * scale


def check_heights(name: str, cv: render.Canvas, scale: float, iso: bool, figure: float = FIGURE_PX) -> None:
    """Every column of two or more: its cubes countable, or its height written."""
    for d in cv.dice:
        if d.height < 2:
            continue
        if d.height_box is not None:
            assert _px(d.height_box, scale) >= figure, f"{name}: {d.where}'s height figure"
            on = [e.where for e in cv.dice if _overlap(d.height_box, e.glyph)]
            assert not on, f"{name}: {d.where}'s height figure covers the value of {on}"
            continue
        assert iso and not d.tag, f"{name}: {d.where} ({d.height} high) shows no height"
        assert d.body is not None
        cube = (d.body[3] - d.body[1] - (d.cell[3] - d.cell[1])) / d.height
        assert cube * scale >= CUBE_PX, f"{name}: {d.where}'s cubes are {cube * scale:.1f} px high"


@pytest.mark.parametrize("style", ["iso", "flat"])
@pytest.mark.parametrize("name,game", positions(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_die_is_shown_readable_and_uncovered_at_the_laptop_preview(name: str, game: Game, style: str) -> None:
    n = game.num_players
    cv = render.table_canvas(game, DEMO_NAMES[:n], labels=EN, style=style)
    assert len(cv.dice) == dice_in_game(game), f"{name}: a die of the game is not drawn"
    assert not hidden_values(cv.dice), f"{name}: {hidden_values(cv.dice)[:3]}"
    assert not tags_on_values(cv.dice), f"{name}: {tags_on_values(cv.dice)[:3]}"
    scale = preview_scale(*cv.size)
    smallest = min(_px(d.glyph, scale) for d in cv.dice)
    goal = MIN_GLYPH_4P if n == 4 else MIN_GLYPH
    assert smallest >= goal, f"{name}: the smallest value is {smallest:.1f} px tall at 550x400"
    # the isometric cubes are countable; from above the height figures are 7 px
    check_heights(name, cv, scale, style == "iso")
    if render.table_needs_studio(game, style=style):
        for seat in range(n):
            st = render.studio_canvas(game, seat, DEMO_NAMES[:n], labels=EN, style=style)
            s2 = preview_scale(*st.size)
            assert min(_px(d.glyph, s2) for d in st.dice) >= MIN_GLYPH
            assert not hidden_values(st.dice)
            check_heights(f"{name} studio", st, s2, style == "iso")
    else:
        assert smallest >= MIN_GLYPH, f"{name}: {smallest:.1f} px, and no studio beside it"
    assert render.table_needs_studio(game, style, DEMO_NAMES[:n], labels=EN) == (n == 4 or smallest < MIN_GLYPH)


@pytest.mark.parametrize("name,game", positions(), ids=lambda v: v if isinstance(v, str) else "")
def test_on_a_phone_the_header_shows_whose_turn_and_the_last_turns_dice(name: str, game: Game) -> None:
    """At 360 px wide: each die the last turn put on a board or in the museum is drawn again
    in the header (numerals >= 9 px) with where it went, beside whose turn it is (9.5 px)."""
    n = game.num_players
    cv = render.table_canvas(game, DEMO_NAMES[:n], labels=EN)
    ph = phone_scale(cv.size[0])
    lit = [d for d in cv.dice if d.lit and not d.where.startswith("artist")]
    for d in lit:
        assert any(r.value == d.value for r in cv.recap), f"{name}: {d.where} is not in the header"
    for r in cv.recap:
        assert _px(r.glyph, ph) >= 9.0, f"{name}: recap numeral {_px(r.glyph, ph):.1f} px"
    assert cv.status is not None and _px(cv.status, ph) >= 9.5


def test_the_closeups_are_readable() -> None:
    game = busy_late_game(3, players=4, built=1.0)
    for style in ("iso", "flat"):
        cv = render.museum_canvas(game, labels=EN, style=style)
        assert len(cv.dice) == sum(1 for col in game.state.museum.values() if col.owners)
        assert not hidden_values(cv.dice) and not tags_on_values(cv.dice)
        scale = preview_scale(*cv.size)
        assert min(_px(d.glyph, scale) for d in cv.dice) >= MIN_GLYPH
        check_heights("museum", cv, scale, style == "iso")


def test_museum_places_to_build_show_their_heights_as_figures() -> None:
    game = busy_late_game(3, players=4, built=0.5)
    empty = {cell: h for cell, h in game.museum_heights().items() if cell not in game.state.museum}
    assert empty
    for style in ("iso", "flat"):
        cv = render.table_canvas(game, DEMO_NAMES, labels=EN, style=style)
        assert sorted(h for _where, h, _box in cv.targets) == sorted(empty.values())
        scale = preview_scale(*cv.size)
        assert all(_px(box, scale) >= FIGURE_PX for _where, _h, box in cv.targets)
        for _where, _h, box in cv.targets:
            assert not any(_overlap(box, d.glyph) for d in cv.dice)


def test_a_tall_column_in_front_puts_the_value_behind_it_on_a_tag() -> None:
    """A column three dice taller than the one diagonally behind it hides that one's top face:
    its value (and height) are drawn again just above it, covering no other value."""
    game = busy_late_game(5, players=3)
    room = game.state.players[0].workrooms[0]
    room.clear()
    room.update({14: (3, 2), 21: (4, 4), 15: (4, 1), 20: (2, 1)})  # c3 2 high, d4 4 high in front
    cv = render.table_canvas(game, DEMO_NAMES[:3], labels=EN)
    mine = {d.where: d for d in cv.dice if d.where.startswith("p1 w1")}
    assert mine["p1 w1 c3"].tag, "the value behind the tall column is drawn again"
    assert mine["p1 w1 c3"].height_box is not None  # with its height: 2
    assert not mine["p1 w1 d4"].tag
    assert not hidden_values(cv.dice) and not tags_on_values(cv.dice)


def test_the_isometric_camera_sees_the_boards_from_a_corner() -> None:
    """Both grid axes run diagonally at the 2:1 angle, and a die is a cube with three faces."""
    cam = camera(True, 26)
    (x0, y0), (x1, y1) = cam.floor(0, 0, 6), cam.floor(1, 0, 6)
    (x2, y2) = cam.floor(0, 1, 6)
    assert math.degrees(math.atan2(y1 - y0, x1 - x0)) == pytest.approx(26.57, abs=0.1)
    assert math.degrees(math.atan2(y2 - y0, x0 - x2)) == pytest.approx(26.57, abs=0.1)
    top, left, right = cam.cube((100.0, 100.0), 1)
    assert len(top) == len(left) == len(right) == 4
    flat = camera(False, 36)
    assert flat.cube((100.0, 100.0), 1)[1] == ()  # from above: the top only


def test_the_two_cameras_draw_the_same_dice() -> None:
    game = busy_late_game(5, players=3)
    flat = render.table_canvas(game, DEMO_NAMES[:3], labels=EN, style="flat")
    iso = render.table_canvas(game, DEMO_NAMES[:3], labels=EN)
    assert sorted((d.where, d.value, d.height) for d in flat.dice) == sorted(
        (d.where, d.value, d.height) for d in iso.dice
    )
    with pytest.raises(ValueError):
        render.table_canvas(game, labels=EN, style="sideways")


def test_tags_keep_off_the_values_across_many_positions() -> None:
    """Over 72 late-game tables (2-4 players, a dozen seeds, two stages of the museum) and
    their studios: no value is hidden, and no tag covers a value."""
    columns = tagged = 0
    for n in (2, 3, 4):
        for seed in range(1, 13):
            for built in (0.7, 1.0):
                game = busy_late_game(seed, players=n, built=built)
                pictures = [render.table_canvas(game, DEMO_NAMES[:n], labels=EN)]
                pictures += [render.studio_canvas(game, s, DEMO_NAMES[:n], labels=EN) for s in range(n)]
                for cv in pictures:
                    columns += len(cv.dice)
                    tagged += sum(1 for d in cv.dice if d.tag)
                    assert not hidden_values(cv.dice), hidden_values(cv.dice)[:3]
                    assert not tags_on_values(cv.dice), tags_on_values(cv.dice)[:3]
    assert columns > 1000 and tagged < columns // 5, (tagged, columns)


def test_values_do_not_cover_each_other() -> None:
    game = busy_late_game(3, players=4, built=1.0)
    cv = render.table_canvas(game, DEMO_NAMES, labels=EN)
    for a, b in combinations(cv.dice, 2):
        assert not _overlap(a.glyph, b.glyph), f"{a.where} and {b.where}"


@lru_cache(maxsize=8)
def played(players: int, seed: int, level: str = "plain") -> tuple[Game, ...]:
    """Every position of a ``self_play`` game, played once for all the tests that walk it."""
    return tuple(game.clone() for game in self_play(players, seed, level))


def self_play(players: int, seed: int, level: str = "plain") -> Iterator[Game]:
    """A whole self-play game, after each turn.  ``level``: "plain", the plain
    ``GreedyPlayer`` the goldens and demos are played by, or one of ``make_player``'s levels
    ("greedy" is the bot's default computer player, whose games keep bonus dice on
    completed cards and reach other positions)."""
    game = Game.new(players=players, seed=seed)
    bots: list[Player] = [
        GreedyPlayer(seed * 10 + i) if level == "plain" else make_player(level, seed * 10 + i) for i in range(players)
    ]
    while not game.is_over:
        turn = game.state.turn
        while not game.is_over and game.state.turn == turn:
            game.apply(bots[game.current_player].choose(game))
        yield game


def smallest_value(cv: render.Canvas) -> float:
    """The smallest value's height at the laptop preview (px)."""
    scale = preview_scale(*cv.size)
    return min((_px(d.glyph, scale) for d in cv.dice), default=math.inf)


# the strong level's games have the longest turns and the most completed cards in the bands
WALKS = [("plain", 2, 8), ("plain", 3, 5), ("plain", 4, 3), ("greedy", 2, 1), ("greedy", 3, 1), ("greedy", 4, 5)]
WALKS += [("strong", 3, 1), ("strong", 4, 2)]


@pytest.mark.parametrize("level,players,seed,style", [(*walk, style) for walk in WALKS for style in ("iso", "flat")])
def test_every_turn_of_a_full_game_reads_at_discords_sizes(level: str, players: int, seed: int, style: str) -> None:
    """A whole self-play game, its table after every turn, seen from a corner and from
    above: every die drawn, no value hidden or under a tag, values 10 px (9 with four
    players) and height figures 7 px at the laptop preview, the header's dice and whose
    turn 9 px on a phone; the studio is posted beside the table exactly when it falls short."""
    names = DEMO_NAMES[:players]
    goal = MIN_GLYPH_4P if players == 4 else MIN_GLYPH
    turns = 0
    for game in played(players, seed, level):
        cv = render.table_canvas(game, names, labels=EN, style=style)
        where = f"{level} {players}p {style} turn {game.state.turn}"
        assert len(cv.dice) == dice_in_game(game), where
        assert not hidden_values(cv.dice) and not tags_on_values(cv.dice), where
        scale = preview_scale(*cv.size)
        smallest = smallest_value(cv)
        assert smallest >= goal, f"{where}: {smallest:.2f} px"
        check_heights(where, cv, scale, style == "iso", FIGURE_PX)
        ph = phone_scale(cv.size[0])
        assert all(_px(r.glyph, ph) >= 9.0 for r in cv.recap), where
        assert cv.status is not None and _px(cv.status, ph) >= 9.5, where
        needs = render.table_needs_studio(game, style, names, labels=EN)
        assert needs == (players == 4 or smallest < MIN_GLYPH), f"{where}: {smallest:.2f} px, studio {needs}"
        turns += 1
    assert turns > 20


@lru_cache(maxsize=64)
def finished(players: int, seed: int) -> Game:
    """The last position of a game of the bot's default computer level."""
    return deque(self_play(players, seed, "greedy"), maxlen=1)[0]


@pytest.mark.parametrize("style", ["iso", "flat"])
@pytest.mark.parametrize("players,seeds", [(2, range(1, 11)), (3, range(1, 11)), (4, range(1, 21))])
def test_finished_tables_read_at_discords_sizes(players: int, seeds: range, style: str) -> None:
    """The last picture of a game, the fullest (every completed card in its band, who won
    in the header): over games of the bot's default level, values at the goal and height
    figures 7 px at the laptop preview, the last turn's dice 9 px on a phone."""
    names = DEMO_NAMES[:players]
    goal = MIN_GLYPH_4P if players == 4 else MIN_GLYPH
    for seed in seeds:
        game = finished(players, seed)
        cv = render.table_canvas(game, names, labels=EN, style=style)
        scale, ph = preview_scale(*cv.size), phone_scale(cv.size[0])
        where = f"{players}p {style} seed {seed}"
        assert len(cv.dice) == dice_in_game(game) and not hidden_values(cv.dice), where
        check_heights(where, cv, scale, style == "iso")
        assert all(_px(r.glyph, ph) >= 9.0 for r in cv.recap), where
        assert smallest_value(cv) >= goal, f"{where}: {smallest_value(cv):.2f} px"


@pytest.mark.parametrize("style", ["iso", "flat"])
@pytest.mark.parametrize("players,seed", [(3, 3), (4, 3)])
def test_the_studio_is_posted_exactly_when_the_table_falls_short(players: int, seed: int, style: str) -> None:
    """Over every turn of games played by the bot's default computer level: the decision to
    post the mover's studio beside the table agrees with the table's values as measured at
    the laptop preview (a long turn's header is taller, and shrinks them), and that studio
    reads at 10 px."""
    names = DEMO_NAMES[:players]
    turns = 0
    for game in played(players, seed, "greedy"):
        turns += 1
        cv = render.table_canvas(game, names, labels=EN, style=style)
        smallest = smallest_value(cv)
        where = f"greedy {players}p {style} turn {game.state.turn}: {smallest:.2f} px"
        needs = render.table_needs_studio(game, style, names, labels=EN)
        assert needs == (players == 4 or smallest < MIN_GLYPH), where
        if needs:
            st = render.studio_canvas(game, game.current_player, names, labels=EN, style=style)
            assert smallest_value(st) >= MIN_GLYPH, where
            assert not hidden_values(st.dice), where
    assert turns > 20


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players,seed,level", [(2, 8, "plain"), (4, 3, "plain"), (4, 3, "greedy"), (4, 2, "greedy")])
def test_the_game_over_line_says_who_won(lang: str, players: int, seed: int, level: str) -> None:
    """A finished game's header names the winners, in full or as their bands do
    ("Bartholomew t. M.") when the full name would take it another line, with their points,
    large enough to read on a phone; nothing of it is cut."""
    game = played(players, seed, level)[-1]
    assert game.is_over
    labels = render_labels(lang)
    names = DEMO_NAMES[:players]
    cv = render.table_canvas(game, names, labels=labels)
    assert cv.status is not None
    header = next(b.rect for b in cv.boxes if b.kind == "panel" and b.name == "header")
    lines = [b for b in cv.boxes if b.kind == "text" and b.parent == "header" and b.rect[1] < cv.status[3]]
    said = " ".join(b.name for b in lines if _overlap(b.rect, cv.status))
    winners = [names[w] for w in game.winners()]
    assert "…" not in said
    assert all(w in said or _initials(w) in said for w in winners), said
    assert said.endswith(labels.text("points", points=game.score(game.winners()[0])))
    assert all(header[0] <= b.rect[0] and b.rect[2] <= header[2] for b in lines)
    ph = phone_scale(cv.size[0])
    assert all(_px(b.rect, ph) >= 9.0 for b in lines if _overlap(b.rect, cv.status))
