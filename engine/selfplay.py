"""Self-play: whole games between computer players, checking the engine's invariants.

``python -m engine selfplay --games N --players P --seed S`` prints a summary and exits
non-zero if any game stalls or any invariant breaks.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field

from .errors import IllegalMove
from .game import Game
from .moves import EndTurn, Move
from .players import GreedyPlayer
from .players.tournament import MAX_TURNS, play_table
from .saved import dump_game, load_game
from .step import Termination


@dataclass
class GameResult:
    seed: int
    players: int
    turns: int
    decisions: int
    ended_by: str  # "five installations", "museum", "last player", "stalled"
    scores: list[int]
    violations: list[str] = field(default_factory=list)


_ENDINGS = {
    Termination.LAST_PLAYER: "last player",
    Termination.MUSEUM: "museum",
    Termination.BOTH: "museum",
    Termination.INSTALLATIONS: "five installations",
}


def _ended_by(game: Game) -> str:
    outcome = game.outcome()
    return "stalled" if outcome is None else _ENDINGS[outcome.termination]


def play_game(players: int, seed: int, *, check: bool = True, sample: int = 2) -> GameResult:
    """Play one game between greedy players.  With ``check``, after every action: every player
    owns 20 dice, ``sample`` listed moves apply on a copy, and after every turn the JSON
    round-trip gives an equal game; at the end the replay of the log gives an equal game."""
    game = Game.new(players, seed)
    bots = [GreedyPlayer(seed * 10 + i) for i in range(players)]
    rng = random.Random(seed)
    violations: list[str] = []
    decisions = 0

    def before(game: Game, move: Move) -> None:
        legal = game.legal_moves()
        if move not in legal:
            violations.append(f"seed {seed}: chosen move {move} is not listed")
        for probe in rng.sample(legal, min(sample, len(legal))):
            copy = game.clone()
            try:
                copy.apply(probe)
            except IllegalMove as e:
                violations.append(f"seed {seed}: listed move {probe} refused: {e}")
                continue
            violations.extend(f"seed {seed} after {probe}: {p}" for p in copy.check_invariants())

    def after(game: Game, move: Move) -> None:
        nonlocal decisions
        decisions += 1
        if not check:
            return
        violations.extend(f"seed {seed} after {move}: {p}" for p in game.check_invariants())
        if isinstance(move, EndTurn) and load_game(dump_game(game)) != game:
            violations.append(f"seed {seed}: JSON round-trip differs at turn {game.state.turn}")

    play_table(game, bots, observe=before if check else None, after=after, max_turns=MAX_TURNS)
    if check and Game.replay(players, seed, game.log) != game:
        violations.append(f"seed {seed}: replay of the move log differs")
    return GameResult(seed, players, game.state.turn + 1, decisions, _ended_by(game), game.scores(), violations)


@dataclass
class Summary:
    results: list[GameResult]
    seconds: float

    @property
    def stalled(self) -> int:
        return sum(r.ended_by == "stalled" for r in self.results)

    @property
    def violations(self) -> list[str]:
        return [v for r in self.results for v in r.violations]

    def report(self) -> str:
        rs = self.results
        turns = [r.turns for r in rs]
        ends: dict[str, int] = {}
        for r in rs:
            ends[r.ended_by] = ends.get(r.ended_by, 0) + 1
        scores = [s for r in rs for s in r.scores]
        margins = [sorted(r.scores)[-1] - sorted(r.scores)[0] for r in rs]
        decisions = sum(r.decisions for r in rs)
        lines = [
            f"games finished:       {len(rs) - self.stalled} of {len(rs)}",
            f"turns per game:       median {statistics.median(turns):.0f}, max {max(turns)}",
            "ended by:             " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())),
            f"scores:               min {min(scores)}, median {statistics.median(scores):.0f}, max {max(scores)};"
            f" winner's margin median {statistics.median(margins):.0f}, max {max(margins)}",
            f"decisions per second: {decisions / self.seconds:,.0f} ({decisions} decisions in {self.seconds:.1f} s)",
            f"invariant violations: {len(self.violations)}",
        ]
        lines += [f"  {v}" for v in self.violations[:20]]
        return "\n".join(lines)


def run(games: int, players: int | None, seed: int, *, check: bool = True) -> Summary:
    """``players=None`` rotates through 2, 3 and 4 players."""
    start = time.perf_counter()
    results = []
    for i in range(games):
        n = players if players is not None else 2 + i % 3
        results.append(play_game(n, seed + i, check=check))
    return Summary(results, time.perf_counter() - start)
