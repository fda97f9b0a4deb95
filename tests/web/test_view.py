"""What the page is told to offer, without a browser: ending a turn asks what the panel asks."""

from __future__ import annotations

from bot.web.view import play_options, story
from engine import Game
from engine.moves import EndTurn
from engine.players import GreedyPlayer


def test_end_is_one_confirmation_when_nothing_is_to_choose_else_the_question() -> None:
    game = Game.new(2, 5)
    options = play_options(game, ["Ann", "Bob"], "en")
    kept = sorted(game.state.players[game.current_player].storeroom, reverse=True)
    assert options["end"]["move"] == str(EndTurn(tuple(kept)))  # two dice: both stay, nothing to choose
    assert options["end"]["confirm"].startswith("End your turn?")
    me = game.state.players[game.current_player]
    me.supply -= 2
    me.storeroom = sorted([*me.storeroom, 6, 6])  # four dice: which two stay is a real choice
    game.set_position()
    options = play_options(game, ["Ann", "Bob"], "fr")
    ends = {str(m) for m in game.legal_moves() if isinstance(m, EndTurn)}
    assert options["end"]["move"] is None and "Lesquels gardez-vous" in options["end"]["confirm"]
    assert {o["move"] for o in options["end"]["others"]} == ends and all(o["label"] for o in options["end"]["others"])


def test_the_stories_read_as_sentences_in_both_languages() -> None:
    game = Game.new(2, 5)
    chooser = GreedyPlayer(1)
    while game.state.last_turn is None:
        game.apply(chooser.choose(game))
    seat = game.state.last_turn.seat
    names = ["Ann", "Bob"]
    assert story(game, names, "en").startswith(f"Last turn: {names[seat]} ") and story(game, names, "en").endswith(".")
    assert story(game, names, "fr").startswith(f"Dernier tour : {names[seat]} a ")  # « Bob a placé… »
