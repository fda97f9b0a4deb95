"""The ``/cubist`` slash commands, one module per feature, composed into one command.

A turn's commands stay one level deep (``/cubist move``, ``/cubist hint``); the rest sit in
subcommand groups (``/cubist lobby new``, ``/cubist settings language``), so /cubist holds 14
of Discord's 25 entries and each group a handful.  Docstrings become the descriptions players
see; the commands reach the store only through ``bot.service``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from ..i18n import Message
from ..i18n.choose import remember
from ..replies import send_error
from ..service import UserError
from ..store import CannotWrite
from .lobby import LobbyCommands
from .look import LookCommands
from .options import BadOption, check_options
from .play import PlayCommands
from .settings import SettingsCommands, parse_reminder_options
from .stats import StatsCommands
from .table import TableCommands

if TYPE_CHECKING:
    from ..client import CubistBot

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
    def __init__(self, bot: CubistBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError | BadOption):
            await send_error(interaction, original.args[0] if original.args else str(original))
            return
        if isinstance(original, CannotWrite):  # disk full, read-only: not "try again" forever
            await send_error(interaction, Message("trust.cannot_save"))
            return
        log.exception("command failed", exc_info=original)
        await send_error(interaction, Message("commands.error"))

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        check_options(interaction)  # a value Discord would never send: refused by name
        await remember(self.bot.service, interaction)  # never raises
        return True
