"""What one applied move did (``Step``) and how a finished game ended (``Outcome``).

Modelled on python-chess: ``Game.apply`` returns a ``Step`` and ``Game.outcome()`` says how a
game ended, so no caller works out "did the turn end?" or "who won?" on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from .moves import Move
from .record import Played, TurnRecord


class Termination(Enum):
    """Why a game ended."""

    INSTALLATIONS = "installations"  # a player completed their fifth installation
    MUSEUM = "museum"  # the museum was filled
    BOTH = "both"  # both in the same turn
    LAST_PLAYER = "last_player"  # every other player left or was removed


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    winners: tuple[int, ...]  # seats sharing the victory
    ranks: tuple[int, ...]  # per seat: 1 + seats strictly ahead (ties share a rank; removed seats rank last)
    scores: tuple[int, ...]  # per seat

    def order(self) -> list[int]:
        """Seats from first to last (ties by seat number)."""
        return sorted(range(len(self.ranks)), key=lambda i: (self.ranks[i], i))


class Step(NamedTuple):  # a tuple: one is made per applied move, and a frozen dataclass costs 4x as much
    seat: int  # whose turn it was when the move was applied (for a removal: the seat in turn)
    move: Move
    played: Played | None  # what the move resolved to, as the turn's record keeps it (None: an undo)
    turn: int  # the 0-based turn number the move was played in
    turn_ended: bool  # the move finished a turn (or ended the game)
    record: TurnRecord | None  # the finished turn as it stood at its end (when the move ended one)
    rolled: tuple[int, ...]  # dice rolled by this step (a new turn's roll, a refill after drawing)
    next_player: int  # whose turn it is now
    outcome: Outcome | None  # set when this move ended the game
