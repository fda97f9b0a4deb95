"""The one seam between the store's rooms and a database: ``Database.read``/``write`` run a
whole transaction as one coroutine function of a ``Tx``.

A room writes each transaction as ``async def tx(tx) -> result`` using only ``await
tx.execute`` (rows changed) / ``tx.executemany`` / ``tx.one`` / ``tx.all`` with ``?``
placeholders, and never issues BEGIN/COMMIT itself; it awaits nothing but its ``Tx``.  The
database runs the function inside one transaction (``write``: the only writer of the game
rows it touches; ``read``: one consistent view of committed data) and commits, or rolls
back when it raises.

* SQLite (``SqliteDatabase``): the function runs, whole, on the aiosqlite connection's own
  thread.  Its ``Tx`` does its I/O synchronously, so the coroutine never suspends and is
  driven to its end with a single ``send`` (``_run_to_end``): one thread hop per
  transaction instead of one per statement (a hop measured 0.1-0.4 ms here, more than the
  SQL itself), and each transaction is atomic with respect to the other asyncio tasks and to
  cancellation (a cancelled caller only loses the result; the function still commits or
  rolls back).
* PostgreSQL (asyncpg): ``async with conn.transaction(): return await fn(tx)`` on a pooled
  connection, with a ``Tx`` that rewrites ``?`` to ``$1, $2...`` (``Dialect.placeholder``),
  turns asyncpg's status text into the rows-changed count, and yields ``Record``s (indexed by
  column name and position, as ``sqlite3.Row``).

SQL written for the rooms stays portable: ``INSERT ... ON CONFLICT (...) DO UPDATE``
upserts (qualify the target's columns: ``ratings.games + excluded.games``), ``RETURNING``
for new ids (never ``lastrowid``), ``IS NOT DISTINCT FROM`` for NULL-safe equality, ``CASE``
rather than two-argument ``min``/``max``, ``count(col)`` rather than summing booleans.  What
is SQLite's own (PRAGMAs, the online backup API, WAL checkpoints) lives in
``SqliteDatabase`` below; ``migrations/`` holds SQLite's schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import sqlite3
import struct
import sys
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, Protocol, TypeVar

import aiosqlite

from bot.store import db as dbmod
from bot.store.errors import CannotWrite, SchemaTooNew, StoreError, cannot_write

T = TypeVar("T")
log = logging.getLogger(__name__)


class Row(Protocol):
    """A result row: by column name or position (``sqlite3.Row`` is one)."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def keys(self) -> list[str]: ...


@dataclass(frozen=True, slots=True)
class Dialect:
    """Facts about a database's SQL that the rooms may need."""

    name: str  # 'sqlite' or 'postgresql'
    placeholder: str  # how the driver spells a parameter; rooms always write '?'
    # Appended to the SELECT that picks rows to claim: concurrent claimers pass each other
    # (PostgreSQL); SQLite has one writer at a time, so its plain subquery is atomic already.
    skip_locked: str = ""

    def params(self, n: int) -> str:
        """``?, ?, ?`` for an ``IN (...)`` list of ``n`` values."""
        return ", ".join("?" * n)


SQLITE = Dialect("sqlite", "?")
POSTGRESQL = Dialect("postgresql", "$n", " FOR UPDATE SKIP LOCKED")


class Tx(Protocol):
    """One transaction in progress (see the module docstring)."""

    dialect: Dialect

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Runs a statement; returns the number of rows it changed."""
        ...

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None: ...

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row (or None): a ``Row``, typed Any so rooms can index it freely."""
        ...

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...


TxFunction = Callable[[Tx], Awaitable[T]]


class Database(Protocol):
    """A place the store keeps its data: one SQLite file (``SqliteDatabase``), or a server."""

    label: str  # names the database in messages (a path, a URL without its password)
    dialect: Dialect

    async def read(self, fn: TxFunction[T]) -> T: ...

    async def write(self, fn: TxFunction[T]) -> T: ...

    async def integrity_check(self) -> list[str]: ...

    async def backup(self, dest: str | Path) -> Path: ...

    async def close(self) -> None: ...


class SqliteTx:
    """``Tx`` over a ``sqlite3.Connection`` (SQLite already speaks ``?``).  Its coroutines
    never suspend: they run the statement at once, on the caller's (the connection's) thread."""

    __slots__ = ("conn", "dialect")

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.dialect = SQLITE

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.conn.execute(sql, params).rowcount

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        self.conn.executemany(sql, params)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(sql, params).fetchone()
        return row

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(self.conn.execute(sql, params).fetchall())


def _run_to_end(fn: TxFunction[T], tx: Tx) -> T:
    """Runs a transaction function whose awaits never suspend (a ``SqliteTx``'s) to its end,
    synchronously.  One that does suspend awaited something else: a bug, refused."""
    coro = fn(tx)
    if not isinstance(coro, Coroutine):
        raise TypeError(f"a transaction function must be a coroutine function, not {fn!r}")
    try:
        coro.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    coro.close()
    raise RuntimeError(f"transaction function {fn!r} awaited something other than its Tx")


async def _on_thread(db: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Runs ``fn(raw connection)`` on the aiosqlite connection's worker thread, in order with
    the connection's other calls.  (Uses aiosqlite's ``_execute``/``_conn``: aiosqlite has no
    public "run this function" call; the version is pinned in pyproject.toml and the store's
    tests exercise this path on every run.)"""
    call = asyncio.ensure_future(db._execute(lambda: fn(db._conn)))
    try:
        return await asyncio.shield(call)
    except asyncio.CancelledError:
        # The function runs to its end on the thread anyway (committing or rolling back).
        # Wait for that, so that once the cancellation reaches the caller, its next read
        # sees the outcome; then pass the cancellation on.
        with contextlib.suppress(Exception):
            await call
        raise


def run_on(conn: sqlite3.Connection, fn: TxFunction[T]) -> T:
    """Runs a transaction function on a plain ``sqlite3`` connection, in whatever transaction
    the caller has open (tools and tests that work on a file directly)."""
    return _run_to_end(fn, SqliteTx(conn))


# --- files that stopped taking writes --------------------------------------------------------
# Linux's inode flags (``chattr +i`` / ``+a``): SQLite reads such a file's write refusal as an
# I/O error, except in its WAL index, the ``-shm`` file every connection maps into memory:
# the next store into a page of that mapping is a SIGBUS that kills the process outright.
_FROZEN_FLAGS = 0x10 | 0x20  # STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND (= FS_IMMUTABLE_FL | FS_APPEND_FL)
_BSD_FROZEN_FLAGS = 0x2 | 0x4 | 0x20000 | 0x40000  # UF_/SF_IMMUTABLE, UF_/SF_APPEND (macOS)
# The process's exit status when it stops because its WAL index went immutable (EX_IOERR).
UNUSABLE_EXIT_STATUS = 74
_AT_FDCWD = -100
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None
_statx = getattr(_libc, "statx", None)  # glibc 2.28 and later


def frozen(path: str | Path) -> bool:
    """Whether ``path`` is immutable or append-only (False when missing, or where the file
    system has no such flags)."""
    if _statx is None:
        try:
            return bool(getattr(os.stat(path), "st_flags", 0) & _BSD_FROZEN_FLAGS)  # BSD, macOS
        except OSError:
            return False
    # statx(2) by path, not open()+ioctl(FS_IOC_GETFLAGS)+close(): closing any descriptor of
    # a file drops every POSIX lock this process holds on it, i.e. SQLite's own locks on the
    # database and its -shm WAL index (https://sqlite.org/howtocorrupt.html, 2.2).
    buf = ctypes.create_string_buffer(256)
    if _statx(_AT_FDCWD, os.fsencode(path), 0, 0, buf) != 0:
        return False  # missing, or no statx: nothing known to be frozen
    attributes, supported = struct.unpack_from("=Q", buf, 8)[0], struct.unpack_from("=Q", buf, 56)[0]
    return bool(attributes & supported & _FROZEN_FLAGS)


class FileGuard:
    """Looks at the database's three files right before each transaction, on the
    connection's own thread (see ``SqliteDatabase``): a few microseconds per transaction."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.wal = Path(f"{path}-wal")
        self.shm = Path(f"{path}-shm")

    def before_read(self) -> None:
        """A reader stores read marks in the WAL index (and the close of the last connection
        checkpoints through it): with that file immutable any of it may SIGBUS."""
        if frozen(self.shm):
            stop_unusable(self.path, f"{self.shm} (SQLite's shared-memory WAL index) was made immutable")

    def before_write(self) -> None:
        self.before_read()
        for p in (self.path, self.wal):
            if frozen(p):
                raise CannotWrite(str(self.path), f"{p} is immutable or append-only")


def stop_unusable(path: Path, why: str) -> NoReturn:
    """Ends the process with one log line, touching SQLite no more: the next access to a
    frozen WAL index would be a SIGBUS.  Every committed transaction is in the database and
    its ``-wal`` file already; SQLite recovers them at the next start."""
    log.critical(
        "stopping: %s; the database %s cannot be used safely any more (make the file writable "
        "again, e.g. chattr -i, and restart; every stored move is kept)",
        why,
        path,
    )
    with contextlib.suppress(Exception):
        for handler in logging.getLogger().handlers:
            handler.flush()
        sys.stderr.flush()
    os._exit(UNUSABLE_EXIT_STATUS)


def _write_tx(conn: sqlite3.Connection, fn: TxFunction[T]) -> T:
    if conn.in_transaction:  # never expected; do not build on someone's half transaction
        conn.execute("ROLLBACK")
    conn.execute("BEGIN IMMEDIATE")  # take the write lock first: no upgrade deadlocks, no stale reads
    try:
        result = _run_to_end(fn, SqliteTx(conn))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _read_tx(conn: sqlite3.Connection, fn: TxFunction[T]) -> T:
    if conn.in_transaction:
        conn.execute("ROLLBACK")
    conn.execute("BEGIN")  # one consistent view of committed data across the statements
    try:
        return _run_to_end(fn, SqliteTx(conn))
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


class SqliteDatabase:
    """One SQLite file: writes through one connection, one transaction at a time (``BEGIN
    IMMEDIATE``, so other processes are excluded too); reads through a second connection,
    which sees committed data only (WAL); a background WAL checkpoint on a third.

    A file that stops taking writes while the bot runs (see ``FileGuard``, checked right
    before every transaction, checkpoint and close):

    * the database or its ``-wal`` file immutable or append-only, the disk full, a read-only
      file, an I/O error: every write raises ``CannotWrite`` (nothing written; the players
      read "cannot save right now"), reads go on, checkpoints wait, and writes work again by
      themselves once the file takes them;
    * the ``-shm`` file (the WAL index SQLite maps into memory, which readers write too)
      immutable: the process stops with one log line and exit status 74
      (``stop_unusable``), since SQLite's next touch of it would be a SIGBUS.

    The WAL index stays a shared file (``locking_mode=EXCLUSIVE`` would keep it in heap
    memory, but then no second connection could open the file: not this store's reader and
    checkpointer, nor the other shard processes, the backup tool or the crash tests).  What
    is left: a file frozen during the milliseconds of one transaction still SIGBUSes it.
    """

    dialect = SQLITE

    def __init__(
        self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection, synchronous: str
    ) -> None:
        self.path = path
        self.label = str(path)
        self.synchronous = synchronous
        self.writer = writer
        self.reader = reader
        self.checkpointer: asyncio.Task[None] | None = None
        self.checkpoints: aiosqlite.Connection | None = None
        self.guard = FileGuard(path)
        self.closed = False

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str,
        migrate: bool = True,
        read_only: bool = False,
        checkpoint_interval: float | None = None,
    ) -> SqliteDatabase:
        """Opens (creating if needed) the file and applies pending migrations (see
        ``bot.store.Store.open``)."""
        path = Path(path)
        if not read_only:  # say so now, not with the first move
            for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                if frozen(p):
                    raise CannotWrite(str(path), f"{p} is immutable or append-only")
        writer = await dbmod.connect(path, synchronous=synchronous, read_only=read_only)
        reader: aiosqlite.Connection | None = None
        checkpoints: aiosqlite.Connection | None = None
        try:
            if migrate and not read_only:
                await dbmod.migrate(writer, str(path))
            else:
                version = await dbmod.schema_version(writer)
                if version > dbmod.LATEST_VERSION:
                    raise SchemaTooNew(str(path), version, dbmod.LATEST_VERSION)
                if version < dbmod.LATEST_VERSION:
                    raise StoreError(
                        f"database {path} has schema version {version}, older than this code's "
                        f"{dbmod.LATEST_VERSION}: open it with migrations on to upgrade it"
                    )
            reader = await dbmod.connect(path, synchronous=synchronous, read_only=True)
            # The checkpointer's connection is opened and closed here, not in its task: a task
            # cancelled while aiosqlite connects (or before it ran) would leave that
            # connection and its thread behind the closed store.
            if checkpoint_interval is not None and not read_only:
                checkpoints = await dbmod.connect(path, synchronous=synchronous)
        except BaseException:
            await writer.close()
            if reader is not None:
                await reader.close()
            raise
        database = cls(path, writer, reader, synchronous.upper())
        if checkpoints is not None and checkpoint_interval is not None:
            database.checkpoints = checkpoints
            database.checkpointer = asyncio.create_task(database._checkpoint_loop(checkpoints, checkpoint_interval))
        return database

    async def close(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.checkpointer
        if self.checkpoints is not None:
            await self.checkpoints.close()
        if self.closed:
            return
        self.closed = True
        # The last connection to close checkpoints through the WAL index.
        await _on_thread(self.reader, lambda conn: self.guard.before_read())
        await self.reader.close()
        await self.writer.close()

    async def _checkpoint_loop(self, conn: aiosqlite.Connection, interval: float) -> None:
        """Checkpoints the WAL every ``interval`` seconds on a connection of its own.

        With ``synchronous=NORMAL`` a commit is safe from process crashes at once but only
        reaches the disk for sure at the next checkpoint (which fsyncs the WAL, then the
        database); this bounds that window without an fsync on every move, and keeps the
        WAL short so that commits rarely pay for an automatic checkpoint themselves.
        PASSIVE: never waits for, nor blocks, readers and writers."""
        failing = ""  # why the last checkpoint failed: said once, not every second
        while True:
            await asyncio.sleep(interval)
            try:
                await _on_thread(conn, self._checkpoint)
                if failing:
                    log.info("WAL checkpoints of %s work again", self.path)
                failing = ""
            except (sqlite3.Error, CannotWrite) as e:  # e.g. busy, disk full: try again next time
                if str(e) != failing:
                    log.warning("WAL checkpoint of %s failed: %s", self.path, e)
                failing = str(e)

    def _checkpoint(self, conn: sqlite3.Connection) -> None:
        self.guard.before_write()
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    async def write(self, fn: TxFunction[T]) -> T:
        try:
            return await _on_thread(self.writer, lambda conn: self._write(conn, fn))
        except sqlite3.Error as e:
            if cannot_write(e):  # disk full, file-size limit, read-only: say so, not "try again"
                log.error("cannot write %s: %s", self.path, e)
                raise CannotWrite(str(self.path), str(e)) from e
            raise
        except CannotWrite as e:
            log.error("cannot write %s: %s", self.path, e.reason)
            raise

    def _write(self, conn: sqlite3.Connection, fn: TxFunction[T]) -> T:
        self.guard.before_write()
        return _write_tx(conn, fn)

    async def read(self, fn: TxFunction[T]) -> T:
        return await _on_thread(self.reader, lambda conn: self._read(conn, fn))

    def _read(self, conn: sqlite3.Connection, fn: TxFunction[T]) -> T:
        self.guard.before_read()
        return _read_tx(conn, fn)

    async def integrity_check(self) -> list[str]:
        """SQLite's own check of the file; an empty list means fine."""
        rows = await self.read(lambda tx: tx.all("PRAGMA integrity_check"))
        return [r[0] for r in rows if r[0] != "ok"]

    async def backup(self, dest: str | Path) -> Path:
        return await asyncio.to_thread(backup_database, self.path, dest)


def backup_database(src: str | Path, dest: str | Path) -> Path:
    """Copies a live database with SQLite's backup API.

    The copy is made in one step from its own connection, i.e. inside one read transaction,
    so it is a consistent snapshot of committed data; in WAL mode writers carry on meanwhile.
    It is written to ``dest.partial``, checked, switched to a self-contained rollback journal,
    fsynced and renamed over ``dest``, so ``dest`` is never a half-written file.
    """
    src, dest = Path(src), Path(dest)
    if not src.exists():
        raise FileNotFoundError(f"no database at {src}")
    tmp = dest.with_name(dest.name + ".partial")
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
        p.unlink(missing_ok=True)
    source = sqlite3.connect(src, timeout=dbmod.BUSY_TIMEOUT_S)
    try:
        target = sqlite3.connect(tmp)
        try:
            source.backup(target)  # pages=-1: everything in one step
            target.execute("PRAGMA journal_mode=DELETE")
            problems = [r[0] for r in target.execute("PRAGMA quick_check") if r[0] != "ok"]
            if problems:
                raise StoreError(f"the backup of {src} failed its check: {problems[:5]}")
        finally:
            target.close()
    finally:
        source.close()
    with open(tmp, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(tmp, dest)
    with contextlib.suppress(OSError):  # make the rename itself durable
        fd = os.open(dest.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    return dest
