"""The README's front door stays short and true: every /cubist command in its table, no more,
and the two commands CI runs."""

from __future__ import annotations

import re
from pathlib import Path

from discord import app_commands

from bot.cog import CubistCog

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_commands_table_lists_every_cubist_command_once() -> None:
    listed = re.findall(r"^\| `([a-z ]+)` \|", README, re.M)
    commands = set()
    for c in CubistCog.__cog_app_commands__:
        if isinstance(c, app_commands.Group):
            commands |= {f"{c.name} {sub.name}" for sub in c.commands}
        else:
            commands.add(c.name)
    assert sorted(listed) == sorted(commands)


def test_the_readme_is_a_front_door() -> None:
    assert len(README.splitlines()) <= 200
    assert README.splitlines()[2].startswith("![") and "docs/pictures/" in README.splitlines()[2]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ".venv/bin/python -m pytest -q\n" in README and ci.rstrip().endswith(".venv/bin/python -m pytest -q")
    assert "&& .venv/bin/python -m bot.launch\n" in README
    for page in re.findall(r"\]\((docs/[\w./-]+\.md)", README):
        assert (ROOT / page).is_file(), page
