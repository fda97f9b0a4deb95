"""Saved games: JSON round trip, version, and clear errors for damaged data."""

from __future__ import annotations

import json

import pytest

from engine import Game, SavedGameError, dump_game, load_game, parse_move
from engine.saved import VERSION


def test_saved_json_has_a_version_and_round_trips() -> None:
    g = Game.new(3, 11)
    g.apply(g.legal_moves()[0])
    data = json.loads(dump_game(g))
    assert data["version"] == VERSION
    assert data["log"] == [str(m) for m in g.log]
    assert load_game(data) == g


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda d: d.update(version=VERSION + 1), "newer than this engine"),
        (lambda d: d.pop("version"), "no version number"),
        (lambda d: d.update(players="two"), "expected shape"),
        (lambda d: d["state"].pop("rng"), "expected shape"),
        (lambda d: d.update(log=["fly away"]), "unreadable move"),
        (lambda d: d.update(players=3), "says 3 players but holds 2"),
    ],
)
def test_damaged_saved_games_give_a_clear_error(mutate, fragment: str) -> None:
    data = json.loads(dump_game(Game.new(2, 5)))
    mutate(data)
    with pytest.raises(SavedGameError, match=fragment):
        load_game(json.dumps(data))


def test_not_json_at_all() -> None:
    with pytest.raises(SavedGameError, match="not valid JSON"):
        load_game("{nope")
    with pytest.raises(SavedGameError, match="not a JSON object"):
        load_game("[1, 2]")


def test_replay_from_seed_options_and_moves_reproduces_the_game() -> None:
    from engine import GameOptions
    from engine.players import GreedyPlayer

    opts = GameOptions(clear_full_artist_row=False)
    g = Game.new(4, 99, opts)
    bot = GreedyPlayer(3)
    for _ in range(150):
        if g.is_over:
            break
        g.apply(bot.choose(g))
    again = Game.replay(4, 99, [parse_move(str(m)) for m in g.log], opts)
    assert again == g
    assert dump_game(again) == dump_game(g)


def test_a_save_from_before_equal_turns_loads_with_the_option_off() -> None:
    g = Game.new(3, 21)
    g.apply(g.legal_moves()[0])
    data = json.loads(dump_game(g))
    data["options"].pop("equal_turns")
    for key in ("state", "checkpoint"):
        data[key].pop("first")
        data[key].pop("final_round")
    loaded = load_game(json.dumps(data))
    assert loaded.options.equal_turns is False
    assert loaded.state.first == g.state.first  # dealt again from the seed
    assert loaded == g
