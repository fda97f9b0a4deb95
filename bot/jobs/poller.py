"""The one poller of every durable job (table ``jobs``, ``bot/store/jobs.py``): each round it
claims what is due and runs each job through its kind (``registry.py``; the kinds are in
``runs.py``), then finishes it with what the run returned, or fails it (tried again with every
job's backoff).  One-offs (turn posts and turn-start DMs) are claimed every
``outbox_poll_seconds`` and at once when woken; standing jobs (reminders, channel notes,
computer turns, turn clocks) every ``timer_poll_seconds``.  A claim is a lease in the
database, renewed while this process lives, so several processes share the work and a
crashed claimer's jobs are claimed again once the lease runs out.

``poll_once`` runs everything due now (tests call it after moving their clock); ``start``
runs rounds in the background; ``start_turn`` runs a turn's nudge at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from bot.jobs import runs  # noqa: F401  # registers the kinds the poller runs
from bot.jobs.host import JobHost
from bot.jobs.loop import PollLoop, cancelled
from bot.jobs.outbox import Outbox
from bot.jobs.registry import KINDS
from bot.service.game import in_play
from bot.service.schedule import COMPUTER_TURN, NUDGE, TURN_START
from bot.store import GameRecord, Job, TimerSpec
from bot.store.jobs import LEASE_SECONDS
from engine import Game

log = logging.getLogger(__name__)

MAX_BATCHES = 50  # claims per round (a job due again at once runs again in the same round)
BATCH = 20  # jobs per claim (run one after the other; the lease's renewal keeps them held)


class Poller:
    """``outbox_poll_seconds``: between rounds of one-offs; ``timer_poll_seconds``: between
    rounds of standing jobs (None: not in the background, only ``poll_once``, as the tests do
    with their own clock); ``job_lease_seconds``: every claim's lease."""

    def __init__(
        self,
        host: JobHost,
        outbox: Outbox,
        *,
        outbox_poll_seconds: float | None = 1.0,
        timer_poll_seconds: float | None = 30.0,
        job_lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        self.host = host
        self.outbox = outbox
        self.lease = job_lease_seconds
        self.outbox_poll_seconds = outbox_poll_seconds
        self.timer_poll_seconds = timer_poll_seconds
        self.owner = uuid.uuid4().hex  # this process's claims
        self._lock = asyncio.Lock()
        self._starting: set[asyncio.Task[int]] = set()  # nudges run at once, in the background
        self._next_standing = 0.0  # monotonic time of the next round of standing jobs
        self._renewing: asyncio.Task[None] | None = None
        cadences = [t for t in (outbox_poll_seconds, timer_poll_seconds) if t is not None]
        self.loop = PollLoop("cubist-jobs", self._round, min(cadences, default=None), host.wait_until_ready)
        outbox.wake_poller = self.loop.wake

    async def _round(self) -> int:
        """One-offs every round; standing jobs when their time has come."""
        now = time.monotonic()
        standing = self.timer_poll_seconds is not None and now >= self._next_standing
        if standing and self.timer_poll_seconds is not None:
            self._next_standing = now + self.timer_poll_seconds
        return await self._run_due(one_offs=self.outbox_poll_seconds is not None, standing=standing)

    def start(self) -> None:
        self.loop.start()
        if self.loop.running and self._renewing is None:
            self._renewing = asyncio.create_task(self._renew(), name="cubist-jobs-lease")

    async def stop(self) -> None:
        await self.loop.stop()
        await self.drain()
        task, self._renewing = self._renewing, None
        await cancelled(task)

    async def _renew(self) -> None:
        """Keeps this process's claims alive while it runs: a lease runs out only when its
        claimer is gone, however long a run takes (a computer's turn, a DM under a 429)."""
        await self.host.wait_until_ready()
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self.host.service.jobs.renew(self.owner, self.lease)
            except Exception:  # the next beat tries again; a lost lease only means a late run
                log.warning("renewing the job leases failed", exc_info=True)

    @property
    def busy(self) -> bool:
        return self._lock.locked()

    @property
    def starting(self) -> bool:
        """Whether nudges run in the background now."""
        return bool(self._starting)

    async def poll_once(self) -> int:
        """Runs everything due now, one-offs and standing jobs; returns how many did something.
        Nudges under way in the background finish first (what they learn, closed DMs, counts
        for what is due now)."""
        await self.drain()
        return await self._run_due(one_offs=True, standing=True)

    async def _run_due(self, *, one_offs: bool, standing: bool) -> int:
        async with self._lock:
            done = 0
            # Claim again after each batch: a run may make another job due at once (a post
            # done lets its DM go; a player found gone ends their turn clock now, and the vote
            # is posted in this round).
            for _batch in range(MAX_BATCHES):
                now = self.host.clock()
                claimed = await self.host.service.jobs.claim_due(
                    self.owner, self.lease, BATCH, now=now + 1e-6, one_offs=one_offs, standing=standing
                )
                if not claimed:
                    break
                for job in claimed:
                    done += await self.run(job, now)
            return done

    async def run(self, job: Job, now: float) -> int:
        """Runs one claimed job through its kind and records what comes next; 1 if it did
        something."""
        jobs = self.host.service.jobs
        run = KINDS.get(job.kind)
        if run is None:
            log.error("job %s of game %s has an unknown kind %r; dropped", job.id, job.game_id, job.kind)
            await jobs.finish(job, self.owner, due_at=None, keep=job.slot is None)
            return 0
        try:
            after = await run(self.host, job, now)
        except Exception as e:
            log.warning("job %s (%s of game %s) failed: %r", job.id, job.kind, job.game_id, e, exc_info=True)
            if not await jobs.fail(job, self.owner, repr(e)):
                log.error("job %s (%s of game %s) given up", job.id, job.kind, job.game_id)
            return 0
        await jobs.finish(
            job, self.owner, due_at=after.due_at, kind=after.kind, attempt=after.attempt,
            payload=after.payload, keep=after.keep, ran=after.ran, message_id=after.message_id,
        )  # fmt: skip
        if job.slot is None:
            self.loop.wake()  # a post done lets the next post or its DM go
        return int(after.counts)

    async def start_turn(self, record: GameRecord, game: Game) -> None:
        """After the table post that began a turn: the turn's nudge runs now, in the background
        (the command that ended the turn is answered without waiting for the next player's
        studio picture and DM, or for a computer's turn).  It is claimed like any job, so it
        runs once across processes and restarts, and run like any job: quiet hours postpone a
        DM, a DM Discord refused for now is tried again with every job's backoff, and a
        computer's turn cut short by a crash is taken over when its lease runs out."""
        if not in_play(record, game):
            return
        job = await self.host.service.jobs.claim_slot(
            record.id, NUDGE, self.owner, self.lease, [TURN_START, COMPUTER_TURN], {"turn": game.state.turn}
        )
        if job is None:
            return  # run already (by the poller, another process), or about another turn
        self._in_background(job, f"nudge-{record.id}")

    async def taken_over(self, game_id: int) -> None:
        """A computer took the seat in turn over (the away vote): its turn is played now."""
        record, game = await self.host.service.queries.game(game_id)
        if not in_play(record, game):
            return
        spec = TimerSpec(NUDGE, COMPUTER_TURN, self.host.clock(), {"turn": game.state.turn})
        await self.host.service.timers.set(game_id, [spec])
        await self.start_turn(record, game)

    async def resume(self, game_ids: list[int]) -> None:
        """At start-up: the computer turns of these games run now (in the background), unless
        another process holds them; a game waiting on a computer without its job (stored by
        hand, or by an older version) is given one."""
        for game_id in game_ids:
            if await self.host.service.timers.get(game_id, NUDGE) is None:
                _record, game = await self.host.service.queries.game(game_id)
                spec = TimerSpec(NUDGE, COMPUTER_TURN, self.host.clock(), {"turn": game.state.turn})
                await self.host.service.timers.set(game_id, [spec])
            job = await self.host.service.jobs.claim_slot(game_id, NUDGE, self.owner, self.lease, [COMPUTER_TURN], {})
            if job is not None:
                self._in_background(job, f"nudge-{game_id}")

    def _in_background(self, job: Job, name: str) -> None:
        task = asyncio.create_task(self.run(job, self.host.clock()), name=name)
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    async def drain(self) -> None:
        """Waits for the nudges under way (a round, shutdown; not the caller's own)."""
        while pending := self._starting - {asyncio.current_task()}:
            await asyncio.gather(*pending, return_exceptions=True)
