"""The final post's Rematch button (``cubist:<game>:b:rematch``): a new game, same players."""

from __future__ import annotations

from typing import Any

import discord

from bot.chat.buttons import game_button_id
from bot.chat.game_button import GameButton
from bot.lobby import actions

Button = discord.ui.DynamicItem[discord.ui.Button[Any]]


class RematchButton(GameButton, Button, template=game_button_id("rematch")):
    action = "rematch"

    async def act(self, interaction: discord.Interaction) -> None:
        await actions.rematch(interaction, self.game_id)


ITEMS = (RematchButton,)
