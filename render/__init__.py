"""Pictures of a Cubist game: pure functions from an ``engine.Game`` to PNG bytes.

    import render
    png = render.table_png(game, names, labels=labels)          # the whole table
    png = render.studio_png(game, seat, names, labels=labels)   # one player's studio, larger
    png = render.museum_png(game, labels=labels)                # the museum, larger

``style``: ``"iso"`` (the default: the boards seen from a corner, dice as cubes) or
``"flat"`` (the same scene seen from straight above), for players who choose the top-down
view: render.pieces (the scene), render.camera, render.cubes (drawing), render.tableview
(where each part goes).  ``labels`` (``render.Labels``, the words in the
reader's language) is required: render has no words of its own (the bot builds them from
its catalogues with ``bot.i18n.pictures.render_labels(lang)``).  Same game, same bytes: no
time stamps, no randomness.  ``*_image`` give PIL images and ``*_canvas`` the drawing with
its recorded boxes and its layout model (``Canvas.dice``, see render.model).

What each style guarantees at Discord's sizes (tests/render/test_legibility.py):
- laptop preview (fit into 550x400), "iso": every value of the table 10 px tall for 2 and
  3 players, 9 px for 4, whose current player's studio is posted beside the table
  (``table_needs_studio``) at 10 px; a column's cubes at least 4 px high each;
- laptop preview, "flat": the same values, and every column's height as a figure (a small
  "×" over it, just right of its value) 7 px tall; a finished game's table, whose header
  names the winners on two lines, half a pixel less;
- not yet: a finished game's table whose header holds who won and many last-turn dice
  (some 4-player games, either style; 3-player ones from above) falls short of those
  values by up to a pixel, the header's type being sized for a phone;
- phone (360 px wide), "iso": the header shows the last turn's dice again, large (numerals
  9 px there), with where they went, and whose turn it is; the whole table is one tap away.
"""

from __future__ import annotations

from PIL import Image

from engine import Game

from . import tableview
from .canvas import Box, Canvas
from .encode import png_bytes
from .labels import Labels
from .pieces import Marks

STYLES = ("iso", "flat")


def _check(style: str) -> None:
    if style not in STYLES:
        raise ValueError(f"style must be one of {STYLES}, not {style!r}")


def table_canvas(game: Game, names: list[str] | None = None, *, labels: Labels, style: str = "iso") -> Canvas:
    _check(style)
    return tableview.table_canvas(game, names, labels=labels, iso=style == "iso")


def studio_canvas(
    game: Game,
    seat: int,
    names: list[str] | None = None,
    *,
    labels: Labels,
    marks: Marks | None = None,
    style: str = "iso",
) -> Canvas:
    _check(style)
    return tableview.studio_canvas(game, seat, names, labels=labels, marks=marks, iso=style == "iso")


def museum_canvas(game: Game, *, labels: Labels, style: str = "iso") -> Canvas:
    _check(style)
    return tableview.museum_canvas(game, labels=labels, iso=style == "iso")


def table_image(game: Game, names: list[str] | None = None, *, labels: Labels, style: str = "iso") -> Image.Image:
    return table_canvas(game, names, labels=labels, style=style).img


def studio_image(
    game: Game,
    seat: int,
    names: list[str] | None = None,
    *,
    labels: Labels,
    marks: Marks | None = None,
    style: str = "iso",
) -> Image.Image:
    return studio_canvas(game, seat, names, labels=labels, marks=marks, style=style).img


def museum_image(game: Game, *, labels: Labels, style: str = "iso") -> Image.Image:
    return museum_canvas(game, labels=labels, style=style).img


def table_png(game: Game, names: list[str] | None = None, *, labels: Labels, style: str = "iso") -> bytes:
    """The table, posted after every turn."""
    return png_bytes(table_image(game, names, labels=labels, style=style))


def studio_png(
    game: Game,
    seat: int,
    names: list[str] | None = None,
    *,
    labels: Labels,
    marks: Marks | None = None,
    style: str = "iso",
) -> bytes:
    """Close-up of one player's studio (seat 0-based); ``marks``: the turn panel's lettered cells."""
    return png_bytes(studio_image(game, seat, names, labels=labels, marks=marks, style=style))


def museum_png(game: Game, *, labels: Labels, style: str = "iso") -> bytes:
    """Close-up of the museum."""
    return png_bytes(museum_image(game, labels=labels, style=style))


def table_needs_studio(
    game: Game, style: str = "iso", names: list[str] | None = None, *, labels: Labels | None = None
) -> bool:
    """True when ``game``'s table cannot keep every numeral MIN_GLYPH px tall at Discord's
    laptop preview (4 players): post the current player's studio beside it.  Pass the
    ``names`` and ``labels`` the table is drawn with: a long turn's header grows with its
    words, and the answer then matches the picture exactly."""
    _check(style)
    return tableview.needs_studio(game, iso=style == "iso", names=names, labels=labels)


__all__ = [
    "STYLES",
    "Box",
    "Canvas",
    "Labels",
    "museum_canvas",
    "museum_image",
    "museum_png",
    "png_bytes",
    "studio_canvas",
    "studio_image",
    "studio_png",
    "table_canvas",
    "table_image",
    "table_needs_studio",
    "table_png",
]
