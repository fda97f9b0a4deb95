"""Legibility at Discord's inline preview, computed from the layout model (no OCR), for
both styles: the top-down table (style="flat") and the high camera (style="iso", default).

The table is judged shrunk to fit 550x400 (a laptop's preview box): every die of the game
must be in the model (none hidden, none covered), and every value glyph at least
MIN_GLYPH px tall there.  A 4-player table cannot hold that in one picture (the layout
says so: ``table_needs_studio``), so the bot posts the current player's studio with it:
there the numerals must be readable, and the table's own must stay close (>= 8 px).
"""

from __future__ import annotations

from itertools import combinations

import pytest

import render
from bot.i18n.pictures import render_labels
from engine import Game
from render.board import MIN_GLYPH
from render.demo import DEMO_NAMES, busy_late_game, play
from render.model import phone_scale, preview_scale

EN = render_labels("en")


def dice_in_game(game: Game) -> int:
    """How many dice (columns count once: seen from above, a column shows its top) the
    table must show: workroom and museum columns, artist dice, storeroom, storage, the
    abandoned pool and bonus dice on completed cards."""
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
    ]


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("name,game", positions(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_die_is_shown_uncovered_and_readable_at_the_laptop_preview(name: str, game: Game) -> None:
    """The top-down table (style="flat")."""
    cv = render.table_canvas(game, DEMO_NAMES[: game.num_players], labels=EN, style="flat")
    assert len(cv.dice) == dice_in_game(game), f"{name}: a die of the game is not drawn"
    for a, b in combinations(cv.dice, 2):
        assert not _overlap(a.cell, b.cell), f"{name}: {a.where} and {b.where} cover each other"
    assert not any(d.covered for d in cv.dice)
    scale = preview_scale(*cv.size)
    smallest = min((d.glyph[3] - d.glyph[1]) * scale for d in cv.dice)
    if render.table_needs_studio(game, style="flat"):
        assert game.num_players == 4  # only the 4-player table needs the second picture
        assert smallest >= 8.0, f"{name}: {smallest:.1f} px"
        for seat in range(game.num_players):
            st = render.studio_canvas(game, seat, DEMO_NAMES, labels=EN, style="flat")
            s2 = preview_scale(*st.size)
            assert min((d.glyph[3] - d.glyph[1]) * s2 for d in st.dice) >= MIN_GLYPH
    else:
        assert smallest >= MIN_GLYPH, f"{name}: the smallest value is {smallest:.1f} px tall at 550x400"


def test_museum_closeup_is_readable() -> None:
    game = busy_late_game(3, players=4, built=1.0)
    cv = render.museum_canvas(game, labels=EN, style="flat")
    assert len(cv.dice) == sum(1 for col in game.state.museum.values() if col.owners)
    scale = preview_scale(*cv.size)
    assert min((d.glyph[3] - d.glyph[1]) * scale for d in cv.dice) >= MIN_GLYPH


def test_a_covered_die_would_be_caught() -> None:
    """The test's own check: two dice drawn on one spot are reported as covering."""
    game = busy_late_game(5, players=3, built=0.5)
    cv = render.table_canvas(game, labels=EN)
    a = cv.dice[0]
    assert _overlap(a.cell, a.cell)
    assert len(cv.dice) == dice_in_game(game)
    game.state.players[0].storeroom.append(3)
    assert len(render.table_canvas(game, labels=EN).dice) == dice_in_game(game)


# --- the high camera (style="iso", the default) ------------------------------------------

ISO_MIN_FIGURE = 6.5  # px: a column's height figure ("×3") at the laptop preview, table
ISO_STUDIO_FIGURE = 9.0  # ... in the studio posted beside a 4-player table


def _iso_positions() -> list[tuple[str, Game]]:
    return [
        *positions(),
        ("3p mid", play(3, 5, turns=18)),
        ("4p late, played", play(4, 3, turns=44)),
        ("2p finished", play(2, 8)),
    ]


def _covered(cv: render.Canvas) -> list[str]:
    """Top faces and height figures that a die drawn later covers (painter's order)."""
    out = []
    for i, a in enumerate(cv.dice):
        for b in cv.dice[i + 1 :]:
            assert b.body is not None
            if _overlap(b.body, a.cell):
                out.append(f"{b.where} covers the top face of {a.where}")
            if a.height_box is not None and not a.height_over and _overlap(b.body, a.height_box):
                out.append(f"{b.where} covers the height figure of {a.where}")
    return out


def _figures_on_values(cv: render.Canvas) -> list[str]:
    """Height figures drawn over a value (their own die's or another's)."""
    return [
        f"the height figure of {a.where} covers the value of {b.where}"
        for a in cv.dice
        if a.height_box is not None
        for b in cv.dice
        if _overlap(a.height_box, b.glyph)
    ]


@pytest.mark.parametrize("name,game", _iso_positions(), ids=lambda v: v if isinstance(v, str) else "")
def test_iso_table_shows_every_die_uncovered_and_readable(name: str, game: Game) -> None:
    n = game.num_players
    cv = render.table_canvas(game, DEMO_NAMES[:n], labels=EN)
    assert len(cv.dice) == dice_in_game(game), f"{name}: a die of the game is not drawn"
    assert not _covered(cv), f"{name}: {_covered(cv)[:3]}"
    for d in cv.dice:
        assert d.glyph[0] >= d.cell[0] and d.glyph[2] <= d.cell[2], f"{d.where}: numeral off its top face"
    assert not _figures_on_values(cv), f"{name}: {_figures_on_values(cv)[:3]}"
    scale = preview_scale(*cv.size)
    smallest = min((d.glyph[3] - d.glyph[1]) * scale for d in cv.dice)
    goal = 9.0 if n == 4 else MIN_GLYPH
    assert smallest >= goal, f"{name}: the smallest value is {smallest:.1f} px tall at 550x400"
    # every column of two or more: a stack (its body is taller than a die) and a height figure
    for d in cv.dice:
        if d.height >= 2:
            assert d.height_box is not None, f"{name}: {d.where} ({d.height} high) has no height figure"
            assert d.body is not None and d.body[3] - d.body[1] > d.cell[3] - d.cell[1] + d.height * 3
            fig = (d.height_box[3] - d.height_box[1]) * scale
            assert fig >= ISO_MIN_FIGURE, f"{name}: {d.where}'s height figure is {fig:.1f} px at 550x400"
    assert render.table_needs_studio(game) == (n == 4)
    if n == 4:
        for seat in range(n):
            st = render.studio_canvas(game, seat, DEMO_NAMES, labels=EN)
            s2 = preview_scale(*st.size)
            assert not _covered(st)
            assert min((d.glyph[3] - d.glyph[1]) * s2 for d in st.dice) >= MIN_GLYPH
            figs = [(d.height_box[3] - d.height_box[1]) * s2 for d in st.dice if d.height_box]
            assert all(f >= ISO_STUDIO_FIGURE for f in figs), figs


@pytest.mark.parametrize("name,game", _iso_positions(), ids=lambda v: v if isinstance(v, str) else "")
def test_iso_table_on_a_phone_shows_the_last_turn_and_whose_turn(name: str, game: Game) -> None:
    """At 360 px wide the header carries the dice the last turn placed, drawn again large
    (numerals >= 9 px), and whose turn it is (its capitals >= 9.5 px)."""
    n = game.num_players
    cv = render.table_canvas(game, DEMO_NAMES[:n], labels=EN)
    ph = phone_scale(cv.size[0])
    lit = [d for d in cv.dice if d.lit and not d.where.startswith("artist")]
    for d in lit:  # each die the last turn placed on a board or the museum is in the recap
        assert any(r.value == d.value for r in cv.recap), f"{name}: {d.where} is not in the header"
    for r in cv.recap:
        assert (r.glyph[3] - r.glyph[1]) * ph >= 9.0, f"{name}: recap numeral {(r.glyph[3] - r.glyph[1]) * ph:.1f} px"
    assert cv.status is not None
    assert (cv.status[3] - cv.status[1]) * ph >= 9.5  # the line's ink: its capitals at least


def test_iso_closeups_are_readable() -> None:
    game = busy_late_game(3, players=4, built=1.0)
    cv = render.museum_canvas(game, labels=EN)
    assert len(cv.dice) == sum(1 for col in game.state.museum.values() if col.owners)
    assert not _covered(cv)
    scale = preview_scale(*cv.size)
    assert min((d.glyph[3] - d.glyph[1]) * scale for d in cv.dice) >= MIN_GLYPH


def test_iso_a_tall_step_flattens_the_dice_instead_of_hiding_a_top_face() -> None:
    """A column three dice taller than the one behind it (card 15's plan): the structure is
    drawn with flatter dice, so the top face behind stays clear; where a taller column in
    front hides the front-face figure, it moves onto the top face."""
    game = busy_late_game(5, players=3)
    room = game.state.players[0].workrooms[0]
    room.clear()
    room.update({8: (2, 1), 14: (3, 4), 20: (4, 2), 26: (5, 3)})  # c2 1 high, c3 4, c4 2, c5 3 (in front)
    cv = render.table_canvas(game, DEMO_NAMES[:3], labels=EN)
    assert not _covered(cv), _covered(cv)[:3]
    mine = {d.where: d for d in cv.dice if d.where.startswith("p1 w1")}
    assert mine["p1 w1 c4"].height_box is not None
    assert all(d.height_box is not None for d in mine.values() if d.height >= 2)


def test_flat_and_iso_draw_the_same_dice() -> None:
    game = busy_late_game(5, players=3)
    flat = render.table_canvas(game, DEMO_NAMES[:3], labels=EN, style="flat")
    iso = render.table_canvas(game, DEMO_NAMES[:3], labels=EN)
    assert sorted((d.where, d.value, d.height) for d in flat.dice) == sorted(
        (d.where, d.value, d.height) for d in iso.dice
    )
    with pytest.raises(ValueError):
        render.table_canvas(game, labels=EN, style="sideways")


def test_height_figures_keep_off_the_values_across_many_positions() -> None:
    """A column whose front a column in front hides gets its height as a tag beside its top
    face, where it covers no value.  Over 108 late-game tables (2-4 players, a dozen seeds,
    three stages of the museum) and their studios: no height figure lies on a value except where
    dice stand on every side (the museum's cross); those stay under 1 in 200 columns."""
    columns = on_values = 0
    for n in (2, 3, 4):
        for seed in range(1, 13):
            for built in (0.7, 0.9, 1.0):
                game = busy_late_game(seed, players=n, built=built)
                pictures = [render.table_canvas(game, DEMO_NAMES[:n], labels=EN)]
                pictures += [render.studio_canvas(game, s, DEMO_NAMES[:n], labels=EN) for s in range(n)]
                for cv in pictures:
                    columns += sum(1 for d in cv.dice if d.height >= 2)
                    on_values += len(_figures_on_values(cv))
    assert columns > 500  # the sweep sees columns
    assert on_values * 200 < columns, f"{on_values} height figures on values among {columns} columns"


def test_iso_a_tall_column_on_the_back_row_stays_on_its_board() -> None:
    """Columns of three to six dice on a workroom's back row: the board's headroom holds two
    dice, so the structure is drawn with flatter dice rather than rising over the player's
    name, points and the workroom's number; every height is still written."""
    game = busy_late_game(5, players=3)
    for room in game.state.players[0].workrooms:
        room.clear()
        room.update({x: (x + 1, 3 + x % 4) for x in range(6)})  # a1..f1, 3 to 6 high
    cv = render.table_canvas(game, DEMO_NAMES[:3], labels=EN)
    mine = [d for d in cv.dice if d.where.startswith("p1 w")]
    assert len(mine) == 12
    texts = [b for b in cv.boxes if b.kind == "text" and b.parent == "player p1"]
    assert any(b.name == "Ada" for b in texts)
    for d in mine:
        assert d.body is not None and d.height_box is not None, d.where
        over = [b.name for b in texts if _overlap(d.body, b.rect)]
        assert not over, f"{d.where} ({d.height} high) covers {over}"
    assert not _covered(cv), _covered(cv)[:3]
