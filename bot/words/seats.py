"""Names the bot gives seats: a computer player's, and an away player's seat once a
computer plays it.  They are stored with the seat, in the table's language."""

from __future__ import annotations

from bot.i18n import has, t


def computer_name(level: str, number: int, lang: str) -> str:
    """ "Computer 2 (greedy)", "Ordinateur 2 (glouton)"."""
    shown = t(f"seats.level.{level}", lang) if has(f"seats.level.{level}") else level
    return t("seats.computer_name", lang, number=number, level=shown)


def taken_over_name(name: str, lang: str) -> str:
    """ "Ada (computer)": the seat keeps its player's name, a computer plays it."""
    return t("seats.taken_over", lang, name=name)
