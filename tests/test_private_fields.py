"""Tests and tools build positions through the engine's public API (issue 18): nothing
outside a class writes its private fields (``game._legal = None`` and the like).  Positions
are made by editing ``game.state`` and calling ``Game.set_position()``, or by loading a
saved game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine import Game, PositionError

ROOT = Path(__file__).resolve().parents[1]
# Everything outside the engine's core classes: the tests, the tools, the bot, the pictures,
# and the engine's own players and self-play tools (they use the API like anyone else).
SCANNED = ("tests", "benchmarks", "bot", "render", "standin", "engine/players")
SCANNED_FILES = ("engine/balance.py", "engine/selfplay.py", "engine/timeline.py", "engine/history.py")


def scanned() -> list[Path]:
    return [p for folder in SCANNED for p in sorted((ROOT / folder).rglob("*.py"))] + [ROOT / f for f in SCANNED_FILES]


def _made_in_new(tree: ast.AST) -> set[tuple[int, str]]:
    """(line, name) of each write inside a ``__new__`` to the object it is making
    (``obj = object.__new__(cls)``): that object is its own, as ``self`` is in ``__init__``."""
    own: set[tuple[int, str]] = set()
    for fn in ast.walk(tree):
        if not (isinstance(fn, ast.FunctionDef) and fn.name == "__new__"):
            continue
        made = {
            t.id
            for n in ast.walk(fn)
            if isinstance(n, ast.Assign)
            and isinstance(n.value, ast.Call)
            and isinstance(n.value.func, ast.Attribute)
            and n.value.func.attr == "__new__"
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        own |= {(n.lineno, name) for n in ast.walk(fn) if isinstance(n, ast.Assign) for name in made}
    return own


def private_writes(path: Path, root: Path = ROOT) -> list[str]:
    """``x._field = ...`` (also ``+=`` and ``del``) where ``x`` is not ``self`` or ``cls``
    (nor the object a ``__new__`` is making)."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    own = _made_in_new(tree)
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and target.attr.startswith("_")
                and not target.attr.startswith("__")
                and not (isinstance(target.value, ast.Name) and target.value.id in ("self", "cls"))
                and not (isinstance(target.value, ast.Name) and (node.lineno, target.value.id) in own)
            ):
                found.append(f"{path.relative_to(root)}:{node.lineno} {ast.unparse(target)}")
    return found


def test_nothing_writes_another_objects_private_fields() -> None:
    found = [w for path in scanned() for w in private_writes(path)]
    assert found == []


def test_the_scan_sees_a_private_write(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f(game, self):\n    game._legal = None\n    self._ok = 1\n    game.state = 2\n")
    assert private_writes(sample, tmp_path) == ["sample.py:2 game._legal"]


def test_a_new_may_set_up_the_object_it_makes_but_nothing_else(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "class K:\n"
        "    def __new__(cls, other):\n"
        "        made = object.__new__(cls)\n"
        "        made._value_ = 1\n"
        "        other._value_ = 2\n"
        "        return made\n"
    )
    assert private_writes(sample, tmp_path) == ["sample.py:5 other._value_"]


def test_a_position_is_built_by_editing_the_state_then_set_position() -> None:
    game = Game.new(2, seed=3)
    me = game.state.players[game.current_player]
    me.workrooms[0] = {0: (4, 1)}  # a 4 in a1 of workroom 1...
    me.supply -= 1  # ...taken from the supply: still twenty dice
    game.set_position()
    assert game.state.players[game.current_player].workrooms[0] == {0: (4, 1)}
    assert not game.can_undo()
    assert game.legal_moves() == game.clone().legal_moves(fresh=True)
    me.supply += 5  # twenty-five dice
    with pytest.raises(PositionError, match="owns 25 dice"):
        game.set_position()
