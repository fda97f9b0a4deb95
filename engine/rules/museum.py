"""Giving dice from completed cards to the museum: the museum card's plan (cells and
heights), which cells a die may go to (the plan must stay completable) and why a gift is
refused."""

from __future__ import annotations

from ..errors import IllegalMove
from ..geometry import MUSEUM_SIZE, cell_name, neighbour_table
from ..moves import CARD, Move, ToMuseum
from ..rule_texts import RuleText
from ..solver import completable
from ..structure import legal_cells, placement_problem
from .table import Table
from .workroom import check_cell


def columns(game: Table) -> dict[int, tuple[int, int]]:
    """The museum's columns: cell -> (value, height)."""
    return {c: (col.value, len(col.owners)) for c, col in game.state.museum.items()}


def is_completable(game: Table, cols: dict[int, tuple[int, int]], cell: int, value: int) -> bool:
    fixed = {c: v for c, (v, _h) in cols.items()}
    fixed[cell] = value
    return completable(list(game.museum_heights()), fixed, neighbour_table(MUSEUM_SIZE))


def cells_for(game: Table, value: int, cols: dict[int, tuple[int, int]]) -> list[int]:
    """The cells a die of ``value`` may go to."""
    heights = game.museum_heights()
    out = []
    for c in legal_cells(cols, value, MUSEUM_SIZE):
        target = heights.get(c)
        if target is None:
            continue
        col = cols.get(c)
        if col is not None:
            if col[1] < target:
                out.append(c)  # stacking keeps values, so completability is unchanged
        elif is_completable(game, cols, c, value):
            out.append(c)
    return out


def museum_moves(game: Table) -> list[Move]:
    dice = game.card_dice()
    if not dice:
        return []
    cols = columns(game)
    found: dict[int, list[int]] = {}
    out: list[Move] = []
    for die, v in dice:
        if v not in found:
            found[v] = cells_for(game, v, cols)
        out.extend(ToMuseum(die, c) for c in found[v])
    return out


def check_museum(game: Table, m: ToMuseum) -> None:
    """IllegalMove naming why the die cannot go to that museum cell (nothing when it can)."""
    if m.die.kind != CARD:
        raise IllegalMove(RuleText("museum_from_storeroom"), m)
    check_cell(m.cell, MUSEUM_SIZE)
    v = game.die_value(m.die)
    name = cell_name(m.cell, MUSEUM_SIZE)
    target = game.museum_heights().get(m.cell)
    if target is None:
        raise IllegalMove(RuleText("outside_museum", cell=name), m)
    cols = columns(game)
    col = cols.get(m.cell)
    if col is not None and col[1] >= target:
        raise IllegalMove(RuleText("museum_full_column", cell=name, height=target), m)
    problem = placement_problem(cols, m.cell, v, MUSEUM_SIZE)
    if problem:
        raise IllegalMove(RuleText("in_museum", problem=problem), m)
    if col is None and not is_completable(game, cols, m.cell, v):
        raise IllegalMove(RuleText("museum_impossible", value=v, cell=name), m)
