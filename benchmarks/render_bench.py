"""Rendering benchmark: drawing and encoding timed apart, per picture, on one core.

Pictures: the late-game table for 2, 3 and 4 players (every workroom busy, the museum
built to half), the studio and museum close-ups, each seen from a corner ("iso", the
default) and from above ("flat"), side by side in one run.  Goals (one
core): table <= 12 ms median, studio and museum <= 4 ms median, PNG <= 300 KiB.  Then a table of
encoder settings for the 4-player table (size and time), which chose the shipped one:
PNG of the image mapped to one fixed 256-colour palette, compress level 1.

Times are ``time.process_time`` (CPU time of this process), so that other work on a
busy machine disturbs them less than wall-clock time; medians of ROUNDS runs.
``run()`` returns (figure, value) rows; ``python -m benchmarks render`` prints them.
"""

from __future__ import annotations

import functools
import io
import os
import statistics
import sys
import time
from collections.abc import Callable

from PIL import Image

ROUNDS = 30


def _median_ms(fn: Callable[[], object], rounds: int) -> float:
    out = []
    for _ in range(rounds):
        t = time.process_time()
        fn()
        out.append((time.process_time() - t) * 1000)
    return statistics.median(out)


def _save_palette(img: Image.Image, level: int) -> bytes:
    """The palette conversion is part of what is timed."""
    from render.encode import to_palette

    return _save(to_palette(img), "PNG", compress_level=level)


def _save(img: Image.Image, fmt: str, **options: object) -> bytes:
    buf = io.BytesIO()
    img.save(buf, fmt, **options)
    return buf.getvalue()


def run(rounds: int = ROUNDS) -> list[tuple[str, str]]:
    import render
    from bot.i18n.pictures import render_labels
    from render.demo import DEMO_NAMES, busy_late_game
    from render.encode import COMPRESS_LEVEL, png_bytes

    en = render_labels("en")
    pinned = None
    if hasattr(os, "sched_getaffinity"):
        pinned = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(pinned)})
    rows: list[tuple[str, str]] = []
    try:
        games = {n: busy_late_game(seed, players=n) for n, seed in ((2, 8), (3, 5), (4, 3))}
        t = time.process_time()
        render.table_png(games[4], DEMO_NAMES, labels=en)  # cold: tiles, fonts, frames, palette
        rows.append(("table 4p: first picture, cold caches (ms)", f"{(time.process_time() - t) * 1000:.0f}"))
        pictures: list[tuple[str, Callable[[], Image.Image]]] = []
        for n, g in games.items():
            for style in render.STYLES:
                pictures.append(
                    (
                        f"table {n}p {style}",
                        functools.partial(render.table_image, g, DEMO_NAMES[: g.num_players], labels=en, style=style),
                    )
                )
        for style in render.STYLES:
            pictures.append(
                (
                    f"studio {style}",
                    functools.partial(render.studio_image, games[4], 1, DEMO_NAMES, labels=en, style=style),
                )
            )
            pictures.append(
                (f"museum {style}", functools.partial(render.museum_image, games[4], labels=en, style=style))
            )
        for name, draw in pictures:
            draw()  # warm: sprites, frames, fonts
            img = draw()
            d = _median_ms(draw, rounds)
            e = _median_ms(functools.partial(png_bytes, img), rounds)
            size = len(png_bytes(img))
            w, h = img.size
            rows.append((f"{name}: drawing / encoding / total median (ms)", f"{d:.1f} / {e:.1f} / {d + e:.1f}"))
            rows.append((f"{name}: PNG (KiB), picture (px)", f"{size / 1024:.0f}, {w}x{h}"))
        img = render.table_image(games[4], DEMO_NAMES, labels=en)
        settings: list[tuple[str, Callable[[], bytes]]] = [
            (f"P (fixed palette) PNG level {lvl}", functools.partial(_save_palette, img, lvl))
            for lvl in sorted({1, 3, COMPRESS_LEVEL, 6, 9})
        ]
        settings += [
            (f"RGB PNG level {lvl}", functools.partial(_save, img, "PNG", compress_level=lvl)) for lvl in (1, 6)
        ]
        settings += [
            ("WebP lossless, method 0", lambda: _save(img, "WEBP", lossless=True, method=0)),
            ("WebP quality 90, method 0", lambda: _save(img, "WEBP", quality=90, method=0)),
            ("WebP quality 90, method 4", lambda: _save(img, "WEBP", quality=90, method=4)),
        ]
        for name, encode in settings:
            ms = _median_ms(encode, max(5, rounds // 3))
            rows.append((f"encoder, table 4p: {name} (ms, KiB)", f"{ms:.1f}, {len(encode()) / 1024:.0f}"))
    finally:
        if pinned is not None:
            os.sched_setaffinity(0, pinned)
    return rows


if __name__ == "__main__":
    from benchmarks.__main__ import run_module

    sys.exit(run_module("render"))
