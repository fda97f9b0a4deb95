"""What runs when a job falls due: the one-offs a move queued (the turn's channel post, the
next player's turn-start DM; ``bot/store/outbox.py``) and a turn's standing jobs (the
schedule itself is ``bot/service/schedule.py``).

Each kind decides from the stored game whether it still concerns anything, then hands the
work to the features through the events (``bot/jobs/events.py``): the turn post, the
turn-start DM, the reminders, the channel note, the vote on an away player, a computer's
turn.  Quiet hours and snoozes postpone a DM without counting it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable

from bot.jobs import events as ev
from bot.jobs.host import JobHost
from bot.jobs.registry import DONE, NOTHING, Next, kind, postponed
from bot.service.game import at_turn
from bot.service.quiet_hours import interval_of, next_allowed
from bot.service.schedule import (
    CHANNEL_NOTE,
    CLOCK_RAN_OUT,
    COMPUTER_TURN,
    MAX_REMINDERS,
    REMINDER,
    TURN_START,
)
from bot.store import GameRecord, Job, SeatRecord
from bot.store.jobs import TURN_POST
from bot.store.outbox import TURN_DM
from engine import Game

log = logging.getLogger(__name__)


async def _in_turn(host: JobHost, timer: Job) -> tuple[GameRecord, Game, SeatRecord] | None:
    """The game, if it is still in play at the timer's turn."""
    record, game = await host.service.queries.game(timer.game_id)
    if not at_turn(record, game, timer.payload.get("turn")):
        return None
    return record, game, record.seats[game.current_player]


def reminder_interval(host: JobHost, record: GameRecord, seat: SeatRecord) -> float:
    return interval_of(seat.prefs, host.service.table_settings(record).reminder_hours)


def dm_wanted(seat: SeatRecord) -> bool:
    return seat.prefs.enabled and seat.dm_reachable is not False


@kind(CLOCK_RAN_OUT)
async def turn_clock_ran_out(host: JobHost, timer: Job, now: float) -> Next:
    record, game = await host.service.queries.game(timer.game_id)
    if not at_turn(record, game, timer.payload.get("turn")):
        return NOTHING
    await host.events.tell(ev.VOTE_DUE, record, game)
    return Next(keep=True)  # the vote is posted; the clock stays for reading


async def _person_in_turn(
    host: JobHost, timer: Job, now: float, *, dm: bool
) -> tuple[GameRecord, Game, SeatRecord] | Next:
    """The game and the seat of the person in turn, or what becomes of the timer instead: gone
    (the turn was played), a computer's wake-up (the seat went to a computer), or, for a
    ``dm``, postponed to the end of the player's quiet hours or snooze."""
    found = await _in_turn(host, timer)
    if found is None:
        return NOTHING
    seat = found[2]
    if seat.user_id is None:
        return Next(due_at=now, kind=COMPUTER_TURN)
    if dm and dm_wanted(seat) and (later := next_allowed(seat.prefs, now)) is not None:
        return postponed(timer, later)
    return found


async def _gone(host: JobHost, record: GameRecord, game: Game, seat: SeatRecord) -> bool:
    """Whether the person in turn no longer exists on Discord (then their turn clock ends now)."""
    if await host.events.ask(ev.USER_EXISTS, seat.user_id or 0):
        return False
    log.info("user %s no longer exists; treating them as away in game %s", seat.user_id, record.id)
    await host.events.tell(ev.PLAYER_GONE, record.id, game)
    return True


PersonRun = Callable[[JobHost, Job, float, GameRecord, Game, SeatRecord], Awaitable[Next]]


def person_kind(name: str, *, dm: bool) -> Callable[[PersonRun], PersonRun]:
    """Registers a kind that runs for the person in turn (``_person_in_turn`` decides first
    whether it runs at all)."""

    def register(fn: PersonRun) -> PersonRun:
        async def run(host: JobHost, timer: Job, now: float) -> Next:
            found = await _person_in_turn(host, timer, now, dm=dm)
            return found if isinstance(found, Next) else await fn(host, timer, now, *found)

        kind(name)(run)
        return fn

    return register


@person_kind(TURN_START, dm=True)
async def turn_start(host: JobHost, timer: Job, now: float, record: GameRecord, game: Game, seat: SeatRecord) -> Next:
    if dm_wanted(seat):
        await host.events.tell(ev.TURN_START_DM, record, game)
    return Next(due_at=now + reminder_interval(host, record, seat), kind=REMINDER)


@person_kind(REMINDER, dm=True)
async def reminder(host: JobHost, timer: Job, now: float, record: GameRecord, game: Game, seat: SeatRecord) -> Next:
    step = timer.attempt
    after = Next(
        due_at=now + reminder_interval(host, record, seat), kind=None if step < MAX_REMINDERS else CHANNEL_NOTE
    )
    if not await _gone(host, record, game, seat) and seat.prefs.enabled:
        await host.events.tell(ev.REMINDER_DUE, record, game, seat, step)
    return after


@person_kind(CHANNEL_NOTE, dm=False)
async def channel_note(host: JobHost, timer: Job, now: float, record: GameRecord, game: Game, seat: SeatRecord) -> Next:
    if not await _gone(host, record, game, seat):
        waited = now - (timer.last_run_at or timer.created_at)
        await host.events.tell(ev.CHANNEL_NOTE_DUE, record, game, seat, waited)
    return DONE


@kind(COMPUTER_TURN)
async def computer_turn(host: JobHost, timer: Job, now: float) -> Next:
    """A computer's turn: it plays the turn now, from the stored position (a turn another
    claimer began and did not finish goes on where it stopped).  The move that ends the turn
    sets the next turn's nudge, so this claim ends with nothing to write; a turn that did not
    end (its moves refused) is looked at again an interval later."""
    found = await _in_turn(host, timer)
    if found is None or found[2].user_id is not None:
        return NOTHING
    record, _game, seat = found
    if not await host.events.ask(ev.COMPUTER_TURN_DUE, record.id):
        return postponed(timer, host.clock())  # stopped by a shutdown: due now, for whoever runs next
    return Next(due_at=host.clock() + reminder_interval(host, record, seat))


async def _at_version(host: JobHost, job: Job) -> tuple[GameRecord, Game]:
    """The game as it was when the one-off was queued (its post shows that position)."""
    assert job.version is not None, f"one-off {job.id} has no version"
    record = await host.service.queries.record(job.game_id)
    game = await host.service.queries.game_at(job.game_id, job.version)
    return dataclasses.replace(record, version=job.version), game


@kind(TURN_POST)
async def turn_post(host: JobHost, job: Job, now: float) -> Next:
    """The turn's channel post, when the interaction that ended the turn did not post it."""
    record, game = await _at_version(host, job)
    message_id = await host.events.ask(ev.TURN_POST_DUE, record, game, job)
    return Next(keep=True, message_id=message_id)


@kind(TURN_DM)
async def turn_dm(host: JobHost, job: Job, now: float) -> Next:
    """The next player's turn-start DM, after its turn's post (or postponed to the end of
    their quiet hours)."""
    record, game = await _at_version(host, job)
    wake = await host.events.ask(ev.TURN_DM_DUE, record, game, job)
    return Next(keep=True) if wake is None else postponed(job, wake)
