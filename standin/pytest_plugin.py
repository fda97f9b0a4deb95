"""Pytest plugin: a Discord stand-in per test, and real discord.py clients connected to it.

Enable with `pytest_plugins = ["standin.pytest_plugin"]` in the top-level conftest (this project's
`tests/conftest.py` does). The `standin` package is installed with the project, so any test tree can.

    async def test_new_game(standin, run_bot):
        guild = standin.add_guild("Club")
        games = standin.add_channel(guild, "games")
        alice = standin.add_user("alice")
        await run_bot(make_my_bot())          # in-process discord.Client / commands.Bot
        result = await alice.slash(games, "cubist lobby new", players=3)
        assert not result.ephemeral

Teardown fails the test if the stand-in recorded unknown endpoints/errors or limit
violations. A test that provokes violations on purpose collects them with
`standin.take_violations()` (and `standin.take_errors()`) and asserts on them.

Build the world (guilds, channels, users) before `run_bot` so it arrives in READY /
GUILD_CREATE; later additions are dispatched as GUILD_CREATE / CHANNEL_CREATE events.
discord.py fires on_ready only `guild_ready_timeout` seconds (default 2 s) after the
last GUILD_CREATE: construct test clients with e.g. `guild_ready_timeout=0.05`.

Running the bot as a subprocess instead: start the stand-in in the test
(`standin.url`, `standin.token`), launch the bot with its usual entry point and the
environment from `bot_environment(standin)` (DISCORD_API_BASE, DISCORD_TOKEN), then
`await standin.gateway.wait_identified()` before acting as users, and terminate the
process at the end. `python -m standin` runs a stand-in on its own for manual play.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import pytest

from .clock import HANG_GUARD_S
from .discord_target import point_discord_at
from .server import StandIn

BOT_START_TIMEOUT = HANG_GUARD_S
# Lines tests hand to `standin_report`, printed in pytest's terminal summary (with or without -s).
REPORT_LINES = pytest.StashKey[list[str]]()

RunBot = Callable[..., Awaitable[discord.Client]]


def bot_environment(server: StandIn) -> dict[str, str]:
    """Environment variables for a bot subprocess that should use this stand-in."""
    return {"DISCORD_API_BASE": server.url, "DISCORD_TOKEN": server.token}


def standin_problems(server: StandIn) -> list[str]:
    return [f"error: {e}" for e in server.errors] + [f"violation: {v}" for v in server.violations]


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    """A started stand-in on a free 127.0.0.1 port; fails the test on recorded problems."""
    server = StandIn()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    problems = standin_problems(server)
    assert not problems, "the Discord stand-in recorded problems:\n  " + "\n  ".join(problems)


async def start_bot(
    server: StandIn, client: discord.Client, *, token: str | None = None, timeout: float = BOT_START_TIMEOUT
) -> asyncio.Task[None]:
    """Point discord.py at `server`, start `client` in this loop and wait for on_ready."""
    point_discord_at(server.url)
    task = asyncio.create_task(client.start(token or server.token), name=f"standin-bot-{id(client)}")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not client.is_ready():
        if task.done():
            task.result()  # login or connection failed: raise it here
            raise RuntimeError("the bot stopped before it became ready")
        if loop.time() > deadline:
            await stop_bot(client, task)
            raise TimeoutError(f"bot not ready after {timeout}s; stand-in problems: {standin_problems(server)}")
        await asyncio.sleep(0.01)
    return task


async def stop_bot(client: discord.Client, task: asyncio.Task[None]) -> None:
    await client.close()
    with contextlib.suppress(asyncio.CancelledError, asyncio.TimeoutError):
        await asyncio.wait_for(task, 5)


@pytest.fixture
async def run_bot(standin: StandIn) -> AsyncIterator[RunBot]:
    """`await run_bot(client)` starts a discord.py client against the stand-in; closed at teardown."""
    running: list[tuple[discord.Client, asyncio.Task[None]]] = []

    async def _run(client: discord.Client, **kwargs: object) -> discord.Client:
        task = await start_bot(standin, client, **kwargs)  # type: ignore[arg-type]
        running.append((client, task))
        return client

    yield _run
    for client, task in reversed(running):
        await stop_bot(client, task)


@pytest.fixture
def standin_report(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """`standin_report(line)`: show a line in the "Discord stand-in" section of the run's summary."""
    return request.config.stash.setdefault(REPORT_LINES, []).append


def pytest_sessionfinish(session: pytest.Session) -> None:
    # Under pytest-xdist a worker's lines travel to the controller, which prints the summary.
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["standin_report"] = session.config.stash.get(REPORT_LINES, [])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    lines = getattr(node, "workeroutput", {}).get("standin_report", [])
    node.config.stash.setdefault(REPORT_LINES, []).extend(lines)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    lines = config.stash.get(REPORT_LINES, [])
    if lines:
        terminalreporter.section("Discord stand-in")
        for line in lines:
            terminalreporter.write_line(line)
