"""The turn record: each move with what it resolved to when it was played, read from the
position before it (which the position after may no longer show), kept through undo, saves
and replays."""

from __future__ import annotations

import json

import pytest

from engine import Game, TurnRecord, dump_game, load_game
from engine.moves import CARD, Complete, Place, Switch, ToArtist, ToMuseum, Undo, UseArtist
from engine.players import GreedyPlayer
from engine.record import record_from_json, record_to_json


def _games(players: int, seed: int, turns: int = 60) -> Game:
    """A greedy self-play game, checking every step's record against the position before it."""
    game = Game.new(players, seed)
    bots = [GreedyPlayer(seed * 10 + i) for i in range(players)]
    while not game.is_over and game.state.turn < turns:
        before = game.clone()
        move = bots[game.current_player].choose(game)
        step = game.apply(move)
        _check_play(before, step.played, move)
        if step.turn_ended:
            assert step.record is not None and step.record.seat == before.current_player
            assert step.record.turn == before.state.turn and step.record.plays[-1] == step.played
            assert game.state.this_turn.plays == () and game.state.this_turn.rolled == tuple(step.rolled)
        else:
            assert game.state.this_turn.plays[-1] == step.played
    return game


def _check_play(before: Game, played: object, move: object) -> None:
    from engine import Played

    assert isinstance(played, Played) and played.move == move
    me = before.state.players[before.current_player]
    if isinstance(move, Place | ToMuseum):
        assert played.value == before.die_value(move.die)
        assert played.bonus == ((me.completed[move.die.card].card,) if move.die.kind == CARD else ())
    elif isinstance(move, ToArtist):
        slot = before.state.artists[move.slot]
        assert played.artist == slot.card and played.value == before.die_value(move.dice[0], allow_pool=True)
        assert played.bumped == (None if slot.owner is None else (slot.owner, slot.count, slot.value))
    elif isinstance(move, UseArtist):
        assert played.artist == before.state.artists[move.slot].card
    elif isinstance(move, Complete):
        assert played.installation == move.card
    elif isinstance(move, Switch):
        assert played.value is not None and played.to is not None and played.value != played.to


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 5), (4, 7)])
def test_every_play_records_what_it_resolved_to_before_the_move(players: int, seed: int) -> None:
    _games(players, seed)


def test_the_artist_used_is_recorded_although_a_new_card_takes_its_slot() -> None:
    for seed in range(1, 40):
        game = Game.new(3, seed)
        bots = [GreedyPlayer(seed + i) for i in range(3)]
        while not game.is_over and game.state.turn < 80:
            move = bots[game.current_player].choose(game)
            used = game.state.artists[move.slot].card if isinstance(move, UseArtist) else None
            step = game.apply(move)
            if used is not None:
                assert step.played is not None and step.played.artist == used
                assert game.state.artists[move.slot].card != used  # the slot shows another card now
                return
    pytest.fail("no artist was used in 39 games")


def test_undo_drops_the_move_from_the_record() -> None:
    game = Game.new(2, 5)
    move = next(m for m in game.legal_moves() if isinstance(m, Place))
    game.apply(move)
    assert game.state.this_turn.moves == (move,)
    step = game.apply(Undo())
    assert step.played is None and game.state.this_turn.plays == ()


def test_records_survive_a_save_and_a_save_from_before_them_is_rebuilt_by_replay() -> None:
    game = _games(3, 11, turns=20)
    game.apply(next(m for m in game.legal_moves() if not isinstance(m, Undo)))
    loaded = load_game(dump_game(game))
    assert loaded == game and loaded.state.last_turn == game.state.last_turn
    old = json.loads(dump_game(game))  # the first version kept the turns' moves as text only
    old["version"] = 1
    for part in ("state", "checkpoint"):
        state = old[part]
        this, last = state.pop("this_turn"), state.pop("last_turn")
        state["turn_moves"] = [p["move"] for p in this["plays"]]
        state["last_turn"] = None if last is None else [last["seat"], [p["move"] for p in last["plays"]]]
    assert load_game(old) == game


def test_a_record_round_trips_through_json() -> None:
    game = _games(4, 2, turns=30)
    last = game.state.last_turn
    assert isinstance(last, TurnRecord) and last.plays
    assert record_from_json(json.loads(json.dumps(record_to_json(last)))) == last
