"""Cubist rules engine: pure Python, no I/O beyond reading its bundled card data.

from engine import Game, parse_move
game = Game.new(players=2, seed=7)
move = game.legal_moves()[0]
step = game.apply(move)      # a Step; raises IllegalMove (a ValueError) and changes nothing if illegal
game.apply_text("end")       # a move in notation (parse_move + apply)
step.record                  # when the move ended a turn: its TurnRecord (the moves and what they did)
game.outcome()               # None while in play, else an Outcome (termination, winners, ranks)
text = dump_game(game)       # JSON; load_game(text) == game
"""

from .cards import ArtistCard, ArtistKind, CardDataError, Deck, InstallationCard, MuseumCard, default_deck, load_deck
from .errors import IllegalMove, PositionError, SavedGameError
from .game import Game
from .moves import (
    Abandon,
    Complete,
    DieRef,
    EndTurn,
    Move,
    MoveSyntaxError,
    Place,
    Release,
    Remove,
    Skip,
    Switch,
    ToArtist,
    ToMuseum,
    Undo,
    UseArtist,
    parse_move,
)
from .record import Played, TurnRecord
from .saved import dump_game, load_game
from .state import GameOptions
from .step import Outcome, Step, Termination

__all__ = [
    "Abandon",
    "ArtistCard",
    "ArtistKind",
    "CardDataError",
    "Complete",
    "Deck",
    "DieRef",
    "EndTurn",
    "Game",
    "GameOptions",
    "IllegalMove",
    "InstallationCard",
    "Move",
    "MoveSyntaxError",
    "MuseumCard",
    "Outcome",
    "Place",
    "Played",
    "PositionError",
    "Release",
    "Remove",
    "SavedGameError",
    "Skip",
    "Step",
    "Switch",
    "Termination",
    "ToArtist",
    "ToMuseum",
    "TurnRecord",
    "Undo",
    "UseArtist",
    "default_deck",
    "dump_game",
    "load_deck",
    "load_game",
    "parse_move",
]
