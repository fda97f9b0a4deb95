"""French command descriptions for Discord: an ``app_commands.Translator``.

Command, group and option *names* stay English (they are what people type and what the
help and the tests refer to); descriptions and choice names are translated.  Keys come
from where the string sits, so the decorators in ``commands.py`` stay as they are:

    commands.<group>.description                      the group
    commands.<group>.<command>.description            a command
    commands.<group>.<command>.option.<parameter>     an option's description
    commands.choice.<choice name>                     a choice (shared across commands)

discord.py asks once per Discord locale at sync time and sends ``description_localizations``
/ ``name_localizations``; we answer for the locales that have a catalogue other than English.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DEFAULT_LANGUAGE, has, language, t

log = logging.getLogger(__name__)


def _path(qualified_name: str) -> str:
    return "commands." + ".".join(qualified_name.split())


def translation_key(string: str, where: Where, data: Any) -> str | None:
    """The catalogue key for a command string, or None for what stays English (names)."""
    if where in (Where.group_description, Where.command_description):
        return f"{_path(data.qualified_name)}.description"
    if where is Where.parameter_description:
        return f"{_path(data.command.qualified_name)}.option.{data.name}"
    if where is Where.choice_name:
        return f"commands.choice.{data.name}"
    return None


class CubistTranslator(app_commands.Translator):
    """``await bot.tree.set_translator(CubistTranslator())`` before syncing."""

    def __init__(self) -> None:
        self.missing: set[str] = set()  # keys asked for but absent (the tests look at these)

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        lang = language(locale)
        if lang == DEFAULT_LANGUAGE:
            return None  # the English text is the default in the payload
        key = translation_key(string.message, context.location, context.data)
        if key is None:
            return None
        if not has(key):
            if key not in self.missing:
                log.warning("no translation for %s (%r)", key, string.message)
            self.missing.add(key)
            return None
        return t(key, lang)
