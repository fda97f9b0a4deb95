"""What the rules read and change of a game: ``engine.game.Game`` is one.  The rules are
written against this, so that the game (which reads the rules) and the rules do not import
each other."""

from __future__ import annotations

from typing import Protocol

from ..moves import DieRef
from ..state import GameState, PlayerState


class Table(Protocol):
    state: GameState
    num_players: int

    def mover(self) -> PlayerState:
        """The state of the player whose turn it is."""
        ...

    def card_dice(self) -> list[tuple[DieRef, int]]:
        """The current player's dice on their completed installation cards, with their values."""
        ...

    def die_value(self, die: DieRef, *, allow_pool: bool = False) -> int:
        """The value of a die the current player refers to, or IllegalMove if there is none."""
        ...

    def museum_heights(self) -> dict[int, int]:
        """The museum card's target height per cell."""
        ...

    def take_from_supply(self, value: int) -> None:
        """A die of ``value`` from the current player's supply into their storeroom."""
        ...
