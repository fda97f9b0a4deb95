"""Legibility at Discord's inline preview, computed from the layout model (no OCR).

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
from render.demo import DEMO_NAMES, busy_late_game
from render.model import preview_scale

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
    cv = render.table_canvas(game, DEMO_NAMES[: game.num_players], labels=EN)
    assert len(cv.dice) == dice_in_game(game), f"{name}: a die of the game is not drawn"
    for a, b in combinations(cv.dice, 2):
        assert not _overlap(a.cell, b.cell), f"{name}: {a.where} and {b.where} cover each other"
    assert not any(d.covered for d in cv.dice)
    scale = preview_scale(*cv.size)
    smallest = min((d.glyph[3] - d.glyph[1]) * scale for d in cv.dice)
    if render.table_needs_studio(game):
        assert game.num_players == 4  # only the 4-player table needs the second picture
        assert smallest >= 8.0, f"{name}: {smallest:.1f} px"
        for seat in range(game.num_players):
            st = render.studio_canvas(game, seat, DEMO_NAMES, labels=EN)
            s2 = preview_scale(*st.size)
            assert min((d.glyph[3] - d.glyph[1]) * s2 for d in st.dice) >= MIN_GLYPH
    else:
        assert smallest >= MIN_GLYPH, f"{name}: the smallest value is {smallest:.1f} px tall at 550x400"


def test_museum_closeup_is_readable() -> None:
    game = busy_late_game(3, players=4, built=1.0)
    cv = render.museum_canvas(game, labels=EN)
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
