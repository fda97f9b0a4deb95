"""Tap a die, tap a cell: the turn panel's quickest way to place a die.

The first row of the panel has a button per die that can be placed; pressing one shows a
button per cell it may go to, lettered A, B, C… in reading order (row by row across the
studio picture, where workroom 1 stands left of workroom 2), and the studio picture sent
with them carries the same letters on those cells.  An empty workroom offers its four
middle cells (any cell of it stays in the "What do you do?" menu); everything else is
offered whole, up to ``MAX_CELLS``.
"""

from __future__ import annotations

from bot.panel.rows import ROW_WIDTH, ROWS
from engine import Game
from engine.geometry import WORKROOM_SIZE
from engine.moves import DieRef, Place

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_CELLS = (ROWS - 1) * ROW_WIDTH  # the last row holds Back
MAX_DICE = ROW_WIDTH  # one row of die buttons (the others stay in the menu)
_MID = WORKROOM_SIZE // 2
MIDDLE = frozenset(y * WORKROOM_SIZE + x for y in (_MID - 1, _MID) for x in (_MID - 1, _MID))


def placeable(game: Game) -> list[DieRef]:
    """The dice that can be placed now, storeroom dice first by value, then bonus dice; at
    most MAX_DICE (their notation, "4" or "i1.2", goes into the buttons' ids)."""
    seen: dict[str, DieRef] = {}
    for m in game.legal_moves():
        if isinstance(m, Place):
            seen.setdefault(str(m.die), m.die)
    order = sorted(seen.values(), key=lambda d: (d.kind != "s", d.value, d.card, d.space))
    return order[:MAX_DICE]


def cells_for(game: Game, die: str) -> list[tuple[str, Place]]:
    """The cells offered for ``die`` with their letters (empty when it cannot be placed)."""
    rooms = game.state.players[game.current_player].workrooms
    moves = [m for m in game.legal_moves() if isinstance(m, Place) and str(m.die) == die]
    moves = [m for m in moves if rooms[m.room] or m.cell in MIDDLE]
    # Reading order over the studio picture, whose two workrooms stand side by side: row by
    # row, left to right across both.
    moves.sort(key=lambda m: (m.cell // WORKROOM_SIZE, m.room, m.cell % WORKROOM_SIZE))
    return list(zip(LETTERS, moves[:MAX_CELLS], strict=False))


def marks_for(game: Game, die: str) -> dict[tuple[int, int], str]:
    """What the studio picture marks for ``die``: (workroom, cell) -> letter."""
    return {(m.room, m.cell): letter for letter, m in cells_for(game, die)}
