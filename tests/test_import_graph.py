"""The project's import graph, drawn from the code (issue 29): no circle anywhere, no import
hidden inside a function to dodge one, and bot/'s layers pointing one way.

Every import counts: at module level, under ``if TYPE_CHECKING:`` and inside functions.
bot/'s layers, lowest first (a module may import its own layer and the ones below):

    0  engine, render                          the pure game and its pictures
    1  bot.config, bot.i18n, bot.store,        words, storage, the turn's choices,
       bot.panel, bot.words, bot.pictures      pictures in a worker (no Discord)
    2  bot.service                             the application: who may act, and when
    3  bot.jobs, bot.web, bot.refusal_words    the workers: outbox, timers, their events; the web
                                               board; the words of the service's refusals
    4  bot.chat                                what every Discord feature shares
    5  bot.lobby, bot.turn, bot.table,         the features, each with its commands,
       bot.look, bot.stats, bot.settings       items and views
    6  bot.cog, bot.client                     the composition
    7  bot.__main__, bot.launch, bot.demo,     entry points and tools
       bot.draw, bot.gallery, bot.startup

Layers 0-3 never import discord: the application and the workers know nothing of Discord.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "render", "bot", "standin", "benchmarks")

LAYERS: dict[str, int] = {
    "engine": 0,
    "render": 0,
    "bot": 0,  # the package's own __init__
    "bot.config": 1,
    "bot.i18n": 1,
    "bot.store": 1,
    "bot.panel": 1,
    "bot.words": 1,
    "bot.pictures": 1,
    "bot.service": 2,
    "bot.jobs": 3,
    "bot.web": 3,
    "bot.refusal_words": 3,
    "bot.chat": 4,
    "bot.lobby": 5,
    "bot.turn": 5,
    "bot.table": 5,
    "bot.look": 5,
    "bot.stats": 5,
    "bot.settings": 5,
    "bot.cog": 6,
    "bot.client": 6,
    "bot.__main__": 7,
    "bot.launch": 7,
    "bot.demo": 7,
    "bot.draw": 7,
    "bot.gallery": 7,
    "bot.startup": 7,
}
NO_DISCORD_BELOW = 4  # layers under bot.chat
# Imports inside functions that are not there to dodge a circle: the command line's entry
# point loads the bot only when it is going to run (``--help`` answers at once), and each
# benchmark loads only what it measures (its process time would count the rest).
DEFERRED_ON_PURPOSE = ("bot.__main__", "benchmarks")


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = modules()


def _target(name: str) -> str | None:
    """The project module ``name`` is or lies in (None: outside the project)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> list[tuple[str, int, bool]]:
    """(imported project module or "discord", line, inside a function) of every import."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - child.level + 1]
                    prefix = ".".join(base + ([child.module] if child.module else []))
                else:
                    prefix = child.module or ""
                names = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in MODULES else prefix for a in child.names]
            for name in names:
                if name == "discord" or name.startswith("discord."):
                    found.append(("discord", child.lineno, inside))
                elif (target := _target(name)) is not None and target != module:
                    found.append((target, child.lineno, inside))
            visit(child, inside)

    visit(tree, False)
    return found


GRAPH = {m: imports(m) for m in MODULES}


def layer(module: str) -> int | None:
    name = module
    while name:
        if name in LAYERS:
            return LAYERS[name]
        name = name.rpartition(".")[0]
    return None


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_project_has_no_import_circle() -> None:
    edges = {m: {t for t, _line, _inside in found if t != "discord"} for m, found in GRAPH.items()}
    assert cycles(edges) == []


def test_no_import_is_hidden_inside_a_function() -> None:
    hidden = sorted(
        f"{module}:{line} imports {target}"
        for module, found in GRAPH.items()
        if not module.startswith(DEFERRED_ON_PURPOSE)
        for target, line, inside in found
        if inside and target != "discord"
    )
    assert hidden == []


def test_every_bot_module_has_a_layer() -> None:
    assert [m for m in MODULES if m.startswith("bot") and layer(m) is None] == []


def test_bot_layers_point_one_way() -> None:
    upward = sorted(
        f"{module} (layer {layer(module)}) imports {target} (layer {layer(target)})"
        for module, found in GRAPH.items()
        if module.startswith("bot")
        for target, _line, _inside in found
        if target != "discord" and target.split(".")[0] in ("bot", "engine", "render")
        if (layer(target) or 0) > (layer(module) or 0)
    )
    assert upward == []


def test_the_application_and_the_workers_know_nothing_of_discord() -> None:
    knowing = sorted(
        f"{module}:{line}"
        for module, found in GRAPH.items()
        if module.startswith("bot") and (layer(module) or 0) < NO_DISCORD_BELOW
        for target, line, _inside in found
        if target == "discord"
    )
    assert knowing == []


def test_the_application_draws_nothing() -> None:
    """bot.service returns facts; the pictures are the Discord side's business (it names the
    picture styles through bot.pictures.styles)."""
    drawing = sorted(
        f"{module}:{line}"
        for module, found in GRAPH.items()
        if module.startswith("bot.service")
        for target, line, _inside in found
        if target == "render" or target.startswith("render.")
    )
    assert drawing == []
    assert any(t == "render" for t, _line, _inside in GRAPH["bot.pictures.styles"])


def test_the_checks_see_what_they_look_for() -> None:
    """The graph and the circle finder on a known circle, so a broken scan cannot pass."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert "bot.chat.base" in {t for t, _line, _inside in GRAPH["bot.client"]}
    assert any(t == "discord" for t, _line, _inside in GRAPH["bot.chat.replies"])
    assert any(inside for _t, _line, inside in GRAPH["bot.__main__"])


def test_the_application_chooses_no_words() -> None:
    """bot.service returns facts (who, what, numbers; a refusal's kind and values) and the
    Discord side chooses the words (bot.refusal_words): the service takes nothing from the
    catalogues."""
    facts_only: set[str] = set()
    taken = sorted(
        f"{module}:{node.lineno} takes {alias.name} from {node.module}"
        for module, path in MODULES.items()
        if module.startswith("bot.service")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom | ast.Import)
        for alias in node.names
        if (isinstance(node, ast.Import) and alias.name.startswith("bot.i18n"))
        or (
            isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith("bot.i18n")
            and alias.name not in facts_only
        )
    )
    assert taken == []
