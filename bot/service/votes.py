"""The rules of the vote on an away player (the turn clock ran out).

Skipping the turn (engine move ``skip``) needs one vote of another player; removing the
player (``remove pN``, RULES.md "Leaving a game") or handing the seat to a computer needs a
majority of the other players still in the game.  Votes are stored per turn, so they survive
a restart; a vote of an earlier turn counts for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.game import GameService
from bot.service.refusals import Refusal, Refused
from bot.service.voters import needed, voters
from bot.store import GameRecord, SeatRecord, Status
from engine import Game

CHOICES = ("skip", "remove", "computer")


@dataclass(frozen=True, slots=True)
class Tally:
    """A vote counted: ``carried`` when ``have`` reached ``need``."""

    record: GameRecord
    game: Game
    voter: SeatRecord
    away: SeatRecord
    choice: str
    have: int
    need: int
    voters: int

    @property
    def carried(self) -> bool:
        return self.have >= self.need


async def cast(
    service: GameService, game_id: int, turn: int, user_id: int, choice: str, *, channel_id: int | None, in_dm: bool
) -> Tally:
    """Records ``user_id``'s vote on the away player of ``turn``, after every check (where it
    was clicked, the game in play at that turn, a voter, the clock run out).  Refused says
    why a vote does not count; nothing is stored then."""
    if choice not in CHOICES:
        raise Refused(Refusal.BAD_VOTE, choice=choice[:20])
    record, game = await service.game_for_interaction(game_id, channel_id, user_id, in_dm=in_dm)
    if record.status != Status.ACTIVE or game.is_over:
        raise Refused(Refusal.NOT_IN_PLAY_ANY_MORE)
    if game.state.turn != turn:
        raise Refused(Refusal.VOTE_ENDED)
    seat = record.seat_of(user_id)
    if seat is None:
        raise Refused(Refusal.VOTERS_ONLY)
    if seat.seat == game.current_player:
        raise Refused(Refusal.OWN_TURN)
    if seat.seat not in voters(record, game):
        raise Refused(Refusal.VOTER_LEFT)
    clock = await service.queries.turn_clock(game_id)
    if clock is None or clock.turn != turn or clock.expires_at > service.clock():
        raise Refused(Refusal.CLOCK_RUNNING)
    counts = await service.cast_vote(game_id, turn, seat.seat, choice)
    away = record.seats[game.current_player]
    return Tally(
        record, game, seat, away, choice, counts.get(choice, 0), needed(record, game, choice), len(voters(record, game))
    )
