"""A DM the bot owes a player is never dropped because Discord refused it for now: a 503 or
429s past discord.py's own retries leave the job to be tried again with every job's backoff;
only closed DMs or a user who is gone end it.  The stand-in refuses the requests, the bot is
the real client on a hand-driven clock, the store a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store.jobs import retry_delay
from bot.store.outbox import POST_GRACE
from standin import StandIn
from standin.faults import FailureRule, RateLimitRule

from .asyncplay import FakeClock, clocked_table, dms, poll, start_game, wait_until
from .conftest import NAMES, Table
from .test_turn_panel import EN, Taps, panel_dm, place_both_and_end

TURN_START = "Your turn in Cubist"


@pytest.fixture
async def ctable(standin: StandIn, run_bot, tmp_path: Path, clock: FakeClock) -> Table:
    return await clocked_table(standin, run_bot, tmp_path / "cubist.db", clock, NAMES[:2])


def refuse_dms(t: Table, user: object, how: str) -> FailureRule | RateLimitRule:
    """The next DM to ``user`` refused: one 503, or 429s until discord.py gives up (5 tries)."""
    route = f"POST /channels/{t.standin.dm_channel(user).id}/messages"  # type: ignore[arg-type]
    if how == "503":
        return t.standin.faults.refuse(route, status=503)
    return t.standin.faults.rate_limit(route, count=5, retry_after=0.01)


def job_failures(t: Table, kind: str) -> list[int]:
    with sqlite3.connect(t.db) as conn:
        return [r[0] for r in conn.execute("SELECT failures FROM jobs WHERE kind = ? ORDER BY id", (kind,))]


@pytest.mark.parametrize("how", ["503", "429"])
async def test_a_turn_start_dm_refused_for_now_is_sent_after_the_backoff(
    ctable: Table, clock: FakeClock, how: str
) -> None:
    t = ctable
    _gid, game, seated = await start_game(t)
    current, other = seated[game.current_player], seated[1 - game.current_player]
    rule = refuse_dms(t, other, how)
    await current.slash(t.channel, "cubist end", keep="")
    await wait_until(lambda: len(rule.hits) == (1 if how == "503" else 5), timeout=60)
    await wait_until(lambda: job_failures(t, "turn_dm") == [1])  # to be tried again, not done
    assert not dms(t.standin, other, TURN_START)
    await poll(t)
    assert not dms(t.standin, other, TURN_START)  # not before its backoff
    clock.advance(retry_delay(1) + 0.1)
    await poll(t)
    assert len(dms(t.standin, other, TURN_START)) == 1
    # The player was never taken for one whose DMs are closed: nothing said in the channel.
    assert not [m for m in t.standin.channel_messages(t.channel) if "does not accept DMs" in m.content]
    for _ in range(3):
        clock.advance(60)
        await poll(t)
    assert len(dms(t.standin, other, TURN_START)) == 1  # and only once
    t.standin.take_violations()


async def test_the_first_turn_start_dm_refused_for_now_is_sent_after_the_backoff(
    ctable: Table, clock: FakeClock
) -> None:
    t = ctable
    a, b = t.users
    await a.slash(t.channel, "cubist lobby new", players=2)
    await b.slash(t.channel, "cubist lobby join")
    rules = {u.id: refuse_dms(t, u, "503") for u in (a, b)}
    await a.slash(t.channel, "cubist lobby start")
    await t.standin.wait_for_message(t.channel, lambda m: "The game begins" in m.content)
    record = await t.bot.store.games.active_game_for_channel(t.channel.id)
    assert record is not None
    _record, game = await t.bot.service.queries.game(record.id)
    current = a if record.seats[game.current_player].user_id == a.id else b
    await wait_until(lambda: rules[current.id].hits, timeout=60)
    await wait_until(lambda: job_failures(t, "turn_start") == [1])  # the turn's timer, to be run again
    assert not dms(t.standin, current, TURN_START)
    clock.advance(retry_delay(1) + 0.1)
    await poll(t)
    assert len(dms(t.standin, current, TURN_START)) == 1
    clock.advance(60)
    await poll(t)
    assert len(dms(t.standin, current, TURN_START)) == 1


async def test_a_reminder_refused_for_now_is_sent_after_the_backoff(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    _gid, game, seated = await start_game(t)
    current = seated[game.current_player]
    rule = refuse_dms(t, current, "503")
    clock.advance(12 * 3600 + 1)
    await poll(t)
    assert rule.hits and not dms(t.standin, current, "⏰ Reminder")
    assert job_failures(t, "reminder") == [1]
    clock.advance(retry_delay(1) + 0.1)
    await poll(t)
    reminders = dms(t.standin, current, "⏰ Reminder")
    assert len(reminders) == 1 and "Reminder 1/" in reminders[0].content  # the same reminder, counted once


async def test_a_reminder_whose_answer_was_lost_is_sent_once(ctable: Table, clock: FakeClock) -> None:
    """Discord carries the reminder out and answers 503 (its answer lost; discord.py does
    not retry a 503): the job is tried again after its backoff, and the player still has one
    reminder (the turn's reminder nonce), not two."""
    t = ctable
    _gid, game, seated = await start_game(t)
    current = seated[game.current_player]
    route = f"POST /channels/{t.standin.dm_channel(current).id}/messages"
    lost = t.standin.faults.fail_after(route, status=503)
    clock.advance(12 * 3600 + 1)
    await poll(t)
    assert len(lost.hits) == 1 and job_failures(t, "reminder") == [1]  # the bot cannot know it was sent
    assert len(dms(t.standin, current, "⏰ Reminder")) == 1
    clock.advance(retry_delay(1) + 0.1)
    await poll(t)
    assert job_failures(t, "reminder") == [0]
    reminders = dms(t.standin, current, "⏰ Reminder")
    assert len(reminders) == 1 and "Reminder 1/" in reminders[0].content
    t.standin.take_violations()


async def test_a_turn_start_dm_never_links_to_an_older_post(ctable: Table, clock: FakeClock) -> None:
    """The turn's post is refused twice (by its mover's panel, then by the worker): the next
    player's DM goes out all the same, and says where the table is instead of linking to the
    previous turn's post; the post follows after its backoff."""
    t = ctable
    gid, game, seated = await start_game(t)
    current, other = seated[game.current_player], seated[1 - game.current_player]
    begins = await t.standin.wait_for_message(t.channel, lambda m: "The game begins" in m.content)
    refused = t.standin.faults.refuse(f"POST /channels/{t.channel.id}/messages", count=2)
    taps = Taps(t, gid, current, await panel_dm(t, current))
    await place_both_and_end(taps, EN | {"over": "Your move is saved. Posting the table failed for a moment"})
    assert len(refused.hits) == 1
    await poll(t)
    assert not dms(t.standin, other, TURN_START)  # waiting for its post (not yet due: its grace)
    clock.advance(POST_GRACE + 0.1)
    await poll(t)
    assert len(refused.hits) == 2 and job_failures(t, "turn_post") == [1]
    [dm] = dms(t.standin, other, TURN_START)  # a failed post holds the DM back no longer
    channel = f"https://discord.com/channels/{t.guild.id}/{t.channel.id}"
    assert f"{channel}/{begins.id}" not in dm.content and f"{channel}\n" in dm.content, dm.content
    clock.advance(retry_delay(1))
    await poll(t)
    [post] = [m for m in t.standin.channel_messages(t.channel) if "ended the turn" in m.content]
    assert await t.bot.store.posts.table_post(gid) == (post.id, (await t.bot.service.queries.record(gid)).version)
    t.standin.take_violations()
