"""Rules of the table (issue 16, items 1-6): who may skip, kick and cancel, what is rated,
where buttons work, DM games.  Through the stand-in, the real client and a real SQLite file."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.chat.buttons import view_of
from bot.table.away import VoteButton
from bot.turn.items import OldPanelButton, OldPanelSelect
from engine.moves import EndTurn
from engine.players import GreedyPlayer
from standin import StandIn

from .asyncplay import FakeClock, clocked_table, skip_confirmed, start_game, wait_until
from .conftest import Table, custom_ids


@pytest.fixture
async def ctable(standin: StandIn, run_bot, tmp_path: Path, clock: FakeClock) -> Table:
    return await clocked_table(standin, run_bot, tmp_path / "cubist.db", clock, moderator=True)  # users[5]


def _db(t: Table, sql: str, *params: object) -> list[tuple]:
    with sqlite3.connect(t.db) as conn:
        return conn.execute(sql, params).fetchall()


async def test_a_skip_racing_the_end_of_that_turn_is_refused(ctable: Table) -> None:
    """Item 1: the admin's skip names the turn it was meant for; when the player ended that
    turn first, the skip is refused and the next player keeps their turn."""
    t = ctable
    gid, game, seated = await start_game(t, players=3)
    turn = game.state.turn
    ask = await t.users[0].slash(t.channel, "cubist table skip")  # it asks first, naming the turn
    ok = next(i for i in custom_ids(ask.message) if ":skipok:" in i)
    lock = t.bot.service._lock(gid)
    await lock.acquire()  # the confirmed skip reads the game, then waits here to be stored
    try:
        skip = await t.users[0].click(ask.message, ok, wait=False)
        await wait_until(lambda: bool(lock._waiters))  # the skip has read turn `turn`
        end = next(m for m in game.legal_moves() if isinstance(m, EndTurn))
        await t.bot.store.moves.apply_move(gid, 0, end, seated[game.current_player].id)  # the player was quicker
    finally:
        lock.release()
    await skip.until_answered(10)
    assert skip.ephemeral and f"Turn {turn + 1} is over already" in skip.content, skip.content
    _record, after = await t.bot.service.queries.game(gid)
    assert after.state.turn == turn + 1  # the next player's turn was not skipped
    assert after.state.last_turn is not None and [p.move for p in after.state.last_turn.plays] == [end]
    assert not [m for m in t.standin.channel_messages(t.channel) if "skipped" in m.content]


async def test_powers_pass_to_the_next_seated_person_when_the_creator_is_removed(ctable: Table) -> None:
    """Item 2: a creator voted out or kicked keeps no powers; the next seated person gets them
    and the channel is told."""
    t = ctable
    gid, _game, seated = await start_game(t, players=3)
    creator, mod = t.users[0], t.users[5]
    r = await mod.slash(t.channel, "cubist table kick", player=creator.user)
    assert not r.ephemeral and "removed" in r.content
    record, game = await t.bot.service.queries.game(gid)
    holder = t.bot.service.powers_holder(record, game)
    assert holder is not None and holder.user_id != creator.id
    post = await t.standin.wait_for_message(t.channel, lambda m: "now holds the creator's powers" in m.content)
    assert holder.display_name in post.content and post.content.count("now holds the creator's powers") == 1
    for command in ("cubist table skip", "cubist table cancel"):
        r = await creator.slash(t.channel, command)
        assert r.ephemeral and "Only the game's creator" in r.content, r.content
    r = await creator.slash(
        t.channel, "cubist table kick", player=seated[0].user if seated[0] != creator else seated[1].user
    )
    assert r.ephemeral and "Only the game's creator" in r.content
    assert (await t.bot.service.queries.game(gid))[1].state.turn == game.state.turn  # nothing changed
    by_id = {u.id: u for u in t.users}
    r = await skip_confirmed(by_id[holder.user_id], t.channel)
    assert not r.ephemeral and "skipped" in r.content


async def test_a_kick_down_to_one_player_is_not_rated_and_rematch_leaves_removed_players_out(ctable: Table) -> None:
    """Item 3: a game ended by kicks is not rated; a game played to its end is; a rematch
    seats nobody who was removed."""
    t = ctable
    gid, _game, seated = await start_game(t, players=2)
    r = await t.users[5].slash(t.channel, "cubist table kick", player=seated[1].user)
    assert not r.ephemeral
    record, game = await t.bot.service.queries.game(gid)
    assert game.is_over and record.status == "finished"
    assert await t.bot.store.stats.rating_changes(gid) == []
    assert _db(t, "SELECT count(*) FROM ratings") == [(0,)]

    # Three players, one kicked at once; the other two play the game to its end.
    gid, game, seated = await start_game(t, players=3)
    kicked = seated[(game.current_player + 1) % 3]
    r = await t.users[5].slash(t.channel, "cubist table kick", player=kicked.user)
    assert not r.ephemeral
    players = {i: GreedyPlayer(i) for i in range(3)}
    by_seat = dict(enumerate(seated))
    while True:
        record, game = await t.bot.service.queries.game(gid)
        move = players[game.current_player].choose(game.clone())
        probe = game.clone()
        probe.apply(move)
        if probe.is_over:  # the last move through Discord, for the final post and its buttons
            r = await by_seat[game.current_player].slash(t.channel, "cubist move", move=str(move))
            assert not r.failed
            break
        await t.bot.service.play_in(gid, by_seat[game.current_player].id, move)
    final = await t.standin.wait_for_message(t.channel, lambda m: "The game is over" in m.content)
    assert len(await t.bot.store.stats.rating_changes(gid)) == 3  # played to its end: rated
    winner = by_seat[next(iter((await t.bot.service.queries.game(gid))[1].winners()))]
    r = await kicked.click(final, f"cubist:{gid}:b:rematch")
    assert r.ephemeral and "Only the players" in r.content
    r = await winner.click(final, f"cubist:{gid}:b:rematch")
    assert not r.ephemeral, r.content
    new = await t.bot.store.games.active_game_for_channel(t.channel.id)
    assert new is not None and new.id != gid
    assert kicked.id not in {s.user_id for s in new.seats} and len(new.seats) == 2


async def test_buttons_of_another_channels_game_and_overflowing_ids_are_refused(ctable: Table) -> None:
    """Item 4: a forged custom_id naming another channel's game, or a game id past 64 bits."""
    t = ctable
    gid, game, seated = await start_game(t, players=2)
    other = t.standin.add_channel(t.guild, "elsewhere")
    current = seated[game.current_player]
    # A message in another channel carrying this game's buttons (a forged or copied custom_id).
    view = view_of(
        OldPanelButton(gid, "en", "end"),
        OldPanelButton(2**64 + 5, "en", "end"),
        VoteButton(gid, "skip", game.state.turn, "en"),
    )
    await t.bot.get_partial_messageable(other.id, guild_id=t.guild.id).send("forged", view=view)
    forged = t.standin.last_message(other)
    assert forged is not None
    before = _db(t, "SELECT version FROM games WHERE id = ?", gid)
    r = await current.click(forged, f"cubist:{gid}:b:end")
    assert r.ephemeral and "played in another channel" in r.content, r.content
    r = await current.click(forged, f"cubist:{2**64 + 5}:b:end")
    assert r.ephemeral and "I do not know this button" in r.content, r.content  # the one guard (issue 28.7)
    r = await seated[1 - game.current_player].click(forged, f"cubist:{gid}:v:skip:{game.state.turn}")
    assert r.ephemeral and "played in another channel" in r.content, r.content
    assert _db(t, "SELECT version FROM games WHERE id = ?", gid) == before
    assert custom_ids(forged)  # the buttons were really there


async def test_dm_games_are_solo_and_dm_stats_show_only_your_own(ctable: Table) -> None:
    """Items 5 and 6: a DM lobby nobody could join is refused; in a DM the leaderboard is
    refused and stats show only the caller's own results."""
    t = ctable
    ada, bruno = t.users[0], t.users[1]
    dm = ada.dm_channel()
    r = await ada.slash(dm, "cubist lobby new", players=2)
    assert r.ephemeral and "Nobody can join a game in a DM" in r.content and "computers:1" in r.content
    assert _db(t, "SELECT count(*) FROM games") == [(0,)]
    r = await ada.slash(dm, "cubist lobby new", players=3, computers=1)
    assert r.ephemeral and "computers:2" in r.content
    r = await ada.slash(dm, "cubist lobby new", players=2, computers=1)
    assert not r.ephemeral and not r.failed, r.content
    r = await ada.slash(dm, "cubist stats leaderboard")
    assert r.ephemeral and "per server" in r.content
    r = await ada.slash(dm, "cubist stats games", player=bruno.user)
    assert r.ephemeral and "only show your own results" in r.content
    r = await ada.slash(dm, "cubist stats games")  # no finished game yet: the usual answer, about ada
    assert r.ephemeral and "bruno" not in r.content.lower()
    await asyncio.sleep(0)


GENERIC = "Something went wrong"


async def test_two_members_joining_at_once_both_sit_with_different_colours(ctable: Table) -> None:
    """Item 8: joins at once are both seated while seats are free, colours chosen with the
    seat; the one who misses the last seat reads that the table is full."""
    t = ctable
    await t.users[0].slash(t.channel, "cubist lobby new", players=3)
    answers = await asyncio.gather(*(u.slash(t.channel, "cubist lobby join") for u in t.users[1:4]))
    texts = [a.content for a in answers]
    assert not any(GENERIC in x for x in texts), texts
    joined = [a for a in answers if not a.ephemeral]
    full = [a for a in answers if a.ephemeral]
    assert len(joined) == 2 and len(full) == 1 and "The table is full (3 players)" in full[0].content, texts
    rows = _db(t, "SELECT colour FROM seats")
    assert len(rows) == 3 and len({r[0] for r in rows}) == 3


async def test_a_join_racing_start_and_a_move_racing_cancel_get_specific_answers(ctable: Table) -> None:
    """Item 8: join vs start ("has started"), moves and End turn vs cancel ("was cancelled"),
    never "Something went wrong" nor an unanswered interaction."""
    t = ctable
    for _round in range(3):
        creator = t.users[0]
        await creator.slash(t.channel, "cubist lobby new", players=3)
        await t.users[1].slash(t.channel, "cubist lobby join")
        start, join = await asyncio.gather(
            creator.slash(t.channel, "cubist lobby start"), t.users[2].slash(t.channel, "cubist lobby join")
        )
        assert not start.failed and not join.failed
        record = await t.bot.store.games.active_game_for_channel(t.channel.id)
        assert record is not None and record.status == "active"
        seated = t.users[2].id in {s.user_id for s in record.seats}
        if seated:
            assert not join.ephemeral, join.content
        else:
            assert join.ephemeral and "has already started" in join.content, join.content
        _record, game = await t.bot.service.queries.game(record.id)
        by_id = {u.id: u for u in t.users}
        current = by_id[record.seats[game.current_player].user_id]
        post = await t.standin.wait_for_message(
            t.channel, lambda m, gid=record.id: f"cubist:{gid}:play" in custom_ids(m)
        )
        # End turn from the panel: ask, then the confirmation races the cancel.
        panel = await current.click(post, f"cubist:{record.id}:play")
        endask = next(i for i in custom_ids(panel.message) if i.startswith(f"cubist:{record.id}:endask:"))
        ask = await current.click(panel.message, endask)
        confirm = next(i for i in custom_ids(ask.message) if i.startswith(f"cubist:{record.id}:endok:"))
        cancel, end = await asyncio.gather(
            creator.slash(t.channel, "cubist table cancel"), current.click(ask.message, confirm)
        )
        assert not cancel.failed and not end.failed, (cancel.content, end.content)
        assert GENERIC not in end.content and GENERIC not in cancel.content
        after = await t.bot.store.games.get_game(record.id)
        assert after.status == "cancelled"
        if end.ephemeral and "turn is over" not in end.content:
            assert "was cancelled" in end.content, end.content
        r = await current.slash(t.channel, "cubist move", move="end")
        assert r.ephemeral and GENERIC not in r.content


async def test_buttons_of_posts_from_before_the_panel_open_the_panel(ctable: Table) -> None:
    """Posts from before the turn panel carried Turn panel / End turn buttons and a two-step
    select; clicked today, each opens the private panel (End turn asks first) and changes
    nothing by itself."""
    t = ctable
    gid, game, seated = await start_game(t, players=2)
    current = seated[game.current_player]
    view = view_of(OldPanelButton(gid, "en", "turn"), OldPanelButton(gid, "en", "end"), OldPanelSelect(gid))
    await t.bot.get_partial_messageable(t.channel.id, guild_id=t.guild.id).send("an old post", view=view)
    old = t.standin.last_message(t.channel)
    assert old is not None
    before = _db(t, "SELECT version FROM games WHERE id = ?", gid)
    opened = await current.click(old, f"cubist:{gid}:b:turn")
    assert opened.ephemeral and any(":t:" in c for c in custom_ids(opened.message)), opened.content
    asked = await current.click(old, f"cubist:{gid}:b:end")
    assert asked.ephemeral and any(":endok:" in c or ":endpick:" in c for c in custom_ids(asked.message)), asked.content
    picked = await current.select(old, f"cubist:{gid}:s:pick", ["-"])
    assert picked.ephemeral and any(":t:" in c for c in custom_ids(picked.message))
    assert _db(t, "SELECT version FROM games WHERE id = ?", gid) == before
