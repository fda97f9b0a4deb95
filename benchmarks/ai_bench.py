"""Computer players by level: how often each beats the others, what a turn costs, and how
the games it plays move along.

For each level: its win share in seat-rotated 2-player games against each other level, and
the master's in 3-player games against two strong players (95% Wilson intervals; a shared
victory counts 1/k of a win; a 3-player share is the share of the master's seats), its CPU
time per whole turn (median, p95, max: the CPU time of the process that played it, so what
one core spends whatever else runs on the machine), and, on tables where every seat plays
that level, the games with a stretch of 6+ rounds without a score change, the longest
stretch and the museum endings.

Every game is played through ``engine.balance`` (the same games as
``python -m engine balance --seats strong,greedy``).  Targets: greedy beats random in
>= 95% of 2-player games; strong beats greedy in >= 65%; master beats strong in >= 60%
(its 95% interval above 55%) and wins >= 35% of 3-player games against two strong players;
a strong turn <= 1 s of CPU (median <= 200 ms), a master turn <= 2 s at p95; all-greedy
tables stretch 6+ rounds in <= 2% of games and never 10, and the museum ends >= 20% of
all-greedy 3-player games.

``CUBIST_AI_BENCH_QUICK=1`` plays a tenth of the games (a smoke run); ``CUBIST_AI_WORKERS=2``
plays them in two processes (the same games and figures, in half the time on a free machine).
"""

from __future__ import annotations

import os
import statistics
import sys

from engine.balance import STILL_MAX, STILL_ROUNDS, STILL_SHARE, BalanceReport, run_balance
from engine.players.tournament import time_figures, wilson

# (level, other level, players, games): seat-rotated matches, the level in one seat
MATCHES = (
    ("greedy", "random", 2, 200),
    ("strong", "greedy", 2, 300),
    ("strong", "random", 2, 60),
    ("master", "strong", 2, 300),
    ("master", "greedy", 2, 60),
    ("master", "strong", 3, 150),
)
# (level, players, games): tables where every seat plays the level
TABLES = (
    ("random", 2, 100),
    ("greedy", 2, 500),
    ("greedy", 3, 500),
    ("greedy", 4, 500),
    ("strong", 2, 60),
    ("master", 2, 40),
)
SEED = 80_000
GREEDY_MUSEUM_3P = 0.20
MASTER_VS_STRONG_2P, MASTER_FLOOR_2P = 0.60, 0.55
MASTER_VS_STRONG_3P = 0.35
MASTER_P95 = 2.0


def _games(n: int) -> int:
    if os.environ.get("CUBIST_AI_BENCH_QUICK"):
        return max(4, n // 10)
    return n


def _workers() -> int:
    return int(os.environ.get("CUBIST_AI_WORKERS", "1"))


def _progress(*rows: tuple[str, str]) -> None:
    """Each figure on stderr as soon as it is known: the full run takes an hour or more."""
    for name, value in rows:
        print(f"ai: {name}: {value}", file=sys.stderr, flush=True)


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _share(k: float, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n if n else 0:.1%} [{lo:.1%}-{hi:.1%}] ({k:g}/{n})"


def _cpu(times: list[float]) -> float:
    return statistics.median(times) if times else 0.0


def run() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    cpu: dict[str, list[float]] = {}
    shares: dict[tuple[str, str, int], tuple[float, int]] = {}
    for level, other, players, n in MATCHES:
        rep = run_balance(players, _games(n), [level, other], seed=SEED, workers=_workers())
        wins, held = rep.level_wins().get(level, (0.0, 0))
        shares[(level, other, players)] = (wins, held)
        against = other if players == 2 else f"{players - 1} {other}"
        rows.append((f"{level} vs {against}, {players} players: {level}'s win share", _share(wins, held)))
        for lv in (level, other):
            cpu.setdefault(lv, []).extend(rep.cpu_times(lv))
        _progress(rows[-1])
    tables: dict[tuple[str, int], BalanceReport] = {}
    for level, players, n in TABLES:
        rep = tables[(level, players)] = run_balance(players, _games(n), [level], seed=SEED + 1000, workers=_workers())
        dead = rep.dead_games()
        longest = max(rep.still_rounds(), default=0.0)
        museum = round(rep.museum_end_share() * rep.games)
        rows.append(
            (
                f"all-{level}, {players} players: games with a stretch of {STILL_ROUNDS}+ rounds / longest",
                f"{_share(dead, rep.games)} / {longest:.1f} rounds",
            )
        )
        rows.append((f"all-{level}, {players} players: museum endings", _share(museum, rep.games)))
        cpu.setdefault(level, []).extend(rep.cpu_times(level))
        _progress(*rows[-2:])
    for level in sorted(cpu):
        times = sorted(cpu[level])
        if times:
            rows.append((f"{level}: CPU per whole turn, median / p95 / max", f"{time_figures(times)} ({len(times)})"))

    def rate(level: str, other: str, players: int = 2) -> float:
        wins, held = shares[(level, other, players)]
        return wins / held if held else 0.0

    rows.append(("target: greedy beats random >= 95% (2 players)", _verdict(rate("greedy", "random") >= 0.95)))
    rows.append(("target: strong beats greedy >= 65% (2 players)", _verdict(rate("strong", "greedy") >= 0.65)))
    low = wilson(*shares[("master", "strong", 2)])[0]
    ok = rate("master", "strong") >= MASTER_VS_STRONG_2P and low > MASTER_FLOOR_2P
    rows.append(
        (
            f"target: master beats strong >= {MASTER_VS_STRONG_2P:.0%} (2 players), interval above "
            f"{MASTER_FLOOR_2P:.0%}",
            _verdict(ok),
        )
    )
    ok = rate("master", "strong", 3) >= MASTER_VS_STRONG_3P
    rows.append((f"target: master wins >= {MASTER_VS_STRONG_3P:.0%} against 2 strong (3 players)", _verdict(ok)))
    strong = sorted(cpu.get("strong", []))
    if strong:
        ok = strong[-1] <= 1.0 and _cpu(strong) <= 0.2
        rows.append(("target: strong turn <= 1 s of CPU, median <= 200 ms", _verdict(ok)))
    master = sorted(cpu.get("master", []))
    if master:
        ok = master[min(len(master) - 1, int(len(master) * 0.95))] <= MASTER_P95
        rows.append((f"target: master turn <= {MASTER_P95:.0f} s of CPU at p95", _verdict(ok)))
    greedy = [rep for (level, _p), rep in tables.items() if level == "greedy"]
    still_ok = all(r.dead_games() <= STILL_SHARE * r.games and r.dead_games(STILL_MAX) == 0 for r in greedy)
    rows.append(
        (
            f"target: all-greedy stretches of {STILL_ROUNDS}+ rounds <= {STILL_SHARE:.0%}, none of {STILL_MAX}",
            _verdict(still_ok),
        )
    )
    three = tables.get(("greedy", 3))
    if three is not None:
        ok = three.museum_end_share() >= GREEDY_MUSEUM_3P
        rows.append((f"target: all-greedy 3 players, museum endings >= {GREEDY_MUSEUM_3P:.0%}", _verdict(ok)))
    return rows
