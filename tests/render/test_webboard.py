"""The web board's SVG (render.webboard): the table picture's own drawing on the SVG surface,
with the page's hooks.

The PNG and the SVG of one position put every die and every text at the same place (their
layout models are one), and the SVG document draws each value where that model says; every
cell a legal move can target has its ``cell`` group; the documents stay small and name no
URL but the SVG namespace.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest

import render
from bot.i18n.pictures import render_labels
from engine import Game
from engine.geometry import WORKROOM_SIZE
from engine.moves import Place, ToMuseum
from engine.players import GreedyPlayer
from render import webboard
from render.demo import DEMO_NAMES, busy_late_game, play
from render.model import DieGlyph

EN = render_labels("en")
NS = "{http://www.w3.org/2000/svg}"


@cache
def _game(key: str) -> Game:
    makers = {
        "2p start": lambda: play(2, 8, turns=0),
        "2p late": lambda: play(2, 8, turns=40),
        "2p finished": lambda: play(2, 8),
        "3p mid": lambda: play(3, 5, turns=18),
        "4p late": lambda: play(4, 3, turns=44),
        "4p late, busy": lambda: busy_late_game(3, players=4, built=0.5),
    }
    return makers[key]()


GAMES = ["2p start", "2p late", "2p finished", "3p mid", "4p late", "4p late, busy"]


def _names(game: Game) -> list[str]:
    return DEMO_NAMES[: game.num_players]


def _groups(root: ET.Element, cls: str, key: str) -> dict[str, ET.Element]:
    return {g.get(key, ""): g for g in root.iter(f"{NS}g") if cls in (g.get("class") or "").split()}


def _model(dice: list[DieGlyph]) -> list[tuple[str, int, int, tuple[int, int, int, int], bool]]:
    return sorted((d.where, d.value, d.height, d.glyph, d.tag) for d in dice)


@pytest.mark.parametrize("key", GAMES)
def test_the_png_and_the_svg_put_every_die_and_text_at_the_same_place(key: str) -> None:
    game = _game(key)
    png = render.table_canvas(game, _names(game), labels=EN)
    svg = webboard.table_canvas(game, _names(game), labels=EN)
    assert svg.size == png.size
    assert _model(svg.dice) == _model(png.dice)
    assert sorted((d.where, d.glyph) for d in svg.recap) == sorted((d.where, d.glyph) for d in png.recap)
    texts = sorted((b.name, b.rect) for b in png.boxes if b.kind == "text")
    assert sorted((b.name, b.rect) for b in svg.boxes if b.kind == "text") == texts
    assert svg.status == png.status


def _texts(el: ET.Element, dx: float, dy: float) -> list[tuple[str, float, float]]:
    """Every ``<text>`` under ``el`` with where it stands on the page (groups' translations added)."""
    m = re.fullmatch(r"translate\((-?[\d.]+) (-?[\d.]+)\)", el.get("transform", ""))
    if m:
        dx, dy = dx + float(m.group(1)), dy + float(m.group(2))
    if el.tag == f"{NS}text":
        return [(el.text or "", dx + float(el.get("x", 0)), dy + float(el.get("y", 0)))]
    return [t for child in el for t in _texts(child, dx, dy)]


@pytest.mark.parametrize("key", GAMES)
def test_the_document_draws_every_value_where_the_model_has_it(key: str) -> None:
    """Each die's value is a ``<text>`` centred on its numeral's ink box, its baseline at
    the ink's foot; each text the model records is drawn with its words."""
    game = _game(key)
    cv = webboard.table_canvas(game, _names(game), labels=EN)
    root = ET.fromstring(webboard.table_svg(game, _names(game), labels=EN))
    assert root.get("viewBox") == f"0 0 {cv.size[0]} {cv.size[1]}"
    drawn = _texts(root, 0.0, 0.0)
    for d in cv.dice:
        x0, _y0, x1, y1 = d.glyph
        assert any(text == str(d.value) and abs(x - (x0 + x1) / 2) <= 2 and abs(y - y1) <= 2 for text, x, y in drawn), (
            f"{key}: {d.where}'s {d.value} is not drawn at {d.glyph}"
        )
    words = {text for text, _x, _y in drawn}
    assert all(b.name in words for b in cv.boxes if b.kind == "text" and b.name.strip())


@pytest.mark.parametrize("key", GAMES)
def test_every_cell_has_its_group_and_every_legal_target_is_one(key: str) -> None:
    game = _game(key)
    root = ET.fromstring(webboard.table_svg(game, _names(game), labels=EN))
    cells = _groups(root, "cell", "data-cell")
    for seat in range(game.num_players):
        for room in range(2):
            for cell in range(WORKROOM_SIZE * WORKROOM_SIZE):
                assert f"p{seat}.w{room}.{cell}" in cells
    for cell in game.museum_heights():
        assert f"m.{cell}" in cells
    for cid, g in cells.items():
        area, ring = list(g)
        assert area.get("class") == "sq" and ring.get("class") == "ring", cid
    if not game.is_over:
        seat = game.state.current
        mine = _groups(root, "player", "data-seat")[str(seat)]
        own = {g.get("data-cell") for g in mine.iter(f"{NS}g")}
        for move in game.legal_moves():
            if isinstance(move, Place):
                assert f"p{seat}.w{move.room}.{move.cell}" in own, move  # in its player's part: the page zooms into it
            elif isinstance(move, ToMuseum):
                assert f"m.{move.cell}" in cells, move
    assert set(_groups(root, "artist", "data-artist")) == {"0", "1", "2", "3"}
    assert set(_groups(root, "offer", "data-offer")) == {"0", "1", "2"}
    assert set(_groups(root, "player", "data-seat")) == {str(s) for s in range(game.num_players)}
    assert _groups(root, "museum", "class") and _groups(root, "header", "class")


def test_the_root_is_an_image_named_in_words() -> None:
    game = _game("3p mid")
    for labels in (EN, render_labels("fr")):
        root = ET.fromstring(webboard.table_svg(game, _names(game), labels=labels))
        assert root.get("role") == "img"
        assert root.get("aria-label") == render.words.status_line(game, _names(game), labels)
        assert "DejaVu Sans" in (root.get("font-family") or "")


@pytest.mark.parametrize("key", GAMES)
def test_small_and_self_contained(key: str) -> None:
    game = _game(key)
    svg = webboard.table_svg(game, _names(game), labels=EN)
    limit = {2: 80, 3: 100, 4: 125}[game.num_players] * 1024
    assert len(svg.encode()) <= limit, f"{key}: {len(svg.encode()) / 1024:.1f} KiB"
    assert re.findall(r"https?://[^\s\"'<>)]*", svg) == ["http://www.w3.org/2000/svg"]
    assert "href=" not in svg and "url(" not in svg
    assert "@import" not in svg and "<image" not in svg and "<script" not in svg
    shapes = svg.split("<style>")[0] + svg.split("</style>")[1]
    assert not re.search(r"(?<![\w.#])\d+\.\d\d", shapes), "coordinates: integers or one decimal"


def test_same_game_same_text_and_pure() -> None:
    game = _game("4p late")
    before = game.clone()
    a = webboard.table_svg(game, _names(game), labels=EN)
    assert a == webboard.table_svg(game, _names(game), labels=EN)
    assert game.state == before.state


def test_the_pieces_are_the_document_and_the_header_is_the_turn_as_it_began() -> None:
    game = play(3, 5, turns=18)
    while not game.state.this_turn.moves:  # into a turn: a move made, the turn not ended
        move = next(m for m in game.legal_moves() if isinstance(m, Place))
        game.apply(move)
    t = webboard.table_pieces(game, _names(game), labels=EN)
    whole = t.head + f"<style>{t.style}</style>" + t.defs + "".join(t.sections) + t.end
    assert whole == webboard.table_svg(game, _names(game), labels=EN)
    # the background, then each part: the group placing it, the part, the group's end
    assert len(t.sections) == 1 + 3 * (1 + 1 + 4 + 3 + game.num_players)
    began = webboard.table_pieces(game, _names(game), labels=EN, this_turn=False)
    assert began.sections[2] != t.sections[2]  # the header: this turn's moves not in it
    assert began.sections[3:] == t.sections[3:]  # the board shows them (they glow)


def test_a_move_that_shifts_the_parts_changes_only_where_they_stand() -> None:
    """A column rising makes its player's band taller and moves the parts below it: their
    pieces stay the same text, only the small groups placing them change."""
    game = Game.new(players=3, seed=5)
    bots = [GreedyPlayer(50 + i) for i in range(3)]
    before = webboard.table_pieces(game, _names(game), labels=EN)
    moved_alone = 0  # parts that moved, their text the same
    for _ in range(60):
        game.apply(bots[game.current_player].choose(game))
        after = webboard.table_pieces(game, _names(game), labels=EN)
        changed = [i for i, (a, b) in enumerate(zip(before.sections, after.sections, strict=True)) if a != b]
        big = [i for i in changed if not after.sections[i].startswith('<g transform="translate(')]
        moved_alone += sum(1 for i in changed if i not in big and i + 1 not in changed)
        before = after
    assert moved_alone > 0


def test_two_documents_in_one_page_never_give_a_name_two_meanings() -> None:
    """The page may inline two tables (two games): a class both documents use means the
    same thing in both."""
    rules: dict[str, str] = {}
    docs = [webboard.table_svg(_game(k), _names(_game(k)), labels=EN) for k in ("2p late", "4p late, busy")]
    docs.append(webboard.table_svg(_game("3p mid"), _names(_game("3p mid")), labels=render_labels("fr")))
    for svg in docs:
        style = svg.split("<style>")[1].split("</style>")[0]
        for name, rule in re.findall(r"([^{}]+)\{([^}]*)\}", style):
            assert rules.setdefault(name, rule) == rule, name
