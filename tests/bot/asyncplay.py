"""Helpers for the asynchronous-play tests: a bot on a hand-driven clock, waiting for DMs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.client import CubistBot
from engine import Game
from standin import Player, StandIn
from standin.clock import HANG_GUARD_S

from .conftest import NAMES, TEST_LIMITS, Table, started

HOUR = 3600.0
MANAGE_CHANNELS = 1 << 4


class FakeClock:
    """The bot's clock: only moves when the test says so."""

    def __init__(self, start: datetime) -> None:
        self.t = start.timestamp()

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds

    def set(self, when: datetime) -> None:
        assert when.timestamp() >= self.t
        self.t = when.timestamp()


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


def make_clocked_bot(db: Path, clock: FakeClock) -> CubistBot:
    return CubistBot(
        db,
        guild_ready_timeout=0.05,
        seed=1,
        clock=clock,
        timer_poll_seconds=None,
        computer_pause=0,
        limits=TEST_LIMITS,
    )


async def clocked_table(
    standin: StandIn,
    run_bot: Any,
    db: Path,
    clock: FakeClock,
    names: tuple[str, ...] = NAMES,
    *,
    moderator: bool = False,
) -> Table:
    """#cubist in the Cubist Club, a player for each of ``names`` (with ``moderator``, then
    one who may manage channels: the last of the users), on a bot whose time is ``clock``."""
    guild = standin.add_guild("Cubist Club")
    channel = standin.add_channel(guild, "cubist")
    users = [standin.add_user(n) for n in names]
    if moderator:
        mods = standin.add_role(guild, "mods", permissions=MANAGE_CHANNELS)
        users.append(standin.add_user("moderator", roles=[mods]))
    bot = make_clocked_bot(db, clock)
    await run_bot(bot)
    return Table(standin, bot, guild, channel, users, db, run_bot)


async def wait_until(condition: Callable[[], object], timeout: float = HANG_GUARD_S) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError("condition not met")
        await asyncio.sleep(0.01)


def dms(server: StandIn, user: Player, fragment: str) -> list:
    return [m for m in server.dms(user) if fragment in m.content]


async def wait_dm(server: StandIn, user: Player, fragment: str, count: int = 1) -> list:
    await wait_until(lambda: len(dms(server, user, fragment)) >= count)
    return dms(server, user, fragment)


async def start_game(table: Table, players: int = 2, **options: object) -> tuple[int, Game, list[Player]]:
    game_id, game, seated = await started(table, players, **options)
    # The first player's turn-start DM goes out right after the announcement.
    await wait_dm(table.standin, seated[game.current_player], "Your turn in Cubist")
    return game_id, game, seated


async def poll(table: Table) -> int:
    return await table.bot.reminders.poll_once()  # type: ignore[attr-defined]


async def poll_at(table: Table, clock: FakeClock, when: datetime) -> int:
    """The clock set to ``when``, then one pass of the job poller: the jobs it ran."""
    clock.set(when)
    return await poll(table)


async def skip_confirmed(player: Player, channel: Any) -> Any:
    """``/cubist table skip`` and its confirmation (the skip asks first): the click's result."""
    ask = await player.slash(channel, "cubist table skip")
    assert ask.ephemeral and ask.message is not None, ask.content
    ok = [c["custom_id"] for row in ask.message.components for c in row["components"] if ":skipok:" in c["custom_id"]]
    assert ok, ask.content
    return await player.click(ask.message, ok[0])
