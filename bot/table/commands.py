"""``/cubist table skip|kick|cancel``: the creator's powers (and Manage Channels')."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.chat.feature import Feature, can_manage, display_name
from bot.chat.language import channel_language
from bot.i18n import t
from bot.table.away import admin_move, ask_skip


class TableCommands(Feature):
    table = app_commands.Group(name="table", description="Run the table: skip a turn, remove a player, cancel")

    @table.command()
    async def skip(self, interaction: discord.Interaction) -> None:
        """Skip the current player's turn (the game's creator or Manage Channels); asks first."""
        await ask_skip(self.bot, interaction, can_manage=can_manage(interaction))

    @table.command()
    @app_commands.describe(player="The player to remove from the game")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        """Remove a player from the game (the game's creator or Manage Channels)."""
        await admin_move(self.bot, interaction, kick=player, can_manage=can_manage(interaction))

    @table.command()
    async def cancel(self, interaction: discord.Interaction) -> None:
        """Cancel this channel's game (its creator, or members with Manage Channels)."""
        record = await self.service.cancel(interaction.channel_id or 0, interaction.user.id, can_manage(interaction))
        lang = await channel_language(self.bot, interaction)
        await interaction.response.send_message(
            t("table.cancelled", lang, game=record.id, name=display_name(interaction.user))
        )
