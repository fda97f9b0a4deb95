"""Checks before the bot connects: the database must be readable, sound and writable.

Each problem is one line naming the file and what to do (``python -m bot.store verify`` or
``backup``), instead of a traceback or a bot that connects and then cannot save a move."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.i18n import t
from bot.store import Store
from bot.store.errors import cannot_write
from bot.store.postgres import redacted


class StartupError(Exception):
    """The bot must not start; the message is one line for the operator."""


def check_database(path: Path) -> None:
    """Raises StartupError when ``path`` is corrupt or cannot be written."""
    path = Path(path)
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=10)
    except sqlite3.Error as e:
        raise StartupError(t("startup.cannot_write", "en", path=str(path), reason=str(e))) from None
    try:
        bad = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall() if r[0] != "ok"]
        if bad:
            raise StartupError(t("startup.corrupt", "en", path=str(path), reason=bad[0][:200]))
        # A write that leaves nothing behind: proves the file (and its journal) take writes.
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE IF NOT EXISTS startup_write_check (at REAL)")
        conn.execute("DROP TABLE startup_write_check")
        conn.execute("COMMIT")
    except sqlite3.Error as e:
        key = "startup.cannot_write" if cannot_write(e) else "startup.corrupt"
        raise StartupError(t(key, "en", path=str(path), reason=str(e))) from None
    finally:
        conn.close()


def check_postgres(url: str) -> None:
    """Raises StartupError when the PostgreSQL database cannot be opened (unreachable server,
    wrong credentials, a schema newer than this code); applies pending migrations."""

    async def probe() -> None:
        store = await Store.open(url, cache_size=0)
        await store.close()

    try:
        asyncio.run(probe())
    except Exception as e:  # OSError, asyncpg's errors, SchemaTooNew, MigrationError
        reason = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
        raise StartupError(t("startup.database_unreachable", "en", where=redacted(url), reason=reason)) from None
