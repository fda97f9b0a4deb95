"""Computer players built only on the engine's public API."""

from .greedy import GreedyPlayer
from .random_player import RandomPlayer

__all__ = ["GreedyPlayer", "RandomPlayer"]
