"""What a turn schedules, as data the store keeps in its ``timers`` table: the turn's clock
(slot ``turn_clock``) and the nudge of the player in turn (slot ``nudge``), run as a chain of
kinds: ``turn_start`` (the turn-start DM) -> ``reminder`` (MAX_REMINDERS DMs, one per
interval; ``attempt`` is the reminder's number) -> ``channel_note`` (a note in the channel,
then nothing more this turn).  A computer's turn has ``computer_turn`` instead: the computer
plays its turn when it runs.

The service hands ``turn_timers`` to the store in the move's own transaction; what runs when
a timer falls due is the workers' business (``bot/jobs/runs.py``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.service.quiet_hours import interval_of
from bot.store import GameRecord, Job, Store, TimerSpec
from engine import Game

# A game's timer slots (one timer per game and slot).
NUDGE = "nudge"  # the player in turn: turn-start DM, reminders, channel note; or a computer's turn
CLOCK = "turn_clock"  # the turn's clock: when it runs out the others may vote

# The kinds of the nudge chain, and the clock's.
TURN_START = "turn_start"
REMINDER = "reminder"
CHANNEL_NOTE = "channel_note"
COMPUTER_TURN = "computer_turn"
CLOCK_RAN_OUT = "turn_clock"

MAX_REMINDERS = 3
START_GRACE = 120.0  # s: the turn post sends the start DM itself; the timer only recovers a missed one
COMPUTER_GRACE = 60.0  # s: the table post starts a computer's turn; the poller only recovers a missed one


@dataclass(frozen=True, slots=True)
class TurnClock:
    """The clock of a game's turn: after ``expires_at`` the others may vote."""

    game_id: int
    turn: int
    seat: int
    started_at: float
    expires_at: float
    vote_posted: bool
    # Wall-clock time the turn began (seconds since the epoch, what Discord's interaction
    # timestamps are compared with; the service's clock may be a test's).  None: older clocks.
    began: float | None = None

    @classmethod
    def of(cls, timer: Job) -> TurnClock:
        p = timer.payload
        return cls(
            timer.game_id, int(p["turn"]), int(p["seat"]), float(p["started_at"]), float(p["expires_at"]),
            timer.due_at is None, float(p["began"]) if "began" in p else None,
        )  # fmt: skip


def clock_spec(turn: int, seat: int, now: float, seconds: float) -> TimerSpec:
    payload = {"turn": turn, "seat": seat, "started_at": now, "expires_at": now + seconds, "began": time.time()}
    return TimerSpec(CLOCK, CLOCK_RAN_OUT, now + seconds, payload)


async def turn_clock(store: Store, game_id: int) -> TurnClock | None:
    timer = await store.timers.get(game_id, CLOCK)
    return None if timer is None else TurnClock.of(timer)


async def expire(store: Store, game_id: int, turn: int, at: float) -> bool:
    """Ends a turn's clock early (the player is known to be gone)."""
    return await store.timers.hasten(game_id, CLOCK, at, {"turn": turn}, {"expires_at": at})


def turn_timers(
    record: GameRecord, game: Game, now: float, *, reminder_hours: int, turn_hours: int, dm_queued: bool
) -> list[TimerSpec]:
    """The timers of a turn that begins now: its clock, and the nudge of the player in turn
    (starting at the first reminder when the turn-start DM is queued in the outbox)."""
    seat = record.seats[game.current_player]
    turn = {"turn": game.state.turn}
    if seat.user_id is None:
        nudge = TimerSpec(NUDGE, COMPUTER_TURN, now + COMPUTER_GRACE, turn)
    elif dm_queued:
        nudge = TimerSpec(NUDGE, REMINDER, now + interval_of(seat.prefs, reminder_hours), turn)
    else:
        nudge = TimerSpec(NUDGE, TURN_START, now + START_GRACE, turn)
    return [nudge, clock_spec(game.state.turn, game.current_player, now, turn_hours * 3600.0)]
