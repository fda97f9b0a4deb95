"""Pictures of a Cubist game: pure functions from an ``engine.Game`` to PNG bytes.

    import render
    png = render.table_png(game, names=["Ann", "Bo"])      # the whole table
    png = render.studio_png(game, seat=1)                   # one player's studio, larger
    png = render.museum_png(game)                           # the museum, larger

Same game, same bytes: no time stamps, no randomness.  ``*_image`` give PIL images and
``*_canvas`` the drawing with the recorded boxes of its panels and texts (for tests).
Every function takes ``labels=`` (``render.Labels``): the words drawn, English by default.
"""

from __future__ import annotations

from PIL import Image

from engine import Game

from .canvas import Box, Canvas
from .closeups import museum_canvas, studio_canvas
from .encode import png_bytes
from .labels import EN, Labels
from .table import table_canvas


def table_image(game: Game, names: list[str] | None = None, *, numerals: bool = False,
                labels: Labels = EN) -> Image.Image:
    return table_canvas(game, names, numerals=numerals, labels=labels).img


def studio_image(game: Game, seat: int, names: list[str] | None = None, *, numerals: bool = False,
                 labels: Labels = EN) -> Image.Image:
    return studio_canvas(game, seat, names, numerals=numerals, labels=labels).img


def museum_image(game: Game, *, numerals: bool = False, labels: Labels = EN) -> Image.Image:
    return museum_canvas(game, numerals=numerals, labels=labels).img


def table_png(game: Game, names: list[str] | None = None, *, numerals: bool = False, labels: Labels = EN) -> bytes:
    """The table, posted after every turn."""
    return png_bytes(table_image(game, names, numerals=numerals, labels=labels))


def studio_png(game: Game, seat: int, names: list[str] | None = None, *, numerals: bool = False,
               labels: Labels = EN) -> bytes:
    """Close-up of one player's studio (seat 0-based)."""
    return png_bytes(studio_image(game, seat, names, numerals=numerals, labels=labels))


def museum_png(game: Game, *, numerals: bool = False, labels: Labels = EN) -> bytes:
    """Close-up of the museum."""
    return png_bytes(museum_image(game, numerals=numerals, labels=labels))


__all__ = [
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
    "table_png",
]
