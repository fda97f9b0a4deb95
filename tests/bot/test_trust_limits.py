"""Discord's limits, people's names, a database that cannot be written, resources (issue 16,
items 10-14, and 15's command sync).  Through the stand-in, the real client, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.client import CubistBot
from bot.service.game import Limits
from standin import Message, StandIn

from .asyncplay import FakeClock, utc
from .conftest import Table, custom_ids, make_bot, started


def pinged(message: Message) -> tuple[set[int], bool]:
    """Who Discord would ping for this message (users, and whether @everyone), by its rules
    for ``allowed_mentions`` (absent: every mention in the content is parsed)."""
    mentioned = {u.id for u in message.mentions}
    everyone = "@everyone" in message.content or "@here" in message.content
    allowed = message.allowed_mentions
    if allowed is None:
        return mentioned, everyone
    parse = set(allowed.get("parse") or [])
    users = mentioned if "users" in parse else mentioned & {int(u) for u in allowed.get("users") or []}
    return users, everyone and "everyone" in parse


async def test_a_nickname_with_mentions_pings_nobody(table: Table) -> None:
    """Item 12: names are text; only the post that hands the turn on pings that player."""
    sly = table.standin.add_user(f"<@{table.users[1].id}> @everyone")
    table.users[0] = sly  # sly opens the game and is its creator
    _gid, game, seated = await started(table, players=2)
    posts = table.standin.channel_messages(table.channel)
    assert any(sly.name in m.content for m in posts)  # the name was shown ...
    for m in posts:
        users, everyone = pinged(m)
        assert not everyone, m.content
        assert users <= {seated[game.current_player].id}, (m.content, users)
    turn_post = posts[-1]
    assert pinged(turn_post)[0] == {seated[game.current_player].id}  # ... and the player in turn is pinged


async def test_open_game_cap_and_lobby_cooldown(standin: StandIn, run_bot, tmp_path: Path) -> None:
    """Item 14: a member may have at most N open games; a channel waits between lobbies."""
    guild = standin.add_guild("Club")
    channels = [standin.add_channel(guild, f"c{i}") for i in range(3)]
    ada = standin.add_user("ada")
    clock = FakeClock(utc(2024, 5, 1, 14, 0))
    bot = CubistBot(
        tmp_path / "c.db", guild_ready_timeout=0.05, seed=1, clock=clock, timer_poll_seconds=None,
        limits=Limits(max_open_games=2, lobby_cooldown=60),
    )  # fmt: skip
    await run_bot(bot)
    for c in channels[:2]:
        r = await ada.slash(c, "cubist lobby new")
        assert not r.ephemeral, r.content
    r = await ada.slash(channels[2], "cubist lobby new")
    assert r.ephemeral and "You already have 2 open Cubist games" in r.content and "the most is 2" in r.content
    r = await ada.slash(channels[0], "cubist table cancel")
    assert not r.ephemeral
    r = await ada.slash(channels[0], "cubist lobby new")
    assert r.ephemeral and "opened in this channel moments ago" in r.content and "60 s" in r.content
    clock.advance(61)
    r = await ada.slash(channels[0], "cubist lobby new")
    assert not r.ephemeral, r.content
    with sqlite3.connect(tmp_path / "c.db") as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 3


async def test_a_database_that_cannot_be_written_refuses_moves_and_answers_end_turn(table: Table) -> None:
    """Item 10: a read-only database (as SQLite reports it) gives a clear 'cannot save' answer,
    to the move command and to the End turn button, and nothing changes."""
    gid, game, seated = await started(table, players=2)
    current = seated[game.current_player]
    post = table.standin.channel_messages(table.channel)[-1]
    before = await table.snapshot()
    await table.bot.store._writer.execute("PRAGMA query_only = ON")  # writes now fail: SQLITE_READONLY
    try:
        panel = await current.click(post, f"cubist:{gid}:play")
        endask = next(i for i in custom_ids(panel.message) if i.startswith(f"cubist:{gid}:endask:"))
        ask = await current.click(panel.message, endask)
        confirm = next(i for i in custom_ids(ask.message) if i.startswith(f"cubist:{gid}:endok:"))
        r = await current.click(ask.message, confirm)
        assert not r.failed and r.ephemeral, r.content
        await r.wait(lambda res: any("cannot save anything right now" in m.content for m in res.messages))
        r = await current.slash(table.channel, "cubist end")
        assert not r.failed and r.ephemeral and "cannot save anything right now" in r.content, r.content
        assert "unchanged" not in r.content and "try again" not in r.content.lower()
    finally:
        await table.bot.store._writer.execute("PRAGMA query_only = OFF")
    assert await table.snapshot() == before


async def test_commands_are_synced_only_when_their_definitions_changed(table: Table) -> None:
    """Item 15: a restart on the same database does not sync again; ``force_sync`` does."""

    def syncs() -> int:
        return sum(1 for r in table.standin.requests if r.startswith("PUT /applications/"))

    assert syncs() == 1
    await table.bot.close()
    bot2 = make_bot(table.db)
    await table.run_bot(bot2)  # type: ignore[operator]
    assert syncs() == 1
    await bot2.close()
    bot3 = CubistBot(table.db, guild_ready_timeout=0.05, seed=1, force_sync=True)
    await table.run_bot(bot3)  # type: ignore[operator]
    assert syncs() == 2
    r = await table.users[0].slash(table.channel, "cubist rules")
    assert not r.failed


async def test_per_game_state_is_freed_over_a_thousand_games(table: Table) -> None:
    """Item 13: locks, computer players and cached games do not pile up when games end."""
    bot = table.bot
    service, store, computers = bot.service, bot.store, bot.computers
    ada = table.users[0]
    for _ in range(1000):
        record = await service.new(
            table.guild.id,
            table.channel.id,
            ada.id,
            "ada",
            options=_options(),
            settings=_settings(),
            computers=1,
            lang="en",
        )
        record, game = await service.start(table.channel.id, ada.id, lang="en")
        if record.seats[game.current_player].is_computer:
            await bot.jobs.start_turn(record, game)  # its turn, as the table post starts it
        await service.cancel(table.channel.id, ada.id, can_manage=False)
        await computers.idle()
    assert len(service._locks) == 0
    assert not bot.jobs.starting and len(computers._players) == 0
    assert len(store._cache) == 0


def _options():
    from engine import GameOptions

    return GameOptions()


def _settings():
    from bot.service.game import TableSettings

    return TableSettings(max_players=2)


def _forbidden(standin: StandIn) -> int:
    return sum(1 for r in standin.invalid_requests if r.startswith("403 "))


async def test_closed_dms_cost_one_403_per_person_and_week_across_commands_games_and_restarts(
    standin: StandIn, run_bot, tmp_path: Path
) -> None:
    """Item 11: a closed DM is remembered in the database, not retried on every command."""
    guild = standin.add_guild("Club")
    channels = [standin.add_channel(guild, f"c{i}") for i in range(3)]
    ada = standin.add_user("ada")
    shy = standin.add_user("shy", dms_closed=True)
    clock = FakeClock(utc(2024, 5, 1, 14, 0))
    db = tmp_path / "c.db"

    def bot() -> CubistBot:
        return CubistBot(db, guild_ready_timeout=0.05, seed=1, clock=clock, timer_poll_seconds=None)

    first = await run_bot(bot())
    r = await shy.slash(channels[0], "cubist lobby new")
    assert not r.ephemeral and "DMs" in r.content
    assert _forbidden(standin) == 1
    await shy.slash(channels[0], "cubist settings reminders", enabled=True)
    await ada.slash(channels[1], "cubist lobby new")
    r = await shy.slash(channels[1], "cubist lobby join")
    assert not r.ephemeral
    assert _forbidden(standin) == 1  # remembered: no second 403
    await first.close()
    await run_bot(bot())  # a restart: still remembered (in the database)
    r = await shy.slash(channels[2], "cubist lobby new")
    assert not r.ephemeral
    await shy.slash(channels[2], "cubist settings reminders", enabled=True)
    assert _forbidden(standin) == 1
    clock.advance(8 * 24 * 3600)  # a week later the bot tries once more
    await shy.slash(channels[2], "cubist settings reminders", enabled=True)
    await shy.slash(channels[2], "cubist settings reminders", enabled=True)
    assert _forbidden(standin) == 2
    standin.take_errors()
    standin.take_violations()


async def test_the_invalid_request_guard_stops_dms_before_the_limit(standin: StandIn, run_bot, tmp_path: Path) -> None:
    """Item 11: past its limit of 401/403/429 answers the bot stops sending DMs of its own."""
    guild = standin.add_guild("Club")
    channels = [standin.add_channel(guild, f"c{i}") for i in range(4)]
    people = [standin.add_user(f"shy{i}", dms_closed=True) for i in range(4)]
    bot = CubistBot(
        tmp_path / "c.db", guild_ready_timeout=0.05, seed=1, timer_poll_seconds=None, invalid_request_limit=2
    )
    await run_bot(bot)
    for person, channel in zip(people, channels, strict=True):
        r = await person.slash(channel, "cubist lobby new")
        assert not r.ephemeral, r.content
    assert _forbidden(standin) == 2 and bot.invalid_requests.total == 2 and bot.invalid_requests.tripped
    standin.take_errors()
    standin.take_violations()
