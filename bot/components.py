"""The views the bot posts, built from the persistent items of ``bot/items/`` (one
DynamicItem class per behaviour; their custom_ids carry the game, so they keep working after
a restart).  The callbacks only translate: the game service decides everything."""

from __future__ import annotations

from typing import Any

import discord

from .items import BoardButton, PlayButton, RematchButton, SnoozeButton, StopButton, StudioButton


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def game_buttons(game_id: int, locale: str) -> discord.ui.View:
    """Buttons on the channel's turn post (``locale``: the server's language).  They open
    private answers and never act on the game: Play opens the turn panel."""
    return view_of(PlayButton(game_id, locale), StudioButton(game_id, locale), BoardButton(game_id, locale))


def rematch_view(game_id: int, locale: str) -> discord.ui.View:
    return view_of(RematchButton(game_id, locale), BoardButton(game_id, locale))


def reminder_buttons(game_id: int, locale: str) -> list[discord.ui.Item[Any]]:
    """Under a turn-start DM or a reminder: snooze this game's reminders, or stop them."""
    return [SnoozeButton(game_id, locale), StopButton(game_id, locale)]
