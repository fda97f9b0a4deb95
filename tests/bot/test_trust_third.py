"""Trust, third pass (issue 28): what a new attack broke, each through the stand-in, the real
discord.py client and a real SQLite file.  Every test here failed before its fix."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.chat.shutdown import in_flight
from bot.refusal_words import said
from bot.service.game import Limits
from bot.service.refusals import UserError
from standin import Player, StandIn
from standin.models import Permission

from .asyncplay import FakeClock, make_clocked_bot, start_game, utc, wait_until
from .conftest import Table, custom_ids, make_bot
from .test_threads import open_game, threaded_server
from .test_turn_panel import Taps, button, panel_dm

UNDO = "undo"


async def channel_panel(table: Table, gid: int, player: Player) -> Taps:
    """The turn panel opened from the channel's turn post (an ephemeral message there)."""
    post = [m for m in table.standin.channel_messages(table.channel) if f"cubist:{gid}:play" in custom_ids(m)][-1]
    r = await player.click(post, f"cubist:{gid}:play")
    assert r.ephemeral and not r.failed
    return Taps(table, gid, player, r.message)


async def place_one(taps: Taps) -> None:
    await taps.pick(index=0)  # "Place the 4 → ..."
    await taps.pick(index=0)  # the first cell offered


# -- 1. one press, at most one action ---------------------------------------------------------


async def test_a_double_tapped_undo_takes_back_one_action(table: Table) -> None:
    gid, game, seated = await start_game(table)
    current = seated[game.current_player]
    taps = await channel_panel(table, gid, current)
    await place_one(taps)
    await place_one(taps)
    _record, placed = await table.bot.service.queries.game(gid)
    assert len(placed.state.this_turn.plays) == 2
    undo = button(taps.message, gid, UNDO)
    first = await current.click(taps.message, undo, wait=False)
    second = await current.click(taps.message, undo, wait=False)
    await first.until_answered()
    await second.until_answered()
    _record, after = await table.bot.service.queries.game(gid)
    assert len(after.state.this_turn.plays) == 1, "two presses of one Undo took back two actions"
    assert not first.failed and not second.failed  # the second press redraws the panel as it stands


async def test_a_double_tapped_hint_plays_its_suggestion_once(table: Table) -> None:
    gid, game, seated = await start_game(table)
    current = seated[game.current_player]
    hint = await current.slash(table.channel, "cubist hint")
    play_this = next(i for i in custom_ids(hint.message) if ":hintplay:" in i)
    first = await current.click(hint.message, play_this, wait=False)
    second = await current.click(hint.message, play_this, wait=False)
    await first.until_answered()
    await second.until_answered()
    record, after = await table.bot.service.queries.game(gid)
    with sqlite3.connect(table.db) as conn:
        moves = conn.execute("SELECT count(*) FROM moves WHERE game_id = ?", (gid,)).fetchone()[0]
    assert moves == len(after.log) == record.version
    assert 1 <= len(after.state.this_turn.plays) <= 2, after.state.this_turn.plays  # one suggestion's steps, not two


# -- 2. a turn posted once, whatever Discord answers -----------------------------------------


async def end_turn_from_channel_panel(table: Table, gid: int, player: Player, fault: Callable[[], object]) -> Taps:
    """Both dice placed and the turn ended from the channel's panel, ``fault`` switched on just
    before the confirmation (whose answer is the turn's table post)."""
    taps = await channel_panel(table, gid, player)
    await place_one(taps)
    await place_one(taps)
    await taps.press("endask")
    fault()
    r = await player.click(taps.message, button(taps.message, gid, "endok"))
    await r.until_answered(15)
    taps.message = r.message or taps.message
    return taps


@pytest.mark.parametrize(
    "fault",
    [
        "the answer's lookup is rate limited past every retry",
        "the callback is carried out, then answered 500",
    ],
)
async def test_a_turn_is_posted_once_when_discord_does_not_confirm_the_answer(table: Table, fault: str) -> None:
    gid, game, seated = await start_game(table)
    current, other = seated[game.current_player], seated[1 - game.current_player]
    before = len(table.standin.channel_messages(table.channel))
    faults = table.standin.faults
    rules: list[Any] = []

    def switch_on() -> None:
        if fault.startswith("the answer's lookup"):
            route = "GET /webhooks/{app}/{token}/messages/@original"
            rules.append(faults.rate_limit(route, count=16, retry_after=0.02))
        else:
            rules.append(faults.fail_after("POST /interactions/{id}/{token}/callback", count=1))

    await end_turn_from_channel_panel(table, gid, current, switch_on)
    # The next player's turn begins (their DM), and the outbox has nothing left to send.
    await wait_until(lambda: [m for m in table.standin.dms(other) if m.components], timeout=60)

    async def outbox_settled() -> bool:
        counts = await table.bot.store.posts.counts()
        return counts["sent"] == counts["total"]

    loop = asyncio.get_running_loop()
    hang_guard = loop.time() + 120
    while in_flight() or not await outbox_settled():
        assert loop.time() < hang_guard, (in_flight(), await table.bot.store.posts.counts())
        await asyncio.sleep(0.05)
    # The answers are done and the outbox is empty: a round of the worker now runs whatever
    # is due, so a second post would be in the channel once it returns.
    await table.bot.jobs.poll_once()
    assert await outbox_settled() and not in_flight()
    posts = table.standin.channel_messages(table.channel)[before:]
    told = [m for m in posts if "ended the turn" in m.content]
    assert len(told) == 1, [m.content[:60] for m in posts]
    assert rules[0].hits, "the fault was met"
    table.standin.take_violations()  # the retried callback's "already acknowledged"


# -- 3. a thread deleted or locked mid-game ------------------------------------------------------


@pytest.mark.parametrize("what", ["deleted", "locked"])
async def test_a_game_whose_thread_is_gone_goes_on_in_its_channel(
    standin: StandIn, run_bot, tmp_path: Path, what: str
) -> None:
    bot, channel, (ada, bruno, _c, _d) = await threaded_server(standin, run_bot, tmp_path)
    thread = await open_game(standin, bot, channel, ada)
    await bruno.slash(thread, "cubist lobby join")
    assert not (await ada.slash(thread, "cubist lobby start")).failed
    record = await bot.service.queries.game_in_channel(thread.id)
    assert record is not None
    record, game = await bot.service.queries.game(record.id)
    by_id = {ada.id: ada, bruno.id: bruno}
    current = by_id[record.seats[game.current_player].user_id or 0]
    other = bruno if current is ada else ada
    dm = await panel_dm_of(standin, current)
    if what == "deleted":
        standin.delete_channel(thread)
    else:  # locked and archived by a moderator; the bot may not manage threads here
        thread.locked = thread.archived = True
        thread.bot_permissions = (Permission.BOT_DEFAULT & ~Permission.MANAGE_THREADS) | Permission.VIEW_CHANNEL
    taps = Taps(None, record.id, current, dm)  # type: ignore[arg-type]
    await place_one(taps)
    await place_one(taps)
    await taps.press("endask")
    await taps.press("endok")
    # The mover reads where the table went, and it is there.
    assert f"<#{channel.id}>" in taps.message.content, taps.message.content
    said = [m.content for m in standin.channel_messages(channel)]
    assert any("goes on here" in c for c in said), said
    assert any("ended the turn" in c for c in said), said
    moved = await bot.service.queries.record(record.id)
    assert moved.channel_id == channel.id
    # The next player's turn-start DM is not held back.
    await wait_until(lambda: len([m for m in standin.dms(other) if m.components]) >= 1, timeout=60)
    standin.take_violations()
    standin.take_errors()


async def test_a_game_whose_thread_is_gone_gets_a_new_one_when_its_channel_is_busy(
    standin: StandIn, run_bot, tmp_path: Path
) -> None:
    """The channel the game was opened in holds a game of its own: the game goes on in a new
    thread of that channel, and the channel says where."""
    bot, channel, (ada, bruno, chloe, dmitri) = await threaded_server(standin, run_bot, tmp_path)
    thread = await open_game(standin, bot, channel, ada)
    await bruno.slash(thread, "cubist lobby join")
    assert not (await ada.slash(thread, "cubist lobby start")).failed
    assert not (await chloe.slash(channel, "cubist lobby new", players=2, thread=False)).ephemeral  # busy now
    record = await bot.service.queries.game_in_channel(thread.id)
    assert record is not None
    record, game = await bot.service.queries.game(record.id)
    current = ada if record.seats[game.current_player].user_id == ada.id else bruno
    dm = await panel_dm_of(standin, current)
    standin.delete_channel(thread)
    taps = Taps(None, record.id, current, dm)  # type: ignore[arg-type]
    await place_one(taps)
    await place_one(taps)
    await taps.press("endask")
    await taps.press("endok")
    moved = await bot.service.queries.record(record.id)
    assert moved.channel_id not in (thread.id, channel.id)
    new = standin.channels[moved.channel_id]
    assert new.is_thread and new.parent_id == channel.id
    assert f"<#{new.id}>" in taps.message.content
    assert any(f"<#{new.id}>" in m.content for m in standin.channel_messages(channel))
    assert any("ended the turn" in m.content for m in standin.channel_messages(new))
    del dmitri
    standin.take_violations()
    standin.take_errors()


async def test_a_vote_due_in_a_deleted_thread_opens_in_its_channel(standin: StandIn, run_bot, tmp_path: Path) -> None:
    """No turn post needs to fail first: the turn clock's vote, due while the game's thread is
    gone, brings the game back to its channel and opens there."""
    guild = standin.add_guild("Thread Club", bot_permissions=Permission.BOT_DEFAULT)
    channel = standin.add_channel(guild, "cubist")
    ada, bruno = standin.add_user("ada"), standin.add_user("bruno")
    clock = FakeClock(utc(2026, 11, 2, 12, 0))
    bot = make_clocked_bot(tmp_path / "c.db", clock)
    await run_bot(bot)
    thread = await open_game(standin, bot, channel, ada)
    await bruno.slash(thread, "cubist lobby join")
    assert not (await ada.slash(thread, "cubist lobby start")).failed
    standin.delete_channel(thread)
    clock.advance(73 * 3600)  # past the 72 h turn clock
    await bot.reminders.poll_once()
    said = [m.content for m in standin.channel_messages(channel)]
    assert any("goes on here" in c for c in said) and any("vote" in c.lower() for c in said), said
    standin.take_violations()
    standin.take_errors()


async def panel_dm_of(standin: StandIn, user: Player) -> Any:
    await wait_until(lambda: any(m.components for m in standin.dms(user)))
    return [m for m in standin.dms(user) if m.components][-1]


async def test_a_failed_channel_post_holds_the_next_dm_back_seconds_at_most(table: Table) -> None:
    gid, game, seated = await start_game(table)
    current, other = seated[game.current_player], seated[1 - game.current_player]
    dm = await panel_dm(table, current)
    # The game's channel refuses every post from now on (as Discord does for a lost channel).
    table.standin.faults.rate_limit(f"POST /channels/{table.channel.id}/messages", count=1000, retry_after=0.01)
    taps = Taps(table, gid, current, dm)
    await place_one(taps)
    await place_one(taps)
    await taps.press("endask")
    r = await current.click(taps.message, button(taps.message, gid, "endok"))
    assert "Your move is saved" in r.content and "unchanged" not in r.content, r.content
    loop = asyncio.get_running_loop()
    started = loop.time()
    await wait_until(lambda: any(m.components for m in table.standin.dms(other)), timeout=60)
    assert loop.time() - started < 10
    table.standin.faults.rate_limits.clear()
    table.standin.take_violations()


# -- 4. limits that hold at once and in threads -----------------------------------------------


async def test_the_lobby_cooldown_counts_threads_members_made(standin: StandIn, run_bot, tmp_path: Path) -> None:
    guild = standin.add_guild("Club")
    channel = standin.add_channel(guild, "cubist")
    users = [standin.add_user(n) for n in ("ada", "bruno", "chloe")]
    threads = [standin.add_thread(channel, f"mine-{i}", owner=u.user) for i, u in enumerate(users)]
    bot = make_bot(tmp_path / "c.db")
    bot.limits = Limits(lobby_cooldown=60)
    await run_bot(bot)
    opened = [
        await u.slash(t, "cubist lobby new", players=2, thread=False) for u, t in zip(users, threads, strict=True)
    ]
    refused = [r for r in opened if r.ephemeral]
    assert len(refused) == 2 and all("moments ago" in r.content for r in refused), [r.content for r in opened]
    with sqlite3.connect(tmp_path / "c.db") as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1


async def test_the_open_game_cap_holds_for_lobbies_opened_at_once(standin: StandIn, run_bot, tmp_path: Path) -> None:
    guild = standin.add_guild("Club")
    channels = [standin.add_channel(guild, f"c{i}") for i in range(6)]
    ada = standin.add_user("ada")
    bot = make_bot(tmp_path / "c.db")
    bot.limits = Limits(max_open_games=2, lobby_cooldown=0)
    await run_bot(bot)
    sent = [await ada.slash(c, "cubist lobby new", wait=False) for c in channels]
    for r in sent:
        await r.until_answered(15)
    with sqlite3.connect(tmp_path / "c.db") as conn:
        assert conn.execute("SELECT count(*) FROM games WHERE status = 'lobby'").fetchone()[0] == 2
    assert sum("the most is 2" in r.content for r in sent) == 4


async def test_a_rematch_respects_every_seated_players_cap(table: Table) -> None:
    gid, _game, seated = await start_game(table)
    asker, busy = seated
    with sqlite3.connect(table.db) as conn:  # the game is over (how it ended does not matter here)
        conn.execute("UPDATE games SET status = 'finished', finished_at = 1 WHERE id = ?", (gid,))
    table.bot.store.cache.forget(gid)
    table.bot.service.limits = Limits(max_open_games=1, lobby_cooldown=0)
    # One player has an open game elsewhere: the rematch could not seat them.
    other = table.standin.add_channel(table.guild, "elsewhere")
    assert not (r := await busy.slash(other, "cubist lobby new")).ephemeral, r.content
    with pytest.raises(UserError) as refused:
        await table.bot.service.rematch(gid, asker.id, "en")
    words = str(said(refused.value))
    assert busy.name in words and "the most is 1" in words
    with sqlite3.connect(table.db) as conn:
        assert conn.execute("SELECT count(*) FROM games WHERE status IN ('lobby', 'active')").fetchone()[0] == 1


# -- 5. races that slip ------------------------------------------------------------------------


async def test_a_skip_sent_before_the_turn_ended_skips_nobody(table: Table) -> None:
    gid, game, seated = await start_game(table)
    ada = table.users[0]  # the creator: may skip
    current = seated[game.current_player]
    dm = await panel_dm(table, current)
    taps = Taps(table, gid, current, dm)
    await place_one(taps)
    await place_one(taps)
    await taps.press("endask")
    await taps.press("endok")
    _record, next_turn = await table.bot.service.queries.game(gid)
    # The admin pressed Enter before that turn ended; Discord delivered it after.
    r = await ada.slash(table.channel, "cubist table skip", delivered_late=3.0)
    assert r.ephemeral and "over already" in r.content and not r.message.components, r.content
    _record, after = await table.bot.service.queries.game(gid)
    assert after.state.turn == next_turn.state.turn and after.current_player == next_turn.current_player


async def test_a_vote_racing_the_end_of_its_turn_gets_a_specific_answer(table: Table) -> None:
    gid, game, _seated = await start_game(table)
    with pytest.raises(UserError) as late:
        await table.bot.service.cast_vote(gid, game.state.turn + 5, 1 - game.current_player, "skip")
    assert "ended while you were voting" in str(said(late.value))


async def test_a_skip_asks_first_naming_the_player_and_how_long(table: Table) -> None:
    gid, game, seated = await start_game(table)
    ada = table.users[0]
    current = seated[game.current_player]
    ask = await ada.slash(table.channel, "cubist table skip")
    assert ask.ephemeral and current.name in ask.content and "Skip their turn?" in ask.content, ask.content
    assert (await table.bot.service.queries.game(gid))[1].state.turn == game.state.turn  # asking skips nothing
    ok = next(i for i in custom_ids(ask.message) if ":skipok:" in i)
    done = await ada.click(ask.message, ok)
    assert not done.ephemeral and "skipped" in done.content
    assert (await table.bot.service.queries.game(gid))[1].state.turn == game.state.turn + 1
    again = await ada.click(ask.message, ok)  # the same confirmation once more: that turn is over
    assert again.ephemeral and "over already" in again.content
    assert (await table.bot.service.queries.game(gid))[1].state.turn == game.state.turn + 1


# -- 6 and 7. buttons on someone else's message, unknown and malformed ids ---------------------


async def test_a_forged_play_on_a_message_elsewhere_opens_nothing(table: Table) -> None:
    gid, game, seated = await start_game(table)
    current = seated[game.current_player]
    elsewhere = table.standin.add_channel(table.guild, "elsewhere")
    version = (await table.bot.service.queries.record(gid)).version
    forged = table.standin.forged_message(
        elsewhere, [f"cubist:{gid}:play", f"cubist:{gid}:endok:{version}:", f"cubist:{gid}:undo:{version}"]
    )
    for custom_id in custom_ids(forged):
        r = await current.click(forged, custom_id)
        assert r.ephemeral and "another channel" in r.content, (custom_id, r.content)
        assert not any(i.startswith(f"cubist:{gid}:t:") for i in custom_ids(r.message)), "no panel opened there"
    assert (await table.bot.service.queries.record(gid)).version == version


@pytest.mark.parametrize(
    "custom_id",
    ["cubist:{gid}:nonsense", "cubist:99999999999999999999:play", "cubist:{gid}:undo:9223372036854775808", "hello"],
)
async def test_unknown_and_malformed_ids_get_a_clear_answer(table: Table, custom_id: str) -> None:
    gid, _game, _seated = await start_game(table)
    forged = table.standin.forged_message(table.channel, [custom_id.format(gid=gid)])
    r = await table.users[0].click(forged, custom_ids(forged)[0])
    assert not r.failed and r.ephemeral and "I do not know this button" in r.content, r.content


# -- 8. option values Discord would never send -----------------------------------------------


@pytest.mark.parametrize("value", [2.5, "3", True, 9])
async def test_an_option_value_discord_would_never_send_is_refused_by_name(table: Table, value: object) -> None:
    r = await table.users[0].slash(table.channel, "cubist lobby new", forged=True, players=value)
    assert r.ephemeral and "`players` cannot be" in r.content and "from 2 to 4" in r.content, r.content
    assert "went wrong" not in r.content
    with sqlite3.connect(table.db) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 0


async def test_a_start_post_discord_does_not_confirm_is_posted_once(table: Table) -> None:
    """The start post as the answer to /cubist lobby start: the callback is carried out and
    answered 500 (discord.py's retry hears "already acknowledged"), and the answer's lookup is
    rate limited past every retry. The game begins once in the channel, and the first player's
    turn DM goes out."""
    ada, bruno = table.users[:2]
    await ada.slash(table.channel, "cubist lobby new", players=2)
    await bruno.slash(table.channel, "cubist lobby join")
    faults = table.standin.faults
    lookups = faults.rate_limit("GET /webhooks/{app}/{token}/messages/@original", count=15, retry_after=0.02)
    callback = faults.fail_after("POST /interactions/{id}/{token}/callback", count=1)
    await ada.slash(table.channel, "cubist lobby start", wait=False)
    await wait_until(lambda: any(m.components for u in (ada, bruno) for m in table.standin.dms(u)), timeout=60)
    record = await table.bot.store.games.active_game_for_channel(table.channel.id)
    assert record is not None
    # The bot looks at its unconfirmed answer again after a pause and then remembers the post
    # it found (or posted): wait for that, however long a busy machine makes the pause.
    loop = asyncio.get_running_loop()
    hang_guard = loop.time() + 120
    while (remembered := await table.bot.store.posts.table_post(record.id)) is None:
        assert loop.time() < hang_guard, "the start post was never settled"
        await asyncio.sleep(0.05)
    begins = [m for m in table.standin.channel_messages(table.channel) if "The game begins" in m.content]
    assert len(begins) == 1, [m.content[:40] for m in table.standin.channel_messages(table.channel)]
    assert callback.hits and lookups.hits
    assert remembered == (begins[0].id, 0)
    table.standin.take_violations()
