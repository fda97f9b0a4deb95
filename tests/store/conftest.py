"""Fixtures for the store tests: real SQLite files in tmp_path, no mocks."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store

from .helpers import FakeClock


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(db_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=clock)
    try:
        yield s
    finally:
        await s.close()
