"""Migrations: from an empty file, from every earlier version, re-opening, refusing newer DBs."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.store import MigrationError, SchemaTooNew, Store
from bot.store import db as dbmod
from bot.store.db import Migration, load_migrations, split_sql

from .helpers import play, start_game


def structure(path: Path) -> dict[str, object]:
    """The schema as structure (columns, indexes, their SQL conditions), independent of how
    each migration spelled it (ALTER TABLE vs a CREATE with the column)."""
    conn = sqlite3.connect(path)
    try:
        out: dict[str, object] = {}
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            out[f"table {name}"] = [tuple(r) for r in conn.execute(f"PRAGMA table_xinfo({name})")]
            out[f"fks {name}"] = sorted(tuple(r[2:]) for r in conn.execute(f"PRAGMA foreign_key_list({name})"))
        for name, table, sql in conn.execute(
            "SELECT name, tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'trigger', 'view') ORDER BY name"
        ):
            cols = [tuple(r) for r in conn.execute(f"PRAGMA index_xinfo({name})")]
            where = sql.split(" WHERE ", 1)[1] if sql and " WHERE " in sql else None
            out[f"index {name}"] = (table, cols, where)
        return out
    finally:
        conn.close()


def versions(path: Path) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
    finally:
        conn.close()


def test_migration_files_are_numbered_and_parse() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert dbmod.LATEST_VERSION == len(migrations) >= 1
    for m in migrations:
        assert split_sql(m.sql), m.name


def test_split_sql_keeps_triggers_whole() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (x);
    CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN
        UPDATE t SET x = x + 1; SELECT 1;
    END;
    """
    stmts = split_sql(script)
    assert len(stmts) == 2
    assert stmts[1].startswith("CREATE TRIGGER") and stmts[1].endswith("END;")


async def test_fresh_database(sqlite_path: Path) -> None:
    store = await Store.open(sqlite_path)
    await store.close()
    assert versions(sqlite_path) == list(range(1, dbmod.LATEST_VERSION + 1))
    conn = sqlite3.connect(sqlite_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


async def test_pragmas_on_each_connection(sqlite_path: Path) -> None:
    store = await Store.open(sqlite_path, synchronous="FULL")
    try:
        for conn in (store._writer, store._reader):
            async with conn.execute("PRAGMA foreign_keys") as cur:
                assert (await cur.fetchone())[0] == 1
            async with conn.execute("PRAGMA synchronous") as cur:
                assert (await cur.fetchone())[0] == 2  # FULL
    finally:
        await store.close()


async def test_reopening_an_up_to_date_database_changes_nothing(sqlite_path: Path) -> None:
    store = await Store.open(sqlite_path)
    rec, _ = await start_game(store, channel=1)
    await play(store, rec.id, 5)
    await store.close()
    before = (structure(sqlite_path), versions(sqlite_path))
    store = await Store.open(sqlite_path)
    try:
        assert (structure(sqlite_path), versions(sqlite_path)) == before
        record, game = await store.games.load_game(rec.id)
        assert record.version == len(game.log) == 5
    finally:
        await store.close()


# One case per earlier schema version (0 = empty file): a later migration is covered as
# soon as its file exists.
@pytest.mark.parametrize("start", range(dbmod.LATEST_VERSION))
async def test_upgrade_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    fresh = tmp_path / "fresh.db"
    await (await Store.open(fresh)).close()

    old = tmp_path / "old.db"
    conn = await dbmod.connect(old)
    try:
        assert await dbmod.migrate(conn, str(old), target=start) == start
        assert await dbmod.schema_version(conn) == start
        if start >= 1:  # some data written by the old schema must survive the upgrade
            await conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, creator_id, created_at, updated_at)"
                " VALUES (77, 1, 700, 7, 1.0, 1.0)"
            )
    finally:
        await conn.close()

    store = await Store.open(old)
    try:
        assert structure(old) == structure(fresh)
        assert versions(old) == list(range(1, dbmod.LATEST_VERSION + 1))
        if start >= 1:
            assert (await store.games.get_game(77)).channel_id == 700
        rec, _ = await start_game(store, channel=5)
        _, version = await play(store, rec.id, 3)
        assert version == 3
        await store.integrity.verify_game(rec.id)
    finally:
        await store.close()


async def test_newer_database_is_refused(sqlite_path: Path) -> None:
    await (await Store.open(sqlite_path)).close()
    conn = sqlite3.connect(sqlite_path)
    conn.execute(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from_the_future', 0)",
        (dbmod.LATEST_VERSION + 1,),
    )
    conn.commit()
    conn.close()
    before = structure(sqlite_path)
    with pytest.raises(SchemaTooNew) as info:
        await Store.open(sqlite_path)
    assert info.value.db_version == dbmod.LATEST_VERSION + 1
    assert "refusing to start" in str(info.value) and str(sqlite_path) in str(info.value)
    with pytest.raises(SchemaTooNew):
        await Store.open(sqlite_path, migrate=False)
    assert structure(sqlite_path) == before


async def test_failed_migration_rolls_back_all_pending(sqlite_path: Path) -> None:
    good = load_migrations()
    broken = [*good, Migration(len(good) + 1, "broken", "CREATE TABLE extra (x);\nTHIS IS NOT SQL;")]
    conn = await dbmod.connect(sqlite_path)
    try:
        with pytest.raises(MigrationError, match="broken"):
            await dbmod.migrate(conn, str(sqlite_path), migrations=broken)
        # Everything, including the good migrations in the same run, was rolled back.
        assert await dbmod.schema_version(conn) == 0
        async with conn.execute("SELECT count(*) FROM sqlite_master WHERE name IN ('extra', 'games')") as cur:
            assert (await cur.fetchone())[0] == 0
        assert not conn.in_transaction
        async with conn.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone())[0] == 1
    finally:
        await conn.close()
    store = await Store.open(sqlite_path)  # the real migrations still apply afterwards
    await store.close()
    assert versions(sqlite_path) == list(range(1, dbmod.LATEST_VERSION + 1))


async def test_out_of_date_schema_without_migrating_is_an_error(sqlite_path: Path) -> None:
    conn = await dbmod.connect(sqlite_path)
    await conn.close()
    with pytest.raises(Exception, match="older than"):
        await Store.open(sqlite_path, migrate=False)


async def test_a_different_migration_history_is_refused(sqlite_path: Path) -> None:
    await (await Store.open(sqlite_path)).close()
    conn = sqlite3.connect(sqlite_path)
    conn.execute("UPDATE schema_migrations SET name = 'someone_elses' WHERE version = 1")
    conn.commit()
    conn.close()
    with pytest.raises(MigrationError, match="someone_elses"):
        await Store.open(sqlite_path)


async def test_background_checkpoint_puts_commits_in_the_main_file(tmp_path: Path) -> None:
    path = tmp_path / "ck.db"
    store = await Store.open(path, checkpoint_interval=0.05)
    try:
        rec, _ = await start_game(store, channel=1)
        await play(store, rec.id, 5)
        # Without any further commit, the main file alone (without its WAL) comes to hold
        # every move: the checkpointer runs on its own.
        copy = tmp_path / "main-only.db"
        loop = asyncio.get_running_loop()
        hang_guard = loop.time() + 60
        while moves_in_main_file(path, copy) != 5:
            assert loop.time() < hang_guard, "the background checkpointer never copied the moves into the main file"
            await asyncio.sleep(0.05)
    finally:
        await store.close()


def moves_in_main_file(path: Path, copy: Path) -> int:
    """The moves a copy of the main file holds without its WAL (0 before its first checkpoint)."""
    shutil.copyfile(path, copy)
    conn = sqlite3.connect(copy)
    try:
        return int(conn.execute("SELECT count(*) FROM moves").fetchone()[0])
    except sqlite3.DatabaseError:  # no tables yet (the schema still only in the WAL), or a copy torn mid-checkpoint
        return 0
    finally:
        conn.close()
