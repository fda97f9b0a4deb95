"""Computer players built only on the engine's public API."""

from .factory import LEVELS, Player, make_player
from .greedy import GreedyPlayer
from .random_player import RandomPlayer
from .strong import StrongPlayer

__all__ = ["LEVELS", "GreedyPlayer", "Player", "RandomPlayer", "StrongPlayer", "make_player"]
