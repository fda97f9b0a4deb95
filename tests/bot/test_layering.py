"""The bot reaches its store only through the game service (issue 18): commands, buttons,
reminders, timers, the outbox and votes call ``bot.service.game``; only the service, the store
itself and the client that opens and closes it touch ``.store``."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
# The store's own package, the one way in, and the composition root (opens, verifies and
# closes the store at start-up; keeps the command-sync digest in its meta table).
ALLOWED = {"game.py", "queries.py", "client.py", "__main__.py", "startup.py"}


def store_uses(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "store"]


def test_only_the_service_reaches_the_store() -> None:
    offenders = {
        str(path.relative_to(BOT)): lines
        for path in sorted(BOT.rglob("*.py"))
        if path.parts[len(BOT.parts)] != "store" and path.name not in ALLOWED
        if (lines := store_uses(path))
    }
    assert offenders == {}, f"reach the store through bot.service instead: {offenders}"


def test_the_scan_sees_a_store_call(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("async def f(bot):\n    return await bot.store.games.load_game(1)\n")
    assert store_uses(sample) == [2]
