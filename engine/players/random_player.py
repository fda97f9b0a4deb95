"""A player that picks any legal move (never undo), ending its turn now and then."""

from __future__ import annotations

import random

from ..game import Game
from ..moves import EndTurn, Move, Undo


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int = 0, end_bias: float = 0.25) -> None:
        self.rng = random.Random(seed)
        self.end_bias = end_bias

    def choose(self, game: Game) -> Move:
        moves = [m for m in game.legal_moves() if not isinstance(m, Undo)]
        ends = [m for m in moves if isinstance(m, EndTurn)]
        if ends and self.rng.random() < self.end_bias:
            return self.rng.choice(ends)
        return self.rng.choice(moves)
