"""Move text exists only where moves are stored and where a player types one: the pictures
and the bot's words tell turns from the engine's record and never parse notation."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Where text is read as a move: the store's move list (bot/store), /cubist move and the
# panel's items (what a player typed or picked), checked once at the service's edge.
EDGES = ("bot/store/", "bot/service/game.py", "bot/turn/items.py")
PARSERS = {"parse_move", "apply_text", "parse_die"}


def _parsing(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in PARSERS:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
        elif isinstance(node, ast.ImportFrom):
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {a.name}" for a in node.names if a.name in PARSERS]
    return found


def test_no_picture_and_no_words_of_the_bot_parse_move_text() -> None:
    files = [p for d in ("render", "bot") for p in sorted((ROOT / d).rglob("*.py"))]
    found = [f for p in files if not str(p.relative_to(ROOT)).startswith(EDGES) for f in _parsing(p)]
    assert found == []
    assert _parsing(ROOT / "bot" / "service" / "game.py"), "the scan finds the edge's parser"
