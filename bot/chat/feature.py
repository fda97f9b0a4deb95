"""What the /cubist command modules share: names, refusals and the cog's handles."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.chat.base import Bot
from bot.chat.replies import clip
from bot.i18n import catalog, t

if TYPE_CHECKING:
    from bot.service.game import GameService


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def missing_text(missing: list[str], lang: str) -> str:
    """``missing_permissions``' English labels in ``lang``, as 'A, B, C'."""
    english = catalog.catalogues()[catalog.DEFAULT_LANGUAGE]
    keys = {text: key for key, text in english.items() if key.startswith("permissions.") and isinstance(text, str)}
    return t("common.list_sep", lang).join(t(keys[m], lang) if m in keys else m for m in missing)


def clip_lines(text: str, limit: int = 2000) -> str:
    """Drops whole lines from the middle (keeping the heading) to fit Discord's limit."""
    lines = text.split("\n")
    while len("\n".join(lines)) > limit and len(lines) > 2:
        del lines[1]
    return clip("\n".join(lines), limit)


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_channels)


LEVEL_CHOICES = [
    app_commands.Choice(name="random (easy)", value="random"),
    app_commands.Choice(name="greedy (medium)", value="greedy"),
    app_commands.Choice(name="strong (hard)", value="strong"),
    app_commands.Choice(name="master (expert)", value="master"),
]


if TYPE_CHECKING:  # the mixins' commands are the cog's: typed as one for app_commands' decorators
    from discord.ext.commands import GroupCog as _FeatureBase
else:
    _FeatureBase = object


class Feature(_FeatureBase):
    """Base of the feature mixins composed into ``CubistCog``: the commands' ``self`` is the cog."""

    bot: Bot

    @property
    def service(self) -> GameService:
        return self.bot.service
