"""Store transactions for the bot's own facts (``bot_meta``) and people's DM status
(``dm_status``), migration 0007.  Plain functions of a ``sqlite3.Connection``."""

from __future__ import annotations

import sqlite3


def get(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM bot_meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def put(conn: sqlite3.Connection, key: str, value: str, now: float) -> None:
    conn.execute(
        "INSERT INTO bot_meta (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key)"
        " DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        (key, value, now),
    )


def dm_status(conn: sqlite3.Connection, user_id: int) -> tuple[bool, float] | None:
    row = conn.execute("SELECT reachable, checked_at FROM dm_status WHERE user_id = ?", (user_id,)).fetchone()
    return None if row is None else (bool(row[0]), float(row[1]))


def set_dm_status(conn: sqlite3.Connection, user_id: int, reachable: bool, now: float) -> None:
    conn.execute(
        "INSERT INTO dm_status (user_id, reachable, checked_at) VALUES (?, ?, ?) ON CONFLICT (user_id)"
        " DO UPDATE SET reachable = excluded.reachable, checked_at = excluded.checked_at",
        (user_id, int(reachable), now),
    )
