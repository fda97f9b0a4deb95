"""The outbox under SIGKILL (issue 16 item 7): a bot process (``python -m bot``) is killed at
random moments while players end their turns, and restarted, many times.  Every finished
turn gets its channel post and the next player's turn-start DM, none twice, and no player
reads "the game is unchanged" about a stored move."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from standin import StandIn

from .conftest import Table, custom_ids, started
from .processes import BotProcesses, db_rows, pending_one_offs, until

KILLS = 12


async def test_sigkill_mid_turn_loses_no_post_and_doubles_none(standin: StandIn, tmp_path: Path) -> None:
    guild = standin.add_guild("Club")
    channel = standin.add_channel(guild, "cubist")
    ada, bruno = standin.add_user("ada"), standin.add_user("bruno")
    db = tmp_path / "cubist.db"
    rng = random.Random(16)
    answers = []
    async with BotProcesses(standin, db) as bots:
        await bots.start()
        await ada.slash(channel, "cubist lobby new", players=2)
        await bruno.slash(channel, "cubist lobby join")
        await ada.slash(channel, "cubist lobby start")
        await standin.wait_for_message(channel, lambda m: "The game begins" in m.content)
        await until(
            lambda: [m for u in (ada, bruno) for m in standin.dms(u) if "Your turn in Cubist" in m.content],
            "the first player's turn-start DM (sent at the start, not an outbox row)",
        )
        by_id = {ada.id: ada, bruno.id: bruno}
        for kill in range(KILLS):
            (turn_before,) = db_rows(db, "SELECT turn FROM games")[0]
            (seat,) = db_rows(db, "SELECT current_seat FROM games")[0]
            (user,) = db_rows(db, "SELECT user_id FROM seats WHERE seat = ?", seat)[0]
            answers.append(await by_id[user].slash(channel, "cubist end", keep="", wait=False))
            if kill % 2:
                # After the move is stored (found by looking, not by timing, so that a busy
                # machine cannot make every kill come first): while its post and DM go out.
                await until(
                    lambda t=turn_before: db_rows(db, "SELECT turn FROM games")[0][0] != t,
                    "the end of the turn was never stored",
                )
                await asyncio.sleep(rng.uniform(0.0, 0.3))
            else:  # at any moment: before, during or after the move is stored
                await asyncio.sleep(rng.uniform(0.0, 0.6))
            await bots.kill_last()
            await bots.start()
            # The restarted bot sends what the killed one left (the lease is 2 s here).
            await until(lambda: not pending_one_offs(db), lambda: pending_one_offs(db))
        (turn,) = db_rows(db, "SELECT turn FROM games")[0]
        assert db_rows(db, "SELECT count(*) FROM jobs WHERE failed = 1") == [(0,)]
        # Table posts carry the table picture (only the newest keeps its Play button).
        posts = [m for m in standin.channel_messages(channel) if m.attachments]
        turn_posts = [m for m in posts if "The game begins" not in m.content]
        dms = [m for u in (ada, bruno) for m in standin.dms(u) if "Your turn in Cubist" in m.content]
        counts = f"{turn} turns finished, {len(turn_posts)} turn posts, {len(dms)} turn-start DMs"
        print(f"\nSIGKILL loop: {KILLS} kills, {counts}")
        assert turn >= KILLS // 2  # every other kill came after the move was stored
        assert len(turn_posts) == turn  # every finished turn posted, once
        assert len(dms) == turn + 1  # the first turn's DM, then one per finished turn, once each
        seen = [m.content for a in answers for m in a.messages]  # answers that got out before a kill
        assert seen and not [text for text in seen if "unchanged" in text], seen


async def test_a_turn_post_that_fails_past_discords_retries_is_posted_by_the_outbox(table: Table) -> None:
    """429s past discord.py's own retries on the turn post: the player reads that the move is
    saved (never "unchanged"); the job poller posts it soon after, once, then the DM."""
    gid, game, seated = await started(table, players=2)
    current, other = seated[game.current_player], seated[1 - game.current_player]
    before = len([m for m in table.standin.dms(other) if "Your turn in Cubist" in m.content])
    # Only the game's channel: DMs are other channels.
    rule = table.standin.faults.rate_limit(f"POST /channels/{table.channel.id}/messages", count=5, retry_after=0.01)
    # Ended from the turn panel of the DM: the post goes to the channel (in the channel
    # itself it would be the interaction's answer, which these faults do not touch).
    await until(
        lambda: [m for m in table.standin.dms(current) if any(":endask:" in c for c in custom_ids(m))],
        "the turn panel's DM",
    )
    dm = [m for m in table.standin.dms(current) if any(":endask:" in c for c in custom_ids(m))][-1]
    ask = await current.click(dm, next(c for c in custom_ids(dm) if ":endask:" in c))
    r = await current.click(ask.message, next(c for c in custom_ids(ask.message) if ":endok:" in c))
    await r.wait(lambda res: any("Your move is saved" in m.content for m in res.messages))
    assert not any("unchanged" in m.content for m in r.messages)
    assert len(rule.hits) == 5
    post = await table.standin.wait_for_message(
        table.channel, lambda m: "ended the turn" in m.content and other.mention in m.content
    )
    assert post.attachments
    # Everything the move queued is out (so nothing more can come) before counting.
    await until(lambda: not pending_one_offs(table.db), lambda: pending_one_offs(table.db))
    posts = [m for m in table.standin.channel_messages(table.channel) if "ended the turn" in m.content]
    assert len(posts) == 1
    assert len([m for m in table.standin.dms(other) if "Your turn in Cubist" in m.content]) == before + 1
    assert gid
    table.standin.take_errors()
    table.standin.take_violations()
    table.standin.invalid_requests.clear()
