"""Placement rules for a structure of dice columns (a workroom or the museum).

A structure maps cell -> (value, height).  Columns hold one value throughout, so the
side-on rule reduces to: occupied neighbouring cells differ by exactly 1.
"""

from __future__ import annotations

from collections.abc import Mapping

from .geometry import cell_name, is_connected, neighbour_table

Columns = Mapping[int, tuple[int, int]]


def placement_problem(columns: Columns, cell: int, value: int, size: int) -> str | None:
    """Why a die of ``value`` may not go on ``cell`` (None when it may)."""
    here = cell_name(cell, size)
    col = columns.get(cell)
    if col is not None:
        if col[0] != value:
            return f"a {value} may not stack on the {col[0]} at {here}: dice stack only on a die of the same value"
        return None
    if not columns:
        return None
    touching = False
    for n in neighbour_table(size)[cell]:
        other = columns.get(n)
        if other is not None:
            touching = True
            if abs(other[0] - value) != 1:
                return (
                    f"a {value} may not go next to the {other[0]} at {cell_name(n, size)}: "
                    "side by side dice must differ by exactly 1"
                )
    if not touching:
        return f"{here} does not touch the structure: a new die must touch a die already there, edge to edge"
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


def split_problem(columns: Columns, cell: int, size: int) -> str | None:
    """Why the top die of ``cell`` may not be taken away (None when it may)."""
    col = columns.get(cell)
    if col is None:
        return f"there is no die at {cell_name(cell, size)}"
    if col[1] > 1:
        return None
    rest = [c for c in columns if c != cell]
    if not is_connected(rest, size):
        return f"taking the die at {cell_name(cell, size)} away would split the structure in two"
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
