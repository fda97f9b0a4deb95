"""The museum: its plan as ghost cubes, the red cornerstone and the players' dice.

``museum_frame`` draws what never changes for a museum card (panel, title, floor, labels)."""

from __future__ import annotations

from functools import lru_cache

from engine import Game, MuseumCard
from engine.geometry import MUSEUM_SIZE
from engine.state import CORNERSTONE

from . import palette as pal
from .canvas import Canvas, Rect
from .fonts import font
from .highlight import Highlights
from .labels import Labels
from .structure import Die, GridSpec, floor_layer, size_of, stack_sprites


@lru_cache(maxsize=64)
def museum_spec(card: MuseumCard, max_w: int, max_h: int, label_size: int) -> GridSpec:
    """The largest cube size at which the plan and its labels fit in (max_w, max_h)."""
    cells = frozenset((x, y) for x, y, _h in card.cells)
    levels = max(h for _x, _y, h in card.cells)
    s = 96
    while True:
        spec = GridSpec(s=s, cells=cells, levels=levels, label_size=label_size, floor=pal.MUSEUM_FLOOR)
        w, h = size_of(spec)
        if (w <= max_w and h <= max_h) or s <= 12:
            return spec
        s -= 2


def _geometry(card: MuseumCard, rect: Rect, k: float) -> tuple[GridSpec, int, int, int]:
    """(spec, grid x, grid y, title baseline y)."""
    x0, y0, x1, y1 = rect
    pad = round(12 * k)
    title_h = round(40 * k)
    top = y0 + pad + title_h
    spec = museum_spec(card, x1 - x0 - 2 * pad, y1 - top - pad, round(22 * k))
    w, h = size_of(spec)
    return spec, x0 + (x1 - x0 - w) // 2, top + (y1 - pad - top - h) // 2, y0 + pad


def museum_frame(
    cv: Canvas, card: MuseumCard, rect: Rect, *, k: float = 1.0, name: str = "museum", labels: Labels
) -> None:
    x0, _y0, x1, _y1 = rect
    pad = round(12 * k)
    cv.panel(name, rect, fill=pal.PANEL, outline=pal.PANEL_EDGE)
    spec, gx, gy, ty = _geometry(card, rect, k)
    tr = cv.text(
        (x0 + pad, ty), labels.text("museum"), font(round(26 * k), bold=True), pal.INK, anchor="la", parent=name
    )
    cf = font(round(22 * k))
    room = cf.getlength(labels.text("built", built=88, total=88))  # space kept for the dice count
    cv.text(
        (tr[2] + round(12 * k), ty + round(3 * k)),
        labels.museum(card),
        cf,
        pal.MUTED,
        anchor="la",
        max_width=x1 - pad - room - tr[2] - round(24 * k),
        parent=name,
    )
    cv.layer(floor_layer(spec), (gx, gy), name)


def draw_museum(
    cv: Canvas,
    game: Game,
    rect: Rect,
    hl: Highlights,
    *,
    numerals: bool = False,
    k: float = 1.0,
    name: str = "museum",
    labels: Labels,
) -> None:
    """The dice and ghosts (call ``museum_frame`` first, or use a prepared frame)."""
    s = game.state
    card = game.deck.museum(s.museum_card)
    _x0, _y0, x1, _y1 = rect
    pad = round(12 * k)
    heights = game.museum_heights()
    total = sum(heights.values())
    built = sum(len(c.owners) for c in s.museum.values())
    spec, gx, gy, ty = _geometry(card, rect, k)
    cv.text(
        (x1 - pad, ty + round(3 * k)),
        labels.text("built", built=built, total=total),
        font(round(22 * k)),
        pal.INK,
        anchor="ra",
        parent=name,
    )
    cols: dict[tuple[int, int], list[Die]] = {}
    for cell, col in s.museum.items():
        y, x = divmod(cell, MUSEUM_SIZE)
        dice_ = [Die(pal.CORNER_KEY if o == CORNERSTONE else o, col.value) for o in col.owners]
        if cell in hl.museum and dice_:
            dice_[-1] = Die(dice_[-1].key, col.value, True)
        cols[(x, y)] = dice_
    ghosts = {(c % MUSEUM_SIZE, c // MUSEUM_SIZE): hh for c, hh in heights.items()}
    for sprite, (px, py) in stack_sprites(spec, cols, ghosts, numerals=numerals):
        cv.paste(sprite, (gx + px, gy + py))
