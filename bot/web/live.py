"""Live updates: each page holds an event stream (server-sent events) for its game, and
every committed change to that game (the store's ``Changes``: this process's writes, and on
PostgreSQL every process's, by LISTEN/NOTIFY) wakes it; the page then fetches what it
shows.  A stream's queue is small: a slow page gets the newest version, not a backlog."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

QUEUE = 4
CLOSED = -1  # what a stream hears when the board stops: the page reconnects elsewhere or later
GONE = -2  # what a stream hears when its page has left: its place is free at once


class Live:
    def __init__(self) -> None:
        self._streams: dict[int, set[asyncio.Queue[int]]] = {}

    def heard(self, game_id: int, version: int) -> None:
        for queue in self._streams.get(game_id, ()):
            self.tell(queue, version)

    @staticmethod
    def tell(queue: asyncio.Queue[int], version: int) -> None:
        """Puts ``version`` (or CLOSED, GONE) on a stream's queue, dropping the oldest when
        full: the page only needs to know that something changed."""
        if queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                queue.get_nowait()
        queue.put_nowait(version)

    def close(self) -> None:
        """Ends every stream (the board is stopping)."""
        for streams in self._streams.values():
            for queue in streams:
                self.tell(queue, CLOSED)

    @contextlib.contextmanager
    def stream(self, game_id: int) -> Iterator[asyncio.Queue[int]]:
        queue: asyncio.Queue[int] = asyncio.Queue(QUEUE)
        self._streams.setdefault(game_id, set()).add(queue)
        try:
            yield queue
        finally:
            streams = self._streams.get(game_id)
            if streams is not None:
                streams.discard(queue)
                if not streams:
                    del self._streams[game_id]

    def viewers(self, game_id: int | None = None) -> int:
        if game_id is not None:
            return len(self._streams.get(game_id, ()))
        return sum(len(s) for s in self._streams.values())
