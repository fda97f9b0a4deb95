"""PostgreSQL behind the store's one seam (``connection.Database``), with asyncpg.

Chosen by ``DATABASE_URL=postgresql://...``: several bot processes (shards) share one
database.  The rooms' transactions are plain functions of a ``Tx`` (see connection.py); here
each runs whole on a worker thread that owns an asyncpg connection and an event loop of its
own, each statement waiting there for the server's answer.  So a transaction is one hop from
the bot's event loop, as on SQLite, and the rooms' SQL is the same for both databases (``?``
placeholders become ``$1, $2...``).

Writers are serialised across every process by a transaction-level advisory lock, taken
first thing in every write transaction: the same guarantee as SQLite's ``BEGIN IMMEDIATE``,
which the rooms' read-then-write transactions (the version check, one open game per channel,
claims of outbox rows and timers) are written for.  So a claim is atomic across processes
and a claimer that dies leaves a lease that expires (the rows' ``claimed_at``).  Reads run in
``REPEATABLE READ READ ONLY`` transactions: one consistent view, never blocked by writers.

Migrations live in ``migrations_postgresql/``, the twins of the SQLite ones (same numbers
and names, recorded the same way in ``schema_migrations``), applied in one transaction
under another advisory lock so that two processes starting together migrate once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import re
import time
from collections.abc import Callable, Coroutine, Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from .connection import Dialect, Tx
from .db import _NAME, Migration
from .errors import MigrationError, SchemaTooNew, StoreError

T = TypeVar("T")
log = logging.getLogger(__name__)

POSTGRESQL = Dialect("postgresql", "$")
# Advisory lock keys ("cubist-w", "cubist-m" as numbers): one writer at a time; one migrator.
WRITE_LOCK = 0x63756269737477
MIGRATE_LOCK = 0x6375626973746D
COMMAND_TIMEOUT_S = 30.0


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.split("://", 1)[0].lower() in ("postgresql", "postgres")


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", url)


# --- migrations ----------------------------------------------------------------------------


def load_migrations() -> list[Migration]:
    found: list[Migration] = []
    for entry in resources.files("bot.store.migrations_postgresql").iterdir():
        m = _NAME.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda mig: mig.version)
    for i, mig in enumerate(found, start=1):
        if mig.version != i:
            raise MigrationError(f"PostgreSQL migration files are not numbered 1..n without gaps ({mig.version})")
    return found


MIGRATIONS = load_migrations()
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


class PgCursor:
    __slots__ = ("_rowcount", "_rows")

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self._rowcount = rowcount

    @property
    def rowcount(self) -> int:
        return self._rowcount

    def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[Any]:
        return list(self._rows)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._rows)


class PgTx:
    """``Tx`` over an asyncpg connection, on its worker thread (see the module docstring).
    asyncpg's records are read by column name and by position, as ``sqlite3.Row``."""

    __slots__ = ("dialect", "worker")

    def __init__(self, worker: _Worker) -> None:
        self.worker = worker
        self.dialect = POSTGRESQL

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PgCursor:
        query = to_postgres(sql)
        conn = self.worker.conn
        if _returns_rows(query):
            rows = self.worker.run(conn.fetch(query, *params))
            return PgCursor(rows, len(rows))
        status = self.worker.run(conn.execute(query, *params))
        return PgCursor([], _count(status))

    def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> PgCursor:
        batch = [tuple(p) for p in params]
        if batch:
            self.worker.run(self.worker.conn.executemany(to_postgres(sql), batch))
        return PgCursor([], len(batch))

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.execute(sql, params).fetchone()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self.execute(sql, params).fetchall()


class _Worker:
    """A thread with its own event loop and asyncpg connection; transaction functions run
    on it one at a time."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.loop = asyncio.new_event_loop()
        self.pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=name)
        self.conn: Any = None

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coro)

    async def start(self) -> None:
        import asyncpg  # type: ignore[import-untyped]  # the postgresql extra

        def connect() -> None:
            self.conn = self.run(asyncpg.connect(self.url, command_timeout=COMMAND_TIMEOUT_S))

        await self.call(connect)

    async def call(self, fn: Callable[[], T]) -> T:
        """Runs ``fn`` on the thread; a cancelled caller waits for it to finish (it commits or
        rolls back whole), then the cancellation goes on, as on SQLite."""
        call = asyncio.wrap_future(self.pool.submit(fn))
        try:
            return await asyncio.shield(call)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await call
            raise

    def transaction(self, fn: Callable[[Tx], T], *, write: bool) -> T:
        conn = self.conn
        if conn.is_in_transaction():  # never expected; do not build on a half transaction
            self.run(conn.execute("ROLLBACK"))
        self.run(conn.execute("BEGIN" if write else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"))
        try:
            if write:
                self.run(conn.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})"))
            result = fn(PgTx(self))
            self.run(conn.execute("COMMIT"))
        except BaseException:
            if not conn.is_closed() and conn.is_in_transaction():
                self.run(conn.execute("ROLLBACK"))
            raise
        return result

    async def close(self) -> None:
        def close() -> None:
            if self.conn is not None:
                with contextlib.suppress(Exception):
                    self.run(self.conn.close(timeout=5))
            self.loop.close()

        with contextlib.suppress(Exception):
            await self.call(close)
        self.pool.shutdown(wait=False)


class PostgresDatabase:
    """The store's data on a PostgreSQL server: one writer connection and one reader, each
    on its own thread."""

    dialect = POSTGRESQL

    def __init__(self, url: str, writer: _Worker, reader: _Worker) -> None:
        self.url = url
        self.label = redacted(url)
        self.writer = writer
        self.reader = reader

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True, read_only: bool = False) -> PostgresDatabase:
        writer, reader = _Worker(url, "cubist-pg-writer"), _Worker(url, "cubist-pg-reader")
        try:
            await writer.start()
            await reader.start()
            database = cls(url, writer, reader)
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
            await writer.close()
            await reader.close()
            raise
        return database

    async def close(self) -> None:
        await self.reader.close()
        await self.writer.close()

    async def write(self, fn: Callable[[Tx], T]) -> T:
        return await self.writer.call(lambda: self.writer.transaction(fn, write=True))

    async def read(self, fn: Callable[[Tx], T]) -> T:
        return await self.reader.call(lambda: self.reader.transaction(fn, write=False))

    # --- schema ------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        def tx(tx: Tx) -> int:
            if tx.one("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")["present"]:
                return int(tx.one("SELECT coalesce(max(version), 0) AS v FROM schema_migrations")["v"])
            return 0

        return await self.read(tx)

    async def migrate(self, target: int | None = None, migrations: list[Migration] | None = None) -> int:
        migrations = MIGRATIONS if migrations is None else migrations
        newest = len(migrations)
        target = newest if target is None else target
        label = self.label

        def tx(tx: Tx) -> int:
            tx.execute(f"SELECT pg_advisory_xact_lock({MIGRATE_LOCK})")
            tx.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
            )
            applied = [
                (int(r["version"]), str(r["name"]))
                for r in tx.all("SELECT version, name FROM schema_migrations ORDER BY version")
            ]
            current = len(applied)
            if current > newest:
                raise SchemaTooNew(label, current, newest)
            expected = [(m.version, m.name) for m in migrations[:current]]
            if applied != expected:
                raise MigrationError(f"{label} has migrations {applied}, which do not match this code's {expected}")
            for mig in migrations[current:target]:
                try:
                    self.writer.run(self.writer.conn.execute(mig.sql))  # a whole script, no parameters
                except Exception as e:
                    raise MigrationError(f"migration {mig.version:04d}_{mig.name} failed on {label}: {e}") from e
                tx.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (mig.version, mig.name, time.time()),
                )
            return max(current, target)

        return await self.write(tx)

    # --- integrity and backups ---------------------------------------------------------------

    async def integrity_check(self) -> list[str]:
        """PostgreSQL keeps its own pages and constraints consistent; this checks that the
        server answers and that every row's foreign keys hold (as SQLite's check does)."""

        def tx(tx: Tx) -> list[str]:
            orphans = tx.all(
                "SELECT 'seats' AS t, count(*) AS n FROM seats s LEFT JOIN games g ON g.id = s.game_id"
                " WHERE g.id IS NULL"
                " UNION ALL SELECT 'moves', count(*) FROM moves m LEFT JOIN games g ON g.id = m.game_id"
                " WHERE g.id IS NULL"
            )
            return [f"{r['t']}: {r['n']} rows without their game" for r in orphans if r["n"]]

        return await self.read(tx)

    async def backup(self, dest: str | Path) -> Path:
        from .copy import backup_postgres

        return await backup_postgres(self.url, Path(dest))
