"""Computer players built only on the engine's public API."""

from .factory import LEVELS, Player, make_player
from .greedy import GreedyPlayer
from .master import MasterPlayer
from .random_player import RandomPlayer
from .strong import StrongPlayer

__all__ = ["LEVELS", "GreedyPlayer", "MasterPlayer", "Player", "RandomPlayer", "StrongPlayer", "make_player"]
