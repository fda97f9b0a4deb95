"""Discord refuses a command sync over 8,000 characters per command (and then the bot cannot
start): the headroom of every command the bot syncs, shown in the test run's summary."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from standin.documented import TABLE, command_characters

from .conftest import Table


def descriptions(node: dict[str, Any], path: str) -> Iterator[tuple[int, str]]:
    """(length, where) of every description in every locale, options included."""
    texts = {"default": node.get("description") or ""} | (node.get("description_localizations") or {})
    for locale, text in texts.items():
        yield len(text), f"{path} [{locale}]"
    for option in node.get("options") or []:
        yield from descriptions(option, f"{path} {option['name']}")


async def test_every_synced_command_fits_discords_character_budget(
    table: Table, standin_report: Callable[[str], None]
) -> None:
    budget = TABLE["command_characters"].value
    synced = [(scope, c) for scope, commands in table.standin.commands.items() for c in commands]
    assert synced, "the bot synced no command"
    over = []
    for scope, command in synced:
        used = command_characters(command)
        where = "global" if scope is None else f"guild {scope}"
        line = f"/{command['name']} ({where}): {used} of {budget} characters, {budget - used} left"
        standin_report(line)
        longest = sorted(descriptions(command, "/" + command["name"]), reverse=True)[:3]
        standin_report("  longest descriptions (of 100): " + ", ".join(f"{n} {where}" for n, where in longest))
        if used > budget:
            over.append(line)
    assert not over, "commands over Discord's budget:\n" + "\n".join(over)


async def test_cubist_keeps_room_to_grow_and_a_turns_commands_one_level_deep(table: Table) -> None:
    """Discord allows 25 subcommands or groups per level: /cubist uses few, so features fit later,
    while the commands typed during a turn are not pushed into a group."""
    cubist = next(c for c in table.standin.registered_commands() if c["name"] == "cubist")
    entries = {o["name"]: o for o in cubist["options"]}
    assert len(entries) <= 15, sorted(entries)
    for name in ("turn", "move", "end", "undo", "hint", "board", "studio", "status"):
        assert entries[name]["type"] == 1, name  # SUB_COMMAND: /cubist move
    groups = {name: [o["name"] for o in e["options"]] for name, e in entries.items() if e["type"] == 2}
    assert groups["lobby"] == ["new", "join", "leave", "start"]
    assert set(groups) == {"lobby", "table", "look", "stats", "settings"}
    assert all(len(children) <= 10 for children in groups.values()), groups
