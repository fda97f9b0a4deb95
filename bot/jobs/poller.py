"""The one poller of every durable job (table ``jobs``, ``bot/store/jobs.py``): each round it
sends the one-offs due (turn posts and turn-start DMs, ``bot/jobs/outbox.py``: every
``poll_seconds``, and at once when woken) and, every ``standing_seconds``, runs the standing
jobs due (the timers: reminders, channel notes, computer wake-ups, turn clocks), each through
its kind (registry.py) and rescheduled from what the run returned.  A claim is a lease in
the database, so several processes share the work and a crashed claimer's jobs are claimed
again once the lease runs out; a run that fails is tried again with every job's backoff.

``poll_once`` is one round of the standing jobs (tests call it after moving their clock);
``start`` runs rounds in the background.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from bot.jobs import events as ev
from bot.jobs import runs  # registers the kinds the poller runs
from bot.jobs.host import JobHost
from bot.jobs.loop import PollLoop
from bot.jobs.outbox import Outbox
from bot.jobs.registry import KINDS
from bot.service.game import in_play
from bot.service.quiet_hours import quiet_until
from bot.service.schedule import NUDGE, REMINDER, TURN_START
from bot.store import GameRecord, Timer
from bot.store.jobs import retry_delay
from engine import Game

log = logging.getLogger(__name__)

LEASE_SECONDS = 120.0  # a standing job's claim older than this is taken to be dead
MAX_BATCHES = 10  # claims per round (a timer due again at once runs again in the same round)


class Poller:
    """``poll_seconds``: between rounds of one-offs (None: rounds only by hand);
    ``standing_seconds``: between rounds of standing jobs (None: only ``poll_once``, as
    the tests do with their own clock)."""

    def __init__(
        self,
        host: JobHost,
        outbox: Outbox,
        *,
        poll_seconds: float | None = 1.0,
        standing_seconds: float | None = 30.0,
        lease: float = LEASE_SECONDS,
    ) -> None:
        self.host = host
        self.outbox = outbox
        self.lease = lease
        self.poll_seconds = poll_seconds
        self.standing_seconds = standing_seconds
        self.owner = uuid.uuid4().hex  # this process's claims
        self._lock = asyncio.Lock()
        self._next_standing = 0.0  # monotonic time of the next round of standing jobs
        cadences = [t for t in (poll_seconds, standing_seconds) if t is not None]
        self.loop = PollLoop("cubist-jobs", self._round, min(cadences, default=None), host.wait_until_ready)
        outbox.wake_poller = self.loop.wake

    async def _round(self) -> int:
        """One-offs every round; standing jobs when their time has come."""
        done = await self.outbox.send_due() if self.poll_seconds is not None else 0
        now = time.monotonic()
        if self.standing_seconds is not None and now >= self._next_standing:
            self._next_standing = now + self.standing_seconds
            done += await self.poll_once()
        return done

    def start(self) -> None:
        self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()

    @property
    def busy(self) -> bool:
        return self._lock.locked()

    async def poll_once(self) -> int:
        """Runs what is due now; returns how many timers did something."""
        # Turn-start DMs under way first: what they learn (closed DMs) counts for the
        # reminders, and a reminder never overtakes the DM that starts its turn.
        await self.host.events.tell(ev.POLL_ROUND)
        await self.outbox.send_due()  # turn posts and turn-start DMs queued with moves first
        async with self._lock:
            now = self.host.clock()
            done = 0
            # Claim again after each batch: a run may make another timer due at once (a player
            # found gone ends their turn clock now, and the vote is posted in this round).
            for _batch in range(MAX_BATCHES):
                claimed = await self.host.service.timers.claim_due(self.owner, self.lease, now=now + 1e-6)
                if not claimed:
                    break
                for timer in claimed:
                    done += await self.run(timer, now)
            return done

    async def run(self, timer: Timer, now: float) -> int:
        """Runs one claimed timer and records what comes next; 1 if it did something."""
        timers = self.host.service.timers
        run = KINDS.get(timer.kind)
        if run is None:
            log.error("timer %s of game %s has an unknown kind %r; dropped", timer.id, timer.game_id, timer.kind)
            await timers.finish(timer, self.owner, due_at=None)
            return 0
        try:
            after = await run(self.host, timer, now)
        except Exception:
            log.exception("timer %s (%s of game %s) failed", timer.id, timer.kind, timer.game_id)
            if not await timers.fail(timer, self.owner, now + retry_delay(timer.failures + 1)):
                log.error("timer %s of game %s given up", timer.id, timer.game_id)
            return 0
        await timers.finish(
            timer, self.owner, due_at=after.due_at, kind=after.kind, attempt=after.attempt,
            payload=after.payload, keep=after.keep, ran=after.ran,
        )  # fmt: skip
        return int(after.counts)

    async def start_turn_now(self, record: GameRecord, game: Game) -> None:
        """After the table post that began a person's turn: their turn-start DM at once (in the
        background) unless it is night-time where they live (then the timer sends it in the
        morning).  Claimed like any timer, so it goes out once across processes and restarts."""
        if not in_play(record, game):
            return
        seat = record.seats[game.current_player]
        if seat.user_id is None:
            return  # computer players move by themselves (bot/turn/computer.py)
        timers = self.host.service.timers
        timer = await timers.claim(record.id, NUDGE, self.owner, self.lease, [TURN_START])
        if timer is None or timer.payload.get("turn") != game.state.turn:
            if timer is not None:
                await timers.finish(timer, self.owner, due_at=timer.due_at, attempt=timer.attempt - 1, ran=False)
            return  # sent already (by the poller, another process), or about another turn
        now = self.host.clock()
        wake = quiet_until(seat.prefs, now) if seat.prefs.enabled else None
        if wake is not None:  # night-time where the player lives: the timer sends it in the morning
            await timers.finish(timer, self.owner, due_at=wake, attempt=timer.attempt - 1, ran=False)
            return
        interval = runs.reminder_interval(self.host, record, seat)
        if not await timers.finish(timer, self.owner, due_at=now + interval, kind=REMINDER):
            return
        if runs.dm_wanted(seat):
            # In the background: the command that ended the turn is answered without waiting
            # for the next player's studio picture and DM.
            await self.host.events.tell(ev.TURN_START_DM_SOON, record, game)
