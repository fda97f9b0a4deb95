"""Pictures: goldens, determinism, layout without overlap, a change in the game shows.

Regenerate the goldens after an intended change, then look at each one:
    python -m bot.draw --demo tests/render/golden --lang en   # or: RENDER_REGOLD=1 pytest tests/render
"""

from __future__ import annotations

import io
import os
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import render
from bot.i18n.pictures import render_labels
from engine import Game, dump_game, load_game
from render.canvas import Box, Canvas
from render.demo import DEMO_NAMES, busy_late_game, picture, play, stages

EN = render_labels("en")  # the goldens' words: the English catalogue
GOLDEN = Path(__file__).parent / "golden"
# A pixel "differs" when a channel is off by more than this; at most this share may differ.
CHANNEL_TOLERANCE = 24
PIXEL_SHARE = 0.002


@cache
def _game(stem: str) -> Game:
    for name, make, _kind in stages():
        if name == stem:
            return make()
    raise KeyError(stem)


def _stage_names(game: Game) -> list[str] | None:
    return DEMO_NAMES[: game.num_players]


def _decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _differing_share(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    return diff.histogram()[255] / (a.width * a.height)


@pytest.mark.parametrize("stem,kind", [(name, kind) for name, _make, kind in stages()])
def test_matches_golden(stem: str, kind: str) -> None:
    game = _game(stem)
    data = picture(game, kind, _stage_names(game), EN)
    path = GOLDEN / f"{stem}.png"
    if os.environ.get("RENDER_REGOLD"):
        path.write_bytes(data)
    assert path.exists(), f"missing golden {path}: run `python -m bot.draw --demo {GOLDEN} --lang en`"
    want = Image.open(path).convert("RGB")
    got = _decode(data)
    assert got.size == want.size, f"{stem}: size {got.size}, golden {want.size} (regenerate if intended)"
    share = _differing_share(got, want)
    assert share <= PIXEL_SHARE, f"{stem}: {share:.2%} of pixels differ from the golden (regenerate if intended)"


def test_same_game_same_bytes() -> None:
    game = _game("late-4p")
    a = render.table_png(game, DEMO_NAMES, labels=EN)
    b = render.table_png(game, DEMO_NAMES, labels=EN)
    c = render.table_png(load_game(dump_game(game)), DEMO_NAMES, labels=EN)
    assert a == b == c
    assert a[:8] == b"\x89PNG\r\n\x1a\n"
    assert render.studio_png(game, 2, labels=EN) == render.studio_png(game.clone(), 2, labels=EN)
    assert render.museum_png(game, labels=EN) == render.museum_png(game.clone(), labels=EN)


def test_one_more_die_changes_the_picture_in_that_panel() -> None:
    game = _game("late-4p").clone()
    before = render.table_image(game, labels=EN)
    room = game.state.players[2].workrooms[1]
    cell = 35  # f6
    assert cell not in room
    room[cell] = (6, 1)
    cv = render.table_canvas(game, labels=EN)
    bbox = ImageChops.difference(before, cv.img).getbbox()
    assert bbox is not None, "a new die in a workroom must show"
    x0, y0, x1, y1 = next(b.rect for b in cv.boxes if b.kind == "panel" and b.name == "player p3")
    assert x0 <= bbox[0] and bbox[2] <= x1 and y0 <= bbox[1] and bbox[3] <= y1
    assert any(d.where == "p3 w2 f6" and d.value == 6 for d in cv.dice)


def test_a_value_change_shows() -> None:
    game = _game("late-4p")
    changed = game.clone()
    slot = changed.state.players[0].storeroom
    slot.append(6 if not slot or slot[-1] != 6 else 1)
    assert render.table_png(changed, labels=EN) != render.table_png(game, labels=EN)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def check_layout(cv: Canvas) -> None:
    w, h = cv.size
    panels = {b.name: b for b in cv.boxes if b.kind == "panel"}
    for b in cv.boxes:
        assert _inside(b.rect, (0, 0, w, h)), f"{b.kind} {b.name!r} is clipped: {b.rect} in {w}x{h}"
    top = [b for b in panels.values() if not b.parent]
    for a, b in combinations(top, 2):
        assert not _overlap(a.rect, b.rect), f"panels {a.name!r} and {b.name!r} overlap"
    for b in panels.values():
        if b.parent:
            assert _inside(b.rect, panels[b.parent].rect), f"panel {b.name!r} leaves {b.parent!r}"
    texts: list[Box] = []
    for b in cv.boxes:
        if b.kind == "text":
            assert b.parent in panels, f"text {b.name!r} belongs to no panel"
            assert _inside(b.rect, panels[b.parent].rect), f"text {b.name!r} leaves {b.parent!r}: {b.rect}"
            texts.append(b)
    for a, b in combinations(texts, 2):
        assert not _overlap(a.rect, b.rect), f"texts {a.name!r} {a.rect} and {b.name!r} {b.rect} overlap"
    for d in cv.dice:
        assert _inside(d.cell, (0, 0, w, h)), f"die {d.where} is clipped"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tables_lay_out_without_overlap_or_clipping(players: int) -> None:
    long_names = ["Bartholomew Maximilian the Third", "李小龍 of the Far Provinces", "Zoë", "x" * 60][:players]
    for game in (play(players, 21, turns=0), play(players, 21, turns=6 * players)):
        cv = render.table_canvas(game, long_names, labels=EN)
        check_layout(cv)
        w, h = cv.size
        assert w > h, "the table is landscape"
        assert len([b for b in cv.boxes if b.kind == "text"]) > 40


def test_closeups_lay_out() -> None:
    game = _game("late-4p")
    for seat in range(game.num_players):
        check_layout(render.studio_canvas(game, seat, DEMO_NAMES, labels=EN))
    check_layout(render.museum_canvas(game, labels=EN))
    with pytest.raises(ValueError):
        render.studio_png(game, 4, labels=EN)


def test_png_is_small() -> None:
    data = render.table_png(busy_late_game(), DEMO_NAMES, labels=EN)
    assert len(data) <= 300 * 1024


def test_last_turn_is_highlighted() -> None:
    from render.highlight import highlights

    game = _game("late-4p")
    hl = highlights(game)
    assert game.state.last_turn is not None
    assert hl.workroom or hl.museum or hl.artists or hl.completed


def test_cli_writes_pictures(tmp_path: Path) -> None:
    from bot.draw import main

    saved = tmp_path / "game.json"
    saved.write_text(dump_game(_game("mid-3p")), encoding="utf-8")
    out = tmp_path / "t.png"
    assert main([str(saved), "-o", str(out), "--names", "A,B,C", "--lang", "en"]) == 0
    with Image.open(out) as table:  # Image.open keeps the file open until closed
        assert table.width > table.height
    assert main([str(saved), "-o", str(tmp_path / "s.png"), "--studio", "p2", "--lang", "fr"]) == 0
    assert main([str(saved), "-o", str(tmp_path / "m.png"), "--museum", "--lang", "en"]) == 0


def test_bytes_do_not_depend_on_earlier_pictures() -> None:
    """The fixed palette's colour cache fills as pictures come: a picture drawn in a fresh
    process gives the same bytes as after other pictures and other languages."""
    import subprocess
    import sys

    code = (
        "import hashlib, render; from render.demo import busy_late_game, DEMO_NAMES; "
        "from bot.i18n.pictures import render_labels; "
        "print(hashlib.md5(render.table_png(busy_late_game(), DEMO_NAMES, labels=render_labels('en'))).hexdigest())"
    )
    fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    for players, seed in ((2, 8), (3, 5)):
        game = busy_late_game(seed, players=players)
        render.table_png(game, DEMO_NAMES[:players], labels=render_labels("fr"))
        render.museum_png(game, labels=EN)
    import hashlib

    assert hashlib.md5(render.table_png(busy_late_game(), DEMO_NAMES, labels=EN)).hexdigest() == fresh
