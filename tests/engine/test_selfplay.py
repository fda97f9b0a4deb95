"""Self-play of whole games across 2, 3 and 4 players with every invariant checked."""

from __future__ import annotations

import time

import pytest

from engine.players.tournament import parallel_map
from engine.selfplay import GameResult, Summary, play_game


def _checked_game(job: tuple[int, int]) -> GameResult:
    players, seed = job
    return play_game(players, seed)


@pytest.mark.slow
def test_300_selfplay_games_finish_with_no_invariant_violation() -> None:
    # The same 300 games as ``run(300, None, seed=1000)``, every invariant checked after every
    # action, in up to two processes (the suite itself runs on one core; the other would idle).
    jobs = [(2 + i % 3, 1000 + i) for i in range(300)]
    start = time.perf_counter()
    summary = Summary(parallel_map(_checked_game, jobs), time.perf_counter() - start)
    assert [(r.players, r.seed) for r in summary.results] == jobs
    assert {r.players for r in summary.results} == {2, 3, 4}
    assert summary.stalled == 0, summary.report()
    assert summary.violations == [], summary.report()


def test_selfplay_is_deterministic_for_a_seed() -> None:
    a = play_game(3, 42)
    b = play_game(3, 42)
    assert (a.turns, a.scores, a.decisions) == (b.turns, b.scores, b.decisions)
    assert a.ended_by != "stalled" and not a.violations


def test_selfplay_command_exits_zero_and_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.__main__ import main

    assert main(["selfplay", "--games", "3", "--players", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    for label in (
        "games finished:       3 of 3",
        "turns per game",
        "ended by",
        "scores",
        "decisions per second",
        "invariant violations: 0",
    ):
        assert label in out
