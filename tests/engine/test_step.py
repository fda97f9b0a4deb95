"""Game.apply returns a Step; Game.outcome() says how a game ended (engine/step.py)."""

from __future__ import annotations

import pytest

from engine import EndTurn, Game, IllegalMove, Termination, Undo, dump_game
from engine.history import replay, turn_starts
from engine.players import GreedyPlayer


def _greedy_game(players: int, seed: int) -> Game:
    game = Game.new(players, seed)
    bots = [GreedyPlayer(seed * 10 + i) for i in range(players)]
    for _ in range(5000):
        if game.is_over:
            break
        game.apply(bots[game.current_player].choose(game))
    assert game.is_over
    return game


def test_a_move_inside_a_turn_does_not_end_it() -> None:
    game = Game.new(2, 5)
    first = game.current_player
    move = next(m for m in game.legal_moves() if not isinstance(m, EndTurn | Undo))
    step = game.apply(move)
    assert (step.seat, step.move, step.turn, step.turn_ended, step.record) == (first, move, 0, False, None)
    assert step.played is not None and step.played.move == move
    assert step.next_player == first and step.outcome is None


def test_ending_a_turn_says_what_the_turn_was_and_what_the_next_player_rolled() -> None:
    game = Game.new(2, 5)
    first = game.current_player
    bot = GreedyPlayer(1)
    played = []
    for _ in range(100):
        move = bot.choose(game)
        step = game.apply(move)
        played.append(move)
        if step.turn_ended:
            break
    assert step.seat == first and step.next_player == 1 - first and step.turn == 0
    assert step.record is not None and list(step.record.moves) == played and step.record.seat == first
    assert len(step.rolled) == 2 and list(step.rolled) == game.state.last_roll


def test_a_refused_move_raises_and_changes_nothing() -> None:
    game = Game.new(3, 8)
    before = dump_game(game)
    with pytest.raises(IllegalMove):
        game.apply_text("complete w2 9")
    assert dump_game(game) == before


def test_the_last_move_carries_the_outcome_and_ranks_agree_with_winners() -> None:
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        game = _greedy_game(players, seed)
        outcome = game.outcome()
        assert outcome is not None and outcome.termination is not Termination.LAST_PLAYER
        steps = [step for step, _g in replay(game)]
        assert steps[-1].outcome == outcome and all(s.outcome is None for s in steps[:-1])
        assert steps[-1].turn_ended
        assert set(outcome.winners) == {i for i, r in enumerate(outcome.ranks) if r == 1}
        assert list(outcome.scores) == game.scores()
        assert outcome.order()[0] in outcome.winners
        full = game.is_museum_complete()
        assert full == (outcome.termination in (Termination.MUSEUM, Termination.BOTH))


def test_removing_the_last_opponent_ends_the_game_with_last_player_standing() -> None:
    game = Game.new(2, 4)
    assert game.outcome() is None
    step = game.apply_text(f"remove p{game.current_player + 1}")
    assert step.turn_ended and step.outcome is not None
    assert step.outcome.termination is Termination.LAST_PLAYER
    stays = 1 - step.seat
    assert step.outcome.winners == (stays,) and step.outcome.ranks[stays] == 1 and step.outcome.ranks[step.seat] == 2


def test_history_counts_one_start_per_finished_turn() -> None:
    game = _greedy_game(2, 9)
    starts = turn_starts(game)
    ended = sum(step.turn_ended for step, _g in replay(game))
    assert len(starts) == ended + 1 == game.state.turn + 2  # the last turn ends the game without a new turn


def test_turn_order_starts_at_the_first_player_and_skips_removed_seats() -> None:
    for seed in range(6):  # the first player is drawn: seeds cover several
        game = Game.new(4, seed)
        first = game.state.first
        assert game.turn_order() == [(first + k) % 4 for k in range(4)]
        gone = (first + 2) % 4
        game.apply_text(f"remove p{gone + 1}")
        assert game.turn_order() == [(first + k) % 4 for k in (0, 1, 3)]
