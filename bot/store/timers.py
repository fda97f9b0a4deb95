"""Timers: every timed event of a game, as data: a game's standing jobs (table ``jobs`` with a
slot, migration 0014; their life is every job's, ``bot/store/jobs.py``).

A game has at most one timer per *slot* (``nudge``, ``turn_clock``, ...); the timer's
*kind* names what runs when it falls due, looked up in the bot's registry
(``bot/jobs/registry.py``): the store never interprets kinds or payloads, so a new kind
of timed event needs no schema change.

Life of a timer: a move's transaction (or any other) sets it (``TimerSpec``, an upsert that
also drops any claim on the slot); a poller ``claim_due``s it (one atomic UPDATE ...
RETURNING: the lease ``claimed_by``/``lease_until`` is taken and ``attempt`` counted, so
several processes never run one timer twice and a dead claimer's timer is claimed again
once its lease has run out); the kind runs; the poller ``finish``es it with what comes
next (another due time, another kind, kept for reading, or gone) or ``fail``s it (retried
with every job's backoff, dropped after its failures in a row).  Finishing is conditional on still holding
the claim: a move that replaced the timer meanwhile wins.

On PostgreSQL the claim of ``claim_due`` takes ``Dialect.skip_locked``, so that concurrent
claimers skip each other's rows instead of waiting::

    UPDATE jobs SET claimed_by = $1, lease_until = $2, attempt = attempt + 1
    WHERE id IN (SELECT id FROM jobs WHERE slot IS NOT NULL AND due_at IS NOT NULL AND due_at <= $3
                 AND (lease_until IS NULL OR lease_until < $3)
                 ORDER BY due_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
    RETURNING *

(SQLite has one writer at a time, so the plain subquery is already atomic.)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store.connection import Row, Tx
from bot.store.jobs import gives_up
from bot.store.room import Room


@dataclass(frozen=True, slots=True)
class TimerSpec:
    """A timer to set on a game's ``slot``: ``kind`` due at ``due_at`` (None: remove the
    slot's timer)."""

    slot: str
    kind: str = ""
    due_at: float | None = None
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Timer:
    id: int
    game_id: int
    slot: str
    kind: str
    due_at: float | None  # None: ran, kept for reading
    attempt: int  # runs of this kind so far, counting a claim in progress
    failures: int
    payload: dict[str, Any]
    created_at: float
    last_run_at: float | None

    @classmethod
    def from_row(cls, r: Row) -> Timer:
        return cls(
            r["id"], r["game_id"], r["slot"], r["kind"], r["due_at"], r["attempt"], r["failures"],
            json.loads(r["payload"] or "{}"), r["created_at"], r["last_run_at"],
        )  # fmt: skip


async def set_timers(tx: Tx, game_id: int, specs: Sequence[TimerSpec], now: float) -> None:
    """Sets (or with ``due_at`` None removes) timers inside the caller's transaction.  A new
    timer starts at attempt 0 with no claim, whatever the slot held before."""
    for spec in specs:
        if spec.due_at is None:
            await tx.execute("DELETE FROM jobs WHERE game_id = ? AND slot = ?", (game_id, spec.slot))
            continue
        await tx.execute(
            "INSERT INTO jobs (game_id, slot, kind, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, slot) DO UPDATE SET kind = excluded.kind, due_at = excluded.due_at,"
            " attempt = 0, failures = 0, payload = excluded.payload, created_at = excluded.created_at,"
            " last_run_at = NULL, claimed_by = NULL, lease_until = NULL",
            (game_id, spec.slot, spec.kind, spec.due_at, json.dumps(spec.payload), now),
        )


async def clear_timers(tx: Tx, game_id: int) -> None:
    """A game that ended or was cancelled has no timers (its one-offs, the last post, stay)."""
    await tx.execute("DELETE FROM jobs WHERE game_id = ? AND slot IS NOT NULL", (game_id,))


_FREE = "slot IS NOT NULL AND due_at IS NOT NULL AND due_at <= ? AND (lease_until IS NULL OR lease_until < ?)"


class TimersRoom(Room):
    async def set(self, game_id: int, specs: Sequence[TimerSpec]) -> None:
        """Sets timers outside a move (in one transaction)."""
        now = self.clock()
        await self.db.write(lambda tx: set_timers(tx, game_id, specs, now))

    async def get(self, game_id: int, slot: str) -> Timer | None:
        sql = "SELECT * FROM jobs WHERE game_id = ? AND slot = ?"
        r = await self.db.read(lambda tx: tx.one(sql, (game_id, slot)))
        return None if r is None else Timer.from_row(r)

    async def of_game(self, game_id: int) -> list[Timer]:
        sql = "SELECT * FROM jobs WHERE game_id = ? AND slot IS NOT NULL ORDER BY slot"
        rows = await self.db.read(lambda tx: tx.all(sql, (game_id,)))
        return [Timer.from_row(r) for r in rows]

    async def claim_due(self, owner: str, lease: float, limit: int = 100, *, now: float | None = None) -> list[Timer]:
        """Claims up to ``limit`` timers due by ``now`` (default: the clock), earliest first,
        for ``lease`` seconds: each is counted one more ``attempt``.  Timers of games no longer
        in play are dropped instead.  (PostgreSQL: the inner SELECT takes FOR UPDATE SKIP
        LOCKED, so concurrent claimers pass each other.)"""
        at = self.clock() if now is None else now

        async def tx(tx: Tx) -> list[Timer]:
            await tx.execute(
                f"DELETE FROM jobs WHERE {_FREE} AND game_id IN (SELECT id FROM games WHERE status <> 'active')",
                (at, at),
            )
            rows = await tx.all(
                "UPDATE jobs SET claimed_by = ?, lease_until = ?, attempt = attempt + 1"
                f" WHERE id IN (SELECT id FROM jobs WHERE {_FREE}"
                f" ORDER BY due_at, id LIMIT ?{tx.dialect.skip_locked}) RETURNING *",
                (owner, at + lease, at, at, limit),
            )
            return sorted((Timer.from_row(r) for r in rows), key=lambda t: (t.due_at or 0.0, t.id))

        return await self.db.write(tx)

    async def claim(self, game_id: int, slot: str, owner: str, lease: float, kinds: Sequence[str]) -> Timer | None:
        """Claims a game's timer now, due or not, if it is of one of ``kinds`` and nobody holds
        it (the turn post sending the turn-start DM at once)."""
        now = self.clock()
        sql = (
            "UPDATE jobs SET claimed_by = ?, lease_until = ?, attempt = attempt + 1"
            f" WHERE game_id = ? AND slot = ? AND kind IN ({self.db.dialect.params(len(kinds))})"
            " AND due_at IS NOT NULL AND (lease_until IS NULL OR lease_until < ?) RETURNING *"
        )
        params = (owner, now + lease, game_id, slot, *kinds, now)
        rows = await self.db.write(lambda tx: tx.all(sql, params))
        return Timer.from_row(rows[0]) if rows else None

    async def finish(
        self,
        timer: Timer,
        owner: str,
        *,
        due_at: float | None,
        kind: str | None = None,
        attempt: int | None = None,
        payload: dict[str, Any] | None = None,
        keep: bool = False,
        ran: bool = True,
    ) -> bool:
        """Ends a claim with what comes next: run again at ``due_at`` (as ``kind``, from
        ``attempt``, with ``payload``: by default unchanged, and a new kind starts at attempt
        0); with ``due_at`` None the timer is removed, or with ``keep`` kept for reading.
        False (and nothing written) when the claim was lost (a move replaced the timer, or
        the lease ran out and someone else claimed it).  ``ran``: the run did its work (it
        becomes ``last_run_at``); False for a run that only postponed itself."""
        if due_at is None and not keep:
            sql = "DELETE FROM jobs WHERE id = ? AND claimed_by = ?"
            return await self.db.write(lambda tx: tx.execute(sql, (timer.id, owner))) == 1
        new_kind = timer.kind if kind is None else kind
        if attempt is None:
            attempt = timer.attempt if new_kind == timer.kind else 0
        text = json.dumps(timer.payload if payload is None else payload)
        sql = (
            "UPDATE jobs SET due_at = ?, kind = ?, attempt = ?, failures = 0, payload = ?, claimed_by = NULL,"
            " lease_until = NULL, last_run_at = CASE WHEN ? = 1 THEN ? ELSE last_run_at END"
            " WHERE id = ? AND claimed_by = ?"
        )
        params = (due_at, new_kind, attempt, text, int(ran), self.clock(), timer.id, owner)
        return await self.db.write(lambda tx: tx.execute(sql, params)) == 1

    async def fail(self, timer: Timer, owner: str, retry_at: float) -> bool:
        """A run that raised: not counted, tried again at ``retry_at``; after every job's
        failures in a row (``bot/store/jobs.py``) the timer is dropped.  Returns False when it
        was dropped (or the claim lost)."""
        if gives_up(timer.failures + 1):
            await self.db.write(
                lambda tx: tx.execute("DELETE FROM jobs WHERE id = ? AND claimed_by = ?", (timer.id, owner))
            )
            return False
        sql = (
            "UPDATE jobs SET due_at = ?, attempt = ?, failures = failures + 1, claimed_by = NULL,"
            " lease_until = NULL WHERE id = ? AND claimed_by = ?"
        )
        params = (retry_at, max(0, timer.attempt - 1), timer.id, owner)
        return await self.db.write(lambda tx: tx.execute(sql, params)) == 1

    async def reschedule(self, game_id: int, slot: str, due_at: float, kinds: Sequence[str]) -> bool:
        """Moves a pending, unclaimed timer of one of ``kinds`` to ``due_at``, keeping its
        count (a snooze).  False when there is none."""
        sql = (
            "UPDATE jobs SET due_at = ? WHERE game_id = ? AND slot = ?"
            f" AND kind IN ({self.db.dialect.params(len(kinds))}) AND due_at IS NOT NULL AND claimed_by IS NULL"
        )
        return await self.db.write(lambda tx: tx.execute(sql, (due_at, game_id, slot, *kinds))) == 1

    async def hasten(
        self, game_id: int, slot: str, at: float, match: dict[str, Any], update: dict[str, Any] | None = None
    ) -> bool:
        """Brings a pending timer forward to ``at`` (never later) when its payload holds the
        items of ``match`` (a turn clock of that turn, ended early), merging ``update`` into
        its payload when it moves.  False when there is no such pending timer."""

        async def tx(tx: Tx) -> bool:
            r = await tx.one(
                "SELECT * FROM jobs WHERE game_id = ? AND slot = ? AND due_at IS NOT NULL", (game_id, slot)
            )
            if r is None:
                return False
            timer = Timer.from_row(r)
            if any(timer.payload.get(k) != v for k, v in match.items()) or timer.due_at is None:
                return False
            if at < timer.due_at:
                payload = json.dumps({**timer.payload, **(update or {})})
                await tx.execute("UPDATE jobs SET due_at = ?, payload = ? WHERE id = ?", (at, payload, timer.id))
            return True

        return await self.db.write(tx)
