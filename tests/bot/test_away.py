"""Away players (turn clock, votes, admin skip/kick), history, recap, mygames, the replay
GIF, and bad inputs to the new commands: through the stand-in with a hand-driven clock."""

from __future__ import annotations

import io
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine import Game
from standin import Player, StandIn

from .asyncplay import HOUR, FakeClock, clocked_table, make_clocked_bot, poll, skip_confirmed, start_game
from .conftest import Table, custom_ids


@pytest.fixture
async def ctable(standin: StandIn, run_bot, tmp_path: Path, clock: FakeClock) -> Table:
    return await clocked_table(standin, run_bot, tmp_path / "cubist.db", clock, moderator=True)  # users[5]


async def refused(t: Table, user, command: str, fragment: str, **options) -> None:
    """An ephemeral answer containing ``fragment``, and nothing changed in the database."""
    before, moves = await t.snapshot(), await t.moves_logged()
    with sqlite3.connect(t.db) as conn:
        seats_before = conn.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall()
    r = await user.slash(t.channel, command, **options)
    assert not r.failed and r.ephemeral, r.content
    assert fragment.lower() in r.content.lower(), r.content
    assert await t.snapshot() == before and await t.moves_logged() == moves
    with sqlite3.connect(t.db) as conn:
        assert conn.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall() == seats_before


def vote_post(t: Table):
    posts = [
        m for m in t.standin.channel_messages(t.channel) if "turn clock" in m.content and "has run out" in m.content
    ]
    return posts[-1] if posts else None


async def test_turn_clock_runs_out_and_one_vote_skips_the_turn(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    gid, game, seated = await start_game(t, players=3, turn_hours=24)
    away = seated[game.current_player]
    others = [u for u in seated if u is not away]
    storeroom = sorted(game.state.players[game.current_player].storeroom, reverse=True)
    clock.advance(24 * HOUR - 60)
    await poll(t)
    assert vote_post(t) is None
    clock.advance(61)
    await poll(t)
    await poll(t)
    post = vote_post(t)
    assert post is not None and away.mention in post.content
    turn = game.state.turn
    assert custom_ids(post) == [f"cubist:{gid}:v:{c}:{turn}" for c in ("skip", "remove", "computer")]
    assert len([m for m in t.standin.channel_messages(t.channel) if "has run out" in m.content]) == 1
    r = await away.click(post, f"cubist:{gid}:v:skip:{turn}")
    assert r.ephemeral and "your own turn" in r.content
    r = await t.users[4].click(post, f"cubist:{gid}:v:skip:{turn}")
    assert r.ephemeral and "Only the players" in r.content
    r = await others[0].click(post, f"cubist:{gid}:v:skip:{turn}")
    assert not r.ephemeral and "skipped" in r.content
    _record, after = await t.bot.service.queries.game(gid)
    assert after.state.turn == turn + 1 and after.state.last_turn is not None
    assert [str(p.move) for p in after.state.last_turn.plays] == ["skip"]
    assert sorted(after.state.players[game.current_player].storage, reverse=True) == storeroom[:2]
    await t.standin.wait_for_message(t.channel, lambda m: "turn was skipped" in m.content and bool(m.attachments))
    # The old vote is void now.
    r = await others[1].click(post, f"cubist:{gid}:v:remove:{turn}")
    assert r.ephemeral and "no longer counts" in r.content
    assert (await t.bot.service.queries.game(gid))[1].state.turn == turn + 1


@dataclass
class Vote:
    """A 3-player game whose first turn clock ran out: the player away, the two who may vote
    and the vote's post."""

    gid: int
    game: Game
    away: Player
    voters: list[Player]
    post: Any

    @property
    def seat(self) -> int:
        return self.game.current_player

    @property
    def turn(self) -> int:
        return self.game.state.turn

    async def cast(self, voter: Player, choice: str) -> Any:
        """``voter`` presses the button of ``choice`` (computer, remove, skip): the answer."""
        return await voter.click(self.post, f"cubist:{self.gid}:v:{choice}:{self.turn}")


async def three_players_and_a_vote(t: Table, clock: FakeClock) -> Vote:
    gid, game, seated = await start_game(t, players=3, turn_hours=24)
    away = seated[game.current_player]
    clock.advance(24 * HOUR + 1)
    await poll(t)
    post = vote_post(t)
    assert post is not None
    return Vote(gid, game, away, [u for u in seated if u is not away], post)


async def test_a_computer_takes_over_by_majority_vote_and_plays_the_turn(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    vote = await three_players_and_a_vote(t, clock)
    gid, seat, turn, (v1, v2) = vote.gid, vote.seat, vote.turn, vote.voters
    assert "a computer take over" in vote.post.content
    r = await vote.cast(v1, "computer")
    assert not r.ephemeral and "1 of 2" in r.content
    assert not (await t.bot.service.queries.game(gid))[0].seats[seat].is_computer
    r = await vote.cast(v2, "computer")
    assert not r.ephemeral and "a computer player (greedy) takes over" in r.content, r.content
    # The computer plays the away player's turn at once, with the usual table post.
    done = await t.standin.wait_for_message(t.channel, lambda m: "(computer)** " in m.content)
    assert done.attachments
    record, after = await t.bot.service.queries.game(gid)
    assert after.state.turn == turn + 1 and not after.state.players[seat].removed
    assert record.seats[seat].is_computer and record.seats[seat].user_id is None
    assert record.seat_of(vote.away.id) is None  # the person is out of this game: no reminders, no votes
    r = await vote.away.slash(t.channel, "cubist turn")
    assert r.ephemeral and "not playing in this game" in r.content
    assert after.check_invariants() == []


async def test_removal_needs_a_majority_and_votes_survive_a_restart(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    vote = await three_players_and_a_vote(t, clock)
    seat, (v1, v2) = vote.seat, vote.voters
    assert "votes needed for either: 2 of 2" in vote.post.content
    r = await vote.cast(v1, "remove")
    assert "1 of 2" in r.content
    assert not (await t.bot.service.queries.game(vote.gid))[1].state.players[seat].removed
    r = await vote.cast(v1, "remove")  # voting twice counts once
    assert "1 of 2" in r.content
    await t.bot.close()
    bot2 = make_clocked_bot(t.db, clock)
    await t.run_bot(bot2)  # type: ignore[operator]
    t.bot = bot2
    await poll(t)
    assert len([m for m in t.standin.channel_messages(t.channel) if "has run out" in m.content]) == 1
    r = await vote.cast(v2, "remove")
    assert "removed from the game" in r.content
    _record, after = await bot2.service.queries.game(vote.gid)
    assert after.state.players[seat].removed and not after.is_over and after.current_player != seat
    assert after.check_invariants() == []


async def test_admin_skip_and_kick_and_the_replay_gif(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    gid, _game, seated = await start_game(t, players=2)
    creator, mod, outsider = t.users[0], t.users[5], t.users[3]
    joiner = t.users[1]
    await refused(t, joiner, "cubist table skip", "Only the game's creator")
    await refused(t, joiner, "cubist table kick", "Only the game's creator", player=creator.user)
    await refused(t, creator, "cubist table kick", "not playing in this game", player=outsider.user)
    r = await skip_confirmed(creator, t.channel)
    assert not r.ephemeral and "skipped" in r.content
    r = await skip_confirmed(mod, t.channel)  # Manage Channels may too
    assert not r.ephemeral and "skipped" in r.content
    _record, mid = await t.bot.service.queries.game(gid)
    assert mid.state.turn == 2
    r = await mod.slash(t.channel, "cubist table kick", player=joiner.user)
    assert not r.ephemeral and "removed" in r.content
    final = await t.standin.wait_for_message(t.channel, lambda m: "The game is over" in m.content)
    record, over = await t.bot.service.queries.game(gid)
    assert over.is_over and record.status == "finished"
    names = [a.filename for a in final.attachments]
    assert names == ["table.png", "replay.gif", "scores.png"]
    gif = final.attachments[1]
    assert len(gif.data) < 10 * 1024 * 1024
    im = Image.open(io.BytesIO(gif.data))
    assert im.format == "GIF" and im.n_frames == over.state.turn + 2  # the start, 2 turns, the removal
    assert im.size[0] >= 800  # readable at the preview, as the table (issue 26 item 5)
    await refused(t, creator, "cubist table skip", "no Cubist game in this channel")
    del seated


async def test_a_player_whose_account_is_gone_is_away(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    gid, game, seated = await start_game(t, players=3)
    away = seated[game.current_player]
    del t.standin.users[away.id]  # the account was deleted: Discord no longer knows the user
    clock.advance(12 * HOUR + 1)
    await poll(t)
    post = vote_post(t)
    assert post is not None and away.mention in post.content  # the vote opens at once, not after 72 h
    voter = next(u for u in seated if u is not away)
    r = await voter.click(post, f"cubist:{gid}:v:skip:{game.state.turn}")
    assert "skipped" in r.content


async def test_recap_history_and_mygames(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    gid, game, seated = await start_game(t, players=2)
    first, second = seated[game.current_player], seated[1 - game.current_player]
    low = min(game.state.players[game.current_player].storeroom)
    await first.slash(t.channel, "cubist move", move=f"place {low} w1 c3")
    await first.slash(t.channel, "cubist end", keep="")
    r = await second.slash(t.channel, "cubist look recap")
    assert r.ephemeral and f"placed a {low} in workroom 1" in r.content and "It is your turn now" in r.content
    r = await first.slash(t.channel, "cubist look recap")
    assert r.ephemeral and "Nothing has happened" in r.content
    r = await second.slash(t.channel, "cubist look mygames")
    post = t.standin.channel_messages(t.channel)[-1]
    assert r.ephemeral and f"https://discord.com/channels/{t.guild.id}/{t.channel.id}/{post.id}" in r.content
    r = await first.slash(t.channel, "cubist look mygames")
    assert "not your turn in any game" in r.content
    r = await first.slash(t.channel, "cubist look history", n=1)
    assert r.ephemeral and "`2`" in r.content and "ended the turn" in r.content and "`1`" not in r.content
    r = await second.slash(t.channel, "cubist look history")
    assert "`1`" in r.content and f"place {low} w1 c3" in r.content and first.name in r.content
    await refused(t, t.users[3], "cubist look recap", "not playing in this game")
    del gid


async def test_bad_inputs_to_the_new_commands(ctable: Table, clock: FakeClock) -> None:
    t = ctable
    a = t.users[0]
    await refused(t, a, "cubist settings reminders", "not in any open Cubist game", every_hours=3)
    await refused(t, a, "cubist look recap", "no Cubist game in this channel")
    await refused(t, a, "cubist look history", "no Cubist game in this channel")
    await refused(t, a, "cubist table skip", "no Cubist game in this channel")
    await refused(t, a, "cubist table kick", "no Cubist game in this channel", player=t.users[1].user)
    r = await a.slash(t.channel, "cubist look mygames")
    assert r.ephemeral and "not your turn" in r.content
    gid, _game, _seated = await start_game(t, players=2)
    await refused(t, a, "cubist settings reminders", "not a time zone", time_zone="Mars/Olympus")
    await refused(t, a, "cubist settings reminders", "not a time range", quiet="noon")
    await refused(t, a, "cubist settings reminders", "hours go from 0 to 23", quiet="25-7")
    await refused(t, a, "cubist settings reminders", "different times", quiet="7-7")
    await refused(t, a, "cubist settings reminders", "not a time zone", every_hours=2, time_zone="Nowhere")
    r = await a.slash(t.channel, "cubist settings reminders")
    assert r.ephemeral and "reminders on" in r.content
    choices = await a.autocomplete(t.channel, "cubist settings reminders", option="time_zone", value="paris")
    assert [c["value"] for c in choices] == ["Europe/Paris"]
    await refused(t, t.users[1], "cubist table skip", "Only the game's creator")
    del gid
