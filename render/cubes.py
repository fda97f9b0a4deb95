"""Drawing the scene (render.pieces) through a camera (render.camera) with Pillow.

Boards first (a slab with its squares and the letters and numbers of its edges), then
every column's shadow, then the columns from the back corner to the front, each die a
cube outlined in a darker shade of its colour (top face light, left face mid, right face
dark: the light comes from the upper left), the value upright on the top face.  A column
whose value a taller column in front hides gets its value again on a tag just above it.
Every die drawn is recorded in the canvas's layout model (render.model.DieGlyph).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from . import dice
from . import palette as pal
from .camera import Camera, Point, Poly, depth
from .canvas import Canvas, Layer, LayerBuilder, Rect
from .fonts import Font, font, text_width
from .model import DieGlyph
from .pieces import Board, Column, Die, Key

# The warm table: a wooden table top, cream boards, sand squares.
TABLE: pal.RGB = (205, 186, 158)
BOARD: pal.RGB = (250, 244, 232)
BOARD_EDGE: pal.RGB = (168, 146, 114)
BOARD_SIDE: pal.RGB = (196, 172, 136)
SQUARE: pal.RGB = (234, 222, 198)
SQUARE_ALT: pal.RGB = (224, 210, 184)
SQUARE_LINE: pal.RGB = (200, 184, 156)
MUSEUM_SQUARE: pal.RGB = (214, 200, 176)
SHADOW: pal.RGB = (150, 128, 100)
GHOST_EDGE: pal.RGB = (150, 132, 104)
GHOST_LINE: pal.RGB = (176, 160, 134)  # the outline of a museum place still to build
GHOST_FLOOR: pal.RGB = (240, 232, 216)
TAG_EDGE: pal.RGB = (40, 32, 26)
SLAB = 0.22  # a board's thickness, in cells (iso)


@lru_cache(maxsize=64)
def shades(key: Key) -> tuple[pal.RGB, pal.RGB, pal.RGB, pal.RGB]:
    """(top, left, right, edge) of a die of colour ``key``: lit from the upper left."""
    base = pal.die_colour(key)
    top = pal.mix(base, (255, 248, 232), 0.28)
    left = base
    right = pal.mix(base, (30, 18, 8), 0.32)
    edge = pal.mix(base, (20, 12, 6), 0.62)
    return top, left, right, edge


def ring_of(key: Key) -> pal.RGB:
    """The ring around a value: dark around white numerals, the top face's colour around dark ones."""
    top, _left, _right, edge = shades(key)
    return edge if pal.contrast_ink(top) == (255, 255, 255) else top


@lru_cache(maxsize=64)
def value_font(cam: Camera) -> Font:
    """Numerals about 0.85 of the top face's height (iso) or 0.62 of its side (from above)."""
    want = 1.85 * cam.hw if cam.iso else 1.3 * cam.w
    return font(max(8, round(want / 0.73)), bold=True)


@lru_cache(maxsize=64)
def figure_font(cam: Camera) -> Font:
    """A column's height from above (7 px at the laptop preview of every table): about
    four fifths of the value, and no wider than the gap between two columns' values."""
    vl, _t, vr, _b = _text_box(value_font(cam), "8")
    gap = cam.a - (vr - vl) - 2
    size = round(0.78 * value_font(cam).size)
    while size > 8 and _text_box(font(size, bold=True), "8")[2] - _text_box(font(size, bold=True), "8")[0] > gap:
        size -= 1
    return font(size, bold=True)


@lru_cache(maxsize=64)
def times_font(cam: Camera) -> Font:
    """The small "×" over a height figure."""
    return font(max(8, round(0.6 * figure_font(cam).size)), bold=True)


@lru_cache(maxsize=64)
@lru_cache(maxsize=64)
def tag_figure_font(cam: Camera) -> Font:
    """A column's height on a tag ("×3"): four fifths of the value, so that where a value
    is 9 px at the laptop preview its height still reads at 7."""
    return font(max(9, round(0.8 * value_font(cam).size)), bold=True)


def board_box(board: Board, cam: Camera) -> tuple[int, int, int]:
    """(width, height, headroom) of a board drawn by ``cam``: its floor's bounding box (with
    its slab and edge labels), and how far its tallest columns rise above it."""
    w, h = cam.size(board.cols, board.rows)
    rise = 0.0
    for col in board.columns:
        cy = cam.floor(col.x + 0.5, col.y + 0.5, board.rows)[1]
        rise = max(rise, len(col.keys) * cam.v + cam.hw - cy)
    for x, y, hh in board.targets:
        cy = cam.floor(x + 0.5, y + 0.5, board.rows)[1]
        rise = max(rise, hh * cam.v + cam.hw - cy)
    side, bottom = _margins(board, cam)
    return (w + 2 * side, h + bottom + (round(SLAB * cam.a) if cam.iso else 0), max(0, round(rise)))


def _margins(board: Board, cam: Camera) -> tuple[int, int]:
    """Room beside a board's floor and under it, for the letters and numbers of its front edges
    (from a corner they stand beside those edges: under the front corner is only the slab)."""
    if not board.axes:
        return (2, 2)
    if cam.iso:
        return (round(0.25 * cam.a), max(2, round(0.1 * cam.a)))
    return (round(0.35 * cam.a), round(0.48 * cam.a))


def draw_board(
    cv: Canvas,
    board: Board,
    cam: Camera,
    xy: tuple[int, int],
    *,
    floor: pal.RGB = SQUARE,
    record: list[DieGlyph] | None = None,
    parent: str = "",
    bounds: Rect | None = None,
    framed: bool = False,
) -> None:
    """``board`` with its bounding box's top left at ``xy`` (headroom not included);
    ``bounds``: where tags may go (the board's panel, under its title); ``framed``: its floor
    is already drawn (render.tableview's cached frame)."""
    m = _margins(board, cam)[0]
    ox, oy = xy[0] + m, xy[1]
    rows = board.rows

    def at(p: Point) -> Point:
        return (p[0] + ox, p[1] + oy)

    if not framed:
        cv.layer(floor_layer(*floor_key(board, cam, floor)), xy, parent)
    centres = {(c.x, c.y): at(cam.floor(c.x + 0.5, c.y + 0.5, rows)) for c in board.columns}
    built = {(c.x, c.y): len(c.keys) for c in board.columns}
    for col in board.columns:
        draw_shadow(cv, cam, centres[(col.x, col.y)], len(col.keys))
    drawn: list[tuple[Column, Point]] = []
    items: list[tuple[tuple[int, int], int, Column | tuple[int, int, int]]] = [
        (depth(c.x, c.y), 0, c) for c in board.columns
    ]
    items += [(depth(x, y), 1, (x, y, hh)) for x, y, hh in board.targets if built.get((x, y), 0) < hh]
    for _k, _o, item in sorted(items, key=lambda t: (t[0], t[1])):
        if isinstance(item, Column):
            centre = centres[(item.x, item.y)]
            draw_column(cv, cam, centre, item.keys, item.lit)
            drawn.append((item, centre))
        else:
            x, y, hh = item
            where = f"{board.name} {board.letter(x)}{board.number(y)}"
            _target(cv, cam, at(cam.floor(x + 0.5, y + 0.5, rows)), built.get((x, y), 0), hh, where)
    out = cv.dice if record is None else record
    if bounds is None:
        bounds = (0, 0, *cv.size)
    _numerals(cv, cam, drawn, out, bounds)
    if board.ids and cv.hooks:
        _cells(cv, cam, board, at, {(c.x, c.y): (c, centres[(c.x, c.y)]) for c, _p in drawn})


def _cells(
    cv: Canvas,
    cam: Camera,
    board: Board,
    at: Callable[[Point], Point],
    columns: dict[tuple[int, int], tuple[Column, Point]],
) -> None:
    """Every cell of ``board`` for the web page, front last (it takes the taps where columns
    overlap): a column's outline with a ring around its top face, or the floor's square."""
    have = board.cells or frozenset((x, y) for x in range(board.cols) for y in range(board.rows))
    for x, y in sorted(have, key=lambda c: depth(*c)):
        ident = f"{board.ids}.{(y + board.first[1]) * board.stride + x + board.first[0]}"
        found = columns.get((x, y))
        if found is None:
            floor = tuple(at(p) for p in cam.cell(x, y, board.rows))
            cv.cell(ident, floor, tuple(_grow(floor, -3)))
        else:
            col, centre = found
            cv.cell(ident, cam.outline(centre, len(col.keys)), tuple(_grow(cam.cube(centre, len(col.keys))[0], 3)))


FloorKey = tuple[Camera, int, int, frozenset[tuple[int, int]] | None, tuple[int, int], bool, pal.RGB]


def floor_key(board: Board, cam: Camera, floor: pal.RGB) -> FloorKey:
    """What a board's floor layer depends on (not its dice)."""
    return (cam, board.cols, board.rows, board.cells, board.first, board.axes, floor)


@lru_cache(maxsize=128)
def floor_layer(
    cam: Camera,
    cols: int,
    rows: int,
    cells: frozenset[tuple[int, int]] | None,
    first: tuple[int, int],
    axes: bool,
    floor: pal.RGB,
) -> Layer:
    """A board without its dice, drawn once: its slab, squares, letters and numbers."""
    board = Board("", cols, rows, (), cells, (), first, axes)
    w, h, _rise = board_box(board, cam)
    m = _margins(board, cam)[0]
    lb = LayerBuilder(w, h)
    d = lb.draw

    def at(p: Point) -> Point:
        return (p[0] + m, p[1])

    have = cells or frozenset((x, y) for x in range(cols) for y in range(rows))
    outline = [at(cam.floor(X, Y, rows)) for X, Y in ((0, 0), (cols, 0), (cols, rows), (0, rows))]
    if axes:  # a board (a plan's cubes stand on the card itself)
        if cam.iso:
            t = SLAB * cam.a
            lft, bot, rgt = outline[3], outline[2], outline[1]
            d.polygon(
                [lft, bot, rgt, (rgt[0], rgt[1] + t), (bot[0], bot[1] + t), (lft[0], lft[1] + t)], fill=BOARD_SIDE
            )
        d.polygon(outline, fill=BOARD, outline=BOARD_EDGE, width=2)
    alt = SQUARE_ALT if floor == SQUARE else pal.mix(floor, (0, 0, 0), 0.06)
    for x, y in sorted(have, key=lambda c: depth(*c)):
        d.polygon([at(p) for p in cam.cell(x, y, rows)], fill=floor if (x + y) % 2 == 0 else alt, outline=SQUARE_LINE)
    if axes:
        f = font(max(10, round(0.55 * cam.a if cam.iso else 0.3 * cam.a)))
        off = 0.55 if cam.iso else 0.3
        for x in range(cols):
            lb.text(at(cam.floor(x + 0.5, rows + off, rows)), board.letter(x), f, pal.MUTED, anchor="mm")
        for y in range(rows):  # seen from above, down the left edge
            p = cam.floor(cols + off, y + 0.5, rows) if cam.iso else cam.floor(-0.2, y + 0.5, rows)
            lb.text(at(p), board.number(y), f, pal.MUTED, anchor="mm")
    return lb.build()


def draw_shadow(cv: Canvas, cam: Camera, centre: Point, height: int) -> None:
    """A soft shadow on the floor, down and to the right of the column (light from the upper left)."""
    cx, cy = centre
    w, h = cam.w, cam.hw
    s = 0.35 * w + (0.12 * w * min(height, 4) if cam.iso else 0)
    if cam.iso:
        pts = [(cx + s, cy - h + s / 2), (cx + w + s, cy + s / 2), (cx + s, cy + h + s / 2), (cx - w + s, cy + s / 2)]
    else:
        s = 0.12 * w
        pts = [(cx - w + s, cy - h + s), (cx + w + s, cy - h + s), (cx + w + s, cy + h + s), (cx - w + s, cy + h + s)]
    cv.draw.polygon(pts, fill=SHADOW)


def draw_column(cv: Canvas, cam: Camera, centre: Point, keys: Sequence[Key], lit: bool) -> None:
    """A column of cubes, bottom to top (``keys``: whose each die is); ringed when ``lit``.
    A picture pastes it as a sprite drawn once per camera, colours and place within an
    eighth of a pixel (three times faster than drawing its faces)."""
    if not cv.pastes:
        _column_faces(cv.draw, cam, centre, keys, lit)
        return
    cx, cy = centre
    ix, iy = math.floor(cx), math.floor(cy)
    sprite, mask, left, top = column_sprite(cam, tuple(keys), lit, round((cx - ix) * 8) / 8, round((cy - iy) * 8) / 8)
    cv.img.paste(sprite, (ix - left, iy - top), mask)


SPRITE_MARGIN = 6  # px around a column's box in its sprite: the ring of a lit top face


@lru_cache(maxsize=1024)
def column_sprite(
    cam: Camera, keys: tuple[Key, ...], lit: bool, fx: float, fy: float
) -> tuple[Image.Image, Image.Image, int, int]:
    """A column drawn once, its centre ``(fx, fy)`` px past a whole pixel: the picture, the
    mask of what it covers (the faces have no soft edges, so a pixel is in or out) and how
    far that whole pixel lies from the picture's left and top."""
    m = SPRITE_MARGIN
    left = math.ceil(cam.w) + m
    top = math.ceil(max(1, len(keys)) * cam.v + cam.hw) + m
    bottom = math.ceil(cam.hw + cam.v) + m
    img = Image.new("RGBA", (2 * left + 1, top + bottom + 1), (0, 0, 0, 0))
    _column_faces(ImageDraw.Draw(img), cam, (left + fx, top + fy), keys, lit)
    return img.convert("RGB"), img.getchannel("A").convert("1"), left, top


def _column_faces(d: ImageDraw.ImageDraw, cam: Camera, centre: Point, keys: Sequence[Key], lit: bool) -> None:
    for level, key in enumerate(keys, start=1):
        top, left, right = cam.cube(centre, level)
        t, lf, rt, edge = shades(key)
        if cam.iso:
            d.polygon(left, fill=lf, outline=edge)
            d.polygon(right, fill=rt, outline=edge)
        if level == len(keys):
            d.polygon(top, fill=t, outline=edge, width=1 if cam.iso else 2)
            if not cam.iso and len(keys) >= 2:  # from above: the dice under it peek out as rims
                for k in range(1, min(len(keys), 4)):
                    o = 2 * k
                    d.line([(top[1][0] + o, top[1][1] + o), (top[2][0] + o, top[2][1] + o)], fill=edge, width=1)
                    d.line([(top[3][0] + o, top[3][1] + o), (top[2][0] + o, top[2][1] + o)], fill=edge, width=1)
        mark = pal.die_mark(key)
        if mark is not None and cam.iso and level == len(keys):
            # the owner's shape on the left face, so colour is never the only cue
            mx, my = (left[0][0] + left[2][0]) / 2, (left[0][1] + left[2][1]) / 2
            r = min(cam.v, cam.w) * 0.26
            dice.draw_mark(d, mark, mx, my, r, fill=pal.mix(lf, (255, 255, 255), 0.75))
    if lit:
        top = cam.cube(centre, len(keys))[0]
        ring = _grow(top, 2.5)
        d.line([*ring, ring[0]], fill=pal.HIGHLIGHT_EDGE, width=5, joint="curve")
        d.line([*ring, ring[0]], fill=pal.HIGHLIGHT, width=3, joint="curve")


def _grow(poly: Poly, by: float) -> list[Point]:
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    out = []
    for x, y in poly:
        dx, dy = x - cx, y - cy
        n = max(1e-6, (dx * dx + dy * dy) ** 0.5)
        out.append((x + dx / n * by, y + dy / n * by))
    return out


def _target(cv: Canvas, cam: Camera, centre: Point, built: int, height: int, where: str) -> None:
    """A museum place still to build: the dice it still takes as outlined cubes, and the
    height it is built to, as a figure, on top."""
    d = cv.draw
    edge = GHOST_LINE
    if built == 0:  # the place itself, lighter than the squares around it
        d.polygon(cam.cube(centre, 0)[0], fill=GHOST_FLOOR)
    for level in range(built + 1, height + 1):
        top, left, right = cam.cube(centre, level)
        if cam.iso:  # outlines only, so the figures behind them show through
            d.line([*left[:3], left[3], left[0]], fill=edge, width=1)
            d.line([*right[1:3], right[3]], fill=edge, width=1)
        if level == height:
            d.polygon(top, outline=edge)
    if built == 0:  # on the floor, where no value stands in front of it
        cx, cy = centre
        size = (0.8 if cam.iso else 1.15) * cam.w / 0.73
        box = cv.ink((cx, cy + 1), str(height), font(round(size), bold=True), GHOST_EDGE)
        cv.targets.append((where, height, box))


def _hidden(cam: Camera, glyph: Rect, later: Sequence[tuple[Rect, Point, int]]) -> bool:
    """Some of the numeral's ink box under a column drawn after it (its box, floor centre
    and height), seen from a corner."""
    x0, y0, x1, y1 = glyph
    pts: list[Point] = []
    w, hw, v = cam.w, cam.hw, cam.v
    for (bx0, by0, bx1, by1), (cx, cy), height in later:
        if bx1 <= x0 or x1 <= bx0 or by1 <= y0 or y1 <= by0:
            continue
        if not pts:
            pts = [(x0 + (x1 - x0) * i / 4, y0 + (y1 - y0) * j / 4) for i in range(1, 4) for j in range(0, 5)]
        top = cy - height * v
        for px, py in pts:
            # inside the column's outline: its top face's upper edges down to its floor's lower ones
            dx = abs(px - cx)
            if dx < w:
                slope = hw * (1 - dx / w)
                if top - slope < py < cy + slope:
                    return True
    return False


def _numerals(cv: Canvas, cam: Camera, drawn: list[tuple[Column, Point]], out: list[DieGlyph], bounds: Rect) -> None:
    vf = value_font(cam)
    hidden: list[int] = []
    glyphs: list[DieGlyph] = []
    shapes = [(cam.column_box(centre, len(col.keys)), centre, len(col.keys)) for col, centre in drawn]
    for i, (col, centre) in enumerate(drawn):
        if col.value == 0:
            continue
        h = len(col.keys)
        top = cam.cube(centre, h)[0]
        cell = _bbox(top)
        cx, cy = cam.top_centre(centre, h)
        ink = pal.contrast_ink(shades(col.keys[-1])[0])
        body = shapes[i][0]
        outline = cam.outline(centre, h)
        f = vf
        box = _ink_box(cv, f, str(col.value), (cx, cy + 1))
        if cam.iso and _hidden(cam, box, shapes[i + 1 :]):
            hidden.append(len(glyphs))
            glyphs.append(DieGlyph(col.where, col.value, h, box, cell, body=body, lit=col.lit, outline=outline))
            continue
        cv.ink((cx, cy + 1), str(col.value), f, ink, stroke=ring_of(col.keys[-1]))
        hbox = None
        if not cam.iso and h >= 2:
            hbox = _height_figure(cv, cam, box, (cx, cy), h)
        glyphs.append(
            DieGlyph(col.where, col.value, h, box, cell, body=body, height_box=hbox, lit=col.lit, outline=outline)
        )
    if not hidden:
        out.extend(glyphs)
        return
    # what a tag must not cover: the values shown, the texts in its bounds, museum figures
    taken = [g.glyph for k, g in enumerate(glyphs) if k not in hidden]
    taken += [b.rect for b in cv.boxes if b.kind == "text" and _overlap(b.rect, bounds)]
    taken += [box for _w, _h, box in cv.targets]
    for k in hidden:
        col, centre = next((c, p) for c, p in drawn if c.where == glyphs[k].where)
        glyphs[k] = _tag(cv, cam, col, centre, glyphs[k], taken, bounds)
        taken.append(glyphs[k].cell)
    out.extend(glyphs)


@lru_cache(maxsize=1024)
def _text_box(f: Font, text: str) -> tuple[float, float, float, float]:
    return f.getbbox(text, anchor="mm")


def _ink_box(cv: Canvas, f: Font, text: str, xy: Point) -> Rect:
    left, top, right, bottom = _text_box(f, text)
    return (round(xy[0] + left), round(xy[1] + top), round(xy[0] + right), round(xy[1] + bottom))


def _bbox(poly: Poly) -> Rect:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return (int(min(xs)), int(min(ys)), int(max(xs) + 1), int(max(ys) + 1))


def _height_figure(cv: Canvas, cam: Camera, value: Rect, centre: Point, height: int) -> Rect:
    """From above: the height just right of the value, a small "×" over it, each ringed in
    the board's colour.  It reaches over the face's edge, into the gap between this value
    and the next column's (which stands as far right as the values are wide): the values
    keep the size the laptop preview needs, and the figure covers none of them."""
    f, tf = figure_font(cam), times_font(cam)
    text = str(height)
    left, top, right, bottom = _text_box(f, text)
    x = value[2] + 1 - left
    y = centre[1] + cam.hw - 1 - bottom  # its foot on the face's lower edge
    tl, _tt, tr, tb = _text_box(tf, "×")
    cv.ink((x + (left + right) / 2 - (tl + tr) / 2, y + top - 1 - tb), "×", tf, TAG_EDGE, stroke=BOARD)
    return cv.ink((x, y), text, f, TAG_EDGE, stroke=BOARD)


def _tag(cv: Canvas, cam: Camera, col: Column, centre: Point, g: DieGlyph, taken: list[Rect], bounds: Rect) -> DieGlyph:
    """The value of a column a taller one in front hides, on a tag just above its top face
    (its height beside it, ×3, for a column of two or more)."""
    vf = value_font(cam)
    text = str(col.value)
    h = len(col.keys)
    top_c = cam.top_centre(centre, h)
    tw = round(text_width(vf, text)) + 8
    th = round(1.7 * cam.hw) + 6
    fig = f"×{h}" if h >= 2 else ""
    sf = tag_figure_font(cam)
    fw = round(text_width(sf, fig)) + 4 if fig else 0
    width = tw + fw
    up = -cam.hw - th / 2 - 2
    cands = [(0.0, up), (-cam.w, up), (cam.w, up), (0.0, up - th), (-1.6 * cam.w, 0.0), (1.6 * cam.w, 0.0)]
    cands += [(dx * cam.w, up - k * th) for k in (0, 1, 2, 3, 4) for dx in (-1.2, 1.2, -2.4, 2.4, -3.6, 3.6)]
    # the nearest place that covers no value, no text and no other tag, else the one that
    # covers fewest
    rect, fewest = (0, 0, 0, 0), -1
    for dx, dy in cands:
        cx, cy = top_c[0] + dx, top_c[1] + dy
        x0 = min(max(round(cx - width / 2), bounds[0] + 2), bounds[2] - 2 - width)
        y0 = min(max(round(cy - th / 2), bounds[1] + 2), bounds[3] - 2 - th)
        x1, y1 = x0 + width, y0 + th
        covers = sum(1 for t in taken if x0 < t[2] and t[0] < x1 and y0 < t[3] and t[1] < y1)
        if fewest < 0 or covers < fewest:
            rect, fewest = (x0, y0, x1, y1), covers
            if not covers:
                break
    t, _l, _r, _edge = shades(col.keys[-1])
    cv.draw.rounded_rectangle(rect, radius=5, fill=t, outline=TAG_EDGE, width=2)
    # a short stem down to the top face it belongs to
    cv.draw.line([((rect[0] + rect[2]) / 2, rect[3]), (top_c[0], top_c[1])], fill=TAG_EDGE, width=2)
    ink = pal.contrast_ink(t)
    mid = (rect[1] + rect[3]) / 2
    box = cv.ink((rect[0] + 4 + (tw - 8) / 2, mid + 1), text, vf, ink)
    hbox = None
    if fig:
        hbox = cv.ink((rect[2] - 3, mid + 1), fig, sf, ink, anchor="rm")
    return DieGlyph(
        g.where, g.value, h, box, rect, body=g.body, height_box=hbox, lit=g.lit, tag=True, outline=g.outline
    )


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def draw_die(cv: Canvas, cam: Camera, xy: tuple[int, int], die: Die, record: list[DieGlyph] | None = None) -> Rect:
    """A loose die with its bounding box's top left at ``xy``; returns that box."""
    centre = (xy[0] + cam.w + 1, xy[1] + cam.v + cam.hw + 1)
    draw_column(cv, cam, centre, (die.key,), die.lit)
    top = cam.cube(centre, 1)[0]
    cx, cy = cam.top_centre(centre, 1)
    t = shades(die.key)[0]
    box = cv.ink((cx, cy + 1), str(die.value), value_font(cam), pal.contrast_ink(t), stroke=ring_of(die.key))
    g = DieGlyph(die.where, die.value, 1, box, _bbox(top), body=cam.column_box(centre, 1), lit=die.lit,
                 outline=cam.outline(centre, 1))  # fmt: skip
    (cv.dice if record is None else record).append(g)
    w, h = cam.die_size()
    return (xy[0], xy[1], xy[0] + w, xy[1] + h)


def draw_slot(cv: Canvas, cam: Camera, xy: tuple[int, int]) -> None:
    """An empty place for a die (on an artist card): the outline of its floor."""
    centre = (xy[0] + cam.w + 1, xy[1] + cam.v + cam.hw + 1)
    top = cam.cube(centre, 0)[0]
    cv.draw.polygon(top, outline=GHOST_EDGE, width=2)
