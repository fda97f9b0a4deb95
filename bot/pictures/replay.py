"""An animated replay of a finished game: one frame per turn, drawn by render, as a GIF.

Drawn at the table's own size (at least 800 px wide, so every die reads at Discord's preview
as in the table post) and kept under 8 MiB: at most ``max_frames`` are kept (evenly spread,
always the first and the last), fewer when the file would be too big, and only then is the
picture shrunk.
"""

from __future__ import annotations

import io

from PIL import Image

import render
from bot.words.history import replay_turns
from engine import Game

MAX_BYTES = 8 * 1024 * 1024  # under the 10 MiB upload limit (the final post also carries PNGs)
MIN_WIDTH = 800  # px: every die value reads at the laptop preview, as in the table
MIN_FRAMES = 8
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
    width: int | None = None,
    max_frames: int = 30,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """The GIF bytes of ``game``'s replay (the engine replays its log from the seed);
    ``width``: the widest the frames may be (default: the table's own size)."""
    _entries, positions = replay_turns(game)
    full = [_at_least(render.table_image(g, names, labels=labels), MIN_WIDTH) for g in positions]
    width = width or full[0].width
    frames = max_frames
    while True:
        chosen = [full[i] for i in pick_frames(len(full), frames)]
        data = _encode(chosen, width)
        if len(data) <= max_bytes or (frames <= MIN_FRAMES and width <= 160):
            return data
        if frames > MIN_FRAMES:  # fewer frames first: the pictures stay readable
            frames = max(MIN_FRAMES, frames * 2 // 3)
        else:
            width = width * 2 // 3


def _at_least(image: Image.Image, width: int) -> Image.Image:
    """A table narrower than ``width`` (two players) scaled up to it."""
    if image.width >= width:
        return image
    return image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)


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
