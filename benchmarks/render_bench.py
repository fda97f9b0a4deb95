"""Rendering benchmark: the full 4-player late-game table (every workroom busy, museum half
built), drawn and encoded to PNG on one core.

Targets (issue 4): median <= 40 ms, p95 <= 80 ms, PNG <= 1 MiB.
``run()`` returns (figure, value) rows; ``python benchmarks/render_bench.py`` prints them.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

ROUNDS = 40


def _times(fn: Callable[[], object], rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def _p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


def run(rounds: int = ROUNDS) -> list[tuple[str, str]]:
    import render
    from render.demo import DEMO_NAMES, busy_late_game
    from render.encode import png_bytes

    pinned = None
    if hasattr(os, "sched_getaffinity"):
        pinned = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(pinned)})
    try:
        game = busy_late_game()
        names = DEMO_NAMES
        t = time.perf_counter()
        png = render.table_png(game, names)  # cold: sprites, fonts, card faces, palette
        cold = (time.perf_counter() - t) * 1000
        full = _times(lambda: render.table_png(game, names), rounds)
        draw = _times(lambda: render.table_image(game, names), rounds)
        img = render.table_image(game, names)
        enc = _times(lambda: png_bytes(img), rounds)
        studio = _times(lambda: render.studio_png(game, 1, names), max(5, rounds // 4))
        museum = _times(lambda: render.museum_png(game), max(5, rounds // 4))
    finally:
        if pinned is not None:
            os.sched_setaffinity(0, pinned)
    w, h = img.size
    return [
        ("table 4p late: median (ms)", f"{statistics.median(full):.1f}"),
        ("table 4p late: p95 (ms)", f"{_p95(full):.1f}"),
        ("table 4p late: drawing median (ms)", f"{statistics.median(draw):.1f}"),
        ("table 4p late: PNG encoding median (ms)", f"{statistics.median(enc):.1f}"),
        ("table 4p late: first picture, cold caches (ms)", f"{cold:.0f}"),
        ("table 4p late: PNG size (KiB)", f"{len(png) / 1024:.0f}"),
        ("table 4p late: image size (px)", f"{w}x{h}"),
        ("studio close-up: median (ms)", f"{statistics.median(studio):.1f}"),
        ("museum close-up: median (ms)", f"{statistics.median(museum):.1f}"),
    ]


if __name__ == "__main__":
    for figure, value in run():
        print(f"{figure:48} {value}")
