"""What the buttons about one game share (``cubist:<game>:b:<action>``, bot/chat/buttons.py):
each behaviour is a ``DynamicItem`` class of its own, in its feature, with ``act``."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

from bot.chat import buttons
from bot.chat.guard import Guarded
from bot.chat.language import remember, user_language


class GameButton(Guarded):
    action: ClassVar[str]

    def __init__(self, game_id: int, locale: str) -> None:
        super().__init__(buttons.game_button(game_id, self.action, locale))  # type: ignore[call-arg]  # DynamicItem's
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await remember(interaction.client.service, interaction)  # type: ignore[attr-defined]  # DMs follow it
        await self.act(interaction)

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError
