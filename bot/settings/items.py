"""Snooze and Stop under a turn-start DM or a reminder (``cubist:<game>:b:snooze|stop``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.chat.buttons import game_button_id
from bot.chat.game_button import GameButton
from bot.settings import flow

Button = discord.ui.DynamicItem[discord.ui.Button[Any]]


class SnoozeButton(GameButton, Button, template=game_button_id("snooze")):
    action = "snooze"

    async def act(self, interaction: discord.Interaction) -> None:
        await flow.snooze(interaction, self.game_id)


class StopButton(GameButton, Button, template=game_button_id("stop")):
    action = "stop"

    async def act(self, interaction: discord.Interaction) -> None:
        await flow.stop_reminders(interaction, self.game_id)


ITEMS = (SnoozeButton, StopButton)
