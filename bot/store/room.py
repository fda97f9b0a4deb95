"""What every room of the store holds: the database, the clock and the shared game cache."""

from __future__ import annotations

from collections.abc import Callable

from bot.store.cache import GameCache
from bot.store.connection import Database


class Room:
    def __init__(self, db: Database, clock: Callable[[], float], cache: GameCache) -> None:
        self.db = db
        self.clock = clock
        self.cache = cache
