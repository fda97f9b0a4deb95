"""Placing dice in a studio's two workrooms: where each die may go and why a placement is
refused.  The geometry (columns, neighbours, heights) is in ``engine.structure``."""

from __future__ import annotations

from ..errors import IllegalMove
from ..geometry import WORKROOM_SIZE
from ..moves import DieRef, Move, Place
from ..rule_texts import RuleText
from ..structure import legal_cells, placement_problem
from .table import Table

ROOMS = (0, 1)


def place_moves(game: Table) -> list[Move]:
    """Every placement of a storeroom die or a completed card's die in either workroom."""
    me = game.mover()
    sources: list[tuple[DieRef, int]] = [(DieRef.storeroom(v), v) for v in sorted(set(me.storeroom))]
    sources += game.card_dice()
    out: list[Move] = []
    cells_for: dict[tuple[int, int], list[int]] = {}
    for die, v in sources:
        for room in ROOMS:
            key = (room, v)
            if key not in cells_for:
                cells_for[key] = legal_cells(me.workrooms[room], v, WORKROOM_SIZE)
            out.extend(Place(die, room, c) for c in cells_for[key])
    return out


def check_room(room: int) -> None:
    if room not in ROOMS:
        raise IllegalMove(RuleText("no_workroom", room=f"w{room + 1}"))


def check_cell(cell: int, size: int) -> None:
    if not 0 <= cell < size * size:
        raise IllegalMove(RuleText("off_grid", cell=cell))


def check_place(game: Table, m: Place) -> None:
    """IllegalMove naming why the die cannot go there (nothing when it can)."""
    check_room(m.room)
    check_cell(m.cell, WORKROOM_SIZE)
    v = game.die_value(m.die)
    problem = placement_problem(game.mover().workrooms[m.room], m.cell, v, WORKROOM_SIZE)
    if problem:
        raise IllegalMove(RuleText("in_workroom", room=f"w{m.room + 1}", problem=problem), m)
