"""Who votes on an away player, and how many votes carry each choice.

Skipping the turn needs one vote of another player; removing the player or handing the seat
to a computer needs a majority of the other players still in the game."""

from __future__ import annotations

from bot.store import GameRecord
from engine import Game


def voters(record: GameRecord, game: Game) -> list[int]:
    """Seats that may vote on the current player: the other humans still in the game."""
    return [
        s.seat
        for s in record.seats
        if s.seat != game.current_player and s.user_id is not None and not game.state.players[s.seat].removed
    ]


def needed(record: GameRecord, game: Game, choice: str) -> int:
    return 1 if choice == "skip" else len(voters(record, game)) // 2 + 1


def carried(record: GameRecord, game: Game, votes: dict[int, str], choice: str) -> bool:
    """Whether the stored ``votes`` (voter seat -> choice) of the turn in play carry ``choice``."""
    counted = set(voters(record, game))
    return sum(1 for seat, said in votes.items() if seat in counted and said == choice) >= needed(record, game, choice)
