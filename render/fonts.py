"""Fonts: the bundled DejaVu Sans (free licence), loaded once per size."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "assets"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    path = BOLD if bold else REGULAR
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:  # pragma: no cover - only if the bundled file went missing
        return ImageFont.load_default(size=size)  # type: ignore[return-value]  # same drawing API


@lru_cache(maxsize=16384)
def text_width(f: Font, text: str) -> float:
    """``f.getlength(text)``, remembered (pictures measure the same words again and again)."""
    return f.getlength(text)


def fit(text: str, f: Font, max_width: float) -> str:
    """``text``, cut with an ellipsis so that it is at most ``max_width`` pixels wide."""
    if text_width(f, text) <= max_width:
        return text
    ell = "…"
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(f, text[:mid].rstrip() + ell) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ell if lo else ell


@lru_cache(maxsize=4096)
def wrap(text: str, f: Font, max_width: float, max_lines: int) -> tuple[str, ...]:
    """Greedy word wrap into at most ``max_lines`` lines (the last one shortened at a word
    boundary with an ellipsis)."""
    words = text.split()
    lines: list[str] = []
    cur = ""
    for i, w in enumerate(words):
        trial = f"{cur} {w}".strip()
        if text_width(f, trial) <= max_width or not cur:
            cur = trial
            continue
        lines.append(cur)
        cur = w
        if len(lines) == max_lines - 1:
            cur = " ".join(words[i:])
            break
    if cur:
        lines.append(cur)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
    last = lines[-1] if lines else ""
    if len(lines) > 1 and text_width(f, last.split()[0] + "…") > max_width:
        # The last line's first word cannot fit even cut short: end the line before it instead.
        lines = [*lines[:-2], fit_words(lines[-2] + " " + last, f, max_width)]
    return tuple(fit_words(line, f, max_width) for line in lines)


def fit_words(text: str, f: Font, max_width: float) -> str:
    """``text``, shortened at a word boundary with an ellipsis to fit ``max_width`` (a single
    word too long for it is cut inside: nothing else would fit)."""
    if text_width(f, text) <= max_width:
        return text
    words = text.split()
    while len(words) > 1:
        words.pop()
        trial = " ".join(words).rstrip(",;:-–") + "…"
        if text_width(f, trial) <= max_width:
            return trial
    return fit(text, f, max_width)
