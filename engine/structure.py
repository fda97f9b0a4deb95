"""Placement rules for a structure of dice columns (a workroom or the museum).

A structure maps cell -> (value, height).  Columns hold one value throughout, so the
side-on rule reduces to: occupied neighbouring cells differ by exactly 1.
"""

from __future__ import annotations

from collections.abc import Mapping

from .geometry import cell_name, is_connected, neighbour_table
from .rule_texts import RuleText

Columns = Mapping[int, tuple[int, int]]


def placement_problem(columns: Columns, cell: int, value: int, size: int) -> RuleText | None:
    """Why a die of ``value`` may not go on ``cell`` (None when it may)."""
    here = cell_name(cell, size)
    col = columns.get(cell)
    if col is not None:
        if col[0] != value:
            return RuleText("stack_value", value=value, other=col[0], cell=here)
        return None
    if not columns:
        return None
    touching = False
    for n in neighbour_table(size)[cell]:
        other = columns.get(n)
        if other is not None:
            touching = True
            if abs(other[0] - value) != 1:
                return RuleText("side_value", value=value, other=other[0], cell=cell_name(n, size))
    if not touching:
        return RuleText("not_touching", cell=here)
    return None


def legal_cells(columns: Columns, value: int, size: int) -> list[int]:
    """Every cell where a die of ``value`` may go (sorted)."""
    if not columns:
        return list(range(size * size))
    nb = neighbour_table(size)
    out = []
    frontier = set()
    for c, (v, _h) in columns.items():
        if v == value:
            out.append(c)
        for n in nb[c]:
            if n not in columns:
                frontier.add(n)
    for f in frontier:
        for n in nb[f]:
            other = columns.get(n)
            if other is not None and abs(other[0] - value) != 1:
                break
        else:
            out.append(f)
    out.sort()
    return out


def split_problem(columns: Columns, cell: int, size: int) -> RuleText | None:
    """Why the top die of ``cell`` may not be taken away (None when it may)."""
    col = columns.get(cell)
    if col is None:
        return RuleText("no_die_at", cell=cell_name(cell, size))
    if col[1] > 1:
        return None
    rest = [c for c in columns if c != cell]
    if not is_connected(rest, size):
        return RuleText("would_split", cell=cell_name(cell, size))
    return None


def removable_tops(columns: Columns, size: int) -> list[int]:
    return sorted(c for c in columns if split_problem(columns, c, size) is None)


def take_top(columns: dict[int, tuple[int, int]], cell: int) -> int:
    value, height = columns[cell]
    if height == 1:
        del columns[cell]
    else:
        columns[cell] = (value, height - 1)
    return value


def put(columns: dict[int, tuple[int, int]], cell: int, value: int) -> None:
    col = columns.get(cell)
    columns[cell] = (value, 1) if col is None else (value, col[1] + 1)
