"""How the panel's messages use Discord's rows: five rows, each of up to five buttons or one
select.  A row of buttons holds at most ``ROW_WIDTH``, one fewer than Discord allows, so a
button can join any row later without a message that Discord (or discord.py) refuses."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
ROWS = 5
ROW_WIDTH = 4


def chunks(items: list[T], width: int = ROW_WIDTH) -> list[list[T]]:
    """``items`` in rows of ``width``."""
    return [items[i : i + width] for i in range(0, len(items), width)]
