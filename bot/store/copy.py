"""Moving every game between databases: ``python -m bot.store copy SRC DST`` (SQLite to
PostgreSQL and back), and the logical backup of a PostgreSQL database when ``pg_dump`` is
not installed (a SQLite file that ``verify`` checks and ``copy`` brings back).

A copy reads every table of the source in one read transaction (one consistent view, the
source keeps running) and writes them into the empty destination in one write transaction,
so the destination has all of it or nothing.  It is then verified by replay: every game of
the destination replays from its move list to its snapshot, and every table holds as many
rows as the source's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bot.store.connection import Database, Tx
from bot.store.errors import StoreError
from bot.store.postgres import is_postgres_url, redacted


class Verifier(Protocol):
    async def verify_all(self, progress: Any = ...) -> list[Any]: ...


class Opened(Protocol):
    """What a copy needs of an open store (``bot.store.Store`` is one)."""

    db: Database

    @property
    def integrity(self) -> Verifier: ...

    async def close(self) -> None: ...


# ``Store.open``: the copy is handed the opener, so that the store (whose ``backup`` uses
# this module) and the copy do not import each other.
Opener = Callable[..., Awaitable[Opened]]


@dataclass(frozen=True, slots=True)
class CopyReport:
    rows: dict[str, int]  # table -> rows copied
    games: int  # games verified by replay in the destination

    def summary(self) -> str:
        total = sum(self.rows.values())
        return f"{self.games} games, {total} rows in {len(self.rows)} tables, every game replayed to its snapshot"


async def _tables(tx: Tx) -> list[str]:
    """The store's tables, ``games`` first (every other table's rows point at a game)."""
    if tx.dialect.name == "postgresql":
        rows = await tx.all("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()")
    else:
        rows = await tx.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    names = sorted(str(r["name"]) for r in rows if r["name"] != "schema_migrations")
    return sorted(names, key=lambda n: n != "games")


async def _columns(tx: Tx, table: str) -> list[str]:
    if tx.dialect.name == "postgresql":
        rows = await tx.all(
            "SELECT column_name AS name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
    else:
        rows = await tx.all(f"SELECT name FROM pragma_table_info('{table}')")
    return [str(r["name"]) for r in rows]


async def _read_everything(tx: Tx) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    out = {}
    for table in await _tables(tx):
        columns = await _columns(tx, table)
        rows = await tx.all(f"SELECT {', '.join(columns)} FROM {table}")
        out[table] = (columns, [tuple(r) for r in rows])
    return out


def label(target: str | Path) -> str:
    return redacted(str(target)) if is_postgres_url(target) else str(target)


async def copy_database(src: str | Path, dst: str | Path, opener: Opener) -> CopyReport:
    """Copies every row of ``src`` into ``dst`` (created and migrated if needed; it must hold
    no game yet), then verifies ``dst`` by replay.  Raises StoreError on any problem."""
    source = await opener(src, read_only=True, cache_size=0, checkpoint_interval=None)
    try:
        data = await source.db.read(_read_everything)
    finally:
        await source.close()
    dest = await opener(dst, cache_size=0, checkpoint_interval=None)
    try:

        async def write(tx: Tx) -> dict[str, int]:
            if (await tx.one("SELECT count(*) AS n FROM games"))["n"]:
                raise StoreError(f"{label(dst)} already holds games: copy only into an empty database")
            wanted = set(await _tables(tx))
            missing = sorted(set(data) - wanted)
            if missing:
                raise StoreError(f"{label(dst)} has no tables {missing}: is it an older version?")
            copied = {}
            for table, (columns, rows) in data.items():
                have = set(await _columns(tx, table))
                lost = [c for c in columns if c not in have]
                if lost:
                    raise StoreError(f"{label(dst)}: table {table} has no columns {lost}")
                await tx.execute(f"DELETE FROM {table}")  # rows a migration seeded, if any
                marks = tx.dialect.params(len(columns))
                await tx.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
                copied[table] = len(rows)
                if tx.dialect.name == "postgresql" and "id" in columns:
                    # New rows must not reuse the copied ids.
                    await tx.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" (SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
                    )
            return copied

        copied = await dest.db.write(write)
        problems = await dest.integrity.verify_all(None)
        if problems:
            raise StoreError(f"the copy in {label(dst)} does not replay: " + "; ".join(str(p) for p in problems[:5]))

        async def count(tx: Tx) -> dict[str, int]:
            return {t: int((await tx.one(f"SELECT count(*) AS n FROM {t}"))["n"]) for t in data}

        counts = await dest.db.read(count)
        if counts != {t: len(rows) for t, (_, rows) in data.items()}:
            raise StoreError(f"the copy in {label(dst)} holds {counts}, not what was read")
        return CopyReport(copied, copied.get("games", 0))
    finally:
        await dest.close()


def pg_dump_program() -> str | None:
    """``pg_dump`` to use: $PG_DUMP, else the one on PATH; None (not installed, or ``PG_DUMP=``
    set empty): the logical export."""
    chosen = os.environ.get("PG_DUMP")
    if chosen is not None:
        return chosen.strip() or None
    return shutil.which("pg_dump")


async def backup_postgres(url: str, dest: Path, opener: Opener) -> Path:
    """A backup of a PostgreSQL store: ``pg_dump --format=custom`` (restore with
    ``pg_restore``) when pg_dump is installed, else a logical export into a new SQLite file
    at ``dest``, verified by replay (``python -m bot.store copy DEST postgresql://...``
    brings it back)."""
    program = pg_dump_program()
    tmp = dest.with_name(dest.name + ".partial")
    tmp.unlink(missing_ok=True)
    if program is not None:
        result = subprocess.run(
            [program, "--format=custom", "--no-owner", f"--file={tmp}", url], capture_output=True, text=True
        )
        if result.returncode != 0:
            tmp.unlink(missing_ok=True)
            raise StoreError(
                f"pg_dump of {redacted(url)} failed: {result.stderr.strip()[:500]}"
                " (PG_DUMP= set empty makes a logical export into a SQLite file instead)"
            )
    else:
        try:
            await copy_database(url, tmp, opener)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    os.replace(tmp, dest)
    return dest
