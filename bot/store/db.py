"""Connections and schema migrations.

Migrations are the numbered files ``migrations/NNNN_name.sql``.  At start-up every pending
one is applied, in order, inside a single ``BEGIN IMMEDIATE`` transaction together with its
row in ``schema_migrations``; a failure rolls all of them back and the database stays at its
previous version.  A database whose version is higher than the newest file here is refused
(``SchemaTooNew``): old code must not write to a schema it does not understand.

Foreign keys are switched off while migrating (SQLite's recipe for rebuilding tables) and
``PRAGMA foreign_key_check`` must come back empty before the transaction commits.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

from .errors import MigrationError, SchemaTooNew

SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")
BUSY_TIMEOUT_S = 10.0
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations() -> list[Migration]:
    """The migration files shipped with this code, by version (1, 2, ... without gaps)."""
    found: list[Migration] = []
    for entry in resources.files("bot.store.migrations").iterdir():
        m = _NAME.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda mig: mig.version)
    for i, mig in enumerate(found, start=1):
        if mig.version != i:
            raise MigrationError(f"migration files are not numbered 1..n without gaps (found {mig.version})")
    return found


def split_sql(script: str) -> list[str]:
    """A script's statements, split where SQLite says a statement is complete (so triggers
    with inner semicolons stay whole); comments-only chunks are dropped."""
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if _strip_comments(buf):
                out.append(buf.strip())
            buf = ""
    if _strip_comments(buf):
        raise MigrationError(f"incomplete SQL statement at the end of a migration: {buf.strip()[:80]!r}")
    return out


def _strip_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines()).strip(" \n\t;")


# Read once, so that a running process has one consistent idea of its schema version.
MIGRATIONS = load_migrations()
LATEST_VERSION = len(MIGRATIONS)


def _decode_text(b: bytes) -> str:
    return b.decode("utf-8", "replace")


async def connect(
    path: str | Path, *, synchronous: str = "NORMAL", read_only: bool = False
) -> aiosqlite.Connection:
    """An aiosqlite connection in autocommit mode (the store issues BEGIN/COMMIT itself),
    WAL journal, foreign keys on, rows as sqlite3.Row."""
    synchronous = synchronous.upper()
    if synchronous not in SYNCHRONOUS_MODES:
        raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}, not {synchronous!r}")
    if read_only:
        db = await aiosqlite.connect(
            f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_S
        )
    else:
        db = await aiosqlite.connect(str(path), isolation_level=None, timeout=BUSY_TIMEOUT_S)
    try:
        db.row_factory = sqlite3.Row
        # A damaged text cell must not make every query that touches it fail with a decode
        # error: decode leniently, and let the JSON/pydantic checks name the broken game.
        db.text_factory = _decode_text
        if not read_only:
            async with db.execute("PRAGMA journal_mode=WAL") as cur:
                row = await cur.fetchone()
            if row is None or str(row[0]).lower() != "wal":
                raise sqlite3.OperationalError(f"could not switch {path} to WAL mode (got {row and row[0]})")
            # Keep the WAL file from growing without bound after a burst of writes.
            await db.execute("PRAGMA journal_size_limit=67108864")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute(f"PRAGMA synchronous={synchronous}")
        await db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
    except BaseException:
        await db.close()
        raise
    return db


async def schema_version(db: aiosqlite.Connection) -> int:
    """The highest migration applied to this database (0 for an empty database)."""
    async with db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ) as cur:
        if await cur.fetchone() is None:
            return 0
    async with db.execute("SELECT coalesce(max(version), 0) FROM schema_migrations") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def _check_applied(db: aiosqlite.Connection, label: str, migrations: list[Migration], current: int) -> None:
    """The migrations recorded in the database must be this code's first ``current`` ones."""
    async with db.execute("SELECT version, name FROM schema_migrations ORDER BY version") as cur:
        applied = [(int(r[0]), str(r[1])) for r in await cur.fetchall()]
    expected = [(m.version, m.name) for m in migrations[:current]]
    if applied != expected:  # e.g. two branches each added their own migration 0002
        raise MigrationError(f"{label} has migrations {applied}, which do not match this code's {expected}")


async def migrate(
    db: aiosqlite.Connection,
    label: str,
    *,
    target: int | None = None,
    migrations: list[Migration] | None = None,
) -> int:
    """Bring the schema up to ``target`` (default: the newest).  Returns the version reached.
    ``label`` names the database in error messages."""
    migrations = MIGRATIONS if migrations is None else migrations
    newest = len(migrations)
    target = newest if target is None else target
    if not 0 <= target <= newest:
        raise ValueError(f"no migration {target} (have 1..{newest})")
    current = await schema_version(db)
    if current > newest:
        raise SchemaTooNew(label, current, newest)
    if current >= target:
        if current:
            await _check_applied(db, label, migrations, current)
        return current
    await db.execute("PRAGMA foreign_keys=OFF")  # no-op inside a transaction, so do it before BEGIN
    try:
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
            # Re-read under the write lock: another process may have migrated meanwhile.
            current = await schema_version(db)
            if current > newest:
                raise SchemaTooNew(label, current, newest)
            await _check_applied(db, label, migrations, current)
            for mig in migrations[current:target]:
                for stmt in split_sql(mig.sql):
                    try:
                        await db.execute(stmt)
                    except sqlite3.Error as e:
                        raise MigrationError(
                            f"migration {mig.version:04d}_{mig.name} failed on {label}: {e}\n{stmt[:200]}"
                        ) from e
                await db.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (mig.version, mig.name, time.time()),
                )
            async with db.execute("PRAGMA foreign_key_check") as cur:
                bad = await cur.fetchall()
            if bad:
                sample = [tuple(r) for r in bad][:5]
                raise MigrationError(f"migrations left foreign-key violations in {label}: {sample}")
            await db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
    finally:
        await db.execute("PRAGMA foreign_keys=ON")
    return max(current, target)
