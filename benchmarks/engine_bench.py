"""Engine speed: one decision (legal moves + apply) in mid-game positions, and whole
self-play games per second, on one core."""

from __future__ import annotations

import statistics
import time

from engine import Game
from engine.players import GreedyPlayer
from engine.selfplay import run as selfplay


def _midgame_positions(count: int) -> list[Game]:
    """Positions from turn 8 to 30 of greedy games (workrooms busy, cards in play)."""
    out: list[Game] = []
    seed = 0
    while len(out) < count:
        seed += 1
        players = 2 + seed % 3
        g = Game.new(players, seed)
        bots = [GreedyPlayer(seed + i) for i in range(players)]
        while not g.is_over and g.state.turn < 30:
            if g.state.turn >= 8 and g.has_rolled() and len(out) < count:
                out.append(g.clone())
            g.apply(bots[g.current_player].choose(g))
    return out


def decision_times(positions: list[Game]) -> list[float]:
    """Seconds for legal_moves() plus apply() of the greedy choice, per position."""
    times = []
    for g in positions:
        move = GreedyPlayer(1).choose(g.clone())
        t0 = time.perf_counter()
        moves = g.legal_moves(fresh=True)  # measure the generation, not the cache
        g.apply(move)
        times.append(time.perf_counter() - t0)
        assert moves
    return times


def run() -> list[tuple[str, str]]:
    positions = _midgame_positions(2000)
    times = sorted(decision_times(positions))
    rows = [
        ("decision (legal moves + apply), median", f"{statistics.median(times) * 1e6:.0f} µs"),
        ("decision, p95", f"{times[int(len(times) * 0.95)] * 1e6:.0f} µs"),
        ("mid-game positions measured", str(len(times))),
    ]
    for players in (2, 4):
        t0 = time.perf_counter()
        summary = selfplay(40, players, seed=7, check=False)
        secs = time.perf_counter() - t0
        rows.append((f"self-play games/s, {players} players (greedy, no checks)", f"{len(summary.results) / secs:.1f}"))
    return rows
