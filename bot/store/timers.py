"""Timers: every timed event of a game, as data: a game's standing jobs (table ``jobs`` with a
slot, migration 0014; their life is every job's, ``bot/store/jobs.py``).

A game has at most one timer per *slot* (``nudge``, ``turn_clock``, ...); the timer's
*kind* names what runs when it falls due, looked up in the bot's registry
(``bot/jobs/registry.py``): the store never interprets kinds or payloads, so a new kind
of timed event needs no schema change.

Setting a timer (``TimerSpec``, in a move's transaction or any other) is an upsert that also
drops any claim on the slot, so a run that was under way loses its claim and its ``finish``
changes nothing.  Its claim, run and finish are every job's (``bot/store/jobs.py``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store.connection import Tx
from bot.store.jobs import Job
from bot.store.room import Room


@dataclass(frozen=True, slots=True)
class TimerSpec:
    """A timer to set on a game's ``slot``: ``kind`` due at ``due_at`` (None: remove the
    slot's timer)."""

    slot: str
    kind: str = ""
    due_at: float | None = None
    payload: dict[str, Any] = field(default_factory=dict)


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


class TimersRoom(Room):
    async def set(self, game_id: int, specs: Sequence[TimerSpec]) -> None:
        """Sets timers outside a move (in one transaction)."""
        now = self.clock()
        await self.db.write(lambda tx: set_timers(tx, game_id, specs, now))

    async def get(self, game_id: int, slot: str) -> Job | None:
        sql = "SELECT * FROM jobs WHERE game_id = ? AND slot = ?"
        r = await self.db.read(lambda tx: tx.one(sql, (game_id, slot)))
        return None if r is None else Job.from_row(r)

    async def of_game(self, game_id: int) -> list[Job]:
        sql = "SELECT * FROM jobs WHERE game_id = ? AND slot IS NOT NULL ORDER BY slot"
        rows = await self.db.read(lambda tx: tx.all(sql, (game_id,)))
        return [Job.from_row(r) for r in rows]

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
            timer = Job.from_row(r)
            if any(timer.payload.get(k) != v for k, v in match.items()) or timer.due_at is None:
                return False
            if at < timer.due_at:
                payload = json.dumps({**timer.payload, **(update or {})})
                await tx.execute("UPDATE jobs SET due_at = ?, payload = ? WHERE id = ?", (at, payload, timer.id))
            return True

        return await self.db.write(tx)
