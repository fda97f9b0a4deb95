"""Who wants to know that a game changed: the web board's live updates (bot/web/live.py).

The store tells its listeners after a write to a game commits (a move, a start, a finish,
a cancel), in this process.  On PostgreSQL the same write also sends ``NOTIFY`` on
``CHANNEL`` inside its transaction, so every process sharing the database hears it when
it commits (and never when it rolls back): ``listen_postgres`` turns those into the same
calls.  A listener may hear a change twice (its own process and the notification); the
version says which is news.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.store.connection import POSTGRESQL, Tx
from bot.store.records import GameRecord
from engine import Game

log = logging.getLogger(__name__)

CHANNEL = "cubist_games"
# What the game is now, when the change happened in this process: the committed record and
# the store cache's game (read it, never change it).  None: read the store.
Fresh = tuple[GameRecord, Game] | None
Listener = Callable[[int, int, Fresh], None]  # (game id, version, fresh)


class Changes:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Calls ``listener(game_id, version, fresh)`` after each committed change (``fresh``:
        the record and game as committed, when this process made the change and has them,
        else None); returns how to stop."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def tell(self, game_id: int, version: int, fresh: Fresh = None) -> None:
        for listener in list(self._listeners):
            try:
                listener(game_id, version, fresh)
            except Exception:  # a listener's bug must not undo a stored move's answer
                log.exception("a change listener failed for game %s", game_id)


async def notify_in(tx: Tx, game_id: int, version: int) -> None:
    """Inside a write transaction: on PostgreSQL, tell every process once it commits."""
    if tx.dialect is POSTGRESQL:
        await tx.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{game_id}:{version}"))


async def listen_postgres(url: str, changes: Changes) -> Callable[[], Awaitable[None]]:
    """Hears every process's changes (LISTEN on its own connection) and tells ``changes``'
    listeners; returns the coroutine function that stops listening."""
    import asyncpg  # type: ignore[import-untyped]  # the postgresql extra

    conn: Any = await asyncpg.connect(url)

    def heard(_conn: object, _pid: int, _channel: str, payload: str) -> None:
        game, _, version = payload.partition(":")
        if game.isdigit() and version.isdigit():
            changes.tell(int(game), int(version))  # another process's change: read the store

    await conn.add_listener(CHANNEL, heard)

    async def stop() -> None:
        try:
            await conn.remove_listener(CHANNEL, heard)
        finally:
            await conn.close()

    return stop
