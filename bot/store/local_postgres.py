"""A private PostgreSQL server in a folder, for the tests, the benchmarks and trying things out.

It runs the PostgreSQL 16 binaries of the ``pgserver`` wheel (installed with the ``test``
extra), listening on a Unix socket inside the folder only, so nothing has to be installed
or configured on the machine. The running bot never imports this module: in production
``DATABASE_URL`` names a real server.

    with LocalPostgres(Path("/tmp/pg")) as server:
        url = server.url()          # postgresql://postgres:@/postgres?host=...
        ...

``fast=True`` switches off fsync and synchronous commits (a test server that may lose its
last transactions in a power cut, never in a crash of a client); the benchmark keeps them on.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import warnings
from pathlib import Path
from types import TracebackType
from typing import Any

# Settings for a throw-away test server: durability is not what the tests measure.
FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


def _pgserver() -> Any:
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (CI, containers); pgserver then uses /tmp.
        warnings.simplefilter("ignore")
        import pgserver  # type: ignore[import-untyped]

    return pgserver


class LocalPostgres:
    """One private server whose data lives in ``directory`` (deleted again by ``stop``)."""

    def __init__(self, directory: Path, *, fast: bool = False) -> None:
        self.directory = directory
        self.fast = fast
        self._server: Any = None

    def start(self) -> LocalPostgres:
        pgserver = _pgserver()
        self.directory.mkdir(parents=True, exist_ok=True)
        self._server = pgserver.get_server(self.directory, cleanup_mode="delete")
        if self.fast:
            for name, value in FAST_SETTINGS.items():
                self.psql(f"ALTER SYSTEM SET {name} = '{value}'")
            self.psql("SELECT pg_reload_conf()")
        return self

    def url(self, database: str = "postgres") -> str:
        """A libpq/asyncpg URL for ``database`` on this server (Unix socket, user ``postgres``)."""
        if self._server is None:
            raise RuntimeError("LocalPostgres.start() has not been called")
        return str(self._server.get_uri(database=database))

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Runs one statement with the bundled ``psql`` and returns its unaligned output."""
        result = subprocess.run(
            [str(self.bin_dir / "psql"), "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql, self.url(database)],
            check=True,
            capture_output=True,
            text=True,
        )
        return result.stdout

    def create_database(self, name: str) -> str:
        """A new empty database; returns its URL."""
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    @property
    def bin_dir(self) -> Path:
        """Where ``pg_dump``, ``psql`` and the server live."""
        return Path(_pgserver()._commands.POSTGRES_BIN_PATH)

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.cleanup()
        with contextlib.suppress(FileNotFoundError):
            shutil.rmtree(self.directory)

    def __enter__(self) -> LocalPostgres:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
