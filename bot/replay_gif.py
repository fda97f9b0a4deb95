"""An animated replay of a finished game: one frame per turn, drawn by render, as a GIF.

Kept well under Discord's 10 MiB upload limit: frames are scaled down, at most
``max_frames`` are kept (evenly spread, always the first and the last), and the picture is
shrunk again if the file still comes out too big.
"""

from __future__ import annotations

import io

from PIL import Image

import render
from engine import Game

from .history import replay_turns

MAX_BYTES = 4 * 1024 * 1024  # well under the 10 MiB upload limit (the final post also carries a PNG)
FRAME_MS = 700
LAST_FRAME_MS = 3000


def pick_frames(n: int, max_frames: int) -> list[int]:
    """Indices of at most ``max_frames`` of ``n`` frames, evenly spread, first and last kept."""
    if n <= max_frames:
        return list(range(n))
    step = (n - 1) / (max_frames - 1)
    return sorted({round(i * step) for i in range(max_frames)})


def replay_gif(
    game: Game,
    names: list[str],
    labels: render.Labels,
    *,
    width: int = 480,
    max_frames: int = 30,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """The GIF bytes of ``game``'s replay (the engine replays its log from the seed)."""
    _entries, positions = replay_turns(game)
    chosen = [positions[i] for i in pick_frames(len(positions), max_frames)]
    full = [render.table_image(g, names, labels=labels) for g in chosen]
    while True:
        data = _encode(full, width)
        if len(data) <= max_bytes or width <= 160:
            return data
        width = width * 2 // 3


def _encode(images: list[Image.Image], width: int) -> bytes:
    factor = max(1, -(-images[0].width // width))  # integer reduction: fast and sharp enough
    small = [im.reduce(factor) for im in images]
    # One palette for all frames (from the last, fullest picture): quick, and no flicker.
    palette = small[-1].quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    frames = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in small]
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()
