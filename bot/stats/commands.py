"""``/cubist stats games|leaderboard``: finished games and ratings.  Public answers (people like
to show them); refusals are ephemeral (UserError)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.chat.feature import Feature, clip_lines, display_name
from bot.chat.language import channel_language, user_language
from bot.chat.replies import clip
from bot.service.refusals import UserError
from bot.stats.words import LEADERBOARD_SIZE, leaderboard_text, no_stats_text, stats_text
from bot.store.rating import START


class StatsCommands(Feature):
    stats = app_commands.Group(name="stats", description="Finished games and this server's ratings")

    @stats.command()
    @app_commands.describe(player="Whose statistics (default: yours)")
    async def games(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """A player's finished games on this server: wins, scores, best installation, rating."""
        who = player or interaction.user
        stats = await self.service.player_stats(interaction.guild_id, interaction.user.id, who.id)
        if stats is None:
            mine = user_language(interaction)
            raise UserError(no_stats_text(display_name(who), yourself=who.id == interaction.user.id, locale=mine))
        lang = await channel_language(self.bot, interaction)  # a public answer: the server's language
        await interaction.response.send_message(
            clip(stats_text(display_name(who), stats, lang)), allowed_mentions=discord.AllowedMentions.none()
        )

    @stats.command()
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        """This server's Cubist ratings, computer players included."""
        entries = await self.service.leaderboard(interaction.guild_id, LEADERBOARD_SIZE)
        if not entries:
            raise UserError(leaderboard_text(entries, START, user_language(interaction)))
        lang = await channel_language(self.bot, interaction)
        await interaction.response.send_message(
            clip_lines(leaderboard_text(entries, START, lang)), allowed_mentions=discord.AllowedMentions.none()
        )
