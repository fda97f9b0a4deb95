"""The score-over-time chart of a game: one line per player, turn by turn (PNG bytes).

A pure function of names and score series (``engine.timeline.score_series``): same input,
same bytes.  Drawn at twice the size and scaled down, since Pillow draws lines without
antialiasing.  Each player has their table colour and their shape mark (on the turns they
scored and in the legend), so colour is never the only cue; players with equal scores are
drawn a hair apart so that no line hides another.  Labels are parameters (translations).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from . import palette as pal
from .dice import mark_points
from .encode import png_bytes
from .fonts import font
from .names import fit_words

WIDTH, HEIGHT = 960, 540
S = 2  # supersampling factor
LEFT, TOP, RIGHT, BOTTOM = 76, 64, 272, 64  # margins around the plot area (final pixels)
LEGEND_ROW = 40
GRID: pal.RGB = (226, 220, 208)
AXIS: pal.RGB = (150, 142, 128)


def nice_step(span: float, max_ticks: int) -> int:
    """A tick step of 1, 2 or 5 times a power of ten giving at most ``max_ticks`` steps."""
    raw = max(span, 1) / max_ticks
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    for m in (1, 2, 5, 10):
        if m * magnitude >= raw:
            return int(m * magnitude)
    return int(10 * magnitude)  # pragma: no cover - the loop always returns


def legend(names: Sequence[str], series: Sequence[Sequence[int]], order: Sequence[int]) -> list[tuple[int, str, str]]:
    """The legend's rows, top to bottom: (seat, the name as it fits, the final score)."""
    label, bold = font(14 * S), font(14 * S, bold=True)
    lx, right = (WIDTH - RIGHT + 24) * S, (WIDTH - 16) * S
    # One room for every name (the widest score's), so that like names shorten alike.
    room = right - max(bold.getlength(str(s[-1])) for s in series) - 12 * S - (lx + 38 * S)
    return [(seat, fit_words(names[seat], label, room), str(series[seat][-1])) for seat in order]


def chart_image(
    names: Sequence[str],
    series: Sequence[Sequence[int]],
    *,
    order: Sequence[int] | None = None,
    title: str = "Scores, turn by turn",
    x_label: str = "Turn",
    y_label: str = "Points",
) -> Image.Image:
    """``series[seat][t]``: the seat's score at the start (t = 0) and after each turn t.
    ``order``: the seats as the legend lists them, top to bottom (the game's ranking; by
    default the final scores, highest first)."""
    if not names or len(names) != len(series):
        raise ValueError("one name per series, at least one")
    turns = len(series[0]) - 1
    if turns < 0 or any(len(s) != turns + 1 for s in series):
        raise ValueError("every series needs the same number of points, at least one")
    if order is None:
        order = sorted(range(len(series)), key=lambda seat: (-series[seat][-1], seat))
    if sorted(order) != list(range(len(series))):
        raise ValueError("the legend's order lists every seat once")
    img = Image.new("RGB", (WIDTH * S, HEIGHT * S), pal.PANEL)
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = LEFT * S, TOP * S, (WIDTH - RIGHT) * S, (HEIGHT - BOTTOM) * S
    top_score = max(max(s) for s in series)
    y_step = nice_step(top_score, 6)
    y_max = max(y_step * math.ceil(max(top_score, 1) / y_step), y_step)
    x_span = max(turns, 1)

    def px(t: float) -> float:
        return x0 + (x1 - x0) * t / x_span

    def py(v: float) -> float:
        return y1 - (y1 - y0) * v / y_max

    small, label, bold = font(13 * S), font(14 * S), font(14 * S, bold=True)
    d.text((x0, 18 * S), title, font=font(20 * S, bold=True), fill=pal.INK)
    for v in range(0, y_max + 1, y_step):
        d.line((x0, py(v), x1, py(v)), fill=GRID if v else AXIS, width=S)
        d.text((x0 - 10 * S, py(v)), str(v), font=small, fill=pal.MUTED, anchor="rm")
    x_step = nice_step(turns, 10)
    for t in range(0, turns + 1, x_step):
        d.line((px(t), y1, px(t), y1 + 6 * S), fill=AXIS, width=S)
        d.text((px(t), y1 + 10 * S), str(t), font=small, fill=pal.MUTED, anchor="mt")
    d.line((x0, y0, x0, y1), fill=AXIS, width=S)
    d.text((x0 - 10 * S, y0 - 14 * S), y_label, font=label, fill=pal.INK, anchor="rb")
    d.text(((x0 + x1) / 2, y1 + 34 * S), x_label, font=label, fill=pal.INK, anchor="mt")

    n = len(series)
    for seat, points in enumerate(series):
        shift = (seat - (n - 1) / 2) * 1.5 * S  # equal scores stay visible side by side
        xy = [(px(t), py(v) + shift) for t, v in enumerate(points)]
        colour = pal.PLAYER_COLOURS[seat % len(pal.PLAYER_COLOURS)]
        if len(xy) > 1:
            d.line(xy, fill=colour, width=3 * S, joint="curve")
        mark = pal.MARKS[seat % len(pal.MARKS)]
        scored = [i for i in range(1, len(points)) if points[i] != points[i - 1]]
        for i in [*scored, len(points) - 1]:
            big = i == len(points) - 1
            r = (7 if big else 5) * S
            d.polygon(mark_points(mark, *xy[i], r), fill=colour, outline=pal.PANEL, width=S)

    lx, ly = (WIDTH - RIGHT + 24) * S, y0
    right = (WIDTH - 16) * S
    for row, (seat, shown, score) in enumerate(legend(names, series, order)):
        colour = pal.PLAYER_COLOURS[seat % len(pal.PLAYER_COLOURS)]
        cy = ly + (row * LEGEND_ROW + 12) * S
        d.line((lx, cy, lx + 28 * S, cy), fill=colour, width=3 * S)
        d.polygon(mark_points(pal.MARKS[seat % len(pal.MARKS)], lx + 14 * S, cy, 7 * S), fill=colour)
        d.text((lx + 38 * S, cy), shown, font=label, fill=pal.player_ink(seat), anchor="lm")
        d.text((right, cy), score, font=bold, fill=pal.INK, anchor="rm")
    return img.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


def chart_png(
    names: Sequence[str],
    series: Sequence[Sequence[int]],
    *,
    order: Sequence[int] | None = None,
    title: str = "Scores, turn by turn",
    x_label: str = "Turn",
    y_label: str = "Points",
) -> bytes:
    """The chart as PNG bytes (full colour: the smooth lines need more than the table palette)."""
    img = chart_image(names, series, order=order, title=title, x_label=x_label, y_label=y_label)
    return png_bytes(img, paletted=False)
