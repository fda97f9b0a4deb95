"""Limits Discord documents but its OpenAPI description leaves out (or states more loosely).

Where the two disagree Discord says to follow the documentation, so these are checked on
top of `schema.check_request`. Each row names the developer documentation page it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import regex

from .errors import FieldError
from .schema import spec

DOCS = "https://discord.com/developers/docs"


@dataclass(frozen=True)
class Documented:
    rule: str
    value: Any
    page: str


# fmt: off
TABLE: dict[str, Documented] = {
    "content": Documented("message content, characters (the spec allows 4,000)", 2000,
                          f"{DOCS}/resources/message#create-message"),
    "request_bytes": Documented("whole request with its files, bytes", 25 * 1024 * 1024,
                                f"{DOCS}/reference#uploading-files"),
    "file_part_filename": Documented("every files[n] part has a filename", True,
                                     f"{DOCS}/reference#uploading-files"),
    "button_id_or_url": Documented("a link button has a url and no custom_id; other buttons a custom_id and no url",
                                   True, f"{DOCS}/components/reference#button"),
    "choice_value": Documented("string choice value, characters (the spec allows 6,000)", 100,
                               f"{DOCS}/interactions/application-commands"
                               "#application-command-object-application-command-option-choice-structure"),
    "command_name": Documented("chat-input command and option names, localized too",
                               r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$",
                               f"{DOCS}/interactions/application-commands#application-command-object-application-command-naming"),
    "command_name_lower": Documented("names use the lower-case form of every letter that has one", True,
                                     f"{DOCS}/interactions/application-commands#application-command-object-application-command-naming"),
    "locales": Documented("localization keys are Discord locales", "AvailableLocalesEnum",
                          f"{DOCS}/reference#locales"),
    "autocomplete_no_choices": Documented("autocomplete may not be set together with choices", True,
                                          f"{DOCS}/interactions/application-commands"
                                          "#application-command-object-application-command-option-structure"),
    "unique_option_names": Documented("option names are unique among siblings, in every locale", True,
                                      f"{DOCS}/interactions/application-commands#localization"),
    "command_characters": Documented("name + description + options + choices per command, longest localization of"
                                     " each field counted", 8000,
                                     f"{DOCS}/interactions/application-commands#registering-a-command"),
}
# fmt: on

CHAT_INPUT = 1
SUBCOMMAND, GROUP = 1, 2
STRING = 3
LINK = 5
PREMIUM = 6
NAME = regex.compile(TABLE["command_name"].value)


def locales() -> frozenset[str]:
    enum = spec()["components"]["schemas"][TABLE["locales"].value]
    return frozenset(entry["const"] for entry in enum["oneOf"])


def _error(path: str, code: str, message: str) -> FieldError:
    return FieldError(path, code, message)


# -- messages ---------------------------------------------------------------------------


def check_buttons(components: list[Any], base: str = "components") -> list[FieldError]:
    """custom_id xor url, by style (the spec makes both optional)."""
    errors: list[FieldError] = []
    for i, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        path = f"{base}.{i}"
        if component.get("type") == 2:
            style, has_id, has_url = (
                component.get("style"),
                bool(component.get("custom_id")),
                bool(component.get("url")),
            )
            if style == LINK and (has_id or not has_url):
                errors.append(
                    _error(
                        f"{path}.custom_id" if has_id else f"{path}.url",
                        "BUTTON_COMPONENT_INVALID",
                        "A link button has a url and no custom_id.",
                    )
                )
            elif style != LINK and style != PREMIUM and has_url:
                errors.append(_error(f"{path}.url", "BUTTON_COMPONENT_INVALID", "Only link buttons have a url."))
        if isinstance(component.get("components"), list):
            errors += check_buttons(component["components"], f"{path}.components")
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                errors += check_buttons([component[key]], f"{path}.{key}")
    return errors


# -- command definitions ----------------------------------------------------------------


def check_command_definitions(commands: list[Any]) -> list[FieldError]:
    """Everything about PUT/POST .../commands the spec leaves out; paths as Discord reports them."""
    errors: list[FieldError] = []
    allowed = locales()
    for i, command in enumerate(commands):
        if not isinstance(command, dict):
            continue
        chat_input = command.get("type", CHAT_INPUT) == CHAT_INPUT
        errors += _check_node(command, str(i), chat_input, allowed)
        used = command_characters(command)
        if used > TABLE["command_characters"].value:
            errors.append(
                _error(
                    str(i),
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({TABLE['command_characters'].value})",
                )
            )
    return errors


def _check_node(node: dict[str, Any], path: str, chat_input: bool, allowed: frozenset[str]) -> list[FieldError]:
    errors: list[FieldError] = []
    if chat_input:
        errors += _check_name(str(node.get("name", "")), f"{path}.name")
    for key in ("name_localizations", "description_localizations"):
        localized = node.get(key) or {}
        for locale, text in localized.items() if isinstance(localized, dict) else ():
            if locale not in allowed:
                errors.append(
                    _error(
                        f"{path}.{key}.{locale}",
                        "LOCALE_INVALID",
                        f"Invalid locale {locale!r}: use one of Discord's locales.",
                    )
                )
            elif key == "name_localizations" and chat_input:
                errors += _check_name(str(text), f"{path}.{key}.{locale}")
    choices = node.get("choices") or []
    if node.get("autocomplete") and choices:
        errors.append(
            _error(
                f"{path}.autocomplete",
                "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                "Autocomplete cannot be set together with choices.",
            )
        )
    for j, choice in enumerate(choices if isinstance(choices, list) else []):
        value = choice.get("value") if isinstance(choice, dict) else None
        if node.get("type") == STRING and isinstance(value, str) and len(value) > TABLE["choice_value"].value:
            errors.append(
                _error(
                    f"{path}.choices.{j}.value",
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {TABLE['choice_value'].value} or fewer in length.",
                )
            )
        localized = (choice.get("name_localizations") or {}) if isinstance(choice, dict) else {}
        for locale in localized:
            if locale not in allowed:
                errors.append(
                    _error(
                        f"{path}.choices.{j}.name_localizations.{locale}",
                        "LOCALE_INVALID",
                        f"Invalid locale {locale!r}: use one of Discord's locales.",
                    )
                )
    options = [o for o in node.get("options") or [] if isinstance(o, dict)]
    errors += _check_unique_names(options, f"{path}.options", allowed)
    for j, option in enumerate(options):
        errors += _check_node(option, f"{path}.options.{j}", chat_input, allowed)
    return errors


def _check_name(name: str, path: str) -> list[FieldError]:
    if not NAME.match(name):
        return [
            _error(
                path,
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid: 1-32 letters, digits, '-', '_' or \"'\".",
            )
        ]
    if any(ch != ch.lower() for ch in name):
        return [_error(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid: use lower case.")]
    return []


def _check_unique_names(options: list[dict[str, Any]], path: str, allowed: frozenset[str]) -> list[FieldError]:
    """In the default language and every locale, the names siblings show must differ."""
    for locale in (None, *sorted(allowed)):
        seen: dict[str, int] = {}
        for j, option in enumerate(options):
            shown = str(
                ((option.get("name_localizations") or {}).get(locale) if locale else None) or option.get("name")
            )
            if shown in seen:
                where = f"{path}.{j}.name_localizations.{locale}" if locale else f"{path}.{j}.name"
                return [
                    _error(
                        where,
                        "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE",
                        f"Option name {shown!r} is already used by option {seen[shown]}"
                        + (f" in locale {locale}." if locale else "."),
                    )
                ]
            seen[shown] = j
    return []


def _longest(node: dict[str, Any], key: str) -> int:
    localized = node.get(f"{key}_localizations") or {}
    texts = [str(node.get(key) or ""), *(str(v) for v in localized.values())] if isinstance(localized, dict) else []
    return max((len(t) for t in texts), default=0)


def command_characters(node: dict[str, Any]) -> int:
    """Characters counted toward the 8,000 budget: name, description, options (recursively) and
    choice names and values, each field at its longest localization."""
    total = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        if isinstance(choice, dict):
            total += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in node.get("options") or []:
        if isinstance(option, dict):
            total += command_characters(option)
    return total


def remaining_budget(command: dict[str, Any]) -> int:
    return TABLE["command_characters"].value - command_characters(command)
