"""Fixtures for end-to-end bot tests: the real bot, the stand-in, a real SQLite file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.client import CubistBot
from bot.service.game import Limits
from engine import Game
from standin import Channel, Guild, Player, StandIn
from standin.models import Permission

if TYPE_CHECKING:
    from .asyncplay import FakeClock

# Tests open game after game in one channel: no cooldown between lobbies (tested on its own).
TEST_LIMITS = Limits(lobby_cooldown=0)
# Most tests play in the channel itself: their servers do not let anyone (the bot included)
# create threads, so games stay where they were opened.  test_threads.py gives the
# permission back and plays in a thread per game.
NO_THREADS = ~Permission.CREATE_PUBLIC_THREADS


@pytest.fixture(autouse=True)
def servers_without_threads(request: pytest.FixtureRequest) -> None:
    if "standin" in request.fixturenames:
        standin = request.getfixturevalue("standin")
        standin.guild_permissions = (Permission.BOT_DEFAULT & NO_THREADS, Permission.EVERYONE_DEFAULT & NO_THREADS)


NAMES = ("ada", "bruno", "chloe", "dmitri", "eve")


@dataclass
class Table:
    standin: StandIn
    bot: CubistBot
    guild: Guild
    channel: Channel
    users: list[Player]
    db: Path
    run_bot: object

    async def snapshot(self) -> tuple[int, str] | None:
        """(version, snapshot JSON) of the channel's game, straight from the database file."""
        import sqlite3

        with sqlite3.connect(self.db) as conn:
            row = conn.execute(
                "SELECT g.version, s.json FROM games g LEFT JOIN snapshots s ON s.game_id = g.id"
                " WHERE g.channel_id = ? ORDER BY g.id DESC LIMIT 1",
                (self.channel.id,),
            ).fetchone()
        return None if row is None else (row[0], row[1])

    async def moves_logged(self) -> int:
        import sqlite3

        with sqlite3.connect(self.db) as conn:
            return conn.execute("SELECT count(*) FROM moves").fetchone()[0]


def make_bot(db: Path) -> CubistBot:
    # Hints from the strong player alone: the same suggestion on any machine, however loaded
    # (the master's, which must come within a time, are test_master_level's).
    return CubistBot(db, guild_ready_timeout=0.05, seed=1, computer_pause=0, limits=TEST_LIMITS, hint_seconds=0)


@pytest.fixture
async def table(standin: StandIn, run_bot, tmp_path: Path) -> Table:
    guild = standin.add_guild("Cubist Club")
    channel = standin.add_channel(guild, "cubist")
    users = [standin.add_user(n) for n in NAMES]
    db = tmp_path / "cubist.db"
    bot = make_bot(db)
    await run_bot(bot)
    return Table(standin, bot, guild, channel, users, db, run_bot)


def loads(text: str) -> dict:
    return json.loads(text)


def custom_ids(message) -> list[str]:
    return [c["custom_id"] for row in message.components for c in row.get("components", []) if "custom_id" in c]


async def started(table: Table, players: int = 2, **options: object) -> tuple[int, Game, list[Player]]:
    """A started game; returns its id, the engine game and the users in seat order."""
    a = table.users[0]
    await a.slash(table.channel, "cubist lobby new", players=players, **options)
    for u in table.users[1:players]:
        await u.slash(table.channel, "cubist lobby join")
    r = await a.slash(table.channel, "cubist lobby start")
    assert not r.failed
    await table.standin.wait_for_message(table.channel, lambda m: "The game begins" in m.content)
    record = await table.bot.store.games.active_game_for_channel(table.channel.id)
    assert record is not None
    record, game = await table.bot.service.queries.game(record.id)
    by_id = {u.id: u for u in table.users}
    return record.id, game, [by_id[s.user_id] for s in record.seats]


@pytest.fixture
def clock() -> FakeClock:
    """A hand-driven clock for the bot, at 2024-05-01 14:00 UTC."""
    from .asyncplay import FakeClock, utc  # asyncplay builds on this module

    return FakeClock(utc(2024, 5, 1, 14, 0))


@pytest.fixture
async def bilingual(standin: StandIn, run_bot, tmp_path: Path, clock: FakeClock) -> Table:
    """An English server with a French-locale player (amelie) and an English one (bob), on
    a bot with a test clock (2024-05-01 14:00 UTC)."""
    from .asyncplay import make_clocked_bot  # asyncplay builds on this module

    guild = standin.add_guild("Club Cubist", locale="en-US")
    channel = standin.add_channel(guild, "cubist")
    amelie = standin.add_user("amelie", locale="fr")
    bob = standin.add_user("bob", locale="en-US")
    db = tmp_path / "cubist.db"
    bot = make_clocked_bot(db, clock)
    await run_bot(bot)
    return Table(standin, bot, guild, channel, [amelie, bob], db, run_bot)
