"""Drawing a structure (a workroom or the museum): floor grid with cell labels, then the
dice columns and ghost cubes in painter's order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.geometry import LETTERS

from . import dice
from . import palette as pal
from .canvas import Layer, LayerBuilder
from .fonts import font
from .iso import iso, painter_key

LABEL_GAP = 0.8  # labels sit this many tiles in front of the grid edge


@dataclass(frozen=True, slots=True)
class Die:
    key: int | str  # seat or palette key
    value: int
    highlight: bool = False


@dataclass(frozen=True, slots=True)
class GridSpec:
    """Which cells of a square grid to draw, at which cube size, with how much headroom."""

    s: int
    cells: frozenset[tuple[int, int]]  # floor cells (x, y)
    levels: int  # stack height to leave room for
    label_size: int
    floor: tuple[int, int, int] = pal.FLOOR
    chequer: bool = True
    background: tuple[int, int, int] = pal.PANEL  # what the floor layer is drawn on

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        xs = [x for x, _ in self.cells]
        ys = [y for _, y in self.cells]
        return (min(xs), min(ys), max(xs), max(ys))


def full_grid(size: int) -> frozenset[tuple[int, int]]:
    return frozenset((x, y) for y in range(size) for x in range(size))


@lru_cache(maxsize=64)
def _layout(spec: GridSpec) -> tuple[int, int, int, int]:
    """(width, height, origin x, origin y): the structure's box including labels and headroom;
    the origin is where tile (0, 0)'s top vertex goes."""
    g = iso(spec.s)
    x0, y0, x1, y1 = spec.bounds
    left, top, right, bottom = g.extent(x0, y0, x1, y1, spec.levels)
    f = font(spec.label_size, bold=True)
    half = f.getlength("8") / 2 + 3
    # Labels: letters in front of the left edge, numbers in front of the right edge.
    spots = [g.tile_centre(x, y1 + LABEL_GAP) for x in range(x0, x1 + 1)]
    spots += [g.tile_centre(x1 + LABEL_GAP, y) for y in range(y0, y1 + 1)]
    vhalf = spec.label_size * 0.55
    left = min(left, *(int(sx - half - 2) for sx, _sy in spots))
    right = max(right, *(int(sx + half + 8) for sx, _sy in spots))
    bottom = max(bottom, *(int(sy + vhalf + 2) for _sx, sy in spots))
    return (right - left, bottom - top, -left, -top)


def size_of(spec: GridSpec) -> tuple[int, int]:
    w, h, _ox, _oy = _layout(spec)
    return (w, h)


@lru_cache(maxsize=64)
def floor_layer(spec: GridSpec) -> Layer:
    """The floor tiles and the a/b/c…, 1/2/3… labels (drawn once per spec)."""
    g = iso(spec.s)
    w, h, ox, oy = _layout(spec)
    k = dice.SS
    big = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    line = pal.FLOOR_LINE
    for x, y in sorted(spec.cells):
        poly = [(ox * k + px * k, oy * k + py * k) for px, py in g.diamond(x, y)]
        fill = spec.floor
        if spec.chequer and (x + y) % 2:
            fill = pal.mix(spec.floor, pal.FLOOR_LINE, 0.18)
        d.polygon(poly, fill=fill, outline=line, width=max(1, k))
    img = big.resize((w, h), Image.Resampling.LANCZOS)
    b = LayerBuilder(w, h, "RGB", spec.background)
    b.paste(img, (0, 0))
    x0, y0, x1, y1 = spec.bounds
    f = font(spec.label_size, bold=True)
    ink = pal.MUTED
    for x in range(x0, x1 + 1):
        cx, cy = g.tile_centre(x, y1 + LABEL_GAP)
        b.text((ox + cx, oy + cy), LETTERS[x], f, ink, anchor="mm")
    for y in range(y0, y1 + 1):
        cx, cy = g.tile_centre(x1 + LABEL_GAP, y)
        b.text((ox + cx, oy + cy), str(y + 1), f, ink, anchor="mm")
    return b.build()


def origin(spec: GridSpec) -> tuple[int, int]:
    _w, _h, ox, oy = _layout(spec)
    return (ox, oy)


def stack_sprites(
    spec: GridSpec,
    columns: Mapping[tuple[int, int], Sequence[Die]],
    ghosts: Mapping[tuple[int, int], int] | None = None,
    *,
    numerals: bool = False,
) -> list[tuple[Image.Image, tuple[int, int]]]:
    """Sprites and their positions (relative to the structure box), back to front.

    ``ghosts`` maps a cell to the target height: levels above the column up to it are
    drawn as ghost cubes."""
    g = iso(spec.s)
    ox, oy = origin(spec)
    ax, ay = dice.anchor(spec.s)
    items: list[tuple[tuple[int, int, int], Image.Image, tuple[int, int]]] = []
    cells: Iterable[tuple[int, int]] = set(columns) | set(ghosts or ())
    for x, y in cells:
        col = columns.get((x, y), ())
        px, py = g.tile_top(x, y)
        for z, die in enumerate(col):
            sprite = dice.cube(spec.s, die.key, die.value, die.highlight, numerals)
            pos = (int(ox + px - ax), int(oy + py - (z + 1) * g.v - ay))
            items.append((painter_key(x, y, z), sprite, pos))
        target = (ghosts or {}).get((x, y), 0)
        for z in range(len(col), target):
            pos = (int(ox + px - ax), int(oy + py - (z + 1) * g.v - ay))
            items.append((painter_key(x, y, z), dice.ghost(spec.s), pos))
    items.sort(key=lambda t: t[0])
    return [(sprite, pos) for _k, sprite, pos in items]
