"""The SVG surface: ``SvgCanvas`` takes the drawing calls a ``Canvas`` takes (Pillow's
shapes, texts with Pillow's anchors, cached layers) and writes them as SVG elements, so the
web board is the very drawing the PNGs are, through the same scene, camera and layout.

It records the same layout model (text boxes, dice) as a Canvas: every box is measured with
the same DejaVu Sans through Pillow, so the two surfaces put every die and text on the same
pixels.  Groups (``open``/``close``) and cells (``cell``) are the web page's hooks.
Colours and type sizes are CSS classes named from their content, so two documents in one
page never give one name two meanings.  Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw

from . import palette as pal
from .canvas import Box, Canvas, Layer, stroked_masks, text_mask
from .fonts import Font

SVG_NS = "http://www.w3.org/2000/svg"
FONT_FAMILY = "DejaVu Sans, sans-serif"
RING_WIDTH = 3


def num(v: float) -> str:
    """A coordinate: an integer, else one decimal."""
    r = round(v, 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


@lru_cache(maxsize=1024)
def hexc(rgb: tuple[int, ...]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb[:3])


def attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def _points(xy: Any) -> list[tuple[float, float]]:
    """Pillow's coordinates (pairs or a flat sequence) as pairs."""
    flat: list[float] = []
    for v in xy:
        if isinstance(v, int | float):
            flat.append(v)
        else:
            flat.extend(v)
    return list(zip(flat[0::2], flat[1::2], strict=True))


@lru_cache(maxsize=1024)
def _paint_rule(fill: tuple[int, ...] | None, outline: tuple[int, ...] | None, width: int) -> str:
    rule = "fill:none" if fill is None else f"fill:{hexc(fill)}"
    if fill is not None and len(fill) == 4 and fill[3] < 255:
        rule += f";fill-opacity:{fill[3] / 255:.2f}"
    if outline is not None and width > 0:
        rule += f";stroke:{hexc(outline)};stroke-width:{width}px"
    return rule


class SvgDraw(ImageDraw.ImageDraw):
    """Pillow's drawing calls, written as SVG elements into ``out``."""

    def __init__(self, out: list[str], css: Callable[[str], str]) -> None:
        super().__init__(Image.new("1", (1, 1)))
        self.out = out
        self.css = css  # a paint's class name (colours and widths are CSS classes)
        self.origin = (0, 0)  # where the current part's group stands (coordinates are relative to it)

    def shifted(self, xy: Any) -> list[tuple[float, float]]:
        ox, oy = self.origin
        return [(x - ox, y - oy) for x, y in _points(xy)]

    def _paint(self, fill: Any, outline: Any, width: int) -> str:
        rule = _paint_rule(None if fill is None else tuple(fill), None if outline is None else tuple(outline), width)
        return f' class="{self.css(rule)}"'

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in self.shifted(xy))
        self.out.append(f'<polygon points="{pts}"{self._paint(fill, outline, width)}/>')

    def line(self, xy: Any, fill: Any = None, width: int = 0, joint: Any = None) -> None:
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in self.shifted(xy))
        join = ' stroke-linejoin="round"' if joint == "curve" else ""
        self.out.append(f'<polyline points="{pts}"{self._paint(None, fill, max(1, width))}{join}/>')

    def _box(self, xy: Any, width: int) -> tuple[float, float, float, float]:
        (x0, y0), (x1, y1) = self.shifted(xy)
        half = width / 2 if width else 0.0  # Pillow draws an outline inside the box
        return (x0 + half, y0 + half, x1 + 1 - x0 - 2 * half, y1 + 1 - y0 - 2 * half)

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self.rounded_rectangle(xy, 0, fill, outline, width)

    def rounded_rectangle(
        self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None, width: int = 1, **_kw: Any
    ) -> None:
        x, y, w, h = self._box(xy, width if outline is not None else 0)
        r = f' rx="{num(radius)}"' if radius else ""
        paint = self._paint(fill, outline, width)
        self.out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"{r}{paint}/>')

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        x, y, w, h = self._box(xy, width if outline is not None else 0)
        self.out.append(
            f'<ellipse cx="{num(x + w / 2)}" cy="{num(y + h / 2)}" rx="{num(w / 2)}" ry="{num(h / 2)}"'
            f"{self._paint(fill, outline, width)}/>"
        )

    def point(self, xy: Any, fill: Any = None) -> None:
        for x, y in self.shifted(xy):
            self.out.append(f'<rect x="{num(x)}" y="{num(y)}" width="1" height="1"{self._paint(fill, None, 0)}/>')


@lru_cache(maxsize=1024)
def _text_rule(f: Font, fill: tuple[int, ...], horizontal: str, stroke: tuple[int, ...] | None, sw: int) -> str:
    rule = f"font-size:{f.size}px;fill:{hexc(fill)}"
    if "bold" in (f.getname()[1] or "").lower():
        rule += ";font-weight:700"
    if horizontal != "l":
        rule += ";text-anchor:" + ("middle" if horizontal == "m" else "end")
    if stroke is not None:
        rule += f";stroke:{hexc(stroke)};stroke-width:{2 * sw}px;paint-order:stroke;stroke-linejoin:round"
    return rule


@lru_cache(maxsize=8192)
def _baseline(text: str, f: Font, anchor: str) -> float:
    """How far below the anchor point Pillow puts the baseline, for ``anchor``."""
    return float(f.getbbox(text, anchor=anchor)[1] - f.getbbox(text, anchor=anchor[0] + "s")[1])


class SvgCanvas(Canvas):
    """A Canvas that writes SVG: the same calls, the same recorded boxes."""

    hooks = True

    def __init__(self, width: int, height: int, background: tuple[int, int, int]) -> None:
        self.width, self.height = width, height
        self.body: list[str] = []
        self.boxes: list[Box] = []
        self.pen = SvgDraw(self.body, self._class)
        self.draw = self.pen
        self.dice = []
        self.status = None
        self.targets = []
        self.recap = []
        self.classes: dict[str, str] = {}
        self.cuts: list[int] = []  # where each top-level group ended in ``body``
        self._depth = 0
        self.draw.rectangle((0, 0, width - 1, height - 1), fill=background)
        self.cuts.append(len(self.body))  # the background, a piece of its own

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def _class(self, rule: str) -> str:
        name = self.classes.get(rule)
        if name is None:
            name = self.classes[rule] = "t" + hashlib.blake2s(rule.encode(), digest_size=3).hexdigest()
        return name

    def _write(
        self,
        xy: tuple[float, float],
        text: str,
        f: Font,
        fill: Sequence[int],
        anchor: str,
        stroke: Sequence[int] | None = None,
        sw: int = 0,
    ) -> None:
        if not text:
            return
        ox, oy = self.pen.origin
        x, y = xy[0] - ox, xy[1] - oy + _baseline(text, f, anchor)
        cls = self._class(_text_rule(f, tuple(fill), anchor[0], None if stroke is None else tuple(stroke), sw))
        self.body.append(f'<text x="{num(x)}" y="{num(y)}" class="{cls}">{escape(text)}</text>')

    def ink(
        self,
        xy: tuple[float, float],
        text: str,
        f: Font,
        fill: tuple[int, int, int],
        anchor: str = "mm",
        stroke: tuple[int, int, int] | None = None,
    ) -> tuple[int, int, int, int]:
        x, y = round(xy[0]), round(xy[1])
        if stroke is not None:
            outer, _inner, dx, dy, sw = stroked_masks(text, f, anchor)
            self._write((x, y), text, f, fill, anchor, stroke, sw)
            w, h = outer.size
            return (x + dx + sw, y + dy + sw, x + dx + w - sw, y + dy + h - sw)
        mask, dx, dy = text_mask(text, f, anchor)
        self._write((x, y), text, f, fill, anchor)
        return (x + dx, y + dy, x + dx + mask.size[0], y + dy + mask.size[1])

    def paste(self, im: Image.Image, xy: tuple[int, int]) -> None:
        raise TypeError("an SVG surface draws layers from their calls, not pictures")

    def layer(self, layer: Layer, xy: tuple[int, int], parent: str) -> None:
        """Draw a cached layer again from its calls, shifted to ``xy``."""
        x, y = xy
        origin = self.pen.origin
        self.body.append(f'<g transform="translate({x - origin[0]} {y - origin[1]})">')
        self.pen.origin = (0, 0)  # the layer's own coordinates
        for name, args, kw in layer.ops:
            if name == "text":
                (tx, ty), text = args
                self._write((tx, ty), text, kw["font"], kw["fill"], kw["anchor"] or "la")
            else:
                getattr(self.draw, name)(*args, **kw)
        self.pen.origin = origin
        self.body.append("</g>")
        for text, (left, top, right, bottom) in layer.texts:
            self.boxes.append(Box("text", text, (left + x, top + y, right + x, bottom + y), parent))

    def open(self, at: tuple[int, int] = (0, 0), **attrs: str) -> None:
        """A part's group is drawn in its own coordinates, from ``at``, placed by a group of
        its own (a piece apart): when a move shifts the parts, only those small pieces change."""
        if self._depth == 0:
            self.cuts.append(len(self.body))
            self.body.append(f'<g transform="translate({at[0]} {at[1]})">')
            self.cuts.append(len(self.body))
            self.pen.origin = at
        self._depth += 1
        names = "".join(f' {k.rstrip("_").replace("_", "-")}="{attr(v)}"' for k, v in attrs.items())
        self.body.append(f"<g{names}>")

    def close(self) -> None:
        self.body.append("</g>")
        self._depth -= 1
        if self._depth == 0:
            self.cuts.append(len(self.body))
            self.body.append("</g>")
            self.cuts.append(len(self.body))
            self.pen.origin = (0, 0)

    def cell(self, ident: str, area: tuple[tuple[float, float], ...], ring: tuple[tuple[float, float], ...]) -> None:
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in self.pen.shifted(area))
        rpts = " ".join(f"{num(x)},{num(y)}" for x, y in self.pen.shifted(ring))
        self.body.append(
            f'<g class="cell" data-cell="{attr(ident)}"><polygon class="sq" points="{pts}"/>'
            f'<polygon class="ring" points="{rpts}"/></g>'
        )

    def style(self) -> str:
        """The document's style rules: its texts' classes, then the cells' (a ring shows
        when the page gives its cell the class ``glow``)."""
        rules = "".join(f".{name}{{{rule}}}" for rule, name in self.classes.items())
        return rules + (
            f"svg .ring{{fill:none;stroke:{hexc(pal.HIGHLIGHT_EDGE)};stroke-width:{RING_WIDTH}px;visibility:hidden}}"
            "svg .glow>.ring{visibility:visible}svg .sq{fill:#fff;fill-opacity:0;stroke:none}"
        )

    def head(self, label: str) -> str:
        w, h = self.size
        return (
            f'<svg xmlns="{SVG_NS}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
            f'aria-label="{attr(label)}" font-family="{FONT_FAMILY}">'
        )

    def sections(self) -> list[str]:
        """The body in pieces: the background, then for each part the group placing it, the
        part, the group's end."""
        cuts = [0, *self.cuts, len(self.body)]
        return ["".join(self.body[a:b]) for a, b in itertools.pairwise(cuts) if b > a]

    def document(self, label: str) -> str:
        return self.head(label) + f"<style>{self.style()}</style>" + "".join(self.body) + "</svg>"
