"""Posts: one-off jobs (table ``jobs`` without a slot, migration 0014), the posts and DMs that
must follow a stored move, and each game's newest table post.  ``queue_turn`` runs inside the
move's own transaction; the others are whole transactions, run by ``PostsRoom``.  Their life
is every job's (``bot/store/jobs.py``); their kinds are run by ``bot/jobs/runs.py``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.store.connection import Tx
from bot.store.jobs import TURN_POST
from bot.store.room import Room
from engine import Game

POST_GRACE = 3.0  # s: the interaction that ended the turn may deliver its post itself first
TURN_DM = "turn_dm"  # the next player's turn-start DM (TURN_POST: the turn's channel post)


@dataclass(frozen=True, slots=True)
class Queued:
    """The outbox rows a move queued (None: nothing of that kind)."""

    turn_post: int | None = None
    turn_dm: int | None = None


async def queue_turn(tx: Tx, game_id: int, version: int, game: Game, payload: dict[str, Any], now: float) -> Queued:
    """After a move that ended a turn: the turn's channel post and, when a person's turn
    begins, their turn-start DM (the caller's timers then start at the first reminder)."""
    posted = await tx.all(
        "INSERT INTO jobs (game_id, version, kind, payload, created_at, due_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        (game_id, version, TURN_POST, json.dumps(payload), now, now + POST_GRACE),
    )
    post = posted[0]["id"]
    if game.is_over:
        return Queued(post, None)
    seat = await tx.one("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (game_id, game.current_player))
    if seat is None or seat["user_id"] is None:
        return Queued(post, None)  # computer players move by themselves
    dms = await tx.all(
        "INSERT INTO jobs (game_id, version, kind, payload, created_at, due_at)"
        " VALUES (?, ?, ?, '{}', ?, ?) RETURNING id",
        (game_id, version, TURN_DM, now, now),
    )
    dm = dms[0]["id"]
    return Queued(post, dm)


async def counts(tx: Tx) -> dict[str, int]:
    """One-offs by state (tests, logs)."""
    row = await tx.one(
        "SELECT count(*) AS total, count(done_at) AS sent, sum(failed) AS failed FROM jobs WHERE slot IS NULL"
    )
    return {"total": row["total"] or 0, "sent": row["sent"] or 0, "failed": row["failed"] or 0}


class PostsRoom(Room):
    """The one-offs' counts and each game's newest table post."""

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
