"""Top-down drawing pieces: dice as squares with large numerals, grids with cell names.

Seen from above, no die can hide another: a column is one square showing its top value,
with one bar per die when it is taller than one die.  Every die drawn is recorded in the
canvas's layout model (``Canvas.dice``) with the box of its value glyph.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.geometry import LETTERS

from . import dice
from . import palette as pal
from .canvas import Canvas, Layer, LayerBuilder
from .fonts import Font, font
from .model import DieGlyph

SS = 3  # supersampling for the die tiles' rounded corners and marks


def value_font(c: int) -> Font:
    """The numeral font for a die square of side ``c`` (digits about 0.6 c tall, 0.5 c wide)."""
    return font(round(0.84 * c), bold=True)


def label_font(c: int) -> Font:
    return font(max(11, round(0.46 * c)), bold=True)


@lru_cache(maxsize=2048)
def die_tile(
    c: int, key: int | str, value: int, height: int = 1, target: int = 0, lit: bool = False
) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """An RGBA tile of side ``c`` (+2 px ring room each side) and its numeral's box in it.

    The numeral fills the left part; a narrow strip on the right holds the owner's shape
    mark (top) and, for a column, one bar per die (bottom up; hollow bars: museum places
    still to fill up to ``target``), so nothing is drawn over the numeral."""
    m = 2
    size = c + 2 * m
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    base = pal.die_colour(key)
    fill = pal.mix(base, (255, 255, 255), 0.18) if isinstance(key, int) else base
    edge = pal.mix(base, (0, 0, 0), 0.5)
    r = max(2, c // 7) * SS
    if lit:
        d.rounded_rectangle((0, 0, size * SS - 1, size * SS - 1), radius=r + 2 * SS, fill=pal.HIGHLIGHT_EDGE)
        d.rounded_rectangle((SS, SS, size * SS - 1 - SS, size * SS - 1 - SS), radius=r + SS, fill=pal.HIGHLIGHT)
    box = (m * SS + SS // 2, m * SS + SS // 2, (m + c) * SS - SS // 2, (m + c) * SS - SS // 2)
    d.rounded_rectangle(box, radius=r, fill=fill, outline=edge, width=max(SS, round(c / 20 * SS)))
    ink = pal.contrast_ink(fill)
    mark = pal.die_mark(key)
    sx = (m + 0.83 * c) * SS  # the strip's centre line
    if mark:
        dice.draw_mark(d, mark, sx, (m + 0.2 * c) * SS, 0.095 * c * SS, fill=ink)
    bars = max(height, target)
    if bars > 1:  # the strip below the mark, shared out: as large as the count allows
        gap = 0.08 * c
        bh = (0.56 * c - (bars - 1) * gap) / bars
        for i in range(bars):
            y1 = m + 0.9 * c - i * (bh + gap)
            rect = ((m + 0.74 * c) * SS, (y1 - bh) * SS, (m + 0.92 * c) * SS, y1 * SS)
            if i < height:
                d.rectangle(rect, fill=ink)
            else:
                d.rectangle(rect, outline=ink, width=SS)
    img = big.resize((size, size), Image.Resampling.LANCZOS)
    glyph = (0, 0, 0, 0)
    if value:
        f = value_font(c)
        text = str(value)
        cx, cy = m + c * 0.39, m + c * 0.53
        left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor="mm"))
        ImageDraw.Draw(img).text((cx, cy), text, font=f, fill=ink, anchor="mm")
        glyph = (round(cx) + left, round(cy) + top, round(cx) + right, round(cy) + bottom)
    return img, glyph


def paste_die(
    cv: Canvas,
    xy: tuple[int, int],
    c: int,
    key: int | str,
    value: int,
    *,
    where: str,
    height: int = 1,
    target: int = 0,
    lit: bool = False,
) -> None:
    """Draw a die square with its top-left at ``xy`` and record it in the model."""
    img, (gl, gt, gr, gb) = die_tile(c, key, value, height, target, lit)
    x, y = xy[0] - 2, xy[1] - 2
    cv.paste(img, (x, y))
    if value:
        cv.dice.append(
            DieGlyph(where, value, height, (x + gl, y + gt, x + gr, y + gb), (xy[0], xy[1], xy[0] + c, xy[1] + c))
        )


@lru_cache(maxsize=256)
def empty_place(c: int) -> Image.Image:
    """A dashed-looking empty die place (artist cards, empty bonus spaces)."""
    img = Image.new("RGBA", (c + 4, c + 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (2, 2, c + 1, c + 1),
        radius=max(2, c // 7),
        fill=(0, 0, 0, 16),
        outline=(140, 130, 112, 200),
        width=max(1, c // 16),
    )
    return img


def grid_size(c: int, cols: int, rows: int) -> tuple[int, int, int]:
    """(width, height, label room) of a grid with its letters above and numbers at the left."""
    lab = round(0.62 * c)
    return (lab + cols * c, lab + rows * c, lab)


@lru_cache(maxsize=128)
def grid_layer(
    c: int,
    cols: int,
    rows: int,
    cells: frozenset[tuple[int, int]] | None,
    heights: tuple[tuple[int, int, int], ...] = (),
    first_col: int = 0,
    first_row: int = 0,
    floor: tuple[int, int, int] = pal.FLOOR,
    background: tuple[int, int, int] = pal.PANEL,
) -> Layer:
    """The floor squares with the cell names on the edges (``a``.. above, ``1``.. at the left,
    as the move notation names them), drawn once.  ``heights`` (x, y, h): a museum plan's
    target heights, printed faintly on its empty cells."""
    w, h, lab = grid_size(c, cols, rows)
    b = LayerBuilder(w, h, "RGB", background)
    d = b.draw
    lf = label_font(c)
    for i in range(cols):
        b.text((lab + i * c + c / 2, lab / 2), LETTERS[first_col + i], lf, pal.MUTED, anchor="mm")
    for j in range(rows):
        b.text((lab / 2, lab + j * c + c / 2), str(first_row + j + 1), lf, pal.MUTED, anchor="mm")
    for j in range(rows):
        for i in range(cols):
            if cells is not None and (first_col + i, first_row + j) not in cells:
                continue
            x, y = lab + i * c, lab + j * c
            fill = floor if (i + j) % 2 == 0 else pal.mix(floor, pal.FLOOR_LINE, 0.25)
            d.rectangle((x, y, x + c - 1, y + c - 1), fill=fill, outline=pal.FLOOR_LINE)
    hf = font(max(10, round(0.56 * c)))
    for x, y, hh in heights:
        cx, cy = lab + (x - first_col) * c + c / 2, lab + (y - first_row) * c + c / 2
        b.text((cx, cy), f"↑{hh}", hf, pal.mix(pal.MUTED, floor, 0.1), anchor="mm")
    return b.build()
