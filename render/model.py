"""The layout model: what a picture shows and where, as plain data.

Every die a picture draws is recorded with the box of its value glyph, so legibility can
be computed without looking at pixels (tests/render/test_legibility.py): at Discord's
inline preview size (the picture shrunk to fit 550x400 on a laptop, 360 px wide on a
phone) every value must still be about 10 px tall, and no die may be covered.
"""

from __future__ import annotations

from dataclasses import dataclass

Rect = tuple[int, int, int, int]

LAPTOP_BOX = (550, 400)  # Discord's inline preview box on a laptop
PHONE_WIDTH = 360  # ... and the width of a phone's chat column


@dataclass(frozen=True, slots=True)
class DieGlyph:
    """One die (or a column's top die) as drawn: where, its value, how tall its glyph is."""

    where: str  # "p2 w1 c3", "museum d4", "artist 3", "p1 storeroom", ...
    value: int
    height: int  # dice in the column (1 for loose dice)
    glyph: Rect  # the value numeral's ink box on the picture
    cell: Rect  # the box of its top face (of its tag, when drawn on a tag)
    covered: bool = False  # drawn under something else (the web board's drawing checks this)
    body: Rect | None = None  # the whole column as drawn (top face, side faces), to check covering
    height_box: Rect | None = None  # the ink box of the column's height figure ("×3"), columns of 2+
    lit: bool = False  # placed or moved in the last turn (or this one): outlined
    # The height figure is a tag drawn over the dice around it (its column's front is hidden).
    height_over: bool = False
    tag: bool = False  # drawn again on a tag above its column (a taller column in front hides its top)
    # The column's outline on the picture (a hexagon seen from a corner), to check covering.
    outline: tuple[tuple[float, float], ...] = ()


def preview_scale(width: int, height: int, box: tuple[int, int] = LAPTOP_BOX) -> float:
    """The factor Discord shrinks a picture by to fit ``box`` (never enlarges)."""
    return min(1.0, box[0] / width, box[1] / height)


def phone_scale(width: int) -> float:
    return min(1.0, PHONE_WIDTH / width)
