"""The owners' shape marks (circle, triangle, square, diamond; a star on the cornerstone),
so that colour is never the only cue."""

from __future__ import annotations

import math

from PIL import ImageDraw


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
