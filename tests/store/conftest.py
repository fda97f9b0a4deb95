"""Fixtures for the store tests: real databases, no mocks.

Every test that asks for ``store`` (or ``db_path``, the place the store opens) runs twice:
on a real SQLite file in tmp_path and on a fresh database of the session's private
PostgreSQL server (tests/postgres.py).  ``sqlite_path`` is for the tests of SQLite's own
machinery (its files, PRAGMAs, the online backup API).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store

from .helpers import FakeClock

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_path(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where the store lives: a SQLite file, or a postgresql:// URL."""
    if backend == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return tmp_path / "games.db"


@pytest.fixture(autouse=True)
def logical_postgres_backups(monkeypatch: pytest.MonkeyPatch) -> None:
    """Backups of PostgreSQL are logical exports (SQLite files) here, whatever pg_dump the
    machine has; test_postgres.py checks the pg_dump archive with the bundled pg_dump."""
    monkeypatch.setenv("PG_DUMP", "")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(db_path: Path | str, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=clock)
    try:
        yield s
    finally:
        await s.close()
