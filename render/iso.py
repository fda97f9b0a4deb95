"""Isometric projection of a square grid of unit cubes.

Cell (x, y) at level z (0 = on the floor).  x runs down-right on screen, y down-left.
A floor tile is a diamond whose top vertex is ``tile_top(x, y)``; a cube's top face is
that diamond raised by ``(z + 1) * v``.  Painter's order: by ``x + y``, then by level.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

Point = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Iso:
    s: int  # cube edge length in pixels
    a: int  # half the width of a tile diamond
    b: int  # half the height of a tile diamond
    v: int  # height of one cube on screen

    def tile_top(self, x: float, y: float) -> tuple[float, float]:
        """Top vertex of the floor tile of cell (x, y), relative to the grid origin."""
        return ((x - y) * self.a, (x + y) * self.b)

    def tile_centre(self, x: float, y: float) -> tuple[float, float]:
        px, py = self.tile_top(x, y)
        return (px, py + self.b)

    def diamond(self, x: float, y: float, lift: float = 0) -> list[tuple[float, float]]:
        px, py = self.tile_top(x, y)
        py -= lift
        return [(px, py), (px + self.a, py + self.b), (px, py + 2 * self.b), (px - self.a, py + self.b)]

    def extent(self, x0: int, y0: int, x1: int, y1: int, levels: int) -> tuple[int, int, int, int]:
        """Bounding box (left, top, right, bottom) relative to the origin of cells
        x0..x1, y0..y1 (inclusive) with stacks up to ``levels`` high."""
        left = (x0 - y1) * self.a - self.a
        right = (x1 - y0) * self.a + self.a
        top = (x0 + y0) * self.b - levels * self.v
        bottom = (x1 + y1) * self.b + 2 * self.b
        return (left, top, right, bottom)


@lru_cache(maxsize=32)
def iso(s: int) -> Iso:
    """The projection for cubes of edge ``s`` pixels (true isometric, rounded to pixels)."""
    return Iso(s, round(s * math.sqrt(3) / 2), round(s / 2), s)


def painter_key(x: int, y: int, z: int) -> tuple[int, int, int]:
    """Sort key: cubes further back first, lower first within a column."""
    return (x + y, z, x)
