"""Turn-start DMs, reminders, snooze/stop, quiet hours, closed DMs, restarts: time is a
hand-driven clock, the Discord side is the stand-in, the store a real SQLite file."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.turn.reminders import MAX_REMINDERS
from standin import StandIn

from .asyncplay import (
    HOUR,
    FakeClock,
    clocked_table,
    dms,
    make_clocked_bot,
    poll,
    poll_at,
    start_game,
    utc,
    wait_dm,
    wait_until,
)
from .conftest import NAMES, Table, custom_ids


@pytest.fixture
async def ctable(standin: StandIn, run_bot, tmp_path: Path, clock: FakeClock) -> Table:
    return await clocked_table(standin, run_bot, tmp_path / "cubist.db", clock)


def channel_posts(table: Table, fragment: str) -> list:
    return [m for m in table.standin.channel_messages(table.channel) if fragment in m.content]


async def test_turn_start_dm_reminders_then_the_channel(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    gid, game, seated = await start_game(t)
    current, other = seated[game.current_player], seated[1 - game.current_player]
    # Both got a welcome DM saying whether DMs work.
    assert dms(t.standin, other, "You joined Cubist game") and dms(t.standin, current, "Cubist game")
    start = dms(t.standin, current, "Your turn in Cubist")
    assert len(start) == 1
    dm = start[0]
    announce = t.standin.wait_for_message
    post = await announce(t.channel, lambda m: "The game begins" in m.content)
    assert f"https://discord.com/channels/{t.guild.id}/{t.channel.id}/{post.id}" in dm.content
    roll = game.state.last_roll
    assert f"Rolled for you: **{roll[0]} and {roll[1]}**" in dm.content
    assert dm.attachments and dm.attachments[0].filename == "studio.png"
    assert dm.attachments[0].image().size[0] > 300
    # The DM is the turn panel (bot/turn/panel.py): the dice first, then the menu, with Snooze and Stop at the end.
    assert custom_ids(dm)[0].startswith(f"cubist:{gid}:die:0:") and f"cubist:{gid}:t:0:" in custom_ids(dm)
    assert custom_ids(dm)[-2:] == [f"cubist:{gid}:b:snooze", f"cubist:{gid}:b:stop"]
    assert not dms(t.standin, other, "Your turn in Cubist")

    assert await poll(t) == 0  # nothing due yet
    for n in range(1, MAX_REMINDERS + 1):
        clock.advance(12 * HOUR - 60)
        await poll(t)
        assert len(dms(t.standin, current, "⏰ Reminder")) == n - 1  # not before the interval
        clock.advance(61)
        await poll(t)
        await poll(t)  # a second poll at the same time sends nothing more
        reminders = dms(t.standin, current, "⏰ Reminder")
        assert len(reminders) == n and f"Reminder {n}/{MAX_REMINDERS}" in reminders[-1].content
        assert f"/{t.channel.id}/{post.id}" in reminders[-1].content
    assert not channel_posts(t, "has not finished their turn")
    clock.advance(12 * HOUR + 1)
    await poll(t)
    note = channel_posts(t, "has not finished their turn")
    assert len(note) == 1 and current.mention in note[0].content
    for _ in range(4):  # and then nothing more, however long it waits
        clock.advance(12 * HOUR)
        await poll(t)
    assert len(dms(t.standin, current, "⏰ Reminder")) == MAX_REMINDERS
    assert len(channel_posts(t, "has not finished their turn")) == 1
    assert not dms(t.standin, other, "⏰ Reminder")


async def test_the_next_player_hears_what_changed_and_played_turns_are_not_reminded(
    ctable: Table, clock: FakeClock
) -> None:
    t = ctable
    _gid, game, seated = await start_game(t)
    current, other = seated[game.current_player], seated[1 - game.current_player]
    low = min(game.state.players[game.current_player].storeroom)
    clock.advance(5 * HOUR)
    await current.slash(t.channel, "cubist move", move=f"place {low} w1 c3")
    clock.advance(8 * HOUR)  # 13 h after the start, but the move did not reset the schedule
    await poll(t)
    assert len(dms(t.standin, current, "⏰ Reminder 1/")) == 1
    await current.slash(t.channel, "cubist end", keep="")
    dm = (await wait_dm(t.standin, other, "Your turn in Cubist"))[-1]
    assert "Since your last turn:" in dm.content
    assert f"placed a {low} in workroom 1" in dm.content and current.name in dm.content
    for _ in range(3):
        clock.advance(12 * HOUR + 1)
        await poll(t)
    assert len(dms(t.standin, current, "⏰ Reminder")) == 1  # nothing more for the played turn
    assert len(dms(t.standin, other, "⏰ Reminder")) == 3


async def test_snooze_and_stop_buttons(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    gid, game, seated = await start_game(t)
    current = seated[game.current_player]
    dm = dms(t.standin, current, "Your turn in Cubist")[0]
    clock.advance(HOUR)
    r = await current.click(dm, f"cubist:{gid}:b:snooze")
    assert r.ephemeral and "Snoozed" in r.content
    clock.advance(4 * HOUR - 60)
    await poll(t)
    assert not dms(t.standin, current, "⏰ Reminder")
    clock.advance(61)  # 4 h after the click: remind me now
    await poll(t)
    reminders = dms(t.standin, current, "⏰ Reminder 1/")
    assert len(reminders) == 1
    r = await current.click(reminders[0], f"cubist:{gid}:b:stop")
    assert r.ephemeral and "No more reminders" in r.content
    for _ in range(5):
        clock.advance(12 * HOUR + 1)
        await poll(t)
    assert len(dms(t.standin, current, "⏰ Reminder")) == 1
    with sqlite3.connect(t.db) as conn:
        sql = "SELECT reminders_enabled FROM seats WHERE game_id = ? AND user_id = ?"
        assert conn.execute(sql, (gid, current.id)).fetchone()[0] == 0


async def test_quiet_hours_in_each_players_time_zone(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    gid, game, seated = await start_game(t)  # 14:00 UTC
    current, other = seated[game.current_player], seated[1 - game.current_player]
    r = await current.slash(t.channel, "cubist settings reminders", quiet="22-7", time_zone="America/New_York")
    assert r.ephemeral and "quiet 22:00-07:00 (America/New_York)" in r.content and "I can DM you" in r.content
    r = await other.slash(t.channel, "cubist settings reminders", quiet="22:00-07:00", time_zone="Asia/Tokyo")
    assert "Asia/Tokyo" in r.content
    # The reminder falls due at 02:00 UTC = 22:00 in New York: it waits for 07:00 there (11:00 UTC).
    await poll_at(t, clock, utc(2024, 5, 2, 2, 0, 1))
    await poll_at(t, clock, utc(2024, 5, 2, 10, 59))
    assert not dms(t.standin, current, "⏰ Reminder")
    await poll_at(t, clock, utc(2024, 5, 2, 11, 0, 1))
    assert len(dms(t.standin, current, "⏰ Reminder 1/")) == 1
    # At 13:30 UTC it is 22:30 in Tokyo: the next player's turn-start DM waits for 07:00 JST (22:00 UTC).
    clock.set(utc(2024, 5, 2, 13, 30))
    await current.slash(t.channel, "cubist end", keep="")
    assert await t.standin.wait_for_message(t.channel, lambda m: other.mention in m.content and "turn" in m.content)
    await poll_at(t, clock, utc(2024, 5, 2, 21, 59))
    assert not dms(t.standin, other, "Your turn in Cubist")
    await poll_at(t, clock, utc(2024, 5, 2, 22, 0, 1))
    assert len(dms(t.standin, other, "Your turn in Cubist")) == 1
    del gid


async def test_closed_dms_are_remembered_and_the_channel_is_used(
    ctable: Table, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    t = ctable
    closed = t.standin.add_user("zoe", dms_closed=True)
    await t.users[0].slash(t.channel, "cubist lobby new", players=2)
    r = await closed.slash(t.channel, "cubist lobby join")
    assert "cannot DM them" in r.content
    forbidden = [x for x in t.standin.invalid_requests if x.startswith("403")]
    assert len(forbidden) == 1
    await t.users[0].slash(t.channel, "cubist lobby start")
    await t.standin.wait_for_message(t.channel, lambda m: "The game begins" in m.content)
    record = await t.bot.store.games.active_game_for_channel(t.channel.id)
    assert record is not None
    _record, game = await t.bot.service.queries.game(record.id)
    for _ in range(2 * (MAX_REMINDERS + 2)):
        clock.advance(12 * HOUR + 1)
        await poll(t)
        _record, game = await t.bot.service.queries.game(record.id)
        if record.seats[game.current_player].user_id != closed.id:
            # Let the other player pass, so that zoe's turn comes.
            await t.users[0].slash(t.channel, "cubist end", keep="")
    # No DM was tried again for zoe: the 403 of the welcome DM is the only one.
    assert len([x for x in t.standin.invalid_requests if x.startswith("403")]) == 1
    assert [m for m in t.standin.channel_messages(t.channel) if closed.mention in m.content and "Reminder" in m.content]
    # Changing a setting does not try again (issue 16: one 403 per person and week, not one
    # per command); the answer still says the DMs are closed.
    r = await closed.slash(t.channel, "cubist settings reminders", every_hours=6)
    assert "cannot DM you" in r.content
    assert len([x for x in t.standin.invalid_requests if x.startswith("403")]) == 1
    # A player who closes their DMs later is found out at the next DM, once.
    opened = t.users[0]
    opened.user.dms_closed = True
    _record, game = await t.bot.service.queries.game(record.id)
    if record.seats[game.current_player].user_id != opened.id:
        await closed.slash(t.channel, "cubist end", keep="")
    before = len(t.standin.invalid_requests)
    for _ in range(3):
        clock.advance(12 * HOUR + 1)
        await poll(t)
    assert len(t.standin.invalid_requests) - before <= 1
    assert not [rec for rec in caplog.records if rec.levelno > logging.WARNING]
    assert not [rec for rec in caplog.records if rec.levelno == logging.WARNING and "DM" in rec.getMessage()]


async def test_a_restart_between_reminders_loses_and_repeats_nothing(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    gid, game, seated = await start_game(t)
    current = seated[game.current_player]
    clock.advance(12 * HOUR + 1)
    await poll(t)
    assert len(dms(t.standin, current, "⏰ Reminder")) == 1
    await t.bot.close()
    bot2 = make_clocked_bot(t.db, clock)
    await t.run_bot(bot2)  # type: ignore[operator]
    t.bot = bot2
    await poll(t)
    assert len(dms(t.standin, current, "⏰ Reminder")) == 1  # not sent again
    assert len(dms(t.standin, current, "Your turn in Cubist")) == 1
    clock.advance(12 * HOUR)
    await poll(t)
    assert len(dms(t.standin, current, "⏰ Reminder 2/")) == 1  # the schedule survived
    # A cancelled game is not reminded.
    await t.users[0].slash(t.channel, "cubist table cancel")
    clock.advance(48 * HOUR)
    assert await poll(t) == 0
    assert len(dms(t.standin, current, "⏰ Reminder")) == 2
    del gid


async def test_the_poll_loop_runs_by_itself(standin: StandIn, run_bot, tmp_path: Path) -> None:
    clock = FakeClock(utc(2024, 5, 1, 14, 0))
    guild = standin.add_guild("Club")
    channel = standin.add_channel(guild, "games")
    users = [standin.add_user(n) for n in NAMES[:2]]
    from bot.client import CubistBot

    bot = CubistBot(tmp_path / "c.db", guild_ready_timeout=0.05, seed=1, clock=clock, timer_poll_seconds=0.02)
    await run_bot(bot)
    t = Table(standin, bot, guild, channel, users, tmp_path / "c.db", run_bot)
    _gid, game, seated = await start_game(t)
    clock.advance(12 * HOUR + 1)
    await wait_until(lambda: dms(standin, seated[game.current_player], "⏰ Reminder 1/"))
    assert len(dms(standin, seated[game.current_player], "Your turn in Cubist")) == 1  # claimed once
    await bot.close()
    assert not bot.jobs.loop.running  # the poll loop stopped with the bot


async def test_dm_channels_are_remembered_and_reopened_when_stale(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    gid, game, seated = await start_game(t)
    for _ in range(3):  # three turn ends: a turn-start DM each
        _record, game = await t.bot.service.queries.game(gid)
        player = seated[game.current_player]
        r = await player.slash(t.channel, "cubist end", keep="")
        assert not r.failed, r.content
        await r.wait_for_followups(1)  # the answer is the table post; the private word comes after its bookkeeping
        await wait_dm(t.standin, seated[1 - seated.index(player)], "Your turn in Cubist", count=1)
    remembered = t.bot.dms._channels
    assert remembered == {u.id: t.standin.dm_channel(u).id for u in seated}
    assert t.standin.requests.count("POST /users/@me/channels") == 2  # one per player, none per turn
    # A DM channel Discord no longer knows is opened again, and the DM still arrives.
    _record, game = await t.bot.service.queries.game(gid)
    current = seated[game.current_player]
    remembered[current.id] = 1  # no such channel
    clock.advance(13 * HOUR)
    await poll(t)
    await wait_dm(t.standin, current, "⏰ Reminder 1/")
    assert "POST /channels/1/messages" in t.standin.requests
    assert remembered[current.id] == t.standin.dm_channel(current).id
