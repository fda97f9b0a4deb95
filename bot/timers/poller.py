"""The timers poller: claims due timers, runs each through its kind (registry.py) and
reschedules it from what the run returned.  A claim is a lease in the database, so several
processes share the work and a crashed claimer's timers are claimed again after
``LEASE_SECONDS``; a run that raises is retried with backoff.

``poll_once`` is one round (tests call it after moving their clock); ``start`` runs rounds
in the background every ``poll_seconds``.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import TYPE_CHECKING

from ..store import Timer
from . import clock as _clock  # noqa: F401  (registers its kind)
from . import nudges as _nudges  # noqa: F401  (registers its kinds)
from .loop import PollLoop
from .registry import KINDS

if TYPE_CHECKING:
    from ..client import CubistBot

log = logging.getLogger(__name__)

LEASE_SECONDS = 120.0  # a claim older than this is taken to be dead
MAX_BACKOFF = 3600.0
MAX_BATCHES = 10  # claims per round (a timer due again at once runs again in the same round)


def retry_delay(failures: int) -> float:
    """Seconds before a failed run is tried again: 30 s, 60 s, 2 min ... at most an hour."""
    return min(MAX_BACKOFF, 30.0 * 2.0**failures)


class TimerPoller:
    def __init__(self, bot: CubistBot, *, poll_seconds: float | None = 30.0, lease: float = LEASE_SECONDS) -> None:
        self.bot = bot
        self.lease = lease
        self.owner = uuid.uuid4().hex  # this process's claims
        self._lock = asyncio.Lock()
        self.loop = PollLoop("cubist-timers", self.poll_once, poll_seconds, bot.wait_until_ready)

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
        await self.bot.reminders.drain()
        await self.bot.outbox.send_due()  # turn posts and turn-start DMs queued with moves first
        async with self._lock:
            now = self.bot.clock()
            done = 0
            # Claim again after each batch: a run may make another timer due at once (a player
            # found gone ends their turn clock now, and the vote is posted in this round).
            for _batch in range(MAX_BATCHES):
                claimed = await self.bot.service.timers.claim_due(self.owner, self.lease, now=now + 1e-6)
                if not claimed:
                    break
                for timer in claimed:
                    done += await self.run(timer, now)
            return done

    async def run(self, timer: Timer, now: float) -> int:
        """Runs one claimed timer and records what comes next; 1 if it did something."""
        timers = self.bot.service.timers
        run = KINDS.get(timer.kind)
        if run is None:
            log.error("timer %s of game %s has an unknown kind %r; dropped", timer.id, timer.game_id, timer.kind)
            await timers.finish(timer, self.owner, due_at=None)
            return 0
        try:
            after = await run(self.bot, timer, now)
        except Exception:
            log.exception("timer %s (%s of game %s) failed", timer.id, timer.kind, timer.game_id)
            if not await timers.fail(timer, self.owner, now + retry_delay(timer.failures)):
                log.error("timer %s of game %s given up", timer.id, timer.game_id)
            return 0
        await timers.finish(
            timer, self.owner, due_at=after.due_at, kind=after.kind, attempt=after.attempt,
            payload=after.payload, keep=after.keep, ran=after.ran,
        )  # fmt: skip
        return int(after.counts)
