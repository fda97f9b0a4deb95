"""The one place every component interaction passes: its custom_id is checked before any
item acts on it.

An id that no item's template matches (forged, damaged, from a version long gone), or that
names a number no game, version or turn can have (above 2**63 - 1, what SQLite and Discord's
snowflakes hold), is answered by the client's catch-all (``CubistBot.on_interaction``) with a
clear word, and every item's ``interaction_check`` refuses it, so none of them runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import discord

MAX_NUMBER = 2**63 - 1
_NUMBERS = re.compile(r"\d+")


def numbers_in_range(custom_id: str) -> bool:
    return all(len(n) <= 19 and int(n) <= MAX_NUMBER for n in _NUMBERS.findall(custom_id))


def well_formed(custom_id: str, items: Iterable[type[Any]]) -> bool:
    """True when one of ``items`` (DynamicItem classes) takes ``custom_id`` and its numbers fit."""
    if not numbers_in_range(custom_id):
        return False
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items)


class Guarded:
    """Mixed into every item: it acts only on ids whose numbers fit (the catch-all answers)."""

    custom_id: str

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return numbers_in_range(self.custom_id)
