"""The one way a button, select or panel gets its game: ``load`` asks the service's guard
(``GameService.for_interaction``) and answers the clicker privately when it refuses."""

from __future__ import annotations

import discord

from bot.chat.base import Bot
from bot.chat.replies import send_error
from bot.refusal_words import said
from bot.service.game import Access, Loaded
from bot.service.refusals import UserError


def host(interaction: discord.Interaction) -> Bot:
    """The client that received ``interaction`` (always ours: one client per process)."""
    return interaction.client  # type: ignore[return-value]


async def load(interaction: discord.Interaction, game_id: int, need: Access = Access.LOOK) -> Loaded | None:
    """The game ``game_id`` for this click, or None after telling the clicker why not."""
    try:
        return await host(interaction).service.for_interaction(
            game_id, interaction.channel_id, interaction.user.id, in_dm=interaction.guild_id is None, need=need
        )
    except UserError as e:
        await send_error(interaction, said(e))
        return None
