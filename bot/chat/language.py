"""Which language a message is written in.

* Ephemeral replies: the user's Discord locale, from the interaction (``user_language``).
* DMs: the recipient's last seen Discord locale, stored by ``remember`` on each
  interaction (``recipient_language``); English until we have seen them.
* Channel posts: the server's language (``guild_language``): the one chosen with
  ``/cubist settings language``, else the server's own locale when we have a catalogue for it,
  else English.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.i18n import language
from bot.i18n.catalog import languages

if TYPE_CHECKING:
    import discord

    from bot.service.game import GameService

log = logging.getLogger(__name__)


def user_language(interaction: discord.Interaction) -> str:
    """For ephemeral answers: the language of the user's own Discord client."""
    return language(interaction.locale)


async def remember(service: GameService, interaction: discord.Interaction) -> None:
    """Stores the user's Discord locale (DMs sent later, e.g. reminders, use it).  Never
    raises: a failed write must not fail the command that triggered it."""
    locale = getattr(interaction.locale, "value", None) or str(interaction.locale or "")
    if not locale:
        return
    user_id = interaction.user.id
    try:
        await service.queries.set_user_locale(user_id, locale)  # a write only when it changed
    except Exception:
        log.exception("could not store the locale of user %s", user_id)


async def recipient_language(service: GameService, user_id: int | None) -> str:
    """For DMs: the language of the user's client when we last saw them (English before)."""
    if user_id is None:
        return language(None)
    return language(await service.queries.user_locale(user_id))


async def guild_language(bot: Any, guild_id: int | None, guild_locale: object = None) -> str:
    """For channel posts: the server's chosen language, else its own locale (French or
    English), else English.  ``guild_locale`` (e.g. ``interaction.guild_locale``) saves a
    cache look-up; without it the bot's guild cache gives the server's preferred locale."""
    if guild_id is None:
        return language(guild_locale)
    chosen = await bot.service.queries.guild_language(guild_id)
    if chosen in languages():
        return str(chosen)
    if guild_locale is None:
        guild = bot.get_guild(guild_id)
        guild_locale = guild.preferred_locale if guild is not None else None
    return language(guild_locale)


async def channel_language(bot: Any, interaction: discord.Interaction) -> str:
    """For a post in the interaction's channel."""
    return await guild_language(bot, interaction.guild_id, interaction.guild_locale)
