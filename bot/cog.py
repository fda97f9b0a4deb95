"""The ``/cubist`` slash commands, one module per feature, composed into one command.

A turn's commands stay one level deep (``/cubist move``, ``/cubist hint``); the rest sit in
subcommand groups (``/cubist lobby new``, ``/cubist settings language``), so /cubist holds 14
of Discord's 25 entries and each group a handful.  Docstrings become the descriptions players
see; the commands reach the store only through ``bot.service.game``."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.chat.base import Bot
from bot.chat.language import remember
from bot.chat.options import BadOption, check_options
from bot.chat.replies import send_error
from bot.i18n import Message
from bot.lobby.commands import LobbyCommands
from bot.look.commands import LookCommands
from bot.refusal_words import said
from bot.service.refusals import UserError
from bot.settings.commands import SettingsCommands, parse_reminder_options
from bot.stats.commands import StatsCommands
from bot.store import CannotWrite
from bot.table.commands import TableCommands
from bot.turn.commands import PlayCommands

__all__ = ["CubistCog", "parse_reminder_options"]

log = logging.getLogger(__name__)


class CubistCog(
    PlayCommands,
    LookCommands,
    LobbyCommands,
    TableCommands,
    StatsCommands,
    SettingsCommands,
    commands.GroupCog,
    group_name="cubist",
    group_description="Play Cubist, the dice-sculpting game",
):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            await send_error(interaction, said(original))
            return
        if isinstance(original, BadOption):
            await send_error(interaction, original.args[0] if original.args else str(original))
            return
        if isinstance(original, CannotWrite):  # disk full, read-only: not "try again" forever
            await send_error(interaction, Message("errors.cannot_save"))
            return
        log.exception("command failed", exc_info=original)
        await send_error(interaction, Message("errors.unexpected"))

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        check_options(interaction)  # a value Discord would never send: refused by name
        await remember(self.bot.service, interaction)  # never raises
        return True
