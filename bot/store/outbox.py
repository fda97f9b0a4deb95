"""Store transactions for the outbox (migration 0008): posts and DMs that must follow a
stored move.  ``queue_turn`` runs inside the move's own transaction; the others are whole
transactions for ``Store``.  See ``bot/outbox.py`` for the worker that sends the rows."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from engine import Game

from .records import DEFAULT_REMINDER_INTERVAL

POST_GRACE = 3.0  # s: the interaction that ended the turn may deliver its post itself first
MAX_ATTEMPTS = 10  # sends of one row before it is given up (and logged)


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    game_id: int
    version: int
    kind: str
    payload: dict[str, Any]
    attempts: int

    @classmethod
    def from_row(cls, r: sqlite3.Row) -> OutboxRow:
        return cls(r["id"], r["game_id"], r["version"], r["kind"], json.loads(r["payload"] or "{}"), r["attempts"])


@dataclass(frozen=True, slots=True)
class Queued:
    """The outbox rows a move queued (None: nothing of that kind)."""

    turn_post: int | None = None
    turn_dm: int | None = None


def queue_turn(
    conn: sqlite3.Connection, game_id: int, version: int, game: Game, payload: dict[str, Any], now: float
) -> Queued:
    """After a move that ended a turn: the turn's channel post and, when a person's turn
    begins, their turn-start DM.  The DM counts as the reminder schedule's first step, so
    the reminder poller does not send it again."""
    cur = conn.execute(
        "INSERT INTO outbox (game_id, version, kind, payload, created_at, due_at) VALUES (?, ?, 'turn_post', ?, ?, ?)",
        (game_id, version, json.dumps(payload), now, now + POST_GRACE),
    )
    post = cur.lastrowid
    if game.is_over:
        return Queued(post, None)
    seat = conn.execute(
        "SELECT user_id, reminder_interval FROM seats WHERE game_id = ? AND seat = ?", (game_id, game.current_player)
    ).fetchone()
    if seat is None or seat["user_id"] is None:
        return Queued(post, None)  # computer players move by themselves
    cur = conn.execute(
        "INSERT INTO outbox (game_id, version, kind, payload, created_at, due_at) VALUES (?, ?, 'turn_dm', '{}', ?, ?)",
        (game_id, version, now, now),
    )
    interval = float(seat["reminder_interval"] or DEFAULT_REMINDER_INTERVAL)
    if interval == DEFAULT_REMINDER_INTERVAL:  # the player follows the table's interval
        settings = conn.execute("SELECT settings FROM games WHERE id = ?", (game_id,)).fetchone()
        try:
            hours = float(json.loads(settings["settings"] or "{}").get("reminder_hours", 12))
        except (TypeError, ValueError):
            hours = 12.0
        interval = hours * 3600.0
    conn.execute(
        "UPDATE reminders SET sent_count = 1, last_sent_at = ?, due_at = ? WHERE game_id = ? AND sent_count = 0",
        (now, now + interval, game_id),
    )
    return Queued(post, cur.lastrowid)


_FREE = "sent_at IS NULL AND failed = 0 AND (claimed_at IS NULL OR claimed_at < ?)"


def claim(conn: sqlite3.Connection, row_id: int, owner: str, now: float, lease: float) -> bool:
    cur = conn.execute(
        f"UPDATE outbox SET claimed_by = ?, claimed_at = ? WHERE id = ? AND {_FREE}", (owner, now, row_id, now - lease)
    )
    return cur.rowcount == 1


def release(conn: sqlite3.Connection, row_id: int, owner: str) -> None:
    conn.execute(
        "UPDATE outbox SET claimed_by = NULL, claimed_at = NULL WHERE id = ? AND claimed_by = ? AND sent_at IS NULL",
        (row_id, owner),
    )


def done(conn: sqlite3.Connection, row_id: int, now: float, message_id: int | None) -> None:
    conn.execute(
        "UPDATE outbox SET sent_at = ?, message_id = ?, claimed_by = NULL, claimed_at = NULL WHERE id = ?",
        (now, message_id, row_id),
    )


def retry(conn: sqlite3.Connection, row_id: int, owner: str, now: float, error: str) -> bool:
    """A failed send: tried again later with exponential backoff (2 s, 4 s ... at most 5 min),
    given up after MAX_ATTEMPTS.  Returns False when it was given up."""
    row = conn.execute("SELECT attempts FROM outbox WHERE id = ?", (row_id,)).fetchone()
    attempts = (row["attempts"] if row else 0) + 1
    failed = attempts >= MAX_ATTEMPTS
    conn.execute(
        "UPDATE outbox SET attempts = ?, due_at = ?, failed = ?, last_error = ?, claimed_by = NULL, claimed_at = NULL"
        " WHERE id = ? AND (claimed_by = ? OR claimed_by IS NULL)",
        (attempts, now + min(300.0, 2.0**attempts), int(failed), error[:500], row_id, owner),
    )
    return not failed


def postpone(conn: sqlite3.Connection, row_id: int, due_at: float) -> None:
    conn.execute("UPDATE outbox SET due_at = ?, claimed_by = NULL, claimed_at = NULL WHERE id = ?", (due_at, row_id))


def due(conn: sqlite3.Connection, now: float, lease: float, limit: int) -> list[OutboxRow]:
    """Rows to send now, oldest first: due, not sent, not claimed (or their claim's lease ran
    out), and not waiting for an earlier row of the same game (a DM follows its turn post)."""
    sql = (
        "SELECT o.* FROM outbox o WHERE o.due_at <= ? AND o.sent_at IS NULL AND o.failed = 0"
        " AND (o.claimed_at IS NULL OR o.claimed_at < ?)"
        " AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.game_id = o.game_id AND e.id < o.id"
        " AND e.sent_at IS NULL AND e.failed = 0) ORDER BY o.id LIMIT ?"
    )
    return [OutboxRow.from_row(r) for r in conn.execute(sql, (now, now - lease, limit))]


def counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Rows by state (tests, logs)."""
    row = conn.execute(
        "SELECT count(*) AS total, sum(sent_at IS NOT NULL) AS sent, sum(failed) AS failed FROM outbox"
    ).fetchone()
    return {"total": row["total"] or 0, "sent": row["sent"] or 0, "failed": row["failed"] or 0}
