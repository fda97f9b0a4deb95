"""Whole games through the real bot and the stand-in, from /cubist lobby new to the final scores."""

from __future__ import annotations

import sqlite3

import pytest

from bot.demo import play_demo_game
from bot.store import Status

from .conftest import Table


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_whole_game_from_new_to_final_scores(table: Table, players: int) -> None:
    users = table.users[:players]
    game_id = await play_demo_game(table.standin, table.bot, users, table.channel, seed=players)
    record, game = await table.bot.service.queries.game(game_id)
    assert game.is_over and record.status == Status.FINISHED
    posts = table.standin.channel_messages(table.channel)
    final = posts[-1]
    assert "The game is over" in final.content
    assert "The new museum is named after" in final.content
    for s in record.seats:
        assert s.display_name in final.content
    assert final.attachments and final.attachments[0].image().size[0] > 500
    assert any(
        "cubist:" in c.get("custom_id", "") and c["custom_id"].endswith(":b:rematch")
        for row in final.components
        for c in row.get("components", [])
    )
    # Every finished turn was posted with its table picture.
    turn_posts = [m for m in posts if "it is your turn" in m.content or "The game is over" in m.content]
    assert len(turn_posts) == game.state.turn + 1 + 1  # the start announcement, then one per turn
    assert all(m.attachments for m in turn_posts)
    with sqlite3.connect(table.db) as conn:
        results = conn.execute("SELECT seat, score, winner FROM results WHERE game_id = ?", (game_id,)).fetchall()
    assert sorted((s, sc) for s, sc, _w in results) == [(i, game.score(i)) for i in range(players)]
    assert {s for s, _sc, w in results if w} == set(game.winners())


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_a_whole_game_through_the_dm_panel(table: Table, locale: str) -> None:
    users = table.users[:2]
    for u in users:
        u.user.locale = locale
    taps: list[tuple[list[str], int]] = []
    game_id = await play_demo_game(table.standin, table.bot, users, table.channel, seed=11, panel=True, tap_log=taps)
    # Physical taps (a select is two), issue 27: two dice and the end in six at most; a turn
    # with an artist use (and up to two dice placed) in eight at most.
    typical = [n for kinds, n in taps if kinds == ["place", "place", "end"]]
    with_artist = [n for kinds, n in taps if "use" in kinds and kinds.count("place") <= 2 and len(kinds) <= 4]
    assert typical and max(typical) <= 6, taps
    assert with_artist and max(with_artist) <= 8, taps
    if locale != "en-US":
        return  # the posts below are the server's (English) in both runs
    record, game = await table.bot.service.queries.game(game_id)
    assert game.is_over and record.status == Status.FINISHED
    posts = sorted(table.standin.channel_messages(table.channel), key=lambda m: m.id)
    tables = [m for m in posts if m.attachments]
    # One start post, first; then one post per turn, in order, without move notation.
    assert "The game begins" in tables[0].content and not any("The game begins" in m.content for m in tables[1:])
    # The seats are listed as the table picture lays them out (seat order, which play goes round).
    order = tables[0].content.split("as the table shows them: ", 1)[1].split("\n", 1)[0]
    names = [seat.display_name for seat in record.seats]
    assert order.index(f"**{names[0]}**") < order.index(f"**{names[1]}**"), order
    assert len(tables) == game.state.turn + 2
    assert not any(" w1 " in m.content or " w2 " in m.content for m in tables)


async def test_the_demo_writes_a_plain_transcript_with_dms_and_says_who_won(tmp_path, capsys) -> None:
    """The demo clears its own earlier pictures; its transcript shows each DM and panel as it
    was sent (the turn-start DM with its buttons and studio) and then each edit, with the
    channel posts, pictures inline, mentions as @Name; its output says it plays on the local
    stand-in, and its last line says who won, where the files are and that the board stops."""
    from bot.demo import run_demo

    (tmp_path / "999-old.png").write_bytes(b"old")
    (tmp_path / "notes.txt").write_text("mine")
    assert await run_demo(tmp_path, players=3, computers=2, seed=5) == 0
    assert not (tmp_path / "999-old.png").exists() and (tmp_path / "notes.txt").exists()
    text = (tmp_path / "transcript.md").read_text()
    assert "(DM)**:" in text and "![" in text and "<@" not in text and "@Ada" in text
    assert "3 players (2 computers)" in text.splitlines()[0]
    # The first turn-start DM as sent: its words, its panel's buttons, its studio; then the
    # same DM edited by the first tap, before the turn is over.
    sent = text.index("**Cubist → Ada (DM)**: 🎲 Your turn")
    edited = text.index("**Cubist → Ada (DM), edited**:", sent)
    assert "> [Place the" in text[sent:edited] and "-studio.png)" in text[sent:edited]
    assert text.index("Your turn is over", sent) > edited
    out = capsys.readouterr().out.strip().splitlines()
    assert "stand-in" in out[0] and "never to Discord" in out[0] and "(2 computers)" in out[1]
    last = out[-1]
    assert " won with " in last and "transcript.md" in last and "scores.png" in last and "replay.gif" in last
    assert "stops with the demo" in last and "--keep-open" in last
