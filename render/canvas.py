"""A drawing surface that records the boxes of its panels and texts (for layout tests).

``Canvas`` draws with Pillow; render.svgcanvas.SvgCanvas is the same surface writing SVG,
so one drawing (render.tableview, render.cubes) makes both the PNGs and the web board."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from PIL import Image, ImageDraw

from .fonts import Font, fit_words
from .model import DieGlyph

Rect = tuple[int, int, int, int]


class Writes(Protocol):
    """What the layouts both drawings share need of a surface: text at a point (Pillow's
    anchors, fitted to ``max_width``), returning its ink box.  A Canvas through
    through ``Canvas.within``."""

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        f: Font,
        fill: tuple[int, int, int],
        *,
        anchor: str = "la",
        max_width: float | None = None,
    ) -> Rect: ...


@dataclass(frozen=True, slots=True)
class Box:
    kind: str  # "panel" or "text"
    name: str
    rect: Rect
    parent: str  # the panel it belongs to ("" for top-level panels)


class Canvas:
    hooks = False  # draws the web page's cells (render.svgcanvas); a picture has none

    def __init__(
        self,
        width: int,
        height: int,
        background: tuple[int, int, int],
        base: tuple[Image.Image, tuple[Box, ...]] | None = None,
    ) -> None:
        """A blank canvas, or a copy of ``base`` (a prepared picture and its boxes)."""
        if base is not None:
            self.img = base[0].copy()
            self.boxes: list[Box] = list(base[1])
        else:
            self.img = Image.new("RGB", (width, height), background)
            self.boxes = []
        self.draw = ImageDraw.Draw(self.img)
        self.dice: list[DieGlyph] = []  # the layout model of the dice drawn (render.model), in drawing order
        self.status: Rect | None = None  # the "▶ Ann to play" line's box
        self.targets: list[tuple[str, int, Rect]] = []  # museum places to build: where, height, its figure's box
        self.recap: list[DieGlyph] = []  # the last turn's dice again, drawn large in the header

    def freeze(self) -> tuple[Image.Image, tuple[Box, ...]]:
        """The picture so far and its boxes, to start other canvases from."""
        return (self.img.copy(), tuple(self.boxes))

    @property
    def size(self) -> tuple[int, int]:
        return self.img.size

    @property
    def pastes(self) -> bool:
        """Takes prepared pictures (``paste``, sprites): a Pillow canvas does; the SVG surface,
        which refuses them, is drawn call by call."""
        return type(self).paste is Canvas.paste

    def panel(
        self,
        name: str,
        rect: Rect,
        *,
        fill: tuple[int, int, int] | None,
        outline: tuple[int, int, int] | None,
        width: int = 2,
        radius: int = 12,
        parent: str = "",
    ) -> None:
        if fill is not None or outline is not None:
            self.draw.rounded_rectangle(rect, radius=radius, fill=fill, outline=outline, width=width)
        self.boxes.append(Box("panel", name, rect, parent))

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        f: Font,
        fill: tuple[int, int, int],
        *,
        anchor: str = "la",
        max_width: float | None = None,
        parent: str = "",
    ) -> Rect:
        """Draw text (as ``ink`` draws it, on whichever surface) and record its box."""
        if max_width is not None:
            text = _fit(text, f, int(max_width))
        rect = self.ink(xy, text, f, fill, anchor)
        self.boxes.append(Box("text", text, rect, parent))
        return rect

    def ink(
        self,
        xy: tuple[float, float],
        text: str,
        f: Font,
        fill: tuple[int, int, int],
        anchor: str = "mm",
        stroke: tuple[int, int, int] | None = None,
    ) -> Rect:
        """Draw text that the layout model records otherwise (a die's value): no text box;
        with ``stroke``, ringed in that colour (a value that reaches over its face's edges)."""
        if stroke is not None:
            ringed, outer, dx, dy, sw = ringed_text(text, f, anchor, fill, stroke)
            x, y = round(xy[0]) + dx, round(xy[1]) + dy
            w, h = outer.size
            if w and h:
                self.img.paste(ringed, (x, y, x + w, y + h), outer)
            return (x + sw, y + sw, x + w - sw, y + h - sw)
        mask, dx, dy = text_mask(text, f, anchor)
        x, y = round(xy[0]) + dx, round(xy[1]) + dy
        w, h = mask.size
        if w and h:
            self.img.paste(fill, (x, y, x + w, y + h), mask)
        return (x, y, x + w, y + h)

    def open(self, at: tuple[int, int] = (0, 0), **attrs: str) -> None:
        """Start a group (``class_="player", data_seat="0"``), a part of the table whose box
        starts ``at``: the web board's hooks, an SVG ``<g>``; nothing on a picture."""

    def close(self) -> None:
        """End the group ``open`` started."""

    def cell(self, ident: str, area: tuple[tuple[float, float], ...], ring: tuple[tuple[float, float], ...]) -> None:
        """A board cell the web page may light and take taps on (``data-cell``): its
        ``area`` (the column standing there, or its floor) and its ``ring``; nothing on a picture."""

    def within(self, parent: str) -> Within:
        """This canvas as ``Writes``: its texts recorded in the panel ``parent``."""
        return Within(self, parent)

    def paste(self, im: Image.Image, xy: tuple[int, int]) -> None:
        if im.mode == "RGBA":
            self.img.paste(im, xy, im)
        else:
            self.img.paste(im, xy)

    def layer(self, layer: Layer, xy: tuple[int, int], parent: str) -> None:
        """Paste a cached layer and record its text boxes, shifted to ``xy``."""
        self.paste(layer.image, xy)
        x, y = xy
        for name, (left, top, right, bottom) in layer.texts:
            self.boxes.append(Box("text", name, (left + x, top + y, right + x, bottom + y), parent))


class Within:
    """A canvas's texts, recorded in one panel (``Canvas.within``)."""

    __slots__ = ("cv", "parent")

    def __init__(self, cv: Canvas, parent: str) -> None:
        self.cv, self.parent = cv, parent

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        f: Font,
        fill: tuple[int, int, int],
        *,
        anchor: str = "la",
        max_width: float | None = None,
    ) -> Rect:
        return self.cv.text(xy, text, f, fill, anchor=anchor, max_width=max_width, parent=self.parent)


Op = tuple[str, tuple[Any, ...], dict[str, Any]]  # a drawing call: its name, arguments, keywords


@dataclass(frozen=True, slots=True)
class Layer:
    """A prepared picture (a card, a floor grid), the text boxes drawn on it and the calls
    that drew it (to draw it again on another surface)."""

    image: Image.Image
    texts: tuple[tuple[str, Rect], ...]
    ops: tuple[Op, ...] = ()


class RecordingDraw(ImageDraw.ImageDraw):
    """Pillow's drawing, remembering its calls (``ops``)."""

    def __init__(self, im: Image.Image) -> None:
        super().__init__(im)
        self.ops: list[Op] = []

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self.ops.append(("polygon", (xy,), {"fill": fill, "outline": outline, "width": width}))
        super().polygon(xy, fill=fill, outline=outline, width=width)

    def text(
        self, xy: Any, text: Any, fill: Any = None, font: Any = None, anchor: Any = None, *a: Any, **kw: Any
    ) -> None:
        self.ops.append(("text", (xy, text), {"fill": fill, "font": font, "anchor": anchor}))
        super().text(xy, text, fill, font, anchor, *a, **kw)


class LayerBuilder:
    """Draw a layer once, remembering where its texts went."""

    def __init__(self, width: int, height: int, mode: str = "RGBA", background: tuple[int, ...] = (0, 0, 0, 0)) -> None:
        self.img = Image.new(mode, (width, height), background)
        self.draw = RecordingDraw(self.img)
        self.texts: list[tuple[str, Rect]] = []

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        f: Font,
        fill: tuple[int, ...],
        *,
        anchor: str = "la",
        max_width: float | None = None,
    ) -> Rect:
        if max_width is not None:
            text = fit_words(text, f, max_width)
        self.draw.text(xy, text, font=f, fill=fill, anchor=anchor)
        left, top, right, bottom = self.draw.textbbox(xy, text, font=f, anchor=anchor)
        rect = (int(left), int(top), int(right), int(bottom))
        self.texts.append((text, rect))
        return rect

    def paste(self, im: Image.Image, xy: tuple[int, int]) -> None:
        if im.mode == "RGBA":
            if self.img.mode == "RGBA":
                self.img.alpha_composite(im, xy)
            else:
                self.img.paste(im, xy, im)
        else:
            self.img.paste(im, xy)

    def build(self) -> Layer:
        return Layer(self.img, tuple(self.texts), tuple(self.draw.ops))


@lru_cache(maxsize=4096)
def _fit(text: str, f: Font, max_width: int) -> str:
    return fit_words(text, f, max_width)


@lru_cache(maxsize=8192)
def text_mask(text: str, f: Font, anchor: str) -> tuple[Image.Image, int, int]:
    """The antialiased glyph mask of ``text`` and its offset from the anchor point."""
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    im = Image.new("L", (max(0, right - left), max(0, bottom - top)), 0)
    if right > left and bottom > top:
        ImageDraw.Draw(im).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return im, left, top


@lru_cache(maxsize=1024)
def ringed_text(
    text: str, f: Font, anchor: str, fill: tuple[int, int, int], stroke: tuple[int, int, int]
) -> tuple[Image.Image, Image.Image, int, int, int]:
    """``text`` in ``fill`` ringed in ``stroke``, ready to paste in one go: its colours, the
    mask of the ring and text together, their offset from the anchor point and the ring's width."""
    outer, inner, dx, dy, sw = stroked_masks(text, f, anchor)
    colours = Image.composite(Image.new("RGB", outer.size, fill), Image.new("RGB", outer.size, stroke), inner)
    return colours, outer, dx, dy, sw


@lru_cache(maxsize=1024)
def stroked_masks(text: str, f: Font, anchor: str) -> tuple[Image.Image, Image.Image, int, int, int]:
    """The masks of ``text`` with a ring around it and of the text alone, their offset from
    the anchor point, and the ring's width."""
    sw = max(1, round(f.size / 15))
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor, stroke_width=sw))
    size = (max(0, right - left), max(0, bottom - top))
    outer, inner = Image.new("L", size, 0), Image.new("L", size, 0)
    if size[0] and size[1]:
        ImageDraw.Draw(outer).text(
            (-left, -top), text, font=f, fill=255, anchor=anchor, stroke_width=sw, stroke_fill=255
        )
        ImageDraw.Draw(inner).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return outer, inner, left, top, sw
