"""The high camera: dice as cubes standing on a board, seen from above and in front.

A dimetric-like parallel view with the camera high over the front edge of the board: a
cell is ``c`` px wide; a cube shows its top face (``K`` px deep, the die's value printed
upright on it, large) and its front face (``lh`` px per die, so a column of three is three
bands).  Columns never lean sideways, so a column can only ever hide what stands behind it
in its own file, and the rows are spaced so that it cannot hide a top face there:

    row pitch P = K + LH + 2 * FM      (FM: margin around a cube in its cell)

A column in front that is taller by one die rises exactly into the gap; where a structure
holds a step of two or more between neighbours (rare: three cards and free building), the
structure is drawn with flatter dice (``level_height``) so that the top faces stay clear;
so is one whose back row holds a column of three or more, which would rise off its board.
A column of two or more carries its height figure ("×3") on its front face, just under the
top face; where a taller column in front hides that spot, the figure moves onto the top
face (``figure="top"``).  Every die drawn is recorded in ``Canvas.dice`` with its numeral's
box, its top face, its body and its height figure's box (render.model).

Sprites (top faces with numerals, front bands, ghost cubes, shadows) are drawn once per
size and kept in LRU caches; a picture is pasting.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFilter

from engine.geometry import LETTERS

from . import dice
from . import palette as pal
from .canvas import Canvas, Layer, LayerBuilder
from .fonts import Font, font
from .model import DieGlyph

SS = 3  # supersampling of the sprites' edges


@dataclass(frozen=True, slots=True)
class Cam:
    """Sizes for cubes of width ``c`` (px)."""

    c: int
    K: int  # top face depth
    LH: int  # one die's front band, the most (structures with steps get flatter ones)
    FM: int  # margin around a cube in its cell (the highlight ring lives there)
    R: int  # sprite margin (ring)

    @property
    def P(self) -> int:  # row pitch
        return self.K + self.LH + 2 * self.FM

    @property
    def w(self) -> int:  # cube width
        return self.c - 2 * self.FM


@lru_cache(maxsize=64)
def cam(c: int) -> Cam:
    fm = max(2, round(0.04 * c))
    return Cam(c=c, K=round(0.72 * c), LH=round(0.32 * c), FM=fm, R=fm)


def value_font(c: int) -> Font:
    """Numeral font: digits about 0.66 c tall."""
    return font(round(0.91 * c), bold=True)


def figure_font(c: int) -> Font:
    return font(max(10, round(0.6 * c)), bold=True)


def small_figure_font(c: int) -> Font:
    return font(max(9, round(0.36 * c)), bold=True)


# --- colours -----------------------------------------------------------------------------


def faces(key: int | str) -> tuple[pal.RGB, pal.RGB, pal.RGB]:
    """(top, front, edge) colours of a die of colour key ``key``: light from above."""
    base = pal.die_colour(key)
    top = pal.mix(base, (255, 250, 240), 0.22) if isinstance(key, int) else base
    front = pal.mix(base, (40, 24, 10), 0.28)
    edge = pal.mix(base, (20, 12, 6), 0.6)
    return top, front, edge


# --- sprites -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sprite:
    image: Image.Image
    glyph: tuple[int, int, int, int]  # numeral ink box, relative to the sprite
    figure: tuple[int, int, int, int] | None  # height figure ink box, relative to the sprite


@lru_cache(maxsize=4096)
def column(
    c: int, key: int | str, value: int, height: int, lh: int, lit: bool = False, figure: str = "front"
) -> Sprite:
    """A column of ``height`` dice of one value; the sprite's (R, R) is the top face's
    top-left corner (cube, not ring), its floor front edge is at R + K + height * lh.
    ``figure``: where the height figure goes for a column of two or more ("front" face,
    or "top" face when the front is hidden)."""
    g = cam(c)
    R, K, w = g.R, g.K, g.w
    front_h = max(1, height) * lh
    W, H = w + 2 * R, K + front_h + 2 * R
    big = Image.new("RGBA", (W * SS, H * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    top_c, front_c, edge_c = faces(key)
    rad = max(2, round(0.13 * c)) * SS
    x0, y0, x1 = R * SS, R * SS, (R + w) * SS - 1
    yb = (R + K + front_h) * SS - 1
    if lit:
        d.rounded_rectangle((0, 0, W * SS - 1, H * SS - 1), radius=rad + R * SS, fill=pal.HIGHLIGHT_EDGE)
        d.rounded_rectangle((SS, SS, W * SS - 1 - SS, H * SS - 1 - SS), radius=rad + (R - 1) * SS, fill=pal.HIGHLIGHT)
    ew = max(SS, round(c / 26 * SS))
    # body (front faces) first, then the top face over its upper part
    d.rounded_rectangle((x0, y0 + K * SS // 2, x1, yb), radius=rad, fill=front_c, outline=edge_c, width=ew)
    for i in range(1, height):  # band joints: one line per die, from the bottom up
        y = yb - i * lh * SS
        d.line((x0 + ew, y, x1 - ew, y), fill=edge_c, width=max(SS, ew * 2 // 3))
        d.line((x0 + ew, y + ew, x1 - ew, y + ew), fill=pal.mix(front_c, (255, 255, 255), 0.18), width=SS)
    d.rounded_rectangle((x0, y0, x1, (R + K) * SS), radius=rad, fill=top_c, outline=edge_c, width=ew)
    # a bevel of light along the top face's front edge
    d.line(
        (x0 + rad, (R + K) * SS - ew, x1 - rad, (R + K) * SS - ew), fill=pal.mix(top_c, (255, 255, 255), 0.5), width=SS
    )
    ink = pal.contrast_ink(top_c)
    mark = pal.die_mark(key)
    if mark:
        dice.draw_mark(d, mark, (R + w - 0.15 * c) * SS, (R + 0.2 * c) * SS, 0.095 * c * SS, fill=ink)
    img = big.resize((W, H), Image.Resampling.LANCZOS)
    dr = ImageDraw.Draw(img)
    glyph = (0, 0, 0, 0)
    if value:
        f = value_font(c)
        cx, cy = R + 0.42 * c, R + K / 2 + 1
        left, top, right, bottom = (int(v) for v in f.getbbox(str(value), anchor="mm"))
        dr.text((cx, cy), str(value), font=f, fill=ink, anchor="mm")
        glyph = (round(cx) + left, round(cy) + top, round(cx) + right, round(cy) + bottom)
    fig = None
    if height >= 2 and figure != "none":
        fig = _figure(dr, c, height, lh, figure, front_c, ink, top_c)
    return Sprite(img, glyph, fig)


def _figure(
    dr: ImageDraw.ImageDraw, c: int, height: int, lh: int, where: str, front_c: pal.RGB, ink: pal.RGB, top_c: pal.RGB
) -> tuple[int, int, int, int]:
    """The height figure "×3": on the front face just under the top face, else a small
    tag on the top face's right."""
    g = cam(c)
    R, K, w = g.R, g.K, g.w
    text = f"×{height}"
    if where == "front":
        f = figure_font(c)
        zone = min(height * lh, 2 * lh)  # the top two bands: the part a column in front hides last
        ink_h = f.getbbox(text, anchor="mm")
        # centred in the top bands, but never over the top face (flat bands: a little below)
        cx, cy = R + w / 2, R + K + max(zone / 2, (ink_h[3] - ink_h[1]) / 2 + 1)
        fill, stroke = (255, 255, 255), pal.mix(front_c, (0, 0, 0), 0.55)
    else:
        f = small_figure_font(c)
        cx, cy = R + w - 0.2 * c, R + K - 0.26 * c
        fill, stroke = pal.contrast_ink(front_c), front_c
        box = f.getbbox(text, anchor="mm")
        dr.rounded_rectangle(
            (cx + box[0] - 3, cy + box[1] - 3, cx + box[2] + 3, cy + box[3] + 3), radius=4, fill=front_c
        )
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor="mm"))
    dr.text((cx, cy), text, font=f, fill=fill, anchor="mm", stroke_width=1, stroke_fill=stroke)
    return (round(cx) + left, round(cy) + top, round(cx) + right, round(cy) + bottom)


def figure_zone(c: int, lh: int) -> int:
    """How far below the top face the front-face height figure reaches (px)."""
    f = figure_font(c)
    box = f.getbbox("×4", anchor="mm")
    return round(lh + (box[3] - box[1]) / 2) + 1


@lru_cache(maxsize=512)
def ghost(c: int, height: int, lh: int) -> Image.Image:
    """A faint outline column: museum places still to build, up to their target height."""
    g = cam(c)
    R, K, w = g.R, g.K, g.w
    front_h = height * lh
    W, H = w + 2 * R, K + front_h + 2 * R
    big = Image.new("RGBA", (W * SS, H * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    rad = max(2, round(0.13 * c)) * SS
    x0, y0, x1 = R * SS, R * SS, (R + w) * SS - 1
    yb = (R + K + front_h) * SS - 1
    edge = (120, 98, 70, 170)
    ew = max(SS, round(c / 30 * SS))
    d.rounded_rectangle((x0, y0 + K * SS // 2, x1, yb), radius=rad, fill=(255, 248, 235, 60), outline=edge, width=ew)
    for i in range(1, height):
        y = yb - i * lh * SS
        d.line((x0, y, x1, y), fill=edge, width=ew)
    d.rounded_rectangle((x0, y0, x1, (R + K) * SS), radius=rad, fill=(255, 250, 240, 110), outline=edge, width=ew)
    return big.resize((W, H), Image.Resampling.LANCZOS)


@lru_cache(maxsize=512)
def shadow(c: int, height: int, lh: int) -> tuple[Image.Image, int, int]:
    """A soft shadow under a column (light from the upper left): the image and its offset
    from the column sprite's top-left corner."""
    g = cam(c)
    blur = max(2, round(0.09 * c))
    off_x, off_y = round(0.1 * c + 0.05 * c * height), round(0.06 * c)
    foot_h = g.K // 2 + lh
    W, H = g.w + 4 * blur + off_x, foot_h + 4 * blur + off_y
    img = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(img)
    alpha = min(120, 70 + 14 * height)
    d.rounded_rectangle(
        (2 * blur + off_x, 2 * blur + off_y, 2 * blur + off_x + g.w, 2 * blur + off_y + foot_h),
        radius=max(2, c // 8),
        fill=alpha,
    )
    img = img.filter(ImageFilter.GaussianBlur(blur))
    out = Image.new("RGBA", (W, H), (60, 36, 12, 0))
    out.putalpha(img)
    # the shadow lies on the floor: its top sits at the cube's floor line minus the footprint
    dy = g.R + g.K + height * lh - foot_h - 2 * blur
    return out, g.R - 2 * blur, dy


@lru_cache(maxsize=128)
def empty_place(c: int) -> Image.Image:
    """An empty die place (artist cards, bonus spaces): a recessed square on the card."""
    g = cam(c)
    W, H = g.w + 2 * g.R, g.K + g.LH + 2 * g.R
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (g.R, g.R + g.LH // 2, g.R + g.w - 1, g.R + g.K + g.LH - 1),
        radius=max(2, c // 7),
        fill=(90, 60, 30, 22),
        outline=(150, 128, 98, 200),
        width=max(1, c // 18),
    )
    return img


# --- structures --------------------------------------------------------------------------


Column = tuple[int | str, int, int, bool]  # colour key, value, height, lit


def level_height(c: int, heights: Mapping[tuple[int, int], int], first_row: int = 0) -> int:
    """The band height for a structure: the full LH unless a column stands two or more
    dice taller than the one behind it in its file, or would rise above its board's
    headroom (``board_size``: two dice on the back row, ``first_row``); then flatter, so no
    top face is hidden and no column reaches into what is drawn above the board."""
    g = cam(c)
    lh = g.LH
    head = board_size(c, 1, 1)[3]
    for (x, y), h in heights.items():
        behind = heights.get((x, y - 1), 0)
        if behind and h - behind >= 2:
            lh = min(lh, (g.LH + g.FM) // (h - behind))
        # from the board's top edge down to this column's floor, less its top face
        room = head + (y - first_row + 1) * g.P - g.FM - g.K
        if h * lh > room:
            lh = min(lh, room // h)
    return max(3, lh)


def board_size(c: int, cols: int, rows: int) -> tuple[int, int, int, int]:
    """(width, height, left label room, headroom) of a board: the grid, the row numbers at
    the left, the letters under it, and room above for columns standing on the back row."""
    g = cam(c)
    lab = round(0.45 * c)
    head = g.LH + 2 * g.FM
    return (lab + cols * c, head + rows * g.P + lab, lab, head)


def room_disc(c: int) -> tuple[int, int, int]:
    """A workroom's number disc, relative to its board's corner: (centre x, centre y,
    radius), over the row numbers in the headroom, its right edge clear of the back row's
    first column (which rises into the headroom when it is two dice high)."""
    g = cam(c)
    _w, _h, lab, head = board_size(c, 1, 1)
    r = max(8, round(0.27 * c))
    return min(lab // 2 + 1, lab + g.FM - r - 1), head - r - 2, r


@lru_cache(maxsize=128)
def board_layer(
    c: int,
    cols: int,
    rows: int,
    cells: frozenset[tuple[int, int]] | None,
    first_col: int = 0,
    first_row: int = 0,
    floor: pal.RGB = pal.FLOOR,
    background: pal.RGB = pal.PANEL,
) -> Layer:
    """A board: printed squares (c x P) with the cell names at the edges, as the move
    notation names them (``1``.. at the left, ``a``.. under the front edge)."""
    g = cam(c)
    w, h, lab, head = board_size(c, cols, rows)
    b = LayerBuilder(w, h, "RGB", background)
    d = b.draw
    lf = font(max(11, round(0.42 * c)), bold=True)
    line = pal.mix(floor, (90, 66, 40), 0.3)
    for j in range(rows):
        b.text((lab / 2, head + j * g.P + g.P / 2), str(first_row + j + 1), lf, pal.MUTED, anchor="mm")
    for i in range(cols):
        b.text(
            (lab + i * c + c / 2, head + rows * g.P + lab / 2 + 1), LETTERS[first_col + i], lf, pal.MUTED, anchor="mm"
        )
    for j in range(rows):
        for i in range(cols):
            if cells is not None and (first_col + i, first_row + j) not in cells:
                continue
            x, y = lab + i * c, head + j * g.P
            fill = floor if (i + j) % 2 == 0 else pal.mix(floor, line, 0.18)
            d.rectangle((x, y, x + c - 1, y + g.P - 1), fill=fill, outline=line)
    return b.build()


def draw_structure(
    cv: Canvas,
    xy: tuple[int, int],
    c: int,
    columns: Mapping[tuple[int, int], Column],
    where: Callable[[int, int], str],
    *,
    ghosts: Mapping[tuple[int, int], int] | None = None,
    first_col: int = 0,
    first_row: int = 0,
) -> int:
    """Columns on a board whose layer is pasted at ``xy`` (cells (x, y) counted from
    ``first_col``/``first_row``), back to front, each recorded in ``cv.dice``; ``ghosts``:
    target heights (museum), drawn as faint outline columns.  Returns the band height used."""
    g = cam(c)
    _w, _h, lab, head = board_size(c, 1, 1)
    heights = {cell: col[2] for cell, col in columns.items()}
    for cell, t in (ghosts or {}).items():
        heights[cell] = max(heights.get(cell, 0), t)
    lh = level_height(c, heights, first_row)

    def corner(x: int, y: int, height: int) -> tuple[int, int]:
        """Where the sprite of a column of ``height`` at (x, y) goes."""
        fx = xy[0] + lab + (x - first_col) * c + g.FM - g.R
        floor_front = xy[1] + head + (y - first_row + 1) * g.P - g.FM
        return fx, floor_front - height * lh - g.K - g.R

    order = sorted(set(columns) | set(ghosts or ()), key=lambda cell: (cell[1], cell[0]))
    for x, y in order:  # shadows lie on the floor, under everything
        col = columns.get((x, y))
        if col is not None:
            sh, dx, dy = shadow(c, col[2], lh)
            sx, sy = corner(x, y, col[2])
            cv.paste(sh, (sx + dx, sy + dy))
    zone = figure_zone(c, lh)
    first = len(cv.dice)
    hidden: list[int] = []  # columns whose front a column in front hides: figure placed after
    for x, y in order:
        col = columns.get((x, y))
        target = (ghosts or {}).get((x, y), 0)
        height = col[2] if col is not None else 0
        if target > height:  # behind the column: its top shows above the real top face
            cv.paste(ghost(c, target, lh), corner(x, y, target))
        if col is None:
            continue
        key, value, height, lit = col
        figure = "front"
        front = columns.get((x, y + 1))
        if height >= 2 and front is not None:
            # the column in front rises to front_top; our figure needs `zone` px under our top face
            front_top = corner(x, y + 1, front[2])[1] + g.R
            if front_top < corner(x, y, height)[1] + g.R + g.K + zone:
                figure = "none"
                hidden.append(len(cv.dice))
        sp = column(c, key, value, height, lh, lit, figure)
        sx, sy = corner(x, y, height)
        cv.paste(sp.image, (sx, sy))
        cv.dice.append(_glyph(where(x, y), value, height, lit, sp, sx, sy, c, lh))
    for i in hidden:
        cv.dice[i] = _tag_height(cv, c, cv.dice[i], cv.dice[first:])
    return lh


TAG_FILL = pal.mix(pal.INK, (255, 255, 255), 0.1)  # a height tag's background


class HeightTag(NamedTuple):
    """Where a hidden column's height figure goes (``height_tag``): its text and font, the
    text's ink box around its anchor point (Pillow's "mm"), and the tag's box."""

    text: str
    font: Font
    ink: tuple[int, int, int, int]
    left: int
    top: int
    width: int
    height: int

    @property
    def centre(self) -> tuple[float, float]:
        return (self.left + self.width / 2, self.top + self.height / 2)


def height_tag(c: int, die: DieGlyph, near: Sequence[DieGlyph]) -> HeightTag:
    """The height figure of a column whose front is hidden, as a small tag beside its top face
    where it covers no value (right, left, above, its corners; a tighter tag next), else on
    the top face's corner."""
    f = small_figure_font(c)
    text = f"×{die.height}"
    box = tuple(int(v) for v in f.getbbox(text, anchor="mm"))
    ink = (box[0], box[1], box[2], box[3])
    tx0, ty0, tx1, ty1 = die.cell
    cy = (ty0 + ty1) // 2
    values = [d.glyph for d in near] + [d.height_box for d in near if d.height_box is not None]
    spot: tuple[int, int, int, int] | None = None
    tw = th = 0
    for pad in (6, 2):
        tw, th = box[2] - box[0] + pad, box[3] - box[1] + pad
        candidates = [
            (tx1 - 2, cy - th // 2),  # right of the top face
            (tx0 - tw + 2, cy - th // 2),  # left of it
            ((tx0 + tx1 - tw) // 2, ty0 - th + 1),  # above it
            (tx1 - tw // 2, ty0 - th + 2),  # over its back corners
            (tx0 - tw // 2, ty0 - th + 2),
            (tx1 - 2, ty1 - 2),  # under its front corners
            (tx0 - tw + 2, ty1 - 2),
        ]
        spot = next(
            ((x, y, tw, th) for x, y in candidates if not any(_overlaps((x, y, x + tw, y + th), v) for v in values)),
            None,
        )
        if spot is not None:
            break
    left, top, tw, th = spot or (tx1 - tw, ty0, tw, th)  # nowhere clear: the top face's corner
    return HeightTag(text, f, ink, left, top, tw, th)


def _tag_height(cv: Canvas, c: int, die: DieGlyph, near: Sequence[DieGlyph]) -> DieGlyph:
    """``height_tag``, drawn."""
    tag = height_tag(c, die, near)
    left, top = tag.left, tag.top
    cv.draw.rounded_rectangle((left, top, left + tag.width - 1, top + tag.height - 1), radius=4, fill=TAG_FILL)
    cx, cy = tag.centre
    cv.draw.text((cx, cy), tag.text, font=tag.font, fill=(255, 255, 255), anchor="mm")
    box = tag.ink
    ink = (round(cx) + box[0], round(cy) + box[1], round(cx) + box[2], round(cy) + box[3])
    return dataclasses.replace(die, height_box=ink, height_over=True)


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _glyph(where: str, value: int, height: int, lit: bool, sp: Sprite, sx: int, sy: int, c: int, lh: int) -> DieGlyph:
    g = cam(c)
    gl = sp.glyph
    top = (sx + g.R, sy + g.R, sx + g.R + g.w, sy + g.R + g.K)
    body = (sx + g.R, sy + g.R, sx + g.R + g.w, sy + g.R + g.K + max(1, height) * lh)
    if lit:  # the ring around it
        body = (body[0] - g.R + 1, body[1] - g.R + 1, body[2] + g.R - 1, body[3] + g.R - 1)
    fig = sp.figure
    return DieGlyph(
        where,
        value,
        height,
        (sx + gl[0], sy + gl[1], sx + gl[2], sy + gl[3]),
        top,
        body=body,
        height_box=(sx + fig[0], sy + fig[1], sx + fig[2], sy + fig[3]) if fig else None,
        lit=lit,
    )


def paste_cube(
    cv: Canvas,
    xy: tuple[int, int],
    c: int,
    key: int | str,
    value: int,
    *,
    where: str,
    height: int = 1,
    lit: bool = False,
    record: list[DieGlyph] | None = None,
) -> tuple[int, int, int, int]:
    """A loose die (or a column) standing with its top face's top-left corner at ``xy``,
    recorded in ``record`` (default ``cv.dice``); returns its body's box."""
    g = cam(c)
    sh, dx, dy = shadow(c, height, g.LH)
    sx, sy = xy[0] - g.R, xy[1] - g.R
    cv.paste(sh, (sx + dx, sy + dy))
    sp = column(c, key, value, height, g.LH, lit)
    cv.paste(sp.image, (sx, sy))
    dg = _glyph(where, value, height, lit, sp, sx, sy, c, g.LH)
    (cv.dice if record is None else record).append(dg)
    assert dg.body is not None
    return dg.body


def cube_height(c: int, height: int = 1) -> int:
    """Screen height of a standing column (top face and front bands)."""
    g = cam(c)
    return g.K + height * g.LH
