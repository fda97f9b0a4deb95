"""The rule objects (engine/rules/) use Game's public interface only (issue 29 item 7): no
private helper of Game is called or written from another file of the engine."""

from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "engine" / "rules"
PRIVATE = re.compile(r"\b(game|g|self\.game)\._[a-z]\w*")


def test_rule_objects_call_no_private_helper_of_game() -> None:
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted(RULES.glob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert found == [], found
