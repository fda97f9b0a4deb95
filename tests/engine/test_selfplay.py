"""Self-play of whole games across 2, 3 and 4 players with every invariant checked."""

from __future__ import annotations

import pytest

from engine.selfplay import play_game, run


@pytest.mark.slow
def test_300_selfplay_games_finish_with_no_invariant_violation() -> None:
    summary = run(300, None, seed=1000)
    assert len(summary.results) == 300
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
