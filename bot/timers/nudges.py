"""Bringing the player in turn back, one timer per game in the slot ``nudge``, run as a chain
of kinds: ``turn_start`` (the turn-start DM) -> ``reminder`` (MAX_REMINDERS DMs, one per
interval; ``attempt`` is the reminder's number) -> ``channel_note`` (a note in the channel,
then nothing more this turn).  A computer's turn has ``computer_wake`` instead, which wakes
its player if it stalled.  Quiet hours and snoozes postpone a DM without counting it.

``turn_timers`` says which timers a new turn gets; the service hands them to the store in
the move's own transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from engine import Game

from ..store import GameRecord, SeatRecord, Status, Timer, TimerSpec
from .clock import clock_spec
from .quiet_hours import interval_of, next_allowed, quiet_until
from .registry import DONE, NOTHING, NUDGE, Next, kind, postponed

if TYPE_CHECKING:
    from ..client import CubistBot

log = logging.getLogger(__name__)

MAX_REMINDERS = 3
START_GRACE = 120.0  # s: the turn post sends the start DM itself; the timer only recovers a missed one
COMPUTER_GRACE = 60.0  # s: the table post wakes a computer player; the timer only recovers a stalled one
TURN_START = "turn_start"
REMINDER = "reminder"
CHANNEL_NOTE = "channel_note"
COMPUTER_WAKE = "computer_wake"


def turn_timers(
    record: GameRecord, game: Game, now: float, *, reminder_hours: int, turn_hours: int, dm_queued: bool
) -> list[TimerSpec]:
    """The timers of a turn that begins now: its clock, and the nudge of the player in turn
    (starting at the first reminder when the turn-start DM is queued in the outbox)."""
    seat = record.seats[game.current_player]
    turn = {"turn": game.state.turn}
    if seat.user_id is None:
        nudge = TimerSpec(NUDGE, COMPUTER_WAKE, now + COMPUTER_GRACE, turn)
    elif dm_queued:
        nudge = TimerSpec(NUDGE, REMINDER, now + interval_of(seat.prefs, reminder_hours), turn)
    else:
        nudge = TimerSpec(NUDGE, TURN_START, now + START_GRACE, turn)
    return [nudge, clock_spec(game.state.turn, game.current_player, now, turn_hours * 3600.0)]


async def _in_turn(bot: CubistBot, timer: Timer) -> tuple[GameRecord, Game, SeatRecord] | None:
    """The game, if it is still in play at the timer's turn."""
    record, game = await bot.service.game(timer.game_id)
    if record.status != Status.ACTIVE or game.is_over or game.state.turn != timer.payload.get("turn"):
        return None
    return record, game, record.seats[game.current_player]


def _interval(bot: CubistBot, record: GameRecord, seat: SeatRecord) -> float:
    return interval_of(seat.prefs, bot.service.table_settings(record).reminder_hours)


def _dm_wanted(seat: SeatRecord) -> bool:
    return seat.prefs.enabled and seat.dm_reachable is not False


async def _person_in_turn(
    bot: CubistBot, timer: Timer, now: float, *, dm: bool
) -> tuple[GameRecord, Game, SeatRecord] | Next:
    """The game and the seat of the person in turn, or what becomes of the timer instead: gone
    (the turn was played), a computer's wake-up (the seat went to a computer), or, for a
    ``dm``, postponed to the end of the player's quiet hours or snooze."""
    found = await _in_turn(bot, timer)
    if found is None:
        return NOTHING
    seat = found[2]
    if seat.user_id is None:
        return Next(due_at=now, kind=COMPUTER_WAKE)
    if dm and _dm_wanted(seat) and (later := next_allowed(seat.prefs, now)) is not None:
        return postponed(timer, later)
    return found


async def _gone(bot: CubistBot, record: GameRecord, game: Game, seat: SeatRecord) -> bool:
    """Whether the person in turn no longer exists on Discord (then their turn clock ends now)."""
    if await bot.reminders.user_exists(seat.user_id or 0):
        return False
    log.info("user %s no longer exists; treating them as away in game %s", seat.user_id, record.id)
    await bot.reminders.mark_away(record.id, game)
    return True


PersonRun = Callable[["CubistBot", Timer, float, GameRecord, Game, SeatRecord], Awaitable[Next]]


def person_kind(name: str, *, dm: bool) -> Callable[[PersonRun], PersonRun]:
    """Registers a kind that runs for the person in turn (``_person_in_turn`` decides first
    whether it runs at all)."""

    def register(fn: PersonRun) -> PersonRun:
        async def run(bot: CubistBot, timer: Timer, now: float) -> Next:
            found = await _person_in_turn(bot, timer, now, dm=dm)
            return found if isinstance(found, Next) else await fn(bot, timer, now, *found)

        kind(name)(run)
        return fn

    return register


@person_kind(TURN_START, dm=True)
async def turn_start(
    bot: CubistBot, timer: Timer, now: float, record: GameRecord, game: Game, seat: SeatRecord
) -> Next:
    if _dm_wanted(seat):
        await bot.reminders.send_turn_start(record, game)
    return Next(due_at=now + _interval(bot, record, seat), kind=REMINDER)


@person_kind(REMINDER, dm=True)
async def reminder(bot: CubistBot, timer: Timer, now: float, record: GameRecord, game: Game, seat: SeatRecord) -> Next:
    step = timer.attempt
    after = Next(due_at=now + _interval(bot, record, seat), kind=None if step < MAX_REMINDERS else CHANNEL_NOTE)
    if not await _gone(bot, record, game, seat) and seat.prefs.enabled:
        await bot.reminders.remind(record, game, seat, step)
    return after


@person_kind(CHANNEL_NOTE, dm=False)
async def channel_note(
    bot: CubistBot, timer: Timer, now: float, record: GameRecord, game: Game, seat: SeatRecord
) -> Next:
    if not await _gone(bot, record, game, seat):
        await bot.reminders.channel_note(record, game, seat, now - (timer.last_run_at or timer.created_at))
    return DONE


@kind(COMPUTER_WAKE)
async def computer_wake(bot: CubistBot, timer: Timer, now: float) -> Next:
    """A computer's turn still waiting: its player stopped (say the bot went down mid-turn
    and the start-up wake failed); wake it again, and look again an interval later."""
    found = await _in_turn(bot, timer)
    if found is None or found[2].user_id is not None:
        return NOTHING
    record, _game, seat = found
    bot.computers.wake_id(record.id)
    return Next(due_at=now + _interval(bot, record, seat))


async def start_turn_now(bot: CubistBot, record: GameRecord, game: Game) -> None:
    """After the table post that began a person's turn: their turn-start DM at once (in the
    background) unless it is night-time where they live (then the timer sends it in the
    morning).  Claimed like any timer, so it goes out once across processes and restarts."""
    if game.is_over or record.status != Status.ACTIVE:
        return
    seat = record.seats[game.current_player]
    if seat.user_id is None:
        return  # computer players move by themselves (bot/computer.py)
    poller = bot.timers
    timers = bot.service.timers
    timer = await timers.claim(record.id, NUDGE, poller.owner, poller.lease, [TURN_START])
    if timer is None or timer.payload.get("turn") != game.state.turn:
        if timer is not None:
            await timers.finish(timer, poller.owner, due_at=timer.due_at, attempt=timer.attempt - 1, ran=False)
        return  # sent already (by the poller, another process), or about another turn
    now = bot.clock()
    wake = quiet_until(seat.prefs, now) if seat.prefs.enabled else None
    if wake is not None:  # night-time where the player lives: the timer sends it in the morning
        await timers.finish(timer, poller.owner, due_at=wake, attempt=timer.attempt - 1, ran=False)
        return
    interval = _interval(bot, record, seat)
    if not await timers.finish(timer, poller.owner, due_at=now + interval, kind=REMINDER):
        return
    if _dm_wanted(seat):
        # In the background: the command that ended the turn is answered without waiting
        # for the next player's studio picture and DM (issue 6: the `end` reply time).
        bot.reminders.send_in_background(record, game)
