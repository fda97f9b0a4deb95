"""The bot's words in English and French.

    from bot.i18n import t, language, Message
    t("reminders.since", "fr")                         # 'Depuis votre dernier tour :'
    t("history.turn", interaction.locale, turn=3, who="Ada", summary=...)
    t("pictures.dice", "en", count=1)                  # plural forms chosen by ``count``
    raise UserError(Message("look.not_playing", name=n))  # translated when it is shown

Which language:
* ephemeral replies and DMs: the user's own Discord locale (``interaction.locale``; for DMs
  outside an interaction, the last locale we saw from them: ``choose.user_language``);
* channel posts: the server's language (``/cubist settings language``, stored per guild; by default
  the server's own locale when we have a catalogue for it, else English:
  ``choose.guild_language``).

``language()`` maps any Discord locale to a catalogue: ``fr`` for every French locale,
English for any language without a catalogue.  The languages are the catalogues there are
(``catalog.languages()``); plural forms follow each language's CLDR rule and languages are
named by CLDR (both from Babel), so a new language is new catalogue files only.  Messages
with placeholders use ``str.format`` named fields; a ``Message`` passed as a parameter is
translated into the same language.

An unknown key raises ``KeyError`` while pytest runs (``PYTEST_CURRENT_TEST``) or after
``set_strict(True)``; in production it is logged and the key itself is shown, so a
missing message never stops a game.
"""

from __future__ import annotations

from bot.i18n.cards import artist_action, artist_name, card_name
from bot.i18n.catalog import DEFAULT_LANGUAGE, CatalogueError, babel_locale, language_name, languages
from bot.i18n.core import (
    Message,
    has,
    is_strict,
    join,
    language,
    language_choices,
    localize,
    set_strict,
    t,
    time_of_day,
    words_in_any_language,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "CatalogueError",
    "Message",
    "artist_action",
    "artist_name",
    "babel_locale",
    "card_name",
    "has",
    "is_strict",
    "join",
    "language",
    "language_choices",
    "language_name",
    "languages",
    "localize",
    "set_strict",
    "t",
    "time_of_day",
    "words_in_any_language",
]
