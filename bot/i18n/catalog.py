"""Loading and checking the message catalogues (``locales/<language>.json`` and its parts
``locales/<language>.<area>.json``).

A catalogue is nested JSON whose leaves are messages; a message is a ``str.format``
template with named placeholders, or a plural pair ``{"one": ..., "other": ...}`` chosen
by the ``count`` parameter.  Keys are the dotted paths (``reminders.reminder``).

Every catalogue is checked when it is loaded (same keys as English, same placeholders,
valid templates): a broken translation stops the bot at start-up instead of failing in
the middle of a game.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "fr")
DEFAULT_LANGUAGE = "en"
PLURAL_FORMS = frozenset({"one", "other"})

Entry = str | Mapping[str, str]  # a message, or its plural forms


class CatalogueError(ValueError):
    """A catalogue file is missing, malformed or disagrees with the English one."""


def _flatten(node: Mapping[str, Any], prefix: str, out: dict[str, Entry], where: str) -> None:
    for name, value in node.items():
        key = f"{prefix}{name}"
        if isinstance(value, str):
            out[key] = value
        elif isinstance(value, dict) and set(value) == PLURAL_FORMS:
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


def catalogue_files(language: str) -> list[str]:
    """``<language>.json`` and its parts ``<language>.<area>.json`` (e.g. ``fr.stats.json``),
    so that areas of the bot keep their words in files of their own."""
    names = [entry.name for entry in resources.files("bot.i18n.locales").iterdir()]
    parts = sorted(n for n in names if n.startswith(f"{language}.") and n.endswith(".json") and n.count(".") == 2)
    return [f"{language}.json", *parts]


def read_catalogue(language: str) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for name in catalogue_files(language):
        try:
            text = resources.files("bot.i18n.locales").joinpath(name).read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, ValueError) as e:
            raise CatalogueError(f"cannot read catalogue {name}: {e}") from None
        part = parse_catalogue(data, name)
        if twice := sorted(set(part) & set(out)):
            raise CatalogueError(f"{name}: {', '.join(twice[:5])} already defined in another {language} file")
        out.update(part)
    return out


def compare(reference: Mapping[str, Entry], other: Mapping[str, Entry], name: str) -> list[str]:
    """What differs between a catalogue and the English one: missing or extra keys,
    different placeholders, a plural in one and not the other."""
    problems = [f"{name}: missing {key}" for key in reference if key not in other]
    problems += [f"{name}: {key} is not in the English catalogue" for key in other if key not in reference]
    for key, entry in reference.items():
        if key not in other:
            continue
        theirs = other[key]
        if isinstance(entry, str) != isinstance(theirs, str):
            problems.append(f"{name}: {key}: plural forms in one language only")
        if placeholders(entry) != placeholders(theirs):
            problems.append(
                f"{name}: {key}: placeholders {sorted(placeholders(theirs))} differ from "
                f"English {sorted(placeholders(entry))}"
            )
    return problems


@cache
def catalogues() -> Mapping[str, Mapping[str, Entry]]:
    """Every catalogue, loaded and checked once."""
    loaded = {language: read_catalogue(language) for language in LANGUAGES}
    problems: list[str] = []
    for language in LANGUAGES:
        if language != DEFAULT_LANGUAGE:
            problems += compare(loaded[DEFAULT_LANGUAGE], loaded[language], f"{language}.json")
    if problems:
        raise CatalogueError("; ".join(problems))
    return loaded
