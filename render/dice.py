"""Pre-rendered isometric dice sprites.

Every sprite is drawn once at 4x and scaled down (antialiased edges), then cached per
(size, colour key, value, highlight, numerals).  A sprite's anchor is the top vertex of
the cube's top face, at ``(MARGIN + a, MARGIN)`` inside the sprite.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from . import palette as pal
from .fonts import font
from .iso import Iso, iso

SS = 4  # supersampling factor
MARGIN = 5  # room for the highlight ring

PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.25, 0.5), (0.25, 0.78), (0.75, 0.22), (0.75, 0.5), (0.75, 0.78)),
}


def _shape_points(mark: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Outline of an owner mark centred on (cx, cy) in unit-ish coordinates."""
    if mark == "circle":
        return [(cx + r * math.cos(t * math.pi / 12), cy + r * math.sin(t * math.pi / 12)) for t in range(24)]
    if mark == "triangle":
        return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in (-90, 30, 150)]
    if mark == "square":
        q = r * 0.82
        return [(cx - q, cy - q), (cx + q, cy - q), (cx + q, cy + q), (cx - q, cy + q)]
    if mark == "diamond":
        return [(cx, cy - r * 1.1), (cx + r * 0.85, cy), (cx, cy + r * 1.1), (cx - r * 0.85, cy)]
    if mark == "star":
        pts = []
        for i in range(10):
            rr = r * (1.15 if i % 2 == 0 else 0.5)
            ang = math.radians(-90 + 36 * i)
            pts.append((cx + rr * math.cos(ang), cy + rr * math.sin(ang)))
        return pts
    raise ValueError(mark)


def mark_points(mark: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Screen-space outline of an owner mark (for legends next to text)."""
    return _shape_points(mark, cx, cy, r)


def draw_mark(
    draw: ImageDraw.ImageDraw,
    mark: str,
    cx: float,
    cy: float,
    r: float,
    fill: tuple[int, ...],
    outline: tuple[int, ...] | None = None,
    width: int = 1,
) -> None:
    draw.polygon(_shape_points(mark, cx, cy, r), fill=fill, outline=outline, width=width)


FPoint = tuple[float, float]


def _faces(g: Iso, ox: float, oy: float, k: float) -> tuple[list[FPoint], list[FPoint], list[FPoint], list[FPoint]]:
    """Top, left, right faces and the hexagon outline, scaled by k, anchored at (ox, oy)."""
    a, b, v = g.a * k, g.b * k, g.v * k
    top = [(ox, oy), (ox + a, oy + b), (ox, oy + 2 * b), (ox - a, oy + b)]
    left = [(ox - a, oy + b), (ox, oy + 2 * b), (ox, oy + 2 * b + v), (ox - a, oy + b + v)]
    right = [(ox, oy + 2 * b), (ox + a, oy + b), (ox + a, oy + b + v), (ox, oy + 2 * b + v)]
    hexagon = [
        (ox, oy),
        (ox + a, oy + b),
        (ox + a, oy + b + v),
        (ox, oy + 2 * b + v),
        (ox - a, oy + b + v),
        (ox - a, oy + b),
    ]
    return top, left, right, hexagon


def _grow(poly: Sequence[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """A convex polygon pushed outwards by about ``d`` (scaled about its centre)."""
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    out = []
    for x, y in poly:
        dx, dy = x - cx, y - cy
        n = math.hypot(dx, dy) or 1
        out.append((x + dx / n * d, y + dy / n * d))
    return out


def sprite_size(s: int) -> tuple[int, int]:
    g = iso(s)
    return (2 * g.a + 2 * MARGIN, 2 * g.b + g.v + 2 * MARGIN)


def anchor(s: int) -> tuple[int, int]:
    """Where the top vertex of the top face sits inside the sprite."""
    return (MARGIN + iso(s).a, MARGIN)


def _canvas(s: int) -> tuple[Iso, Image.Image, ImageDraw.ImageDraw, int, int]:
    """A sprite's transparent canvas, drawn SS times larger (then shrunk for smooth edges),
    and where its cube's top vertex sits on it."""
    g = iso(s)
    w, h = sprite_size(s)
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    return g, big, ImageDraw.Draw(big), (MARGIN + g.a) * SS, MARGIN * SS


@lru_cache(maxsize=1024)
def cube(s: int, key: int | str, value: int = 0, highlight: bool = False, numerals: bool = False) -> Image.Image:
    """An RGBA sprite of one die (value 0: blank top face)."""
    g, big, d, ox, oy = _canvas(s)
    top, left, right, hexagon = _faces(g, ox, oy, SS)
    base = pal.die_colour(key)
    if highlight:
        ring = _grow(hexagon, (MARGIN - 0.5) * SS)
        d.polygon(ring, fill=pal.HIGHLIGHT_EDGE)
        d.polygon(_grow(hexagon, (MARGIN - 2) * SS), fill=pal.HIGHLIGHT)
    edge = pal.mix(base, (0, 0, 0), 0.55)
    ew = max(1, round(SS * max(1.0, s / 30)))
    top_colour = pal.mix(base, (255, 255, 255), 0.42)
    d.polygon(top, fill=top_colour)
    d.polygon(left, fill=pal.mix(base, (0, 0, 0), 0.08))
    d.polygon(right, fill=pal.mix(base, (0, 0, 0), 0.30))
    for poly in (top, left, right):
        d.polygon(poly, outline=edge, width=ew)
    ink = pal.contrast_ink(top_colour)
    if value:
        if numerals:
            f = font(max(8, round(g.b * 1.45 * SS)), bold=True)
            d.text((ox, oy + g.b * SS), str(value), font=f, fill=ink, anchor="mm")
        else:
            r = 0.105 if value != 6 else 0.095
            rx, ry = r * g.a * math.sqrt(2) * SS, r * g.b * math.sqrt(2) * SS
            for u, wv in PIPS[value]:
                px = ox + (u - wv) * g.a * SS
                py = oy + (u + wv) * g.b * SS
                d.ellipse((px - rx, py - ry, px + rx, py + ry), fill=ink)
    mark = pal.die_mark(key)
    if mark:
        # Printed on the right face, in face coordinates (u along the top edge, t down).
        right_colour = pal.mix(base, (0, 0, 0), 0.30)
        mink = (255, 255, 255) if pal.luminance(right_colour) < 0.3 else (20, 20, 25)
        cx0, cy0 = ox, oy + 2 * g.b * SS  # face corner: front vertex of the top face
        pts = []
        for px, py in _shape_points(mark, 0.5, 0.5, 0.24):
            pts.append((cx0 + px * g.a * SS, cy0 - px * g.b * SS + py * g.v * SS))
        d.polygon(pts, fill=mink)
    return big.resize(sprite_size(s), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def ghost(s: int) -> Image.Image:
    """A faint outline cube: an empty place of a plan still to be built."""
    g, big, d, ox, oy = _canvas(s)
    top, left, right, _hexagon = _faces(g, ox, oy, SS)
    d.polygon(top, fill=(255, 255, 255, 45))
    d.polygon(left, fill=(255, 255, 255, 14))
    d.polygon(right, fill=(120, 110, 95, 14))
    ew = max(1, round(SS * 1.1))
    for poly in (top, left, right):
        d.polygon(poly, outline=pal.GHOST_EDGE, width=ew)
    return big.resize(sprite_size(s), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def slot(s: int) -> Image.Image:
    """A dashed-looking empty die place (for artist cards and empty bonus spaces)."""
    g, big, d, ox, oy = _canvas(s)
    top, left, right, hexagon = _faces(g, ox, oy, SS)
    d.polygon(hexagon, fill=(0, 0, 0, 18))
    ew = max(1, round(SS * 1.5))
    for poly in (top, left, right):
        d.polygon(poly, outline=(140, 130, 112, 150), width=ew)
    return big.resize(sprite_size(s), Image.Resampling.LANCZOS)
