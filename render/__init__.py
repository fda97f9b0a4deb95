"""Pictures of a Cubist game: pure functions from an ``engine.Game`` to PNG bytes.

    import render
    png = render.table_png(game, names, labels=labels)          # the whole table, seen from above
    png = render.studio_png(game, seat, names, labels=labels)   # one player's studio, larger
    png = render.museum_png(game, labels=labels)                # the museum, larger

``labels`` (``render.Labels``, the words in the reader's language) is required: render has
no words of its own (the bot builds them from its catalogues with
``bot.i18n.pictures.render_labels(lang)``).  Same game, same
bytes: no time stamps, no randomness.  ``*_image`` give PIL images and ``*_canvas`` the
drawing with its recorded boxes and its layout model (``Canvas.dice``, see render.model).
The isometric table of earlier versions stays as ``iso_table_image`` (gallery comparison).
"""

from __future__ import annotations

from PIL import Image

from engine import Game

from .board import MIN_GLYPH, Marks, museum_canvas, studio_canvas, table_canvas, unit
from .canvas import Box, Canvas
from .encode import png_bytes
from .labels import Labels
from .model import preview_scale


def table_image(game: Game, names: list[str] | None = None, *, labels: Labels) -> Image.Image:
    return table_canvas(game, names, labels=labels).img


def studio_image(
    game: Game, seat: int, names: list[str] | None = None, *, labels: Labels, marks: Marks | None = None
) -> Image.Image:
    return studio_canvas(game, seat, names, labels=labels, marks=marks).img


def museum_image(game: Game, *, labels: Labels) -> Image.Image:
    return museum_canvas(game, labels=labels).img


def table_png(game: Game, names: list[str] | None = None, *, labels: Labels) -> bytes:
    """The table, posted after every turn."""
    return png_bytes(table_image(game, names, labels=labels))


def studio_png(
    game: Game, seat: int, names: list[str] | None = None, *, labels: Labels, marks: Marks | None = None
) -> bytes:
    """Close-up of one player's studio (seat 0-based); ``marks``: the turn panel's lettered cells."""
    return png_bytes(studio_image(game, seat, names, labels=labels, marks=marks))


def museum_png(game: Game, *, labels: Labels) -> bytes:
    """Close-up of the museum."""
    return png_bytes(museum_image(game, labels=labels))


def table_needs_studio(game: Game) -> bool:
    """True when ``game``'s table cannot keep every numeral MIN_GLYPH px tall at Discord's
    laptop preview (4 players): post the current player's studio beside it."""
    from .board import layout, museum_rows
    from .flat import die_tile

    rows = museum_rows(game.deck.museum(game.state.museum_card))
    c = unit(game.num_players, rows)
    _x, _y, w, h = layout(game.num_players, c, rows)["table"]
    g = die_tile(c, 0, 5)[1]
    return (g[3] - g[1]) * preview_scale(w, h) < MIN_GLYPH


def iso_table_image(game: Game, names: list[str] | None = None, *, labels: Labels) -> Image.Image:
    """The earlier isometric table (kept for the gallery's comparison)."""
    from .table import table_canvas as iso_table_canvas

    return iso_table_canvas(game, names, numerals=True, labels=labels).img


__all__ = [
    "Box",
    "Canvas",
    "Labels",
    "iso_table_image",
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
