"""The turn post's Studio and Board buttons (``cubist:<game>:b:studio|board``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.chat.buttons import game_button_id
from bot.chat.game_button import GameButton
from bot.look import flow

Button = discord.ui.DynamicItem[discord.ui.Button[Any]]


class StudioButton(GameButton, Button, template=game_button_id("studio")):
    action = "studio"

    async def act(self, interaction: discord.Interaction) -> None:
        await flow.show_studio(interaction, self.game_id)


class BoardButton(GameButton, Button, template=game_button_id("board")):
    action = "board"

    async def act(self, interaction: discord.Interaction) -> None:
        await flow.show_board(interaction, self.game_id)


ITEMS = (StudioButton, BoardButton)
