"""PostgreSQL's own machinery (issue 19): its migrations mirror SQLite's, a newer or foreign
schema is refused, backups (pg_dump archive or logical export), and ``copy`` SQLite <->
PostgreSQL verified by replay.  The rest of tests/store runs on both databases."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from bot.store import MigrationError, SchemaTooNew, Status, Store
from bot.store import db as dbmod
from bot.store import postgres as pg
from bot.store.__main__ import main as cli
from bot.store.copy import copy_database
from bot.store.db import Migration
from bot.store.local_postgres import LocalPostgres

from .helpers import play, play_to_end, sql, start_game


def test_migrations_mirror_sqlites() -> None:
    assert [(m.version, m.name) for m in pg.MIGRATIONS] == [(m.version, m.name) for m in dbmod.MIGRATIONS]


def test_placeholders_become_numbered_outside_quotes() -> None:
    assert pg.to_postgres("SELECT ? , '?' , \"a?\" FROM t WHERE x = ? -- ?\n AND y IN (?, ?)") == (
        "SELECT $1 , '?' , \"a?\" FROM t WHERE x = $2 -- ?\n AND y IN ($3, $4)"
    )


def tables(url: str) -> list[str]:
    return [r[0] for r in sql(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")]


async def test_fresh_database_reopened_and_refusals(postgres_url: str, sqlite_path: Path) -> None:
    await (await Store.open(postgres_url)).close()
    versions = [r[0] for r in sql(postgres_url, "SELECT version FROM schema_migrations ORDER BY version")]
    assert versions == list(range(1, pg.LATEST_VERSION + 1))
    await (await Store.open(sqlite_path)).close()
    lite = [r[0] for r in sql(sqlite_path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    assert tables(postgres_url) == lite  # the same tables on both
    before = tables(postgres_url)
    async with await Store.open(postgres_url) as store:  # reopening changes nothing
        assert (await store.create_lobby(1, 2, 3)).id == 1
    assert tables(postgres_url) == before and len(sql(postgres_url, "SELECT * FROM schema_migrations")) == len(versions)

    sql(postgres_url, "INSERT INTO schema_migrations VALUES (?, 'from_the_future', 0)", (pg.LATEST_VERSION + 1,))
    with pytest.raises(SchemaTooNew):
        await Store.open(postgres_url)
    sql(postgres_url, "DELETE FROM schema_migrations WHERE name = 'from_the_future'")
    sql(postgres_url, "UPDATE schema_migrations SET name = 'someone_elses' WHERE version = 2")
    with pytest.raises(MigrationError, match="do not match"):
        await Store.open(postgres_url)


async def test_a_failed_migration_leaves_the_database_as_it_was(postgres_url: str) -> None:
    broken = [*pg.MIGRATIONS[:2], Migration(3, "broken", "CREATE TABLE fine (x int); CREATE TABLE oops (;")]
    writer = pg._Worker(postgres_url, "test")
    await writer.start()
    db = pg.PostgresDatabase(postgres_url, writer, writer)
    try:
        with pytest.raises(MigrationError, match="0003_broken"):
            await db.migrate(migrations=broken)
        assert await db.schema_version() == 0
    finally:
        await writer.close()
    assert tables(postgres_url) == []
    with pytest.raises(Exception, match="older than this code"):
        await Store.open(postgres_url, migrate=False)


async def test_copy_sqlite_to_postgresql_and_back(sqlite_path: Path, postgres_url: str, tmp_path: Path) -> None:
    async with await Store.open(sqlite_path) as store:
        done, _ = await start_game(store, channel=1, players=3, seed=4)
        await play_to_end(store, done.id, 4)
        active, _ = await start_game(store, channel=2, seed=2)
        await play(store, active.id, 7)
        await store.create_lobby(1, 3, 30)
        board = await store.leaderboard(1)
    report = await copy_database(sqlite_path, postgres_url)
    assert report.games == 3 and report.rows["moves"] > 7
    async with await Store.open(postgres_url) as store:
        assert await store.leaderboard(1) == board
        lobby = await store.create_lobby(1, 4, 40)  # new ids continue after the copied ones
        assert lobby.id == 4
        await play(store, active.id, 2)  # the copied game goes on
    back = tmp_path / "back.db"
    assert await asyncio.to_thread(cli, ["copy", postgres_url, str(back)]) == 0
    async with await Store.open(back) as store:
        assert sorted(g.id for g in await store.list_games(list(Status))) == [1, 2, 3, 4]
        assert (await store.get_game(active.id)).version == 9
    assert (
        await asyncio.to_thread(cli, ["verify", str(back)]) == 0
        and await asyncio.to_thread(cli, ["verify", postgres_url]) == 0
    )
    assert (
        await asyncio.to_thread(cli, ["copy", str(sqlite_path), postgres_url]) == 1
    )  # never into a database that has games


async def test_pg_dump_archive_when_pg_dump_is_there(
    postgres_url: str, postgres_server: LocalPostgres, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await Store.open(postgres_url) as store:
        rec, _ = await start_game(store, channel=1)
        await play(store, rec.id, 5)
    monkeypatch.setenv("PG_DUMP", str(postgres_server.bin_dir / "pg_dump"))
    assert await asyncio.to_thread(cli, ["backup", postgres_url, str(tmp_path / "dump")]) == 0
    listing = subprocess.run(
        [str(postgres_server.bin_dir / "pg_restore"), "--list", str(tmp_path / "dump")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "TABLE DATA public moves" in listing and "TABLE DATA public snapshots" in listing
    monkeypatch.setenv("PG_DUMP", "")  # the logical export: a SQLite file that verify checks
    assert await asyncio.to_thread(cli, ["backup", postgres_url, str(tmp_path / "export.db")]) == 0
    assert await asyncio.to_thread(cli, ["verify", str(tmp_path / "export.db")]) == 0
