"""The test PostgreSQL server the project starts by itself (tests/postgres.py)."""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped]

from bot.store.local_postgres import LocalPostgres


async def test_each_test_gets_its_own_empty_database(postgres_url: str, postgres_server: LocalPostgres) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        version = await conn.fetchval("SHOW server_version_num")
        assert int(version) >= 160000
        tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        assert tables == []
        await conn.execute("CREATE TABLE marker (x int)")
        database = await conn.fetchval("SELECT current_database()")
    finally:
        await conn.close()
    # Another database on the same server does not see this one's table.
    other = postgres_server.create_database("other_than_" + database)
    conn = await asyncpg.connect(other)
    try:
        assert await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'") == []
    finally:
        await conn.close()
        postgres_server.drop_database("other_than_" + database)


def test_bundled_tools_are_there(postgres_server: LocalPostgres) -> None:
    # `python -m bot.store backup` uses pg_dump when it is present; the wheel ships it.
    assert (postgres_server.bin_dir / "pg_dump").exists()
    assert postgres_server.psql("SELECT 1 + 1").strip() == "2"
