"""Colours and owner marks.

Player colours are from the Okabe–Ito palette, which stays distinguishable for the common
colour-vision deficiencies; every player's dice also carry a shape mark (circle, triangle,
square, diamond) so that colour is never the only cue.
"""

from __future__ import annotations

from functools import lru_cache

RGB = tuple[int, int, int]

BACKGROUND: RGB = (239, 235, 226)
PANEL: RGB = (252, 250, 246)
PANEL_EDGE: RGB = (196, 188, 172)
CARD: RGB = (255, 253, 248)
CARD_EDGE: RGB = (170, 160, 142)
INK: RGB = (33, 33, 40)
MUTED: RGB = (104, 100, 96)
FLOOR: RGB = (226, 220, 207)
FLOOR_ALT: RGB = (217, 210, 195)
FLOOR_LINE: RGB = (184, 175, 158)
MUSEUM_FLOOR: RGB = (214, 206, 190)
HIGHLIGHT: RGB = (255, 221, 0)
HIGHLIGHT_EDGE: RGB = (20, 20, 20)
CORNERSTONE: RGB = (196, 28, 44)
NEUTRAL_DIE: RGB = (246, 244, 238)
PLAN_CUBE: RGB = (200, 196, 188)
GHOST: tuple[int, int, int, int] = (255, 255, 255, 70)
GHOST_EDGE: tuple[int, int, int, int] = (110, 100, 84, 125)

# Okabe–Ito: blue, orange, bluish green, reddish purple (vermillion is kept away from
# the red cornerstone, yellow is the highlight).
PLAYER_COLOURS: tuple[RGB, ...] = ((0, 114, 178), (230, 159, 0), (0, 158, 115), (204, 121, 167))
PLAYER_INK: tuple[RGB, ...] = ((0, 90, 150), (168, 108, 0), (0, 118, 86), (160, 70, 124))
MARKS: tuple[str, ...] = ("circle", "triangle", "square", "diamond")
# The one source of a seat's colour: texts name it by ``name`` (catalogue key
# ``colours.<name>``), pictures draw ``PLAYER_COLOURS[seat]`` and ``MARKS[seat]``.
COLOUR_KEYS: tuple[str, ...] = ("blue", "orange", "green", "purple")
MARK_GLYPHS: tuple[str, ...] = ("●", "▲", "■", "◆")


def seat_colour_key(seat: int) -> str:
    """The catalogue name of the colour drawn for ``seat`` (0-based)."""
    return COLOUR_KEYS[seat % len(COLOUR_KEYS)]


# Die colour keys: a seat number 0-3, or one of these names.
CORNER_KEY = "corner"
NEUTRAL_KEY = "neutral"
PLAN_KEY = "plan"


def die_colour(key: int | str) -> RGB:
    if isinstance(key, int):
        return PLAYER_COLOURS[key % len(PLAYER_COLOURS)]
    return {CORNER_KEY: CORNERSTONE, NEUTRAL_KEY: NEUTRAL_DIE, PLAN_KEY: PLAN_CUBE}[key]


def die_mark(key: int | str) -> str | None:
    if isinstance(key, int):
        return MARKS[key % len(MARKS)]
    return "star" if key == CORNER_KEY else None


def player_ink(seat: int) -> RGB:
    """A darker version of the player's colour for text on light backgrounds."""
    return PLAYER_INK[seat % len(PLAYER_INK)]


def mix(c1: RGB, c2: RGB, t: float) -> RGB:
    """Linear blend: t=0 gives c1, t=1 gives c2."""
    return (
        round(c1[0] + (c2[0] - c1[0]) * t),
        round(c1[1] + (c2[1] - c1[1]) * t),
        round(c1[2] + (c2[2] - c1[2]) * t),
    )


def luminance(c: RGB) -> float:
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])


@lru_cache(maxsize=256)
def contrast_ink(c: RGB) -> RGB:
    """Dark or white, whichever reads better on ``c``."""
    return (25, 25, 30) if luminance(c) > 0.28 else (255, 255, 255)
