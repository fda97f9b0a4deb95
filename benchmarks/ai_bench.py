"""Computer players: seat-rotated tournaments with 95% Wilson intervals and decision times.

Targets: greedy beats random in >= 95% of 2-player games; strong beats greedy in
>= 65% of 400 2-player games and wins the most 4-player games against three greedy
players; a strong turn takes <= 1 s (median <= 200 ms).  A shared victory counts as
1/k of a win for each of the k winners (half a win in a two-way tie).

The tournaments use up to two processes, so the times they print are indicative only (the
processes compete for the cores with each other and with whatever else runs).  The timing
target is judged on a separate single-process run: strong against greedy, 2 and 4
players, every whole turn of the strong player timed (planning and following the plan).

``CUBIST_AI_BENCH_QUICK=1`` plays a tenth of the games (a smoke run of a minute or two).
"""

from __future__ import annotations

import os
import statistics

from engine.players.tournament import MatchResult, run_match, time_figures

FULL = {
    "greedy_random": 400,
    "strong_greedy": 400,
    "strong_greedy_4p": 200,
    "timing_2p": 24,
    "timing_4p": 8,
}


def _games(name: str) -> int:
    n = FULL[name]
    if os.environ.get("CUBIST_AI_BENCH_QUICK"):
        return max(4, n // 10)
    return n


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def run() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    gr = run_match("greedy", "random", _games("greedy_random"), 2, seed=10_000)
    rows += gr.rows()
    rows.append(("target: greedy beats random in >= 95% (2 players)", _verdict(gr.win_rate >= 0.95)))
    sg = run_match("strong", "greedy", _games("strong_greedy"), 2, seed=20_000)
    rows += sg.rows()
    rows.append(("target: strong beats greedy in >= 65% (2 players)", _verdict(sg.win_rate >= 0.65)))
    s4: MatchResult = run_match("strong", "greedy", _games("strong_greedy_4p"), 4, seed=30_000)
    rows += s4.rows()
    rows.append(
        (
            "target: strong wins the most 4-player games vs 3 greedy",
            _verdict(s4.win_rate > s4.b_best_rate())
            + f" ({s4.win_rate:.1%} vs best greedy seat {s4.b_best_rate():.1%})",
        )
    )
    # Decision time on one core: one process, nothing else of ours running beside it.
    t2 = run_match("strong", "greedy", _games("timing_2p"), 2, seed=40_000, workers=1)
    t4 = run_match("strong", "greedy", _games("timing_4p"), 4, seed=41_000, workers=1)
    games = f"{t2.games} 2-player + {t4.games} 4-player games"
    wall = sorted(t2.times() + t4.times())
    cpu = sorted(t2.cpu_times() + t4.cpu_times())
    if wall:
        rows.append(("strong time per whole turn, one process: median / p95 / max", f"{time_figures(wall)} ({games})"))
        rows.append(("strong CPU time per whole turn, one process: median / p95 / max", time_figures(cpu)))
        ok = wall[-1] <= 1.0 and statistics.median(wall) <= 0.2
        cpu_ok = cpu[-1] <= 1.0 and statistics.median(cpu) <= 0.2
        rows.append(
            (
                "target: strong turn <= 1 s, median <= 200 ms",
                f"{_verdict(ok)} (wall clock); {_verdict(cpu_ok)} (CPU time, what one core spends)",
            )
        )
    return rows
