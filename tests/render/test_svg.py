"""The web board's SVG (render.svg): the high camera's geometry in vectors (the drawing
render.isoboard makes), with the page's hooks.

Every die the PNG's layout model records (``Canvas.dice``) must be in the SVG, in the group
of its cell (or of its player, artist card), with the same value and its top face within
2 px of the PNG's; every cell a legal move can target must have its ``cell`` group; the
documents stay small and name no URL but the SVG namespace.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest

import render
from bot.i18n.pictures import render_labels
from engine import Game
from engine.geometry import LETTERS, MUSEUM_SIZE, WORKROOM_SIZE
from engine.moves import Place, ToMuseum
from engine.players import GreedyPlayer
from render import isoboard
from render.demo import DEMO_NAMES, busy_late_game, play
from render.svg import clear_caches, part_caches, studio_svg, table_svg
from render.svgparts import RING_PAD

EN = render_labels("en")
NS = "{http://www.w3.org/2000/svg}"
TOLERANCE = 2


@cache
def _game(key: str) -> Game:
    makers = {
        "2p start": lambda: play(2, 8, turns=0),
        "2p early": lambda: play(2, 8, turns=3),
        "2p late": lambda: play(2, 8, turns=40),
        "2p finished": lambda: play(2, 8),
        "2p late, busy": lambda: busy_late_game(8, players=2, built=0.9),
        "3p mid": lambda: play(3, 5, turns=18),
        "3p late, busy": lambda: busy_late_game(5, players=3, built=0.9),
        "4p early": lambda: play(4, 11, turns=4),
        "4p late": lambda: play(4, 3, turns=44),
        "4p late, busy": lambda: busy_late_game(3, players=4, built=1.0),
        "3p odd": _odd_position,
    }
    return makers[key]()


def _odd_position() -> Game:
    """What the played games rarely show: columns whose front a taller one in front hides
    (their height figure as a tag), a step of two (flatter dice), the current player's
    abandoned dice and storage, a player who left, an empty artist slot and offer."""
    game = play(3, 5, turns=18)
    s = game.state
    room = s.players[s.current].workrooms[0]
    room.clear()
    for cell, col in {7: (2, 2), 13: (3, 3), 19: (4, 1), 9: (5, 2), 15: (6, 4), 21: (1, 2)}.items():
        room[cell] = col
    s.pool[:] = [2, 5]
    s.players[s.current].storage[:] = [4]
    s.players[(s.current + 1) % 3].removed = True
    s.artists[1].card = None
    s.artists[1].clear()
    s.offer[2] = None
    return game


GAMES = ["2p start", "2p early", "2p late", "2p finished", "2p late, busy", "3p mid", "3p late, busy", "4p early",
         "4p late", "4p late, busy", "3p odd"]  # fmt: skip


def _names(game: Game) -> list[str]:
    return DEMO_NAMES[: game.num_players]


def _classes(el: ET.Element) -> list[str]:
    return (el.get("class") or "").split()


def _groups(root: ET.Element, cls: str, attr: str) -> dict[str, ET.Element]:
    return {g.get(attr, ""): g for g in root.iter(f"{NS}g") if cls in _classes(g)}


def _dice(group: ET.Element) -> list[tuple[int, float, float, ET.Element]]:
    """(value, top face's left, top) of every die drawn in ``group``."""
    out = []
    for g in group.iter(f"{NS}g"):
        if "die" not in _classes(g):
            continue
        m = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", g.get("transform", ""))
        assert m, g.get("transform")
        text = next(g.iter(f"{NS}text"), None)
        value = int(text.text or 0) if text is not None else 0
        out.append((value, float(m.group(1)), float(m.group(2)), g))
    return out


def _cell_id(where: str) -> str | None:
    """The SVG cell of a die the PNG names "p2 w1 c3" or "museum d4" (None: not a cell)."""
    m = re.fullmatch(r"p(\d) w(\d) ([a-z])(\d+)", where)
    if m:
        cell = (int(m.group(4)) - 1) * WORKROOM_SIZE + LETTERS.index(m.group(3))
        return f"p{int(m.group(1)) - 1}.w{int(m.group(2)) - 1}.{cell}"
    m = re.fullmatch(r"museum ([a-z])(\d+)", where)
    if m:
        return f"m.{(int(m.group(2)) - 1) * MUSEUM_SIZE + LETTERS.index(m.group(1))}"
    return None


def _check_dice(svg: str, dice: list[render.model.DieGlyph]) -> None:
    root = ET.fromstring(svg)
    cells = _groups(root, "cell", "data-cell")
    players = _groups(root, "player", "data-seat")
    artists = _groups(root, "artist", "data-artist")
    for d in dice:
        cell = _cell_id(d.where)
        if cell is not None:
            group = cells.get(cell)
            assert group is not None, f"{d.where}: no cell group {cell}"
            found = _dice(group)
            assert len(found) == 1, f"{d.where}: {len(found)} dice in its cell group"
            value, x, y, _g = found[0]
            assert value == d.value, f"{d.where}: value {value}, PNG {d.value}"
            assert abs(x - d.cell[0]) <= TOLERANCE and abs(y - d.cell[1]) <= TOLERANCE, (d.where, x, y, d.cell)
            ring = list(group)[-1]
            assert ring.tag == f"{NS}rect" and "ring" in _classes(ring), f"{d.where}: the ring is not last"
            rx, ry = float(ring.get("x", 0)) + RING_PAD, float(ring.get("y", 0)) + RING_PAD
            rx1 = rx + float(ring.get("width", 0)) - 2 * RING_PAD
            ry1 = ry + float(ring.get("height", 0)) - 2 * RING_PAD
            got = (rx, ry, rx1, ry1)
            assert all(abs(a - b) <= TOLERANCE for a, b in zip(got, d.cell, strict=True)), (d.where, got, d.cell)
            continue
        m = re.fullmatch(r"artist (\d)", d.where)
        if m:
            group = artists[str(int(m.group(1)) - 1)]
        else:
            m = re.match(r"p(\d) ", d.where)
            assert m, d.where
            group = players[str(int(m.group(1)) - 1)]
        assert any(
            v == d.value and abs(x - d.cell[0]) <= TOLERANCE and abs(y - d.cell[1]) <= TOLERANCE
            for v, x, y, _g in _dice(group)
        ), f"{d.where}: no die {d.value} at {d.cell[:2]} in its group"


@pytest.mark.parametrize("key", GAMES)
def test_every_die_of_the_png_is_in_its_cell_with_its_value_and_place(key: str) -> None:
    game = _game(key)
    names = _names(game)
    svg = table_svg(game, names, labels=EN)
    cv = isoboard.table_canvas(game, names, labels=EN)
    root = ET.fromstring(svg)
    assert root.get("viewBox") == f"0 0 {cv.size[0]} {cv.size[1]}"
    _check_dice(svg, cv.dice)
    assert len(_dice(root)) >= len(cv.dice)
    figures = sorted(t.text or "" for t in root.iter(f"{NS}text") if (t.text or "").startswith("×"))
    assert figures == sorted(f"×{d.height}" for d in cv.dice if d.height_box is not None)


@pytest.mark.parametrize("key", ["2p late", "3p mid", "4p late", "4p late, busy"])
def test_studio_dice_match_the_png(key: str) -> None:
    game = _game(key)
    names = _names(game)
    for seat in range(game.num_players):
        svg = studio_svg(game, seat, names, labels=EN)
        cv = isoboard.studio_canvas(game, seat, names, labels=EN)
        assert ET.fromstring(svg).get("viewBox") == f"0 0 {cv.size[0]} {cv.size[1]}"
        _check_dice(svg, cv.dice)


@pytest.mark.parametrize("key", GAMES)
def test_every_cell_has_its_group_and_every_legal_target_is_one(key: str) -> None:
    game = _game(key)
    root = ET.fromstring(table_svg(game, _names(game), labels=EN))
    cells = _groups(root, "cell", "data-cell")
    for seat in range(game.num_players):
        for room in range(2):
            for cell in range(WORKROOM_SIZE * WORKROOM_SIZE):
                assert f"p{seat}.w{room}.{cell}" in cells
    for cell in game.museum_heights():
        assert f"m.{cell}" in cells
    for cid, g in cells.items():
        last = list(g)[-1]
        assert last.tag == f"{NS}rect" and _classes(last) == ["ring"], cid
        assert last.get("fill") is None and last.get("pointer-events") is None
    if not game.is_over:
        seat = game.state.current
        mine = _groups(root, "player", "data-seat")[str(seat)]
        for move in game.legal_moves():
            if isinstance(move, Place):
                assert f"p{seat}.w{move.room}.{move.cell}" in cells, move
                assert any(g.get("data-die") == str(move.die) for g in mine.iter(f"{NS}g")), move.die
            elif isinstance(move, ToMuseum):
                assert f"m.{move.cell}" in cells, move
    assert set(_groups(root, "artist", "data-artist")) == {"0", "1", "2", "3"}
    assert set(_groups(root, "offer", "data-offer")) == {"0", "1", "2"}
    assert set(_groups(root, "player", "data-seat")) == {str(s) for s in range(game.num_players)}


def test_the_root_is_an_image_named_in_words() -> None:
    game = _game("3p mid")
    root = ET.fromstring(table_svg(game, _names(game), labels=EN))
    assert root.get("role") == "img"
    assert root.get("aria-label") == render.words.status_line(game, _names(game), EN)
    assert "DejaVu Sans" in (root.get("font-family") or "")
    fr = render_labels("fr")
    root = ET.fromstring(table_svg(game, _names(game), labels=fr))
    assert root.get("aria-label") == render.words.status_line(game, _names(game), fr)
    studio = ET.fromstring(studio_svg(game, 0, _names(game), labels=fr))
    assert studio.get("role") == "img" and studio.get("aria-label")


@pytest.mark.parametrize("key", GAMES)
def test_small_and_self_contained(key: str) -> None:
    game = _game(key)
    svg = table_svg(game, _names(game), labels=EN)
    limit = {2: 80, 3: 100, 4: 120}[game.num_players] * 1024
    assert len(svg.encode()) <= limit, f"{key}: {len(svg.encode()) / 1024:.1f} KiB"
    assert re.findall(r"https?://[^\s\"'<>)]*", svg) == ["http://www.w3.org/2000/svg"]
    assert all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', svg))
    assert all(u.startswith("#") for u in re.findall(r"url\(([^)]*)\)", svg))
    assert "@import" not in svg and "<image" not in svg and "<script" not in svg
    shapes = re.sub(r'opacity="[^"]*"', "", svg.split("<style>")[0] + svg.split("</style>")[1])
    assert not re.search(r"(?<![\w.])\d+\.\d\d", shapes), "coordinates: integers or one decimal"


def test_same_game_same_text_and_pure() -> None:
    game = _game("4p late")
    before = game.state.clone() if hasattr(game.state, "clone") else None
    a = table_svg(game, _names(game), labels=EN)
    assert a == table_svg(game, _names(game), labels=EN)
    if before is not None:
        assert game.state == before
    with pytest.raises(ValueError):
        studio_svg(game, 4, labels=EN)


def test_two_documents_in_one_page_never_give_a_name_two_meanings() -> None:
    """The page may inline the table and a studio (or two games): a class or a def id that
    both documents use means the same thing in both."""
    rules: dict[str, str] = {}
    defs: dict[str, str] = {}
    docs = [table_svg(_game(k), _names(_game(k)), labels=EN) for k in ("2p late", "4p late, busy", "3p odd")]
    docs.append(studio_svg(_game("4p late"), 2, labels=render_labels("fr")))
    for svg in docs:
        style = svg.split("<style>")[1].split("</style>")[0]
        for name, rule in re.findall(r"([^{}]+)\{([^}]*)\}", style):
            assert rules.setdefault(name, rule) == rule, name
        root = ET.fromstring(svg)
        for d in root.iter(f"{NS}defs"):
            for el in d:
                text = ET.tostring(el, encoding="unicode")
                assert defs.setdefault(el.get("id", ""), text) == text, el.get("id")


def _moves(players: int, seed: int, count: int) -> list[Game]:
    """The positions of a seeded greedy game, move by move (the start, then after each move)."""
    game = Game.new(players=players, seed=seed)
    bots = [GreedyPlayer(seed * 10 + i) for i in range(players)]
    out = [game.clone()]
    while not game.is_over and len(out) <= count:
        game.apply(bots[game.current_player].choose(game))
        out.append(game.clone())
    return out


@pytest.mark.parametrize(("players", "seed", "count"), [(2, 4, 120), (4, 7, 80)])
def test_drawing_from_the_caches_is_drawing_afresh(players: int, seed: int, count: int) -> None:
    """The parts drawn for the last positions (as the web board draws a game move after
    move, the table and a studio) give the very text a drawing from nothing gives."""
    positions = _moves(players, seed, count)
    names = DEMO_NAMES[:players]
    clear_caches()
    warm = [(table_svg(g, names, labels=EN), studio_svg(g, g.state.current, names, labels=EN)) for g in positions]
    assert any(c.cache_info().hits for c in part_caches())
    for g, (table, studio) in zip(positions, warm, strict=True):
        clear_caches()
        assert table_svg(g, names, labels=EN) == table
        assert studio_svg(g, g.state.current, names, labels=EN) == studio
