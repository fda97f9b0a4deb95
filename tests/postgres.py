"""Pytest fixtures: one private PostgreSQL server per test session, a fresh database per test.

The server is the ``pgserver`` wheel's PostgreSQL 16 (installed with the ``test`` extra), started
in a temporary folder on first use (about a second) and stopped at the end of the session, so
the README's test command needs nothing installed on the machine. Registered in
``tests/conftest.py``; tests ask for ``postgres_url``.
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store.local_postgres import LocalPostgres

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[LocalPostgres]:
    # A folder of its own, not pytest's basetemp: pytest deletes old basetemps when other
    # sessions start, which would pull the data folder from under a running server.
    server = LocalPostgres(Path(tempfile.mkdtemp(prefix="cubist-pg-")) / "data", fast=True).start()
    try:
        yield server
    finally:
        server.stop()
        server.directory.parent.rmdir()


@pytest.fixture
def postgres_url(postgres_server: LocalPostgres) -> Iterator[str]:
    """The URL of a new, empty database on the session's server (dropped after the test)."""
    name = f"test_{next(_numbers)}"
    url = postgres_server.create_database(name)
    try:
        yield url
    finally:
        postgres_server.drop_database(name)
