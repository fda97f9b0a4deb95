"""Bot processes (``python -m bot``) on the stand-in, for the tests that kill one with SIGKILL
and start another: their environment, the wait for what they do, the kill, the clean-up."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from standin import StandIn
from standin.pytest_plugin import bot_environment

ROOT = Path(__file__).resolve().parents[2]


def bot_env(standin: StandIn, **settings: str) -> dict[str, str]:
    """A bot process's environment on ``standin``, then ``settings``: this checkout's code, a
    short job lease (2 s) so that a killed process's jobs are soon taken over, no lobby cooldown."""
    return (
        os.environ
        | bot_environment(standin)
        | {"PYTHONPATH": str(ROOT), "JOB_LEASE_SECONDS": "2", "LOBBY_COOLDOWN": "0"}
        | settings
    )


async def until(
    condition: Callable[[], object], what: str | Callable[[], object], timeout: float = 120.0, every: float = 0.01
) -> None:
    """Waits for ``condition``; the timeout is a hang guard, far above any wait on a busy
    machine.  ``what`` says what never came (called then, when it tells the state it found)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, what() if callable(what) else what
        await asyncio.sleep(every)


async def kill(process: asyncio.subprocess.Process) -> None:
    """SIGKILL: the process stops where it stands, as in a crash, with nothing tidied up."""
    if process.returncode is None:
        process.send_signal(signal.SIGKILL)
    await process.wait()


def db_rows(db: Path, sql: str, *params: object) -> list[tuple]:
    """Rows read straight from the database file the processes share."""
    with sqlite3.connect(db, timeout=10) as conn:
        return conn.execute(sql, params).fetchall()


def pending_one_offs(db: Path) -> list[tuple]:
    """The turn posts and turn DMs queued and not yet sent (nor given up)."""
    return db_rows(db, "SELECT * FROM jobs WHERE slot IS NULL AND due_at IS NOT NULL")


class BotProcesses:
    """Bot processes on one SQLite file, started one after another: the last is the live one.
    Leaving the ``async with`` kills any still running; the stand-in's record of the requests
    that a kill cut short is dropped (they are the test's doing, not the bot's)."""

    def __init__(self, standin: StandIn, db: Path, **settings: str) -> None:
        self.standin = standin
        self.db = db
        self.env = bot_env(standin, DATABASE_PATH=str(db), **settings)
        self.started: list[asyncio.subprocess.Process] = []

    async def start(self) -> None:
        self.started.append(
            await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=self.env, cwd=self.db.parent)
        )
        # Identified is enough: the guilds reach the bot on the gateway before any interaction.
        await self.standin.gateway.wait_identified(count=len(self.started), timeout=60)

    async def kill_last(self) -> None:
        await kill(self.started[-1])

    async def __aenter__(self) -> BotProcesses:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        for process in self.started:
            await kill(process)
        self.standin.take_errors()
        self.standin.take_violations()
