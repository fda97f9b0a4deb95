"""Square grids, cell names and the shape arithmetic shared by workrooms, museum and cards.

A cell is an int index ``y * size + x``; its name is a column letter and a row number
(``a1`` is x=0, y=0).  Pictures and the move notation use the same names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

WORKROOM_SIZE = 6
MUSEUM_SIZE = 8
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def cell_name(cell: int, size: int) -> str:
    y, x = divmod(cell, size)
    return f"{LETTERS[x]}{y + 1}"


def parse_cell(text: str, size: int) -> int:
    """``'c3'`` -> index; raises ValueError with the offending text."""
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in LETTERS[:size] or not t[1:].isdigit():
        raise ValueError(f"{text!r} is not a cell: use a column a-{LETTERS[size - 1]} and a row 1-{size}, like c3")
    x = LETTERS.index(t[0])
    y = int(t[1:]) - 1
    if not 0 <= y < size:
        raise ValueError(f"{text!r} is off the grid: rows go from 1 to {size}")
    return y * size + x


@cache
def neighbour_table(size: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index, the edge-adjacent cells inside the grid."""
    table = []
    for cell in range(size * size):
        y, x = divmod(cell, size)
        near = []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < size and 0 <= ny < size:
                near.append(ny * size + nx)
        table.append(tuple(near))
    return tuple(table)


def is_connected(cells: Iterable[int], size: int) -> bool:
    """True when the cells form one edge-connected piece (an empty set counts as connected)."""
    todo = set(cells)
    if not todo:
        return True
    nb = neighbour_table(size)
    stack = [todo.pop()]
    while stack:
        c = stack.pop()
        for n in nb[c]:
            if n in todo:
                todo.remove(n)
                stack.append(n)
    return not todo


Shape = frozenset[tuple[int, int, int]]


def normalize(points: Iterable[tuple[int, int, int]]) -> Shape:
    pts = list(points)
    mx = min(p[0] for p in pts)
    my = min(p[1] for p in pts)
    return frozenset((x - mx, y - my, h) for x, y, h in pts)


def rotations(points: Iterable[tuple[int, int, int]]) -> tuple[Shape, ...]:
    """The four rotations (no mirror image) of a height map, each shifted to the origin."""
    pts = list(points)
    out = []
    for _ in range(4):
        out.append(normalize(pts))
        pts = [(-y, x, h) for x, y, h in pts]
    return tuple(dict.fromkeys(out))


def shape_of(columns: Mapping[int, tuple[int, int]], size: int) -> Shape:
    """Normalized (x, y, height) shape of a structure given as cell -> (value, height)."""
    return normalize((c % size, c // size, h) for c, (_v, h) in columns.items())


def lies_within(cells: Iterable[tuple[int, int]], dx: int, dy: int, size: int = WORKROOM_SIZE) -> bool:
    """Do these (x, y) cells, moved back by (dx, dy), all stand on a ``size`` x ``size`` grid?
    (A plan matched on a roomier grid must still fit the workroom where its dice stand.)"""
    return all(0 <= x - dx < size and 0 <= y - dy < size for x, y in cells)
