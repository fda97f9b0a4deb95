"""Clean shutdown (issue 28, item 10): closing the bot while players' commands are still being
answered and a computer is playing logs no "Session is closed" traceback, no "answering a
stored move ... failed", no task destroyed while pending, no unclosed client session.  The
work under way finishes before the HTTP session closes (bounded), or is left to the outbox.

Before, ``CubistBot.close`` stopped its own workers and then closed the HTTP session under
the interactions discord.py was still running: their answers (the turn's table post, the
panel, the error reply) raised "Session is closed", logged as tracebacks.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3
from pathlib import Path

import pytest

from standin import StandIn
from standin.clock import HANG_GUARD_S

from .asyncplay import start_game, wait_until
from .conftest import Table

BAD = (
    "Session is closed",
    "answering a stored move",
    "was destroyed but it is pending",
    "Unclosed client session",
    "Unclosed connector",
    "Task exception was never retrieved",
    "command failed",
    "Traceback",
)


def bad_lines(records: list[logging.LogRecord]) -> list[str]:
    found = []
    for r in records:
        text = r.getMessage() + ("\n" + logging.Formatter().formatException(r.exc_info) if r.exc_info else "")
        if any(b in text for b in BAD):
            found.append(f"{r.name} {r.levelname}: {text[:300]}")
    return found


async def closed_down(standin: StandIn) -> None:
    """Waits until the close left nothing behind: the stand-in saw the bot's socket close and
    no task is pending but the test's own, so whatever the close left running has finished
    (and logged its failure, if it was to fail) before the log is read."""
    me = asyncio.current_task()

    def left() -> list[str]:
        tasks = [t.get_name() for t in asyncio.all_tasks() if t is not me]
        return tasks + ["the bot's gateway socket"] * len(standin.gateway.connections)

    loop = asyncio.get_running_loop()
    hang_guard = loop.time() + HANG_GUARD_S
    while left():
        assert loop.time() < hang_guard, f"still running after the close: {left()}"
        await asyncio.sleep(0.01)
    gc.collect()


def outbox_left(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM jobs WHERE slot IS NULL AND done_at IS NULL").fetchone()[0])


async def test_closing_while_commands_are_answered_logs_no_error(
    table: Table, standin: StandIn, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    _game_id, game, seated = await start_game(table, 2)
    player = seated[game.current_player]
    moves = await table.moves_logged()
    # The turn's end (stored, then a table picture rendered and posted) and a few quick
    # looks, all in flight at once; the bot closes as soon as the move is stored.
    await player.slash(table.channel, "cubist end", keep="", wait=False)
    for u in seated:
        await u.slash(table.channel, "cubist board", wait=False)
    deadline = asyncio.get_running_loop().time() + 60  # a hang guard
    while await table.moves_logged() == moves and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.001)
    assert await table.moves_logged() > moves, "the turn's end was not stored"
    await table.bot.close()
    await closed_down(standin)
    assert bad_lines(caplog.records) == []
    # The turn's post went out before the session closed, or it waits in the outbox.
    posted = any("table" in m.content.lower() or m.attachments for m in standin.channel_messages(table.channel))
    assert posted or outbox_left(table.db) > 0


async def test_closing_while_a_computer_plays_logs_no_error(
    standin: StandIn, run_bot, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.client import CubistBot

    from .conftest import TEST_LIMITS

    caplog.set_level(logging.INFO)
    guild = standin.add_guild("Cubist Club")
    channel = standin.add_channel(guild, "cubist")
    user = standin.add_user("ada")
    bot = CubistBot(tmp_path / "c.db", guild_ready_timeout=0.05, seed=3, computer_pause=0, limits=TEST_LIMITS)
    await run_bot(bot)
    r = await user.slash(channel, "cubist lobby new", options={"players": 4, "computers": 3, "level": "greedy"})
    assert not r.failed, r.content
    await wait_until(lambda: bot.computers.playing, timeout=60)
    await bot.close()
    await closed_down(standin)
    assert bad_lines(caplog.records) == []
