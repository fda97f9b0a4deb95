"""``make_player(level, seed)``: the computer players by level name."""

from __future__ import annotations

from typing import Protocol

from ..game import Game
from ..moves import Move
from .greedy import GreedyPlayer
from .master import MasterPlayer
from .random_player import RandomPlayer
from .strong import StrongPlayer

LEVELS = ("random", "greedy", "strong", "master")


class Player(Protocol):
    name: str

    def choose(self, game: Game) -> Move: ...


def make_player(level: str, seed: int) -> Player:
    """A computer player of ``level`` ("random", "greedy", "strong" or "master"), deterministic
    for ``seed``."""
    key = level.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key == "greedy":
        return GreedyPlayer(seed, nearest=True)
    if key == "strong":
        return StrongPlayer(seed)
    if key == "master":
        return MasterPlayer(seed)
    raise ValueError(f"unknown player level {level!r}: choose from {', '.join(LEVELS)}")
