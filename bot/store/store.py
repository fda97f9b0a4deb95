"""``Store``: the rooms of the game store over one database, opened and closed together.

Each concern is a room of its own (``store.games``, ``store.moves``, ``store.timers``...),
and callers name the room: ``store.moves.apply_move``, ``store.games.load_game``; one name
per operation, and the facade holds no logic.  Rooms reach the database only through
``connection.Database`` (see connection.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.store.cache import GameCache
from bot.store.changes import Changes
from bot.store.connection import Database, SqliteDatabase
from bot.store.copy import backup_postgres
from bot.store.games import GamesRoom
from bot.store.integrity import IntegrityRoom
from bot.store.jobs import JobsRoom
from bot.store.lobby import LobbyRoom
from bot.store.meta import MetaRoom
from bot.store.moves import MovesRoom
from bot.store.outbox import PostsRoom
from bot.store.people import PeopleRoom
from bot.store.postgres import PostgresDatabase, is_postgres_url
from bot.store.stats import StatsRoom
from bot.store.timers import TimersRoom
from bot.store.votes import VotesRoom

# Chosen by measurement; see the package docstring.
DEFAULT_SYNCHRONOUS = "NORMAL"
DEFAULT_CHECKPOINT_INTERVAL = 1.0  # seconds: bounds what a power cut can take back
DEFAULT_CACHE_SIZE = 256


class Store:
    """All access to the games database.  Open with ``await Store.open(path)``; close with
    ``await store.close()`` (or ``async with``).  Every room's method is one transaction and safe to
    call from many asyncio tasks at once."""

    def __init__(self, db: Database, *, clock: Callable[[], float], cache_size: int) -> None:
        self.db = db
        self.clock = clock
        self.cache = GameCache(cache_size)
        self.lobby = LobbyRoom(db, clock, self.cache)
        self.games = GamesRoom(db, clock, self.cache)
        self.moves = MovesRoom(db, clock, self.cache)
        self.changes = Changes()  # told after each committed change to a game (the web board)
        self.moves.changes = self.changes
        self.jobs = JobsRoom(db, clock, self.cache)  # every job's claim, finish and failure
        self.timers = TimersRoom(db, clock, self.cache)
        self.votes_room = VotesRoom(db, clock, self.cache)
        self.posts = PostsRoom(db, clock, self.cache)
        self.people = PeopleRoom(db, clock, self.cache)
        self.meta_room = MetaRoom(db, clock, self.cache)
        self.integrity = IntegrityRoom(db, clock, self.cache)
        self.stats = StatsRoom(db, clock, self.cache)

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = DEFAULT_SYNCHRONOUS,
        cache_size: int = DEFAULT_CACHE_SIZE,
        clock: Callable[[], float] = time.time,
        migrate: bool = True,
        read_only: bool = False,
        checkpoint_interval: float | None = DEFAULT_CHECKPOINT_INTERVAL,
    ) -> Store:
        """Opens (creating if needed) the SQLite database and applies pending migrations.
        Raises SchemaTooNew when the database was written by newer code.  With
        ``migrate=False`` (or ``read_only``) an out-of-date schema is an error instead.
        ``checkpoint_interval``: seconds between background WAL checkpoints (None: none,
        leaving it to SQLite's automatic ones)."""
        db: Database
        if is_postgres_url(path):  # DATABASE_URL=postgresql://... (bot/store/postgres.py)
            db = await PostgresDatabase.open(str(path), migrate=migrate, read_only=read_only)
            return cls(db, clock=clock, cache_size=cache_size)
        db = await SqliteDatabase.open(
            path,
            synchronous=synchronous,
            migrate=migrate,
            read_only=read_only,
            checkpoint_interval=checkpoint_interval,
        )
        return cls(db, clock=clock, cache_size=cache_size)

    async def backup(self, dest: str | Path) -> Path:
        """An online, consistent copy of the database at ``dest``; games keep being served.
        SQLite: its backup API.  PostgreSQL: ``pg_dump``, or a SQLite file by logical export."""
        if isinstance(self.db, PostgresDatabase):
            return await backup_postgres(self.db.url, Path(dest), Store.open)
        return await self.integrity.backup(dest)

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- SQLite specifics, for the tests and tools that look inside ---------------------------

    @property
    def path(self) -> Path:
        assert isinstance(self.db, SqliteDatabase)
        return self.db.path

    @property
    def _writer(self) -> Any:
        assert isinstance(self.db, SqliteDatabase)
        return self.db.writer

    @property
    def _reader(self) -> Any:
        assert isinstance(self.db, SqliteDatabase)
        return self.db.reader

    @property
    def _cache(self) -> GameCache:
        return self.cache
