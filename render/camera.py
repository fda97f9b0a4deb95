"""Cameras: where a point of a board lands on the picture.

A board is a grid of cells; a point on it is (X, Y) in cell units (cell (x, y) spans
x..x+1, y..y+1; x runs along the letters a-f, y along the numbers 1-6) and Z in dice
(0 on the floor).  Two cameras see the same scene:

- ``iso`` (the default): the board seen from a corner, both grid axes at the 2:1
  pixel-art angle (26.6 degrees); a cell's floor is a diamond ``2a`` wide and ``a`` high,
  a die a cube showing its top and two side faces, each die of a column ``v`` px higher.
- ``top``: seen from straight above; a cell is an ``a`` px square and a column shows only
  its top (its height is written on it).

Every die is a cube a share ``FILL`` of its cell wide, so neighbouring columns stand apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Point = tuple[float, float]
Poly = tuple[Point, ...]

FILL = 0.9  # a cube's width, as a share of its cell's
CUBE_RISE = 0.78  # a die's height on the picture, as a share of its top face's half-width (iso)


@dataclass(frozen=True, slots=True)
class Camera:
    iso: bool
    a: int  # iso: half a cell's width; top: a cell's side
    w: float  # half the width of a cube (iso: its top diamond's; top: its square's)
    hw: float  # half the height of a cube's top face on the picture
    v: int  # how much higher each die of a column stands (0 from above)

    def size(self, cols: int, rows: int) -> tuple[int, int]:
        """The floor of a ``cols`` x ``rows`` board: its bounding box's width and height."""
        if self.iso:
            return ((cols + rows) * self.a, (cols + rows) * self.a // 2)
        return (cols * self.a, rows * self.a)

    def floor(self, X: float, Y: float, rows: int) -> Point:
        """A board point on the picture, relative to the board's bounding box."""
        if self.iso:
            return ((X - Y + rows) * self.a, (X + Y) * self.a / 2)
        return (X * self.a, Y * self.a)

    def cell(self, x: int, y: int, rows: int) -> Poly:
        """The floor of cell (x, y)."""
        return (
            self.floor(x, y, rows),
            self.floor(x + 1, y, rows),
            self.floor(x + 1, y + 1, rows),
            self.floor(x, y + 1, rows),
        )

    def top_centre(self, centre: Point, level: int) -> Point:
        """The middle of the top face of the ``level``-th die (1 = on the floor) of a column
        whose floor centre is ``centre``."""
        return (centre[0], centre[1] - level * self.v)

    def cube(self, centre: Point, level: int) -> tuple[Poly, Poly, Poly]:
        """The top, left and right faces of the ``level``-th die of a column (side faces
        are empty from above)."""
        cx, cy = self.top_centre(centre, level)
        w, h, v = self.w, self.hw, self.v
        if not self.iso:
            return (((cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)), (), ())
        top = ((cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy))
        left = ((cx - w, cy), (cx, cy + h), (cx, cy + h + v), (cx - w, cy + v))
        right = ((cx, cy + h), (cx + w, cy), (cx + w, cy + v), (cx, cy + h + v))
        return top, left, right

    def outline(self, centre: Point, height: int) -> Poly:
        """A column's silhouette: its top face and its two side faces together."""
        top, _left, _right = self.cube(centre, max(1, height))
        if not self.iso:
            return top
        cx, cy = centre
        w, h = self.w, self.hw
        return (top[0], top[1], (cx + w, cy), (cx, cy + h), (cx - w, cy), top[3])

    def column_box(self, centre: Point, height: int) -> tuple[int, int, int, int]:
        """The bounding box of a column of ``height`` dice."""
        cx, cy = centre
        top = cy - max(1, height) * self.v - self.hw
        bottom = cy + self.hw
        return (int(cx - self.w), int(top), int(cx + self.w + 1), int(bottom + 1))

    def die_size(self) -> tuple[int, int]:
        """A loose die's bounding box (one cube)."""
        return (round(2 * self.w) + 2, round(2 * self.hw + self.v) + 2)


@lru_cache(maxsize=64)
def camera(iso: bool, a: int) -> Camera:
    if iso:
        w = FILL * a
        return Camera(True, a, w, w / 2, round(CUBE_RISE * w))
    w = FILL * a / 2
    return Camera(False, a, w, w, 0)


def depth(x: int, y: int) -> tuple[int, int]:
    """Painter's order of cells: the back corner first (both cameras)."""
    return (x + y, x)
