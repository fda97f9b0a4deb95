"""Admin tools for the games database.

    python -m bot.store verify DB         # integrity, schema version, every game replays to its snapshot
    python -m bot.store backup DB DEST    # online copy (safe while the bot is running)
    python -m bot.store copy SRC DST      # every game into an empty database, verified by replay

DB, SRC and DST are SQLite files or postgresql:// URLs (a PostgreSQL backup is a pg_dump
archive when pg_dump is installed, else a SQLite file).

``verify`` prints one line per problem and exits 1 if there is any (0 and a summary line
otherwise); it never writes to the database.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path

from bot.store import db as dbmod
from bot.store.connection import backup_database
from bot.store.copy import backup_postgres, copy_database, label
from bot.store.errors import StoreError
from bot.store.postgres import is_postgres_url, redacted
from bot.store.store import Store


def _schema_version(conn: sqlite3.Connection) -> int:
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").fetchone():
        return int(conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()[0])
    return 0


async def verify_postgres(url: str) -> list[str]:
    try:
        store = await Store.open(url, read_only=True, cache_size=0)
    except Exception as e:  # unreachable server, wrong schema version...
        return [f"{redacted(url)}: {e}"]
    try:
        problems = [f"integrity: {p}" for p in await store.integrity.integrity_check()]
        bad = await store.integrity.verify_all(None)
    finally:
        await store.close()
    return problems + [f"game {e.game_id}: {e.reason}" for e in bad]


async def verify(path: Path | str) -> list[str]:
    """Every problem found in the database at ``path`` (empty: all good)."""
    if is_postgres_url(path):
        return await verify_postgres(str(path))
    path = Path(path)
    if not path.is_file():
        return [f"{path}: no such database file"]
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            problems = [f"integrity: {r[0]}" for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
            problems += [f"foreign key: {tuple(r)}" for r in conn.execute("PRAGMA foreign_key_check")]
            version = _schema_version(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        return [f"{path}: not a readable SQLite database: {e}"]
    if version > dbmod.LATEST_VERSION:
        return [*problems, f"schema: version {version} is newer than this code's {dbmod.LATEST_VERSION}"]
    if version < dbmod.LATEST_VERSION:
        return [*problems, f"schema: version {version} is older than {dbmod.LATEST_VERSION} (not migrated yet)"]
    store = await Store.open(path, read_only=True, cache_size=0)
    try:
        bad = await store.integrity.verify_all(None)
    finally:
        await store.close()
    return problems + [f"game {e.game_id}: {e.reason}" for e in bad]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.store", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_verify = sub.add_parser("verify", help="check a database")
    p_verify.add_argument("db", type=_target)
    p_backup = sub.add_parser("backup", help="make an online copy of a database")
    p_backup.add_argument("db", type=_target)
    p_backup.add_argument("dest", type=Path)
    p_copy = sub.add_parser("copy", help="copy every game into an empty database (SQLite <-> PostgreSQL)")
    p_copy.add_argument("src", type=_target)
    p_copy.add_argument("dst", type=_target)
    args = parser.parse_args(argv)

    if args.command == "verify":
        name = label(args.db)
        problems = asyncio.run(verify(args.db))
        for line in problems:
            print(line)
        if problems:
            print(f"{name}: {len(problems)} problem(s)", file=sys.stderr)
            return 1
        print(f"{name}: ok")
        return 0
    if args.command == "copy":
        try:
            report = asyncio.run(copy_database(args.src, args.dst, Store.open))
        except (OSError, StoreError) as e:
            print(f"copy failed: {e}", file=sys.stderr)
            return 1
        print(f"copied {label(args.src)} to {label(args.dst)}: {report.summary()}")
        return 0
    try:
        if is_postgres_url(args.db):
            dest = asyncio.run(backup_postgres(args.db, args.dest, Store.open))
        else:
            dest = backup_database(args.db, args.dest)
    except (OSError, sqlite3.Error, StoreError) as e:
        print(f"backup failed: {e}", file=sys.stderr)
        return 1
    print(f"backed up {label(args.db)} to {dest} ({dest.stat().st_size} bytes)")
    return 0


def _target(text: str) -> Path | str:
    """A postgresql:// URL stays text; anything else is a SQLite file path."""
    return text if is_postgres_url(text) else Path(text)


if __name__ == "__main__":
    sys.exit(main())
