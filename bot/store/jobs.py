"""The life of a job, the same for every kind (migration 0014, table ``jobs``): one claim, one
lease, one finish, one failure with one backoff and give-up policy.

A job is a game's *standing* job when it has a slot (at most one per game and slot: the nudge
of the player in turn, the turn's clock; set by ``timers.py`` as turns pass) or a *one-off*
without one (a turn's channel post, a turn-start DM: queued by ``outbox.py`` with the move,
done once).  The store never interprets kinds or payloads, with one exception: a one-off
waits for the earlier turn posts of its game (``_HELD``).  ``bot/jobs/poller.py`` is the one
poller that claims and runs them; what runs is looked up by kind (``bot/jobs/registry.py``).

Life of a job: due (``due_at`` set) -> claimed (``claim_due``, or ``claim``/``claim_slot`` to
run one at once: one atomic UPDATE ... RETURNING takes the lease ``claimed_by``/``lease_until``
and counts the ``attempt``, so several processes never run one job twice, and a dead
claimer's job is claimed again once its lease has run out) -> ``finish`` (what comes next:
another due time, kept for reading, done, or gone) or ``fail`` (tried again after
``retry_delay``, given up after MAX_FAILURES in a row).  Finishing is conditional on still
holding the claim: a move that replaced a standing job meanwhile wins.  Claiming a standing job
to run at once makes it due now, so that if its claimer dies it is taken over as soon as the
lease runs out (a one-off is due within its short grace anyway); a long run keeps its lease by
``renew``.

On PostgreSQL the claim of ``claim_due`` takes ``Dialect.skip_locked``, so that concurrent
claimers skip each other's rows instead of waiting (SQLite has one writer at a time, so the
plain subquery is already atomic).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.connection import Row, Tx
from bot.store.room import Room

MAX_FAILURES = 12  # failed runs in a row before a job is given up (and logged)
MAX_BACKOFF = 3600.0  # s
# s: a claim older than this is taken to be dead.  A run that takes longer renews its lease
# (``renew``), so this is how long a dead claimer's jobs wait, not how long a run may take.
LEASE_SECONDS = 30.0

TURN_POST = "turn_post"  # the one kind the store knows: a game's posts go out in order
# s: the longest a turn-start DM waits for its turn's channel post.  A post that failed once
# (its channel deleted, Discord down) holds the DM back no longer: the player's turn begins
# whether or not the channel can be written.
DM_WAITS_FOR_POST = 6.0


def retry_delay(failures: int) -> float:
    """Seconds before a job that has failed ``failures`` times in a row runs again: 2 s, 4 s,
    8 s ... at most an hour (twelve failures span about two hours of a Discord outage)."""
    return min(MAX_BACKOFF, 2.0**failures)


def gives_up(failures: int) -> bool:
    return failures >= MAX_FAILURES


@dataclass(frozen=True, slots=True)
class Job:
    id: int
    game_id: int
    slot: str | None  # None: a one-off
    kind: str
    due_at: float | None  # None: nothing more to run (done, given up, or kept for reading)
    attempt: int  # runs of this kind so far, counting a claim in progress
    failures: int  # runs in a row that failed
    payload: dict[str, Any]
    created_at: float
    last_run_at: float | None
    version: int | None = None  # one-offs: the game version they are about
    claimed_by: str | None = None  # who holds it (or held it, when its lease ran out)
    answer: str | None = None  # a post: the interaction whose public answer it may be

    @classmethod
    def from_row(cls, r: Row) -> Job:
        return cls(
            r["id"], r["game_id"], r["slot"], r["kind"], r["due_at"], r["attempt"], r["failures"],
            json.loads(r["payload"] or "{}"), r["created_at"], r["last_run_at"], r["version"],
            r["claimed_by"], r["answer"],
        )  # fmt: skip


# A job nobody holds: never claimed, or its claim's lease has run out (``?``: now).
UNCLAIMED = "(lease_until IS NULL OR lease_until < ?)"
# Due by ``?`` and free (``?``: now), in the claim's inner SELECT (alias ``o``).
_DUE = "o.due_at IS NOT NULL AND o.due_at <= ? AND (o.lease_until IS NULL OR o.lease_until < ?)"
# Held back: a one-off behind an earlier turn post of its game still to send (the channel reads
# in order); a DM waits for its turn's post only while that post has not failed and is
# younger than DM_WAITS_FOR_POST (``?``: now - DM_WAITS_FOR_POST).  Nothing waits for a DM.
_HELD = (
    "o.slot IS NULL AND EXISTS (SELECT 1 FROM jobs e WHERE e.game_id = o.game_id AND e.slot IS NULL"
    f" AND e.id < o.id AND e.due_at IS NOT NULL AND e.kind = '{TURN_POST}'"
    f" AND (o.kind = '{TURN_POST}' OR (e.failures = 0 AND e.created_at > ?)))"
)


class JobsRoom(Room):
    async def claim_due(
        self,
        owner: str,
        lease: float,
        limit: int = 100,
        *,
        now: float | None = None,
        one_offs: bool = True,
        standing: bool = True,
    ) -> list[Job]:
        """Claims up to ``limit`` jobs due by ``now`` (default: the clock) for ``lease`` seconds,
        turn posts first, then by due time: each is counted one more ``attempt``.  Standing jobs
        of games no longer in play are dropped instead.  ``one_offs``/``standing``: which jobs."""
        at = self.clock() if now is None else now

        async def tx(tx: Tx) -> list[Job]:
            if standing:
                await tx.execute(
                    f"DELETE FROM jobs WHERE id IN (SELECT o.id FROM jobs o WHERE o.slot IS NOT NULL AND {_DUE}"
                    " AND o.game_id IN (SELECT id FROM games WHERE status <> 'active'))",
                    (at, at),
                )
            rows = await tx.all(
                "UPDATE jobs SET claimed_by = ?, lease_until = ?, attempt = attempt + 1"
                f" WHERE id IN (SELECT o.id FROM jobs o WHERE {_DUE} AND NOT ({_HELD})"
                " AND ((o.slot IS NULL AND ? = 1) OR (o.slot IS NOT NULL AND ? = 1))"
                f" ORDER BY CASE WHEN o.kind = '{TURN_POST}' THEN 0 ELSE 1 END, o.due_at, o.id"
                f" LIMIT ?{tx.dialect.skip_locked}) RETURNING *",
                (owner, at + lease, at, at, at - DM_WAITS_FOR_POST, int(one_offs), int(standing), limit),
            )
            jobs = (Job.from_row(r) for r in rows)
            return sorted(jobs, key=lambda j: (j.kind != TURN_POST, j.due_at or 0.0, j.id))

        return await self.db.write(tx)

    async def claim(self, job_id: int, owner: str, lease: float, answer: str | None = None) -> Job | None:
        """Claims a one-off to run at once, due or not (the interaction that ended a turn posts
        it itself); None when it is done or another claimer holds it.  ``answer``: the claimer
        may post it as this interaction's answer; kept on the job (never cleared) so whoever
        runs it later asks Discord first."""
        now = self.clock()
        sql = (
            "UPDATE jobs SET claimed_by = ?, lease_until = ?, attempt = attempt + 1, answer = coalesce(?, answer)"
            f" WHERE id = ? AND due_at IS NOT NULL AND {UNCLAIMED} RETURNING *"
        )
        rows = await self.db.write(lambda tx: tx.all(sql, (owner, now + lease, answer, job_id, now)))
        return Job.from_row(rows[0]) if rows else None

    async def claim_slot(
        self, game_id: int, slot: str, owner: str, lease: float, kinds: Sequence[str], match: dict[str, Any]
    ) -> Job | None:
        """Claims a game's standing job to run at once, due or not, if it is of one of ``kinds``,
        its payload holds the items of ``match``, and nobody holds it (the table post that
        begins a turn starts that turn's nudge)."""
        now = self.clock()

        async def tx(tx: Tx) -> Job | None:
            r = await tx.one(
                f"SELECT * FROM jobs WHERE game_id = ? AND slot = ? AND due_at IS NOT NULL AND {UNCLAIMED}",
                (game_id, slot, now),
            )
            if r is None:
                return None
            job = Job.from_row(r)
            if job.kind not in kinds or any(job.payload.get(k) != v for k, v in match.items()):
                return None
            rows = await tx.all(
                "UPDATE jobs SET claimed_by = ?, lease_until = ?, attempt = attempt + 1,"
                f" due_at = CASE WHEN due_at > ? THEN ? ELSE due_at END WHERE id = ? AND {UNCLAIMED} RETURNING *",
                (owner, now + lease, now, now, job.id, now),
            )
            return Job.from_row(rows[0]) if rows else None

        return await self.db.write(tx)

    async def renew(self, owner: str, lease: float) -> int:
        """Extends the lease of every job ``owner`` holds (its runs are alive); returns how many."""
        sql = "UPDATE jobs SET lease_until = ? WHERE claimed_by = ? AND due_at IS NOT NULL"
        return await self.db.write(lambda tx: tx.execute(sql, (self.clock() + lease, owner)))

    async def release(self, job_id: int, owner: str) -> None:
        """Gives a claim up unrun (the interaction could not post): the poller runs it when due."""
        sql = (
            "UPDATE jobs SET claimed_by = NULL, lease_until = NULL"
            " WHERE id = ? AND claimed_by = ? AND due_at IS NOT NULL"
        )
        await self.db.write(lambda tx: tx.execute(sql, (job_id, owner)))

    async def finish(
        self,
        job: Job,
        owner: str,
        *,
        due_at: float | None,
        kind: str | None = None,
        attempt: int | None = None,
        payload: dict[str, Any] | None = None,
        keep: bool = False,
        ran: bool = True,
        message_id: int | None = None,
    ) -> bool:
        """Ends a claim with what comes next: run again at ``due_at`` (as ``kind``, from
        ``attempt``, with ``payload``: by default unchanged, and a new kind starts at attempt
        0); with ``due_at`` None the job is removed, or with ``keep`` kept for reading (a
        one-off: done, with the ``message_id`` it made).  False (and nothing written) when the
        claim was lost (a move replaced the job, or the lease ran out and someone else claimed
        it).  ``ran``: the run did its work (it becomes ``last_run_at``); False for a run that
        only postponed itself."""
        if due_at is None and not keep:
            sql = "DELETE FROM jobs WHERE id = ? AND claimed_by = ?"
            return await self.db.write(lambda tx: tx.execute(sql, (job.id, owner))) == 1
        new_kind = job.kind if kind is None else kind
        if attempt is None:
            attempt = job.attempt if new_kind == job.kind else 0
        text = json.dumps(job.payload if payload is None else payload)
        now = self.clock()
        done = due_at is None
        sql = (
            "UPDATE jobs SET due_at = ?, kind = ?, attempt = ?, failures = 0, payload = ?, claimed_by = NULL,"
            " lease_until = NULL, last_run_at = CASE WHEN ? = 1 THEN ? ELSE last_run_at END,"
            " done_at = CASE WHEN ? = 1 THEN ? ELSE done_at END, message_id = coalesce(?, message_id)"
            " WHERE id = ? AND claimed_by = ?"
        )
        params = (due_at, new_kind, attempt, text, int(ran), now, int(done), now, message_id, job.id, owner)
        return await self.db.write(lambda tx: tx.execute(sql, params)) == 1

    async def fail(self, job: Job, owner: str, error: str) -> bool:
        """A run that raised: not counted, tried again after ``retry_delay``; after MAX_FAILURES
        in a row given up: a standing job is dropped, a one-off kept as failed.  Returns False
        when it was given up (or the claim lost)."""
        now = self.clock()
        failures = job.failures + 1
        if gives_up(failures):
            if job.slot is not None:
                sql = "DELETE FROM jobs WHERE id = ? AND claimed_by = ?"
                await self.db.write(lambda tx: tx.execute(sql, (job.id, owner)))
            else:
                sql = (
                    "UPDATE jobs SET due_at = NULL, failures = ?, failed = 1, last_error = ?, claimed_by = NULL,"
                    " lease_until = NULL WHERE id = ? AND claimed_by = ?"
                )
                await self.db.write(lambda tx: tx.execute(sql, (failures, error[:500], job.id, owner)))
            return False
        sql = (
            "UPDATE jobs SET due_at = ?, attempt = ?, failures = ?, last_error = ?, claimed_by = NULL,"
            " lease_until = NULL WHERE id = ? AND claimed_by = ?"
        )
        params = (now + retry_delay(failures), max(0, job.attempt - 1), failures, error[:500], job.id, owner)
        return await self.db.write(lambda tx: tx.execute(sql, params)) == 1
