"""``python -m benchmarks [NAME ...] [options]``: run the benchmarks and print one table.

Every option is also an environment setting (the variable named in ``--help``), which the
benchmark modules read; an option given on the command line wins over the environment.
With ``--processes`` or ``--database`` (or their variables), ``load`` runs the bot as
separate shard processes beside one process on SQLite (``load_procs.py``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# name -> module (each has run() -> list[(figure, value)])
BENCHMARKS = {
    "engine": "benchmarks.engine_bench",
    "render": "benchmarks.render_bench",
    "store": "benchmarks.store_bench",
    "load": "benchmarks.load_bench",
    "ai": "benchmarks.ai_bench",
    "balance": "benchmarks.balance_bench",
    "web": "benchmarks.web_bench",
}
PROCESSES_LOAD = "benchmarks.load_procs"


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise ValueError(text)
    return value


def _list(item: Callable[[str], float]) -> Callable[[str], str]:
    def check(text: str) -> str:
        values = [item(x) for x in text.split(",") if x.strip()]
        if not values or any(v < 0 for v in values):
            raise ValueError(text)
        return text

    check.__name__ = f"list of {item.__name__}"  # argparse names the type in its error
    return check


@dataclass(frozen=True)
class Setting:
    option: str
    variable: str
    metavar: str | None
    help: str
    type: Callable[[str], Any] = str
    choices: tuple[str, ...] | None = None
    flag: bool = False  # an option without a value: the variable is set to 1


LOAD = (
    Setting("--games", "LOAD_GAMES", "N", "games opened and played (1000; with --processes/--database 60)", _positive),
    Setting("--turns", "LOAD_TURNS", "N", "turns played in each game (3)", _positive),
    Setting("--concurrency", "LOAD_CONCURRENCY", "N", "players acting at once, at most (64)", _positive),
    Setting("--open-concurrency", "LOAD_OPEN_CONCURRENCY", "N", "games being opened at once (16)", _positive),
    Setting("--time-cap", "LOAD_TIME_CAP", "S", "seconds per phase; what is left is not started (180)", _seconds),
    Setting(
        "--rate", "LOAD_RATE", "R[,R...]",
        "offered turns per second, one run per value; 0 = unpaced (26,0; with --processes/--database 0)",
        _list(float),
    ),
    Setting(
        "--render-workers", "LOAD_RENDER_WORKERS", "N[,N...]",
        "render pool sizes, one run per value; 0 renders in a thread (2)", _list(int),
    ),
    Setting(
        "--channels-per-guild", "LOAD_CHANNELS_PER_GUILD", "N",
        "game channels per guild (100; with --processes/--database: games / (4 x processes))", _positive,
    ),
    Setting(
        "--processes", "LOAD_PROCESSES", "N",
        "run the bot as N shard processes sharing one database, beside one process on SQLite (2)", _positive,
    ),
    Setting(
        "--database", "LOAD_DATABASE", None, "the shard processes' database (postgresql)",
        str.lower, ("postgresql", "sqlite"),
    ),
    Setting(
        "--database-url", "LOAD_DATABASE_URL", "URL",
        "a PostgreSQL server for the shard processes (default: a private one started for the run)",
    ),
    Setting("--commits", "LOAD_COMMITS", "N", "move commits timed on their own after the load (300)", _positive),
    Setting(
        "--web-viewers-load", "LOAD_WEB_VIEWERS", "N",
        "with --processes 1 --database sqlite: run again with the web board serving N viewers (0)", _count,
    ),
    Setting(
        "--web-pairs", "LOAD_WEB_PAIRS", "N",
        "with --web-viewers-load: runs without and with the board, alternated; the median ratio counts (5)",
        _positive,
    ),
)  # fmt: skip
OTHERS = (
    Setting("--store-games", "STORE_GAMES", "N", "store: games in play in the measured database (1000)", _positive),
    Setting("--balance-games", "CUBIST_BALANCE_GAMES", "N", "balance: games per table (500)", _positive),
    Setting("--web-games", "WEB_GAMES", "N", "web: games watched (50)", _positive),
    Setting("--web-viewers", "WEB_VIEWERS", "N", "web: viewers over all games (200)", _positive),
    Setting("--web-turns", "WEB_TURNS", "N", "web: turns played in each game (2)", _positive),
    Setting("--web-rate", "WEB_RATE", "R", "web: moves per second over all games (10)", _seconds),
    Setting(
        "--ai-workers", "CUBIST_AI_WORKERS", "N",
        "ai: processes playing the games, at most 2 (1; CPU per turn is each process's own)", _positive,
    ),
    Setting(
        "--quick", "CUBIST_AI_BENCH_QUICK", None,
        "ai and balance: a tenth of the games (a smoke run; balance 60 games a table)", flag=True,
    ),
)  # fmt: skip
QUICK_ALSO = ("CUBIST_BALANCE_QUICK",)  # --quick sets these too


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Run the benchmarks and print one table.",
        epilog="Each option's environment variable is in brackets; the option wins over the variable. "
        "`LOAD_GAMES=50 python -m benchmarks load` and `python -m benchmarks load --games 50` are the same.",
    )
    p.add_argument(
        "names", nargs="*", metavar="NAME", help=f"benchmarks to run, from {', '.join(BENCHMARKS)} (default: all)"
    )
    for title, settings in (("load benchmark", LOAD), ("other benchmarks", OTHERS)):
        group = p.add_argument_group(title)
        for s in settings:
            text = f"{s.help} [{', '.join((s.variable, *QUICK_ALSO) if s.flag else (s.variable,))}]"
            if s.flag:
                group.add_argument(s.option, action="store_true", help=text)
            else:
                group.add_argument(s.option, metavar=s.metavar, type=s.type, choices=s.choices, help=text)
    return p


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = parser()
    args = p.parse_args(list(argv))
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        p.error(f"unknown benchmark(s): {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    return args


def chosen(args: argparse.Namespace, environ: Mapping[str, str]) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """The benchmarks to run, the environment settings the options make, and the module of
    each benchmark (``load`` over processes when either of its process settings is given)."""
    settings: dict[str, str] = {}
    for s in (*LOAD, *OTHERS):
        value = getattr(args, s.option[2:].replace("-", "_"))
        if s.flag:
            if value:
                settings |= {name: "1" for name in (s.variable, *QUICK_ALSO)}
        elif value is not None:
            settings[s.variable] = str(value)
    modules = dict(BENCHMARKS)
    if any(v in settings or v in environ for v in ("LOAD_PROCESSES", "LOAD_DATABASE")):
        modules["load"] = PROCESSES_LOAD
    return list(args.names or BENCHMARKS), settings, modules


def main(argv: Sequence[str], module: str | None = None) -> int:
    """Runs the benchmarks ``argv`` names (``module``: the one module to run as its only name)."""
    names, settings, modules = chosen(parse_args(argv), os.environ)
    if module is not None:
        modules[names[0]] = module
    os.environ.update(settings)  # the modules read their settings from the environment
    rows: list[tuple[str, str, str]] = []
    for name in names:
        try:
            bench = importlib.import_module(modules[name])
        except ModuleNotFoundError as e:
            if e.name != modules[name]:
                raise
            rows.append((name, "(not built yet)", "-"))
            continue
        start = time.perf_counter()
        for figure, value in bench.run():
            rows.append((name, figure, value))
        print(f"[{name}] done in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    width = [max(len(r[i]) for r in [("benchmark", "figure", "value"), *rows]) for i in range(3)]
    line = "  ".join("-" * w for w in width)
    print("  ".join(h.ljust(w) for h, w in zip(("benchmark", "figure", "value"), width, strict=True)))
    print(line)
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, width, strict=True)))
    return 0


def cli() -> int:
    """``cubist-benchmarks``: this command line's benchmarks."""
    return main(sys.argv[1:])


def run_module(name: str, module: str | None = None) -> int:
    """``python -m benchmarks.<module>``: benchmark ``name`` with this command line's options
    (``module``: that module, whatever the options choose)."""
    p = parser()
    args = p.parse_args([name, *sys.argv[1:]])
    if args.names != [name]:
        p.error(f"this module runs the {name} benchmark alone: no benchmark names")
    return main([name, *sys.argv[1:]], module)


if __name__ == "__main__":
    sys.exit(cli())
