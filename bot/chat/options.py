"""Option values checked against the command's own definition before a command runs.

Discord sends an integer option as a JSON integer inside its min/max; a forged or broken
payload may not (``players: 2.5``, ``"3"``, ``true``, 99).  discord.py passes such values on
as they are, so they would fail deep inside a command as "something went wrong"; here they
are refused by name, saying what is allowed, before anything runs.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as Kind

from bot.i18n import Message

SUBCOMMANDS = (Kind.subcommand.value, Kind.subcommand_group.value)
SNOWFLAKE_KINDS = (Kind.user.value, Kind.channel.value, Kind.role.value, Kind.mentionable.value, Kind.attachment.value)


class BadOption(app_commands.AppCommandError):
    """An option value Discord would never send; ``args[0]`` is the refusal."""


def _leaves(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for option in options:
        if option.get("type") in SUBCOMMANDS:
            out += _leaves(option.get("options") or [])
        else:
            out.append(option)
    return out


def _fits(kind: int, value: Any) -> bool:
    if kind == Kind.integer.value:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == Kind.number.value:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == Kind.boolean.value:
        return isinstance(value, bool)
    if kind == Kind.string.value:
        return isinstance(value, str)
    if kind in SNOWFLAKE_KINDS:
        return isinstance(value, str | int) and str(value).isdigit()
    return True


def _allowed(parameter: app_commands.Parameter | None, kind: int) -> Message:
    low = parameter.min_value if parameter is not None else None
    high = parameter.max_value if parameter is not None else None
    if kind == Kind.integer.value and low is not None and high is not None:
        return Message("errors.allowed_range", low=low, high=high)
    if kind == Kind.integer.value:
        return Message("errors.allowed_integer")
    return Message("errors.allowed_any")


def check_options(interaction: discord.Interaction) -> None:
    """Raises BadOption for the first option value that does not fit its definition."""
    if interaction.type is not discord.InteractionType.application_command:
        return
    command = interaction.command
    data: Any = interaction.data or {}
    for option in _leaves(data.get("options") or []):
        name, kind, value = str(option.get("name", ""))[:32], option.get("type"), option.get("value")
        parameter = command.get_parameter(name) if isinstance(command, app_commands.Command) else None
        if parameter is not None and kind != parameter.type.value:
            kind = parameter.type.value  # the definition decides, not the payload
        if not isinstance(kind, int):
            continue
        fits = _fits(kind, value)
        if fits and parameter is not None and isinstance(value, int | float) and not isinstance(value, bool):
            low, high = parameter.min_value, parameter.max_value
            fits = (low is None or value >= low) and (high is None or value <= high)
        if fits and parameter is not None and parameter.choices:
            fits = value in [c.value for c in parameter.choices]
        if not fits:
            raise BadOption(
                Message("errors.bad_option", option=name, value=repr(value)[:40], allowed=_allowed(parameter, kind))
            )
