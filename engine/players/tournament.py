"""Seat-rotated matches between computer players, with Wilson intervals and decision times.

``python -m engine.players.tournament --a strong --b greedy --games 400 --players 2``

Player A takes one seat, player B all the others.  Game ``i`` is dealt from seed
``seed + i // players`` with A in seat ``i % players``, so every deal is played once from
each seat.  A shared victory counts as ``1 / (number of winners)`` of a win (half a win
in a two-way tie).  Decision time is the time A spends choosing all the moves of one of
its turns (planning and following the plan).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from ..game import Game
from ..moves import Move
from .factory import LEVELS, Player, make_player

MAX_TURNS = 600
MAX_ACTIONS_PER_TURN = 200
J = TypeVar("J")
R = TypeVar("R")


@dataclass
class GameRecord:
    seed: int
    seat_a: int
    scores: list[int]
    winners: list[int]
    turns: int
    finished: bool
    a_turn_seconds: list[float] = field(default_factory=list)
    # The same turns in CPU time of this process: what one core spends, whatever else runs
    # on the machine (wall-clock times grow with the machine's load).
    a_turn_cpu_seconds: list[float] = field(default_factory=list)

    @property
    def a_share(self) -> float:
        """A's share of the victory: 1 alone, 1/k shared by k, 0 lost."""
        return 1.0 / len(self.winners) if self.seat_a in self.winners else 0.0


# What a table loop calls before (``observe``) and after (``after``) each move is applied.
Observer = Callable[[Game, Move], None]


@dataclass
class Played:
    """A game played out by ``play_table``, with each seat's time per whole turn."""

    game: Game
    turn_seconds: list[list[float]]  # per seat: wall-clock seconds per whole turn
    turn_cpu_seconds: list[list[float]]  # per seat: CPU seconds of this process per whole turn
    stalled: bool = False  # a turn took more actions than any real turn does


def play_table(
    game: Game,
    bots: Sequence[Player],
    *,
    observe: Observer | None = None,
    after: Observer | None = None,
    max_turns: int = MAX_TURNS,
    max_actions_per_turn: int = MAX_ACTIONS_PER_TURN,
) -> Played:
    """Play ``game`` out with ``bots[seat]`` choosing for each seat; the one loop every
    self-play tool (tournaments, the balance report, invariant self-play) runs."""
    seats = game.num_players
    wall: list[list[float]] = [[] for _ in range(seats)]
    cpu: list[list[float]] = [[] for _ in range(seats)]
    turn, seat, spent, spent_cpu, actions = -1, -1, 0.0, 0.0, 0
    stalled = False
    while not game.is_over and game.state.turn < max_turns:
        if game.state.turn != turn:
            if seat >= 0:
                wall[seat].append(spent)
                cpu[seat].append(spent_cpu)
            turn, seat, spent, spent_cpu, actions = game.state.turn, game.current_player, 0.0, 0.0, 0
        t0, c0 = time.perf_counter(), time.process_time()
        move = bots[seat].choose(game)
        spent += time.perf_counter() - t0
        spent_cpu += time.process_time() - c0
        if observe is not None:
            observe(game, move)
        game.apply(move)
        if after is not None:
            after(game, move)
        actions += 1
        if actions > max_actions_per_turn:
            stalled = True
            break
    if seat >= 0:
        wall[seat].append(spent)
        cpu[seat].append(spent_cpu)
    return Played(game, wall, cpu, stalled)


def play_one(a: str, b: str, players: int, seed: int, seat_a: int) -> GameRecord:
    game = Game.new(players, seed)
    bots = [make_player(a if i == seat_a else b, seed * 10 + i) for i in range(players)]
    played = play_table(game, bots)
    return GameRecord(
        seed,
        seat_a,
        game.scores(),
        game.winners(),
        game.state.turn + 1,
        game.is_over,
        played.turn_seconds[seat_a],
        played.turn_cpu_seconds[seat_a],
    )


def _job(args: tuple[str, str, int, int, int]) -> GameRecord:
    return play_one(*args)


def parallel_map(fn: Callable[[J], R], jobs: Sequence[J], workers: int | None = None) -> list[R]:
    """``[fn(j) for j in jobs]`` in up to two processes (the machine is shared), in order."""
    workers = workers if workers is not None else min(2, os.cpu_count() or 1)
    if workers <= 1 or len(jobs) <= 1:
        return [fn(j) for j in jobs]
    with ProcessPoolExecutor(max_workers=min(workers, 2)) as pool:
        return list(pool.map(fn, jobs, chunksize=max(1, min(4, len(jobs) // (4 * workers)))))


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (successes may be fractional)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def time_figures(sorted_times: list[float]) -> str:
    """'median / p95 / max ms' of sorted times in seconds."""
    p95 = sorted_times[min(len(sorted_times) - 1, int(len(sorted_times) * 0.95))]
    return f"{statistics.median(sorted_times) * 1e3:.0f} / {p95 * 1e3:.0f} / {sorted_times[-1] * 1e3:.0f} ms"


@dataclass
class MatchResult:
    a: str
    b: str
    players: int
    records: list[GameRecord]
    seconds: float

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> float:
        return sum(r.a_share for r in self.records)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def b_best_rate(self) -> float:
        """Best win share of any single B seat-position, relative to A's seat (multi-player:
        does A win more games than each individual opponent?)."""
        if self.players == 2:
            return 1.0 - self.win_rate
        shares = [0.0] * (self.players - 1)
        for r in self.records:
            others = [(r.seat_a + k) % self.players for k in range(1, self.players)]
            for i, seat in enumerate(others):
                if seat in r.winners:
                    shares[i] += 1.0 / len(r.winners)
        return max(shares) / self.games if self.games else 0.0

    def times(self) -> list[float]:
        """A's wall-clock seconds per whole turn, sorted."""
        return sorted(t for r in self.records for t in r.a_turn_seconds)

    def cpu_times(self) -> list[float]:
        """A's CPU seconds per whole turn, sorted."""
        return sorted(t for r in self.records for t in r.a_turn_cpu_seconds)

    def rows(self) -> list[tuple[str, str]]:
        lo, hi = self.interval
        label = f"{self.a} vs {self.b}, {self.players} players"
        rows = [
            (f"{label}: games", f"{self.games} ({sum(not r.finished for r in self.records)} unfinished)"),
            (
                f"{label}: {self.a} win rate (shared = 1/k)",
                f"{self.win_rate:.1%} [95% CI {lo:.1%}-{hi:.1%}] ({self.wins:g} wins)",
            ),
        ]
        if self.players > 2:
            rows.append((f"{label}: best single {self.b} seat win rate", f"{self.b_best_rate():.1%}"))
        for what, ts in (("time", self.times()), ("CPU time", self.cpu_times())):
            if ts:
                rows.append(
                    (
                        f"{label}: {self.a} {what} per whole turn median / p95 / max",
                        f"{time_figures(ts)} ({len(ts)} turns)",
                    )
                )
        scores = [r.scores[r.seat_a] for r in self.records]
        rows.append((f"{label}: {self.a} median score", f"{statistics.median(scores):.0f}"))
        rows.append((f"{label}: wall time", f"{self.seconds:.0f} s"))
        return rows


def run_match(a: str, b: str, games: int, players: int = 2, seed: int = 1, workers: int | None = None) -> MatchResult:
    """Play ``games`` seat-rotated games of A against (players - 1) B players."""
    jobs = [(a, b, players, seed + i // players, i % players) for i in range(games)]
    start = time.perf_counter()
    records = parallel_map(_job, jobs, workers)
    return MatchResult(a, b, players, records, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.players.tournament", description=__doc__.split("\n")[0])
    ap.add_argument("--a", choices=LEVELS, default="strong")
    ap.add_argument("--b", choices=LEVELS, default="greedy")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None, help="processes (default: up to 2)")
    args = ap.parse_args(argv)
    result = run_match(args.a, args.b, args.games, args.players, args.seed, args.workers)
    width = max(len(f) for f, _v in result.rows())
    for figure, value in result.rows():
        print(f"{figure.ljust(width)}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
