"""Positions reached by play, for property tests."""

from __future__ import annotations

import random

from engine import Game
from engine.moves import Undo
from engine.players import GreedyPlayer, RandomPlayer


def reach(players: int, seed: int, steps: int) -> Game:
    """Play ``steps`` moves from a new game, mixing greedy and random choices (and the
    odd undo) so that positions cover artists, abandoning, the museum and undo."""
    game = Game.new(players, seed)
    rng = random.Random(seed)
    greedy = GreedyPlayer(seed)
    rnd = RandomPlayer(seed)
    for _ in range(steps):
        if game.is_over:
            break
        if game.can_undo() and rng.random() < 0.05:
            game.apply(Undo())
        elif rng.random() < 0.6:
            game.apply(greedy.choose(game))
        else:
            game.apply(rnd.choose(game))
    return game
