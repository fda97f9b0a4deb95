"""Posts: one-off jobs (table ``jobs`` without a slot, migration 0014), the posts and DMs that
must follow a stored move, and each game's newest table post.  ``queue_turn`` runs inside the
move's own transaction; the other functions are whole transactions, run by ``PostsRoom``.
Their life is every job's (``bot/store/jobs.py``); ``bot/jobs/outbox.py`` sends them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.store.connection import Row, Tx
from bot.store.jobs import UNCLAIMED, gives_up, retry_delay
from bot.store.room import Room
from engine import Game

POST_GRACE = 3.0  # s: the interaction that ended the turn may deliver its post itself first
# s: the longest a turn-start DM waits for its turn's channel post.  A post that failed once
# (its channel deleted, Discord down) holds the DM back no longer: the player's turn begins
# whether or not the channel can be written.
DM_WAITS_FOR_POST = 6.0


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    game_id: int
    version: int
    kind: str
    payload: dict[str, Any]
    attempts: int  # failed sends so far
    claimed_by: str | None = None  # a claim whose lease ran out: who had it (bot/jobs/outbox.py)
    answer: str | None = None  # the interaction whose public answer this post may be (migration 0011)

    @classmethod
    def from_row(cls, r: Row) -> OutboxRow:
        return cls(
            r["id"], r["game_id"], r["version"], r["kind"], json.loads(r["payload"] or "{}"), r["failures"],
            r["claimed_by"], r["answer"],
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Queued:
    """The outbox rows a move queued (None: nothing of that kind)."""

    turn_post: int | None = None
    turn_dm: int | None = None


async def queue_turn(tx: Tx, game_id: int, version: int, game: Game, payload: dict[str, Any], now: float) -> Queued:
    """After a move that ended a turn: the turn's channel post and, when a person's turn
    begins, their turn-start DM (the caller's timers then start at the first reminder)."""
    posted = await tx.all(
        "INSERT INTO jobs (game_id, version, kind, payload, created_at, due_at)"
        " VALUES (?, ?, 'turn_post', ?, ?, ?) RETURNING id",
        (game_id, version, json.dumps(payload), now, now + POST_GRACE),
    )
    post = posted[0]["id"]
    if game.is_over:
        return Queued(post, None)
    seat = await tx.one("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (game_id, game.current_player))
    if seat is None or seat["user_id"] is None:
        return Queued(post, None)  # computer players move by themselves
    dms = await tx.all(
        "INSERT INTO jobs (game_id, version, kind, payload, created_at, due_at)"
        " VALUES (?, ?, 'turn_dm', '{}', ?, ?) RETURNING id",
        (game_id, version, now, now),
    )
    dm = dms[0]["id"]
    return Queued(post, dm)


# A one-off still to send, that nobody holds.
_FREE = f"slot IS NULL AND due_at IS NOT NULL AND {UNCLAIMED}"


async def claim(tx: Tx, row_id: int, owner: str, now: float, lease: float, answer: str | None = None) -> bool:
    """``answer``: the claimer may post the row as this interaction's answer; kept on the row
    (never cleared) so whoever sends it later asks Discord first."""
    cur = await tx.execute(
        f"UPDATE jobs SET claimed_by = ?, lease_until = ?, answer = coalesce(?, answer) WHERE id = ? AND {_FREE}",
        (owner, now + lease, answer, row_id, now),
    )
    return cur == 1


async def release(tx: Tx, row_id: int, owner: str) -> None:
    await tx.execute(
        "UPDATE jobs SET claimed_by = NULL, lease_until = NULL WHERE id = ? AND claimed_by = ? AND due_at IS NOT NULL",
        (row_id, owner),
    )


async def done(tx: Tx, row_id: int, now: float, message_id: int | None) -> None:
    await tx.execute(
        "UPDATE jobs SET done_at = ?, message_id = ?, due_at = NULL, claimed_by = NULL, lease_until = NULL,"
        " last_run_at = ? WHERE id = ?",
        (now, message_id, now, row_id),
    )


async def retry(tx: Tx, row_id: int, owner: str, now: float, error: str) -> bool:
    """A failed send: tried again later with every job's backoff, given up after its
    failures in a row (``bot/store/jobs.py``).  Returns False when it was given up."""
    row = await tx.one("SELECT failures FROM jobs WHERE id = ?", (row_id,))
    failures = (row["failures"] if row else 0) + 1
    failed = gives_up(failures)
    await tx.execute(
        "UPDATE jobs SET failures = ?, due_at = ?, failed = ?, last_error = ?, claimed_by = NULL, lease_until = NULL"
        " WHERE id = ? AND (claimed_by = ? OR claimed_by IS NULL)",
        (failures, None if failed else now + retry_delay(failures), int(failed), error[:500], row_id, owner),
    )
    return not failed


async def postpone(tx: Tx, row_id: int, due_at: float) -> None:
    await tx.execute(
        "UPDATE jobs SET due_at = ?, claimed_by = NULL, lease_until = NULL WHERE id = ? AND due_at IS NOT NULL",
        (due_at, row_id),
    )


async def due(tx: Tx, now: float, limit: int) -> list[OutboxRow]:
    """One-offs to send now, posts first, then oldest first: due, not sent, not held (or their
    claim's lease ran out), and not waiting for an earlier post of the same game.  Only posts
    hold anything back: a turn post waits for the posts before it (the channel reads in
    order), never for a DM (one held until the player's quiet hours end, or failing); a DM
    waits for its turn's post only while that post has not failed and is younger than
    DM_WAITS_FOR_POST."""
    sql = (
        "SELECT o.* FROM jobs o WHERE o.slot IS NULL AND o.due_at <= ? AND (o.lease_until IS NULL OR o.lease_until < ?)"
        " AND NOT EXISTS (SELECT 1 FROM jobs e WHERE e.game_id = o.game_id AND e.slot IS NULL AND e.id < o.id"
        " AND e.due_at IS NOT NULL AND e.kind = 'turn_post'"
        " AND (o.kind = 'turn_post' OR (e.failures = 0 AND e.created_at > ?)))"
        " ORDER BY CASE WHEN o.kind = 'turn_post' THEN 0 ELSE 1 END, o.id LIMIT ?"
    )
    return [OutboxRow.from_row(r) for r in await tx.all(sql, (now, now, now - DM_WAITS_FOR_POST, limit))]


async def counts(tx: Tx) -> dict[str, int]:
    """One-offs by state (tests, logs)."""
    row = await tx.one(
        "SELECT count(*) AS total, count(done_at) AS sent, sum(failed) AS failed FROM jobs WHERE slot IS NULL"
    )
    return {"total": row["total"] or 0, "sent": row["sent"] or 0, "failed": row["failed"] or 0}


class PostsRoom(Room):
    """The one-offs' life (claim -> done, or retry with backoff) and the newest table post."""

    async def claim(self, row_id: int, owner: str, lease: float, answer: str | None = None) -> bool:
        """Claims an outbox row for sending (atomic): True means the caller sends it, then calls
        ``done`` (or ``release`` on failure).  False: sent, or claimed by another sender whose
        lease has not run out.  ``answer``: see ``claim`` above."""
        now = self.clock()
        return await self.db.write(lambda tx: claim(tx, row_id, owner, now, lease, answer))

    async def release(self, row_id: int, owner: str) -> None:
        await self.db.write(lambda tx: release(tx, row_id, owner))

    async def done(self, row_id: int, message_id: int | None = None) -> None:
        now = self.clock()
        await self.db.write(lambda tx: done(tx, row_id, now, message_id))

    async def retry(self, row_id: int, owner: str, error: str) -> bool:
        now = self.clock()
        return await self.db.write(lambda tx: retry(tx, row_id, owner, now, error))

    async def postpone(self, row_id: int, due_at: float) -> None:
        await self.db.write(lambda tx: postpone(tx, row_id, due_at))

    async def due(self, limit: int = 50) -> list[OutboxRow]:
        now = self.clock()
        return await self.db.read(lambda tx: due(tx, now, limit))

    async def counts(self) -> dict[str, int]:
        return await self.db.read(counts)

    async def set_table_post(self, game_id: int, message_id: int, version: int) -> None:
        """Remembers the newest table message of a game."""
        sql = (
            "INSERT INTO table_posts (game_id, message_id, version) VALUES (?, ?, ?) ON CONFLICT (game_id)"
            " DO UPDATE SET message_id = excluded.message_id, version = excluded.version"
            " WHERE excluded.version >= table_posts.version"  # a late outbox post never hides a newer one
        )
        await self.db.write(lambda tx: tx.execute(sql, (game_id, message_id, version)))

    async def table_post(self, game_id: int) -> tuple[int, int] | None:
        """(message id, game version) of the newest table message of a game."""
        sql = "SELECT message_id, version FROM table_posts WHERE game_id = ?"
        r = await self.db.read(lambda tx: tx.one(sql, (game_id,)))
        return None if r is None else (int(r["message_id"]), int(r["version"]))
