"""Loading and checking the message catalogues (``<language>.json`` and its parts
``<language>.<area>.json`` in the locales folders: ``bot/i18n/locales`` and any folder
added with ``use_locale_dirs``).  The bundled ones have one part per feature, holding the
keys named after it (``fr.lobby.json``: ``lobby.*``), and ``common.*`` in ``<language>.json``.

A catalogue is nested JSON whose leaves are messages; a message is a ``str.format``
template with named placeholders, or its plural forms ``{"one": ..., "other": ...}``
(CLDR forms: ``zero``, ``one``, ``two``, ``few``, ``many``, ``other``; ``other`` always)
chosen by the ``count`` parameter with the language's CLDR rule (``plural``).  Keys are the
dotted paths (``reminders.reminder``).

The languages are the catalogues found: a new language is new files, no code.  Every
catalogue is checked when it is loaded (same keys as English, same placeholders, valid
templates, a language Babel knows): a broken translation stops the bot at start-up instead
of failing in the middle of a game.
"""

from __future__ import annotations

import json
import os
import string
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

DEFAULT_LANGUAGE = "en"
PLURAL_FORMS = frozenset({"zero", "one", "two", "few", "many", "other"})  # CLDR's categories

Entry = str | Mapping[str, str]  # a message, or its plural forms


class CatalogueError(ValueError):
    """A catalogue file is missing, malformed or disagrees with the English one."""


def _flatten(node: Mapping[str, Any], prefix: str, out: dict[str, Entry], where: str) -> None:
    for name, value in node.items():
        key = f"{prefix}{name}"
        if isinstance(value, str):
            out[key] = value
        elif isinstance(value, dict) and "other" in value and set(value) <= PLURAL_FORMS:
            if not all(isinstance(v, str) for v in value.values()):
                raise CatalogueError(f"{where}: {key}: plural forms must be strings")
            out[key] = dict(value)
        elif isinstance(value, dict):
            _flatten(value, f"{key}.", out, where)
        else:
            raise CatalogueError(f"{where}: {key}: expected a message or a group, got {type(value).__name__}")


def placeholders(entry: Entry) -> frozenset[str]:
    """The named fields of a message (of all its plural forms).  Raises CatalogueError on a
    template ``str.format`` cannot read, or on positional fields."""
    texts = [entry] if isinstance(entry, str) else list(entry.values())
    names: set[str] = set()
    for text in texts:
        try:
            parsed = list(string.Formatter().parse(text))
        except ValueError as e:
            raise CatalogueError(f"bad template {text[:60]!r}: {e}") from None
        for _literal, field, _spec, _conv in parsed:
            if field is None:
                continue
            base = field.split(".")[0].split("[")[0]
            if not base or base.isdigit():
                raise CatalogueError(f"positional field in {text[:60]!r}: name every placeholder")
            names.add(base)
    return frozenset(names)


def parse_catalogue(data: object, where: str) -> dict[str, Entry]:
    if not isinstance(data, dict):
        raise CatalogueError(f"{where}: the top level must be an object")
    out: dict[str, Entry] = {}
    _flatten(data, "", out, where)
    for key, entry in out.items():
        try:
            placeholders(entry)
        except CatalogueError as e:
            raise CatalogueError(f"{where}: {key}: {e}") from None
    return out


LOCALES_VARIABLE = "CUBIST_LOCALES"  # more folders of catalogues, separated by os.pathsep
_extra_dirs: list[Path] = []
generation = 0  # counts reloads, for caches built from the catalogues


def use_locale_dirs(dirs: Iterable[Path]) -> None:
    """Also read catalogues from ``dirs`` (after the bundled ones and ``$CUBIST_LOCALES``),
    e.g. a language being written, or a test's; ``[]``: no more than those."""
    global generation
    _extra_dirs[:] = [Path(d) for d in dirs]
    catalogues.cache_clear()
    languages.cache_clear()
    generation += 1


def locale_dirs() -> list[Traversable]:
    """Where catalogues are read: the bundled ones, then ``$CUBIST_LOCALES``, then
    ``use_locale_dirs``'s."""
    configured = [Path(d) for d in os.environ.get(LOCALES_VARIABLE, "").split(os.pathsep) if d]
    return [resources.files("bot.i18n.locales"), *configured, *_extra_dirs]


def _json_names(folder: Traversable) -> list[str]:
    return [entry.name for entry in folder.iterdir() if entry.name.endswith(".json")]


@cache
def languages() -> tuple[str, ...]:
    """Every language with a catalogue (``<language>.json``), English first."""
    found = {name.removesuffix(".json") for d in locale_dirs() for name in _json_names(d) if name.count(".") == 1}
    return (DEFAULT_LANGUAGE, *sorted(found - {DEFAULT_LANGUAGE}))


def catalogue_files(language: str) -> list[Traversable]:
    """``<language>.json`` and its parts ``<language>.<area>.json`` (e.g. ``fr.stats.json``),
    so that areas of the bot keep their words in files of their own."""
    files: list[Traversable] = []
    for folder in locale_dirs():
        names = _json_names(folder)
        parts = sorted(n for n in names if n.startswith(f"{language}.") and n.count(".") == 2)
        files += [folder.joinpath(n) for n in ([f"{language}.json"] if f"{language}.json" in names else []) + parts]
    return files


def read_catalogue(language: str) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for file in catalogue_files(language):
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise CatalogueError(f"cannot read catalogue {file.name}: {e}") from None
        part = parse_catalogue(data, file.name)
        if twice := sorted(set(part) & set(out)):
            raise CatalogueError(f"{file.name}: {', '.join(twice[:5])} already defined in another {language} file")
        out.update(part)
    return out


@cache
def babel_locale(language: str) -> Locale:
    """Babel's (CLDR's) facts about a language: plural rule, names of languages."""
    try:
        return Locale.parse(language)
    except (UnknownLocaleError, ValueError) as e:
        raise CatalogueError(f"{language}.json: no such language in CLDR ({e})") from None


def plural(language: str, count: object) -> str:
    """The CLDR plural form of ``count`` in ``language`` (``other`` for what is no number)."""
    try:
        n = abs(int(count))  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return "other"
    return _plural_form(language, n)


@lru_cache(maxsize=4096)
def _plural_form(language: str, n: int) -> str:
    # Babel evaluates the CLDR rule each time (microseconds); every post and the web board's
    # words ask for the same few counts again and again.
    return str(babel_locale(language).plural_form(n))


def language_name(language: str, reader: str) -> str:
    """The name of ``language`` in the ``reader``'s language, as in running text ('French',
    'anglais')."""
    return str(babel_locale(reader).languages.get(language) or babel_locale(language).get_display_name(reader))


def own_name(language: str) -> str:
    """A language's name in itself, capitalised as a menu entry ('English', 'Français')."""
    name = str(babel_locale(language).get_display_name(language))
    return name[:1].upper() + name[1:]


def compare(reference: Mapping[str, Entry], other: Mapping[str, Entry], name: str) -> list[str]:
    """What differs between a catalogue and the English one: missing or extra keys,
    different placeholders, a plural in one and not the other."""
    problems = [f"{name}: missing {key}" for key in reference if key not in other]
    problems += [f"{name}: {key} is not in the English catalogue" for key in other if key not in reference]
    language = name.split(".")[0]
    forms = {plural(language, n) for n in range(1001)} | {"other"}  # the forms counts of dice can take
    for key, entry in reference.items():
        if key not in other:
            continue
        theirs = other[key]
        if isinstance(entry, str) != isinstance(theirs, str):
            problems.append(f"{name}: {key}: plural forms in one language only")
        elif not isinstance(theirs, str) and (missing := forms - set(theirs)):
            problems.append(f"{name}: {key}: no {', '.join(sorted(missing))} form")
        if placeholders(entry) != placeholders(theirs):
            problems.append(
                f"{name}: {key}: placeholders {sorted(placeholders(theirs))} differ from "
                f"English {sorted(placeholders(entry))}"
            )
    return problems


@cache
def catalogues() -> Mapping[str, Mapping[str, Entry]]:
    """Every catalogue, loaded and checked once."""
    loaded = {language: read_catalogue(language) for language in languages()}
    problems: list[str] = []
    for language in languages():
        babel_locale(language)
        if language != DEFAULT_LANGUAGE:
            problems += compare(loaded[DEFAULT_LANGUAGE], loaded[language], f"{language}.json")
    if problems:
        raise CatalogueError("; ".join(problems))
    return loaded
