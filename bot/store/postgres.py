"""PostgreSQL behind the store's one seam (``connection.Database``), with asyncpg.

Chosen by ``DATABASE_URL=postgresql://...``: several bot processes (shards) share one
database.  The rooms' transactions are coroutine functions of a ``Tx`` (see connection.py);
here each runs inside ``conn.transaction()`` on an asyncpg connection, on a thread with an
event loop of its own (``_Lane``), with ``?`` placeholders rewritten to ``$1, $2...``, so
the rooms' SQL is the same for both databases.

Writers are serialised across every process by a transaction-level advisory lock, taken
first thing in every write transaction: the same guarantee as SQLite's ``BEGIN IMMEDIATE``,
which the rooms' read-then-write transactions (the version check, one open game per channel,
claims of outbox rows and timers) are written for.  So a claim is atomic across processes
and a claimer that dies leaves a lease that expires (the rows' ``claimed_at``).  Reads run in
``REPEATABLE READ READ ONLY`` transactions: one consistent view, never blocked by writers.

Migrations are the SQLite ones in PostgreSQL's form (``db.for_dialect``: its types, and the
blocks a file writes for PostgreSQL alone), recorded the same way in ``schema_migrations`` and
applied by the same runner (``db.apply_pending``) in one transaction under another advisory
lock, so that two processes starting together migrate once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import threading
import time
from collections.abc import Coroutine, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from bot.store.connection import POSTGRESQL, Tx, TxFunction
from bot.store.db import Migration, apply_pending, load_migrations
from bot.store.errors import SchemaTooNew, StoreError

T = TypeVar("T")
log = logging.getLogger(__name__)

# Advisory lock keys ("cubist-w", "cubist-m" as numbers): one writer at a time; one migrator.
WRITE_LOCK = 0x63756269737477
MIGRATE_LOCK = 0x6375626973746D
COMMAND_TIMEOUT_S = 30.0
READERS = 3  # reading connections per process


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.split("://", 1)[0].lower() in ("postgresql", "postgres")


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", url)


# --- migrations ----------------------------------------------------------------------------


MIGRATIONS = load_migrations("postgresql")  # from the same files as SQLite's (db.for_dialect)
LATEST_VERSION = len(MIGRATIONS)


# --- SQL: '?' placeholders to '$n' ---------------------------------------------------------

_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"])*\"|--[^\n]*|\?")


@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """``?`` placeholders (outside quotes and comments) become ``$1, $2...``."""
    counter = iter(range(1, 10_000))

    def swap(m: re.Match[str]) -> str:
        return f"${next(counter)}" if m.group(0) == "?" else m.group(0)

    return _TOKENS.sub(swap, sql)


def _returns_rows(sql: str) -> bool:
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    return head in ("SELECT", "WITH", "VALUES", "SHOW", "TABLE") or " RETURNING " in f" {sql.upper()} "


def _count(status: str) -> int:
    """Rows affected, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgTx:
    """``Tx`` over an asyncpg connection inside its transaction.  asyncpg's records are read by
    column name and by position, as ``sqlite3.Row``."""

    __slots__ = ("conn", "dialect")

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.dialect = POSTGRESQL

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        query = to_postgres(sql)
        if _returns_rows(query):
            return len(await self.conn.fetch(query, *params))
        return _count(await self.conn.execute(query, *params))

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(p) for p in params]
        if batch:
            await self.conn.executemany(to_postgres(sql), batch)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self.conn.fetchrow(to_postgres(sql), *params)

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self.conn.fetch(to_postgres(sql), *params))


async def _keep_session(conn: Any) -> None:
    """The pool's reset of a returned connection.  asyncpg's default sends "SELECT
    pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL" on every release: one more
    round trip per transaction (about a tenth of a commit's CPU in the bot process).  The
    store leaves nothing in a session to undo (its locks are transaction-level, it never
    LISTENs, SETs or opens cursors), and the pool still rolls back an open transaction."""


class _Lane:
    """A thread with an event loop of its own and an asyncpg pool on that loop: transactions
    run there, away from the bot's busy event loop (pictures, Discord), so the writers' lock is
    never held while that loop is busy elsewhere.  A cancelled caller waits for its
    transaction to commit or roll back (as SQLite's thread does), then the cancellation goes on."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self.thread.start()
        self.pool: Any = None

    async def call(self, work: Coroutine[Any, Any, T]) -> T:
        future = asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self.loop))
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await future
            raise

    async def start(self, url: str, size: int) -> None:
        import asyncpg  # type: ignore[import-untyped]  # the postgresql extra

        async def make() -> Any:  # on the lane's loop, which the pool then belongs to
            return await asyncpg.create_pool(
                url, min_size=1, max_size=size, command_timeout=COMMAND_TIMEOUT_S, reset=_keep_session
            )

        self.pool = await self.call(make())

    async def close(self) -> None:
        if self.pool is not None:
            with contextlib.suppress(Exception):
                await self.call(self.pool.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        await asyncio.to_thread(self.thread.join, 5)
        if not self.loop.is_running():
            self.loop.close()


class _PgSteps:
    """``db.Steps`` on PostgreSQL: a migration runs as one script (no parameters)."""

    def __init__(self, tx: PgTx) -> None:
        self.tx = tx

    async def applied(self) -> list[tuple[int, str]]:
        rows = await self.tx.all("SELECT version, name FROM schema_migrations ORDER BY version")
        return [(int(r["version"]), str(r["name"])) for r in rows]

    async def run(self, migration: Migration) -> None:
        await self.tx.conn.execute(migration.sql)

    async def record(self, migration: Migration) -> None:
        await self.tx.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.name, time.time()),
        )


class PostgresDatabase:
    """The store's data on a PostgreSQL server: writes on one lane (one connection: they wait
    for the advisory lock anyway), reads on another (a few connections)."""

    dialect = POSTGRESQL

    def __init__(self, url: str, writer: _Lane, reader: _Lane) -> None:
        self.url = url
        self.label = redacted(url)
        self.writer = writer
        self.reader = reader

    @classmethod
    async def connect(cls, url: str) -> PostgresDatabase:
        """Connected, without looking at the schema (``open`` does)."""
        writer, reader = _Lane("cubist-pg-writer"), _Lane("cubist-pg-reader")
        try:
            await writer.start(url, 1)
            await reader.start(url, READERS)
        except BaseException:
            await writer.close()
            await reader.close()
            raise
        return cls(url, writer, reader)

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True, read_only: bool = False) -> PostgresDatabase:
        database = await cls.connect(url)
        try:
            if migrate and not read_only:
                await database.migrate()
            else:
                version = await database.schema_version()
                if version > LATEST_VERSION:
                    raise SchemaTooNew(database.label, version, LATEST_VERSION)
                if version < LATEST_VERSION:
                    raise StoreError(
                        f"database {database.label} has schema version {version}, older than this code's "
                        f"{LATEST_VERSION}: open it with migrations on to upgrade it"
                    )
        except BaseException:
            await database.close()
            raise
        return database

    async def close(self) -> None:
        await self.reader.close()
        await self.writer.close()

    async def write(self, fn: TxFunction[T]) -> T:
        pool = self.writer.pool

        async def work() -> T:
            async with pool.acquire() as conn:
                # BEGIN and the writers' lock in one round trip (simple query protocol).
                await conn.execute(f"BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK})")
                try:
                    result = await fn(PgTx(conn))
                except BaseException:
                    if not conn.is_closed():
                        with contextlib.suppress(Exception):
                            await conn.execute("ROLLBACK")
                    raise
                await conn.execute("COMMIT")
                return result

        return await self.writer.call(work())

    async def read(self, fn: TxFunction[T]) -> T:
        pool = self.reader.pool

        async def work() -> T:
            async with pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
                return await fn(PgTx(conn))

        return await self.reader.call(work())

    # --- schema ------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        async def tx(tx: Tx) -> int:
            if (await tx.one("SELECT to_regclass('schema_migrations') IS NOT NULL AS present"))["present"]:
                return int((await tx.one("SELECT coalesce(max(version), 0) AS v FROM schema_migrations"))["v"])
            return 0

        return await self.read(tx)

    async def migrate(self, target: int | None = None, migrations: list[Migration] | None = None) -> int:
        migrations = MIGRATIONS if migrations is None else migrations
        newest = len(migrations)
        target = newest if target is None else target
        label = self.label

        async def tx(tx: Tx) -> int:
            assert isinstance(tx, PgTx)
            await tx.execute(f"SELECT pg_advisory_xact_lock({MIGRATE_LOCK})")
            await tx.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
            )
            return await apply_pending(_PgSteps(tx), migrations, target, label)

        return await self.write(tx)

    # --- integrity and backups ---------------------------------------------------------------

    async def integrity_check(self) -> list[str]:
        """PostgreSQL keeps its own pages and constraints consistent; this checks that the
        server answers and that every row's foreign keys hold (as SQLite's check does)."""

        async def tx(tx: Tx) -> list[str]:
            orphans = await tx.all(
                "SELECT 'seats' AS t, count(*) AS n FROM seats s LEFT JOIN games g ON g.id = s.game_id"
                " WHERE g.id IS NULL"
                " UNION ALL SELECT 'moves', count(*) FROM moves m LEFT JOIN games g ON g.id = m.game_id"
                " WHERE g.id IS NULL"
            )
            return [f"{r['t']}: {r['n']} rows without their game" for r in orphans if r["n"]]

        return await self.read(tx)

    async def backup(self, dest: str | Path) -> Path:
        """Not here: ``Store.backup`` makes a PostgreSQL store's copy (bot/store/copy.py)."""
        raise StoreError("a PostgreSQL store is backed up by Store.backup (pg_dump, or a SQLite export)")
