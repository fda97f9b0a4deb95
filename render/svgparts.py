"""The SVG drawing surface of render.svg: shapes, texts with Pillow's anchors, cube shapes.

``Svg`` mirrors ``render.canvas.Canvas`` (``text`` returns the same ink box as Canvas.text,
measured with the same DejaVu Sans through Pillow), so the SVG drawings can follow the
Pillow ones step by step and land every text and cube on the same pixels.  Repeated shapes
(a cube column of a given size and height, a ghost column, a board's printed squares, an
owner mark) are ``<defs>`` used by ``<use>``; colours and type sizes are CSS classes made on
first use.  Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from functools import lru_cache
from xml.sax.saxutils import escape

from . import dice
from . import palette as pal
from .fonts import Font, fit_words
from .scene import cam, faces, figure_font, value_font

Rect = tuple[int, int, int, int]
# A drawn piece of a document, ready to paste into another: its body (SVG text), the defs it
# uses (id, element) and the CSS classes it uses (declaration block, name), each in the order
# of first use, so that pasting the pieces of a document in drawing order gives the very text
# drawing them straight into it would (see Svg.paste).
Part = tuple[str, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]
SVG_NS = "http://www.w3.org/2000/svg"
FONT_FAMILY = "DejaVu Sans, sans-serif"
RING_PAD = 2  # a cell's ring: this far outside its column's top face (inside an empty square)
RING_WIDTH = 3


def num(v: float) -> str:
    """A coordinate: an integer, else one decimal."""
    if v.__class__ is int:
        return str(v)
    r = round(v, 1)
    if r == int(r):
        return str(int(r))
    return f"{r:.1f}"


@lru_cache(maxsize=1024)
def hexc(rgb: Sequence[int]) -> str:
    r, g, b = rgb[0], rgb[1], rgb[2]
    if r % 17 == 0 and g % 17 == 0 and b % 17 == 0:
        return f"#{r // 17:x}{g // 17:x}{b // 17:x}"
    return f"#{r:02x}{g:02x}{b:02x}"


def attr(value: str) -> str:
    if "&" in value or "<" in value or ">" in value or '"' in value:
        return escape(value, {'"': "&quot;"})
    return value


@lru_cache(maxsize=8192)
def _ink_box(text: str, f: Font, anchor: str) -> tuple[int, int, int, int]:
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    return left, top, right, bottom


def baseline_offset(text: str, f: Font, vertical: str) -> float:
    """How far below the anchor point Pillow puts the baseline, for anchor ``?{vertical}``.
    Only the top (``t``) and bottom (``b``) anchors depend on the text's own ink; the others
    (ascender, middle, descender) are the font's metrics, the same for every text."""
    if vertical == "s":
        return 0.0
    probe = text if vertical in "tb" and text.strip() else "Hg"
    return _baseline_offset(probe, f, vertical)


@lru_cache(maxsize=8192)
def _baseline_offset(probe: str, f: Font, vertical: str) -> float:
    return float(_ink_box(probe, f, "l" + vertical)[1] - _ink_box(probe, f, "ls")[1])


class Svg:
    """An SVG document being drawn: body elements in painting order, defs, CSS classes."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.body: list[str] = []
        self.defs: dict[str, str] = {}
        self._classes: dict[str, str] = {}

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def add(self, element: str) -> None:
        self.body.append(element)

    def open(self, tag: str = "g", **attrs: str) -> None:
        self.body.append(f"<{tag}{_attrs(attrs)}>")

    def close(self, tag: str = "g") -> None:
        self.body.append(f"</{tag}>")

    def css(self, rule: str, prefix: str = "c") -> str:
        """The class name of a CSS declaration block (made on first use), from its content:
        two documents inlined in one page never give one name two meanings."""
        name = self._classes.get(rule)
        if name is None:
            name = class_name(rule, prefix)
            self._classes[rule] = name
        return name

    def paste(self, part: Part) -> None:
        """A piece drawn apart (on its own Svg, ``part``), as if drawn here: its body appended, its defs and
        classes added where they are new.  (Each is named from its content, so a piece
        drawn apart names them as this one does; a def or class the piece
        uses that this document already has came first here too, so the style and defs
        keep the order of first use.)"""
        body, defs, classes = part
        if body:
            self.body.append(body)
        for ident, element in defs:
            if ident not in self.defs:
                self.defs[ident] = element
        for rule, name in classes:
            if rule not in self._classes:
                self._classes[rule] = name

    def part(self) -> Part:
        return "".join(self.body), tuple(self.defs.items()), tuple(self._classes.items())

    def define(self, ident: str, element: str) -> str:
        """``element`` (holding ``id="{ident}"``) in <defs> once; returns the id."""
        if ident not in self.defs:
            self.defs[ident] = element
        return ident

    # --- shapes --------------------------------------------------------------------------

    def rect(
        self,
        box: tuple[float, float, float, float],
        *,
        fill: Sequence[int] | None,
        outline: Sequence[int] | None = None,
        width: float = 1,
        radius: float = 0,
        opacity: float | None = None,
        corners: tuple[bool, bool, bool, bool] | None = None,
        extra: str = "",
    ) -> None:
        """Pillow's ``rounded_rectangle(box, ...)``: ``box`` inclusive pixel bounds, the
        outline inside them."""
        x0, y0, x1, y1 = box
        w = width if outline is not None else 0
        x, y, ww, hh = x0 + w / 2, y0 + w / 2, x1 - x0 + 1 - w, y1 - y0 + 1 - w
        paint = f' fill="{hexc(fill)}"' if fill is not None else ' fill="none"'
        if opacity is not None and fill is not None:
            paint += f' fill-opacity="{round(opacity, 3)}"'
        if outline is not None:
            paint += f' stroke="{hexc(outline)}"'
            if len(outline) == 4:
                paint += f' stroke-opacity="{round(outline[3] / 255, 2)}"'
            if w != 1:
                paint += f' stroke-width="{num(w)}"'
        r = max(0.0, min(radius - w / 2, ww / 2, hh / 2)) if radius else 0.0
        if corners is not None and r and not all(corners):
            self.add(f'<path d="{rounded_path(x, y, ww, hh, r, corners)}"{paint}{extra}/>')
            return
        rr = f' rx="{num(r)}"' if r else ""
        self.add(f'<rect x="{num(x)}" y="{num(y)}" width="{num(ww)}" height="{num(hh)}"{rr}{paint}{extra}/>')

    def ellipse(self, box: tuple[float, float, float, float], fill: Sequence[int]) -> None:
        x0, y0, x1, y1 = box
        rx, ry = (x1 - x0 + 1) / 2, (y1 - y0 + 1) / 2
        cx, cy = x0 + rx, y0 + ry
        if abs(rx - ry) < 0.01:
            self.add(f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(rx)}" fill="{hexc(fill)}"/>')
        else:
            self.add(f'<ellipse cx="{num(cx)}" cy="{num(cy)}" rx="{num(rx)}" ry="{num(ry)}" fill="{hexc(fill)}"/>')

    def polygon(
        self,
        points: Sequence[tuple[float, float]],
        fill: Sequence[int],
        outline: Sequence[int] | None = None,
        width: float = 1,
    ) -> None:
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        stroke = f' stroke="{hexc(outline)}" stroke-width="{num(width)}"' if outline is not None else ""
        self.add(f'<polygon points="{pts}" fill="{hexc(fill)}"{stroke}/>')

    def line(self, x0: float, y0: float, x1: float, y1: float, colour: Sequence[int], width: float = 1) -> None:
        self.add(
            f'<path d="M{num(x0)} {num(y0)}L{num(x1)} {num(y1)}" stroke="{hexc(colour)}" stroke-width="{num(width)}"/>'
        )

    # --- texts ---------------------------------------------------------------------------

    def text_class(self, f: Font, fill: Sequence[int], horizontal: str, stroke: Sequence[int] | None = None) -> str:
        return self.css(_text_rule(f, tuple(fill), horizontal, None if stroke is None else tuple(stroke)), "t")

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        f: Font,
        fill: Sequence[int],
        *,
        anchor: str = "la",
        max_width: float | None = None,
        stroke: Sequence[int] | None = None,
        extra: str = "",
    ) -> Rect:
        """Canvas.text's drawing: the same anchor (Pillow's), the same fitting, the same
        returned ink box."""
        if max_width is not None:
            text = fit_words(text, f, int(max_width))
        x, y = round(xy[0]), round(xy[1])
        left, top, right, bottom = _ink_box(text, f, anchor)
        rect = (x + left, y + top, x + right, y + bottom)
        if text:
            base = y + baseline_offset(text, f, anchor[1])
            cls = self.text_class(f, fill, anchor[0], stroke)
            self.add(f'<text x="{num(x)}" y="{num(base)}" class="{cls}"{extra}>{escape(text)}</text>')
        return rect

    # --- the document --------------------------------------------------------------------

    def document(self, label: str) -> str:
        head, defs, sections, end = self.pieces(label, ())
        return head + f"<style>{self.style()}</style>" + defs + "".join(sections) + end

    def style(self) -> str:
        """The document's style rules (the classes its elements use, then the rings')."""
        style = "".join(f".{name}{{{rule}}}" for rule, name in self._classes.items())
        return style + (
            "svg .ring{fill:none;stroke:"
            + hexc(pal.HIGHLIGHT_EDGE)
            + f";stroke-width:{RING_WIDTH}px;visibility:hidden}}"
            "svg .glow>.ring{visibility:visible}svg .sq{fill:#fff;fill-opacity:0;stroke:none}"
        )

    def pieces(self, label: str, marks: Sequence[int]) -> tuple[str, str, list[str], str]:
        """The document without its style, in pieces: the opening tag, the defs, the body cut
        at ``marks`` (lengths of ``body`` at which a section ended), the closing tag.  Joined,
        they are ``document`` without its ``<style>`` element."""
        head = (
            f'<svg xmlns="{SVG_NS}" viewBox="0 0 {self.width} {self.height}" width="{self.width}" '
            f'height="{self.height}" role="img" aria-label="{attr(label)}" font-family="{FONT_FAMILY}">'
        )
        cuts = [0, *marks, len(self.body)]
        sections = ["".join(self.body[a:b]) for a, b in itertools.pairwise(cuts) if b > a]
        return head, f"<defs>{''.join(self.defs.values())}</defs>", sections, "</svg>"


@lru_cache(maxsize=1024)
def _text_rule(f: Font, fill: tuple[int, ...], horizontal: str, stroke: tuple[int, ...] | None) -> str:
    """The style rule of a text (every drawing asks for the same few)."""
    bold = "bold" in (f.getname()[1] or "").lower()
    rule = f"font-size:{f.size}px;fill:{hexc(fill)}"
    if bold:
        rule += ";font-weight:700"
    if horizontal != "l":
        rule += ";text-anchor:" + ("middle" if horizontal == "m" else "end")
    if stroke is not None:
        rule += f";stroke:{hexc(stroke)};stroke-width:2px;paint-order:stroke;stroke-linejoin:round"
    else:
        rule += ";stroke:none"
    return rule


@lru_cache(maxsize=1024)
def class_name(rule: str, prefix: str) -> str:
    return prefix + hashlib.blake2s(rule.encode(), digest_size=3).hexdigest()


def _attrs(attrs: dict[str, str]) -> str:
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{attr(v)}"' for k, v in attrs.items())


def rounded_path(x: float, y: float, w: float, h: float, r: float, corners: tuple[bool, bool, bool, bool]) -> str:
    """A rectangle's outline with the corners (top-left, top-right, bottom-right, bottom-left)
    that are True rounded by ``r``."""
    tl, tr, br, bl = (r if k else 0.0 for k in corners)
    parts = [f"M{num(x + tl)} {num(y)}H{num(x + w - tr)}"]
    if tr:
        parts.append(f"a{num(tr)} {num(tr)} 0 0 1 {num(tr)} {num(tr)}")
    parts.append(f"V{num(y + h - br)}")
    if br:
        parts.append(f"a{num(br)} {num(br)} 0 0 1 {num(-br)} {num(br)}")
    parts.append(f"H{num(x + bl)}")
    if bl:
        parts.append(f"a{num(bl)} {num(bl)} 0 0 1 {num(-bl)} {num(-bl)}")
    parts.append(f"V{num(y + tl)}")
    if tl:
        parts.append(f"a{num(tl)} {num(tl)} 0 0 1 {num(tl)} {num(-tl)}")
    return "".join(parts) + "Z"


# --- cubes -------------------------------------------------------------------------------


def key_class(sv: Svg, key: int | str) -> str:
    """The class giving a die's colours to its cube shape: fill (top face), color (front),
    stroke (edges)."""
    top, front, edge = faces(key)
    return sv.css(f"fill:{hexc(top)};color:{hexc(front)};stroke:{hexc(edge)}", "k")


def edge_width(c: int) -> float:
    ss = 3
    return max(ss, round(c / 26 * ss)) / ss


def radius(c: int) -> int:
    return max(2, round(0.13 * c))


def column_def(sv: Svg, c: int, height: int, lh: int) -> str:
    """A column of ``height`` dice seen by the high camera, its top face's top-left at
    (0, 0): the front bands (``color``), the top face (``fill``), the edges (``stroke``)."""
    ident = f"b{c}_{height}_{lh}"
    if ident not in sv.defs:
        sv.defs[ident] = _column_element(ident, c, height, lh)
    return ident


@lru_cache(maxsize=256)
def _column_element(ident: str, c: int, height: int, lh: int) -> str:
    g = cam(c)
    K, w = g.K, g.w
    ew = edge_width(c)
    rad = radius(c)
    fh = max(1, height) * lh
    h2 = ew / 2
    parts = [
        f'<g id="{ident}" stroke-width="{num(ew)}">',
        f'<rect x="{num(h2)}" y="{num(K / 2 + h2)}" width="{num(w - ew)}" height="{num(K / 2 + fh - ew)}" '
        f'rx="{num(rad - h2)}" fill="currentColor"/>',
    ]
    if height > 1:
        joints = "".join(f"M{num(ew)} {num(K + fh - i * lh)}H{num(w - ew)}" for i in range(1, height))
        lights = "".join(f"M{num(ew)} {num(K + fh - i * lh + ew)}H{num(w - ew)}" for i in range(1, height))
        parts.append(f'<path d="{joints}" stroke-width="{num(max(1.0, ew * 2 / 3))}"/>')
        parts.append(f'<path d="{lights}" stroke="#fff" stroke-opacity=".2" stroke-width="1"/>')
    parts.append(
        f'<rect x="{num(h2)}" y="{num(h2)}" width="{num(w - ew)}" height="{num(K - ew + 0.3)}" rx="{num(rad - h2)}"/>'
    )
    parts.append(f'<path d="M{rad} {num(K - ew)}H{w - rad}" stroke="#fff" stroke-opacity=".5" stroke-width="1"/>')
    parts.append("</g>")
    return "".join(parts)


def ghost_def(sv: Svg, c: int, height: int, lh: int) -> str:
    """A faint outline column (a museum place still to build, up to its target height)."""
    ident = f"g{c}_{height}_{lh}"
    if ident not in sv.defs:
        sv.defs[ident] = _ghost_element(ident, c, height, lh)
    return ident


@lru_cache(maxsize=256)
def _ghost_element(ident: str, c: int, height: int, lh: int) -> str:
    g = cam(c)
    K, w = g.K, g.w
    ew = max(3, round(c / 30 * 3)) / 3
    rad = radius(c)
    fh = height * lh
    h2 = ew / 2
    joints = "".join(f"M0 {num(K + fh - i * lh)}H{w}" for i in range(1, height))
    parts = [
        f'<g id="{ident}" stroke="#78624a" stroke-opacity=".67" stroke-width="{num(ew)}">',
        f'<rect x="{num(h2)}" y="{num(K / 2 + h2)}" width="{num(w - ew)}" height="{num(K / 2 + fh - ew)}" '
        f'rx="{num(rad - h2)}" fill="#fff8eb" fill-opacity=".24"/>',
    ]
    if joints:
        parts.append(f'<path d="{joints}"/>')
    parts.append(
        f'<rect x="{num(h2)}" y="{num(h2)}" width="{num(w - ew)}" height="{num(K - ew)}" rx="{num(rad - h2)}" '
        'fill="#fffaf0" fill-opacity=".43"/>'
    )
    parts.append("</g>")
    return "".join(parts)


def mark_def(sv: Svg, mark: str, c: int) -> str:
    """An owner mark (circle, triangle, square, diamond, star) where a cube of width ``c``
    carries it on its top face."""
    ident = f"m{mark[:2]}{c}"
    if ident not in sv.defs:
        sv.defs[ident] = _mark_element(ident, mark, c)
    return ident


@lru_cache(maxsize=64)
def _mark_element(ident: str, mark: str, c: int) -> str:
    g = cam(c)
    pts = dice.mark_points(mark, g.w - 0.15 * c, 0.2 * c, 0.095 * c)
    d = "M" + "L".join(f"{num(x)} {num(y)}" for x, y in pts) + "Z"
    return f'<path id="{ident}" d="{d}"/>'


def cube(
    sv: Svg,
    xy: tuple[float, float],
    c: int,
    key: int | str,
    value: int,
    height: int,
    lh: int,
    *,
    lit: bool = False,
    figure: bool = True,
    die: str = "",
) -> tuple[Rect, Rect | None]:
    """A die or a column standing with its top face's top-left corner at ``xy``: a
    ``<g class="die">`` translated there.  Returns the numeral's and the height figure's
    ink boxes (absolute), as scene.column records them.  ``die``: the die as the move
    notation names it (``data-die``: "4" in the storeroom, "x4" abandoned, "i2.1" on a card).
    Drawn once per place and look (``cube_part``)."""
    part, glyph, fig = cube_part(xy[0], xy[1], c, key, value, height, lh, lit, figure, die)
    sv.paste(part)
    return glyph, fig


@lru_cache(maxsize=1024)
def cube_part(
    x: float, y: float, c: int, key: int | str, value: int, height: int, lh: int, lit: bool, figure: bool, die: str
) -> tuple[Part, Rect, Rect | None]:
    sv = Svg(0, 0)
    glyph, fig = draw_cube(sv, (x, y), c, key, value, height, lh, lit=lit, figure=figure, die=die)
    return sv.part(), glyph, fig


def draw_cube(
    sv: Svg,
    xy: tuple[float, float],
    c: int,
    key: int | str,
    value: int,
    height: int,
    lh: int,
    *,
    lit: bool = False,
    figure: bool = True,
    die: str = "",
) -> tuple[Rect, Rect | None]:
    """``cube``, drawn straight into ``sv``."""
    g = cam(c)
    R, K, w = g.R, g.K, g.w
    x, y = xy
    top_c, front_c, _edge = faces(key)
    where = {"data_die": die} if die else {}
    sv.open("g", class_="die " + key_class(sv, key), transform=f"translate({num(x)} {num(y)})", **where)
    fh = max(1, height) * lh
    if lit:
        rad = radius(c)
        sv.rect((-R, -R, w + R - 1, K + fh + R - 1), fill=pal.HIGHLIGHT_EDGE, radius=rad + R)
        sv.rect((-R + 1, -R + 1, w + R - 2, K + fh + R - 2), fill=pal.HIGHLIGHT, radius=rad + R - 1)
    sv.add(f'<use href="#{column_def(sv, c, height, lh)}"/>')
    ink = pal.contrast_ink(top_c)
    mark = pal.die_mark(key)
    if mark:
        sv.add(f'<use href="#{mark_def(sv, mark, c)}" fill="{hexc(ink)}" stroke="none"/>')
    glyph = (0, 0, 0, 0)
    if value:
        f = value_font(c)
        cx, cy = 0.42 * c, K / 2 + 1
        gl = _ink_box(str(value), f, "mm")
        cls = sv.text_class(f, ink, "m")
        base = cy + baseline_offset(str(value), f, "m")
        sv.add(f'<text x="{num(cx)}" y="{num(base)}" class="{cls}">{value}</text>')
        glyph = (round(x + cx) + gl[0], round(y + cy) + gl[1], round(x + cx) + gl[2], round(y + cy) + gl[3])
    fig: Rect | None = None
    if height >= 2 and figure:
        fig = _figure(sv, c, height, lh, front_c, (x, y))
    sv.close()
    return glyph, fig


def _figure(
    sv: Svg,
    c: int,
    height: int,
    lh: int,
    front_c: pal.RGB,
    origin: tuple[float, float],
) -> Rect:
    """The height figure "×3" (scene._figure) on the front face, just under the top face, in
    the die's own coordinates; returns its ink box on the picture."""
    g = cam(c)
    K, w = g.K, g.w
    text = f"×{height}"
    f = figure_font(c)
    zone = min(height * lh, 2 * lh)  # the top two bands: the part a column in front hides last
    ink_h = f.getbbox(text, anchor="mm")
    cx, cy = w / 2, K + max(zone / 2, (ink_h[3] - ink_h[1]) / 2 + 1)
    fill, stroke = (255, 255, 255), pal.mix(front_c, (0, 0, 0), 0.55)
    left, top, right, bottom = _ink_box(text, f, "mm")
    cls = sv.text_class(f, fill, "m", stroke)
    sv.add(f'<text x="{num(cx)}" y="{num(cy + baseline_offset(text, f, "m"))}" class="{cls}">{text}</text>')
    ox, oy = origin
    return (round(ox + cx) + left, round(oy + cy) + top, round(ox + cx) + right, round(oy + cy) + bottom)


def shadow_rect(sv: Svg, xy: tuple[float, float], c: int, height: int, lh: int) -> None:
    """scene.shadow: a soft shadow on the floor under a column whose top face's top-left is
    ``xy`` (drawn inside a blurred group, see ``shadow_group``)."""
    sv.body.append(_shadow(xy[0], xy[1], c, height, lh))


@lru_cache(maxsize=2048)
def _shadow(x0: float, y0: float, c: int, height: int, lh: int) -> str:
    g = cam(c)
    off_x, off_y = round(0.1 * c + 0.05 * c * height), round(0.06 * c)
    foot_h = g.K // 2 + lh
    alpha = min(120, 70 + 14 * height) / 255
    x = x0 + off_x
    y = y0 + g.K + height * lh - foot_h + off_y
    return (
        f'<rect x="{num(x)}" y="{num(y)}" width="{g.w}" height="{foot_h}" rx="{max(2, c // 8)}" '
        f'fill-opacity="{round(alpha, 2)}"/>'
    )


def shadow_group(sv: Svg, c: int) -> None:
    """Open a group whose rectangles are blurred shadows of cubes of width ``c``."""
    blur = max(2, round(0.09 * c))
    ident = f"s{blur}"
    sv.define(
        ident,
        f'<filter id="{ident}" x="-50%" y="-50%" width="200%" height="200%">'
        f'<feGaussianBlur stdDeviation="{num(blur * 0.8)}"/></filter>',
    )
    sv.open("g", fill=hexc((60, 36, 12)), filter=f"url(#{ident})")
