"""A game's history, told by replaying its log (the source of truth) step by step.

Every read-out of the past (scores after each turn, the turns in words, the position before
the last turn) is built on ``replay``, so "did this move end a turn?" is answered once, by
the engine's ``Step``.  Replaying is CPU work: callers off an event loop run it in a thread.
"""

from __future__ import annotations

from collections.abc import Iterator

from .game import Game
from .step import Step


def replay(game: Game) -> Iterator[tuple[Step, Game]]:
    """Replays ``game``'s log from its seed: each step with the game right after it (the same
    object, advanced; clone it to keep a position)."""
    g = start_of(game)
    for move in game.log:
        yield g.apply(move), g


def start_of(game: Game) -> Game:
    """The game as it stood before its first move."""
    return Game.new(game.num_players, game.seed, game.options, game.deck)


def turn_starts(game: Game) -> list[Game]:
    """The position at the start of the game and after every finished turn."""
    out = [start_of(game)]
    for step, g in replay(game):
        if step.turn_ended:
            out.append(g.clone())
    return out
