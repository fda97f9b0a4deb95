"""Computer players: seat-rotated tournaments with 95% Wilson intervals and decision times.

Targets (issue 9): greedy beats random in >= 95% of 2-player games; strong beats greedy in
>= 65% of 400 2-player games and wins the most 4-player games against three greedy
players; a strong turn takes <= 1 s (median <= 200 ms).  A shared victory counts as
1/k of a win for each of the k winners (half a win in a two-way tie).

``CUBIST_AI_BENCH_QUICK=1`` plays a tenth of the games (a smoke run of a minute or two).
Uses up to two processes.
"""

from __future__ import annotations

import os

from engine.players.tournament import MatchResult, run_match

FULL = {"greedy_random": 400, "strong_greedy": 400, "strong_greedy_4p": 200}


def _games(name: str) -> int:
    n = FULL[name]
    if os.environ.get("CUBIST_AI_BENCH_QUICK"):
        return max(8, n // 10)
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
            _verdict(s4.win_rate > s4.b_best_rate()),
        )
    )
    times = sorted(sg.times() + s4.times())
    if times:
        median = times[len(times) // 2]
        rows.append(
            (
                "target: strong turn <= 1 s, median <= 200 ms",
                _verdict(times[-1] <= 1.0 and median <= 0.2) + f" (max {times[-1] * 1e3:.0f} ms)",
            )
        )
    return rows
