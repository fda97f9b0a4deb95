"""Names and numbers as the pictures write them: a board's number in a disc, a display name
shortened to fit (never cut inside a parenthesis, a computer player's level shown apart)."""

from __future__ import annotations

import re
from collections.abc import Callable

from .fonts import Font, fit, font, text_width


def circled(n: int) -> str:
    """①, ②… (up to ⑳): a board's or a card's number, drawn as a number, not a code."""
    return chr(0x2460 + n - 1) if 1 <= n <= 20 else str(n)


def fit_name(name: str, f: Font, width: float) -> tuple[str, Font]:
    """A display name that fits: smaller type first, then without its parenthesis ("Computer 1"
    for "Computer 1 (greedy)", whose level is shown apart), then initials for the later words
    ("Bartholomew t. M."), then cut at a word boundary with "…"; never inside a parenthesis."""
    for size in (f.size, round(f.size * 0.88), round(f.size * 0.78)):
        g = font(size, bold=True)
        if text_width(g, name) <= width:
            return name, g
    g = font(round(f.size * 0.78), bold=True)
    for short in short_names(name):
        if text_width(g, short) <= width:
            return short, g
    words = plain_name(name).split()
    for keep in range(len(words) - 1, 0, -1):
        cut = " ".join(words[:keep]) + "…"
        if text_width(g, cut) <= width:
            return cut, g
    return fit(words[0] if words else name, g, width), g


def fit_words(name: str, f: Font, width: float) -> str:
    """``name`` in ``f`` within ``width``: whole, else without its parenthesis ("Computer 1"),
    else its first words and "…" (a cut at a word boundary), never inside a word while the
    first word fits."""
    for shown in (name, plain_name(name)):
        if text_width(f, shown) <= width:
            return shown
    words = plain_name(name).split()
    for keep in range(len(words) - 1, 0, -1):
        cut = " ".join(words[:keep]).rstrip(",;:") + "…"
        if text_width(f, cut) <= width:
            return cut
    return fit(words[0] if words else name, f, width)


def plain_name(name: str) -> str:
    """The name without a trailing parenthesis: "Computer 1 (greedy)" -> "Computer 1"."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", name).strip() or name


def _initials(name: str) -> str:
    """ "Bartholomew the Magnificent" -> "Bartholomew t. M."; numbers stay whole ("Computer 1")."""
    words = plain_name(name).split()
    return " ".join(words[:1] + [w if w.isdigit() else w[0] + "." for w in words[1:]])


def short_names(name: str) -> list[str]:
    """Shorter forms of a name, longest first: without its parenthesis, then with initials."""
    out: list[str] = []
    for short in (plain_name(name), _initials(name)):
        if short != name and short not in out:
            out.append(short)
    return out


def _fitting(
    make: Callable[[list[str] | None], str],
    names: list[str] | None,
    sizes: tuple[int, ...],
    width: float,
    bold: bool = True,
) -> tuple[str, Font]:
    """The sentence ``make(names)`` in the largest size that fits, then with the names
    shortened to initials (only an unfittable sentence gets cut, by the caller)."""
    shorter = [[plain_name(n) for n in names], [_initials(n) for n in names]] if names else []
    for candidate in (names, *shorter):
        text = make(candidate)
        for size in sizes:
            f = font(size, bold=bold)
            if text_width(f, text) <= width:
                return text, f
    return text, font(sizes[-1], bold=bold)
