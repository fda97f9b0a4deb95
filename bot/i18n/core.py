"""The catalogue lookups every module of ``bot.i18n`` builds on (re-exported by the package)."""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import time
from typing import Any

from babel.dates import format_skeleton

from bot.i18n.catalog import (
    DEFAULT_LANGUAGE,
    Entry,
    babel_locale,
    catalogues,
    languages,
    own_name,
    plural,
)
from bot.i18n.elision import fill

log = logging.getLogger(__name__)

_strict: bool | None = None


def set_strict(strict: bool | None) -> None:
    """True: unknown keys raise; False: they are logged; None: raise only under pytest."""
    global _strict
    _strict = strict


def is_strict() -> bool:
    return _strict if _strict is not None else "PYTEST_CURRENT_TEST" in os.environ


def language(locale: object) -> str:
    """The catalogue for a Discord locale (``discord.Locale``, 'fr', 'en-US', None...):
    'fr' for any French locale, English for anything we have no catalogue for."""
    if not isinstance(locale, str):  # discord.Locale (discord.py's own enum type) has .value
        locale = getattr(locale, "value", None)
    if not isinstance(locale, str):
        return DEFAULT_LANGUAGE
    have = languages()
    seen = _seen.get(locale)  # nearly every call passes a language code already
    if seen is not None and seen[0] is have:  # (a catalogue added since is a new tuple)
        return seen[1]
    base = locale.strip().lower().replace("_", "-").split("-")[0]
    known = base if base in have else DEFAULT_LANGUAGE
    if len(_seen) < 256:  # locales come from Discord and settings: a few dozen at most
        _seen[locale] = (have, known)
    return known


_seen: dict[str, tuple[tuple[str, ...], str]] = {}


def language_choices() -> list[tuple[str, str]]:
    """(code, name in itself) for every language with a catalogue: the choices of
    ``/cubist settings language``."""
    return [(code, own_name(code)) for code in languages()]


def has(key: str) -> bool:
    return key in catalogues()[DEFAULT_LANGUAGE]


def t(key: str, locale: object, /, **params: Any) -> str:
    """The message ``key`` in the language of ``locale``, with ``params`` filled in."""
    lang = language(locale)
    entry: Entry | None = catalogues()[lang].get(key)
    if entry is None:
        if is_strict():
            raise KeyError(f"no message {key!r} in the catalogues")
        log.error("no message %r in the catalogues", key)
        return key
    if not isinstance(entry, str):
        entry = entry.get(plural(lang, params.get("count"))) or entry["other"]
    if any(isinstance(v, Message) for v in params.values()):
        params = {name: (v.render(lang) if isinstance(v, Message) else v) for name, v in params.items()}
    if lang in ELIDING:
        return fill(entry, params, _nouns(lang))
    return entry.format(**params)


ELIDING = frozenset({"fr"})  # languages whose words elide before a vowel where a value is filled in


@functools.cache
def _nouns(lang: str) -> tuple[str, ...]:
    """The first word of a computer player's name, a common noun that takes its article."""
    entry = catalogues()[lang].get("seats.computer_name")
    return (entry.split(" ", 1)[0],) if isinstance(entry, str) and not entry.startswith("{") else ()


def time_of_day(minutes: int, locale: object) -> str:
    """A time of day (minutes after midnight) on the 24-hour clock as the reader's language
    writes it (CLDR's ``Hm``: '22:00' in English and French, '22.00' in Finnish)."""
    return str(format_skeleton("Hm", time(minutes // 60 % 24, minutes % 60), locale=babel_locale(language(locale))))


def words_in_any_language(key: str) -> frozenset[str]:
    """The comma-separated words of message ``key`` in every catalogue, lower case: what a
    player may type in any language (e.g. ``settings.quiet_off_words``: off, non...)."""
    found: set[str] = set()
    for lang in languages():
        entry = catalogues()[lang].get(key)
        if isinstance(entry, str):
            found.update(w.strip().lower() for w in entry.split(",") if w.strip())
    return frozenset(found)


def join(items: list[str], locale: object) -> str:
    """'a, b and c' / 'a, b et c'."""
    if len(items) <= 1:
        return "".join(items)
    return t("common.list_sep", locale).join(items[:-1]) + t("common.and", locale) + items[-1]


@dataclass(frozen=True)
class Message:
    """A message not yet translated: its key and parameters.  For texts made before we know
    who reads them, e.g. ``raise UserError(Message("look.not_playing", name=n))``: the code that
    answers renders it in the reader's language (``localize(message, interaction.locale)``).
    ``str()`` gives English, so code that still expects plain text keeps working."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, key: str, /, **params: Any) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", dict(params))

    def render(self, locale: object) -> str:
        return t(self.key, locale, **self.params)

    def __str__(self) -> str:
        return self.render(DEFAULT_LANGUAGE)


def localize(text: object, locale: object) -> str:
    """A ``Message`` in the reader's language; anything else as it is (already words)."""
    if isinstance(text, Message):
        return text.render(locale)
    return str(text)
