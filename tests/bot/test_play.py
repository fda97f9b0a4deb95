"""Playing through buttons, the turn panel and autocomplete; races; a restart mid-turn."""

from __future__ import annotations

import asyncio

from engine import parse_move
from engine.players import GreedyPlayer

from .conftest import Table, custom_ids, make_bot, started


async def turn_over(r) -> bool:
    """The turn ended from the channel: the answer is the public table post, then a private
    word to the player."""
    await r.wait_for_followups(1)
    public = r.original is not None and not r.original.ephemeral and r.original.attachments
    return bool(public) and any(m.ephemeral and "turn is over" in m.content for m in r.followups)


async def open_panel(table: Table, gid: int, who):
    """The private panel opened with the Play button under the channel's latest post."""
    post = table.standin.channel_messages(table.channel)[-1]
    r = await who.click(post, f"cubist:{gid}:play")
    assert r.ephemeral and not r.failed
    return r.message


def item(message, prefix: str) -> str:
    return next(i for i in custom_ids(message) if i.startswith(prefix))


async def end_via_panel(table: Table, gid: int, who):
    panel = await open_panel(table, gid, who)
    ask = await who.click(panel, item(panel, f"cubist:{gid}:endask:"))
    assert "End your turn?" in ask.content
    return await who.click(ask.message, item(ask.message, f"cubist:{gid}:endok:"))


async def test_turn_post_buttons_open_private_answers_and_end_turn_asks_first(table: Table) -> None:
    gid, game, seated = await started(table)
    post = table.standin.channel_messages(table.channel)[-1]
    assert custom_ids(post) == [f"cubist:{gid}:play", f"cubist:{gid}:b:studio", f"cubist:{gid}:b:board"]
    current, other = seated[game.current_player], seated[1 - game.current_player]
    r = await other.click(post, f"cubist:{gid}:play")
    assert r.ephemeral and "turn" in r.content and not any(":t:" in i for i in custom_ids(r.message))
    r = await other.click(post, f"cubist:{gid}:b:studio")
    assert r.ephemeral and r.attachments[0].filename == "studio.png"
    before = len(table.standin.channel_messages(table.channel))
    panel = await open_panel(table, gid, current)
    ask = await current.click(panel, item(panel, f"cubist:{gid}:endask:"))
    room = game.state.players[game.current_player].storeroom
    assert (
        f"Kept in the storage space: {room[1]} and {room[0]}" in ask.content
        or f"{room[0]} and {room[1]}" in ask.content
    )
    assert len(table.standin.channel_messages(table.channel)) == before  # nothing happened yet
    r = await current.click(ask.message, item(ask.message, f"cubist:{gid}:endok:"))
    assert await turn_over(r)
    posts = table.standin.channel_messages(table.channel)
    assert len(posts) == before + 1 and "ended the turn keeping" in posts[-1].content
    assert other.mention in posts[-1].content


async def test_end_turn_asks_which_dice_to_keep_when_some_would_go_back(table: Table) -> None:
    gid, game, seated = await started(table)
    seat = game.current_player
    current, other = seated[seat], seated[1 - seat]
    # Turn 1: keep nothing.  Turns 2 and 3: end keeping both dice.  Turn 4: the other
    # player has 2 stored + 2 rolled = 4 dice.
    await current.slash(table.channel, "cubist end", keep="")
    for who in (other, current):
        r = await end_via_panel(table, gid, who)
        assert await turn_over(r)
    _record, game = await table.bot.service.queries.game(gid)
    who = seated[game.current_player]
    room = game.state.players[game.current_player].storeroom
    assert len(room) > 2
    panel = await open_panel(table, gid, who)
    r = await who.click(panel, item(panel, f"cubist:{gid}:endask:"))
    assert r.ephemeral and "Which do you keep?" in r.content
    select_id = item(r.message, f"cubist:{gid}:endpick:")
    options = next(c for row in r.message.components for c in row["components"] if c["custom_id"] == select_id)[
        "options"
    ]
    assert any("back to your supply" in o["label"] for o in options)
    keep = next(o["value"] for o in options if len(o["value"].split()) == 3)
    before = await table.snapshot()
    ask = await who.select(r.message, select_id, [keep])
    assert "End your turn?" in ask.content and await table.snapshot() == before
    done = await who.click(ask.message, item(ask.message, f"cubist:{gid}:endok:"))
    assert await turn_over(done)
    assert await table.snapshot() != before
    _record, game = await table.bot.service.queries.game(gid)
    prev = game.state.last_turn
    assert prev is not None and str(prev.plays[-1].move) == keep


async def test_turn_command_opens_the_panel_and_a_move_redraws_the_studio(table: Table) -> None:
    gid, game, seated = await started(table)
    current = seated[game.current_player]
    panel = await current.slash(table.channel, "cubist turn")
    assert panel.ephemeral and panel.attachments[0].filename == "studio.png"
    select_id = item(panel.message, f"cubist:{gid}:t:")
    options = next(c for row in panel.message.components for c in row["components"] if c["custom_id"] == select_id)[
        "options"
    ]
    assert 1 <= len(options) <= 25 and options[0]["label"].startswith("Place the ")
    step = await current.select(panel.message, select_id, [options[0]["value"]])
    assert step.message.id == panel.message.id  # edited in place
    cells_id = item(step.message, f"cubist:{gid}:t:")
    cells = next(c for row in step.message.components for c in row["components"] if c["custom_id"] == cells_id)[
        "options"
    ]
    done = await current.select(step.message, cells_id, [cells[0]["value"]])
    assert done.content.startswith("Done: Place the ") and cells[0]["label"] in done.content
    assert done.message.attachments[0].filename == "studio.png"
    # A typed move answers with the same panel.
    _record, game = await table.bot.service.queries.game(gid)
    typed = next(str(m) for m in game.legal_moves() if str(m).startswith("place"))
    r = await current.slash(table.channel, "cubist move", move=typed)
    assert r.ephemeral and "You placed" in r.content and any(f"cubist:{gid}:t:" in i for i in custom_ids(r.message))
    _record, game = await table.bot.service.queries.game(gid)
    assert len(game.state.this_turn.plays) == 2


async def test_autocomplete_offers_only_legal_moves_of_the_current_player(table: Table) -> None:
    gid, _game, seated = await started(table, players=3)
    checked = 0
    for step in range(60):
        record, game = await table.bot.service.queries.game(gid)
        if game.is_over:
            break
        current = seated[game.current_player]
        legal = {str(m) for m in game.legal_moves()}
        for typed in ("", "place", "end", "w1", "museum", "artist", "use", "complete", "x"):
            choices = await current.autocomplete(table.channel, "cubist move", option="move", value=typed)
            assert len(choices) <= 25
            for c in choices:
                assert c["value"] in legal, f"{c['value']} is not legal"
                assert typed in c["value"]
                copy = game.clone()
                copy.apply(parse_move(c["value"]))
            checked += len(choices)
        for other in seated:
            if other is not current:
                assert await other.autocomplete(table.channel, "cubist move", option="move", value="") == []
        move = GreedyPlayer(step).choose(game)
        r = await current.slash(table.channel, "cubist move", move=str(move))
        assert "not allowed" not in r.content, r.content
        del record
    assert checked > 500


async def test_two_clicks_at_once_end_exactly_one_turn(table: Table) -> None:
    gid, game, seated = await started(table)
    current, other = seated[game.current_player], seated[1 - game.current_player]
    panel = await open_panel(table, gid, current)
    ask = await current.click(panel, item(panel, f"cubist:{gid}:endask:"))
    confirm = item(ask.message, f"cubist:{gid}:endok:")
    moves_before = await table.moves_logged()
    post = table.standin.channel_messages(table.channel)[-1]
    results = await asyncio.gather(
        current.click(ask.message, confirm),
        current.click(ask.message, confirm),
        other.click(post, f"cubist:{gid}:play"),
    )
    assert await table.moves_logged() == moves_before + 1
    ended = [r for r in results if not r.ephemeral]
    assert len(ended) == 1 and await turn_over(ended[0]), [r.content for r in results]
    _record, game = await table.bot.service.queries.game(gid)
    assert seated[game.current_player] is other


async def test_two_players_moving_at_once_only_the_current_one_lands(table: Table) -> None:
    gid, game, seated = await started(table)
    current, other = seated[game.current_player], seated[1 - game.current_player]
    moves = [str(m) for m in game.legal_moves() if str(m).startswith("place")][:2]
    results = await asyncio.gather(
        current.slash(table.channel, "cubist move", move=moves[0]),
        current.slash(table.channel, "cubist move", move=moves[1]),
        other.slash(table.channel, "cubist move", move=moves[0]),
    )
    _record, after = await table.bot.service.queries.game(gid)
    landed = after.state.this_turn.plays
    assert 1 <= len(landed) <= 2 and {str(p.move) for p in landed} <= set(moves)
    assert "not your turn" in results[2].content
    assert after.check_invariants() == []


async def test_restart_in_the_middle_of_a_turn_loses_nothing(table: Table) -> None:
    gid, game, seated = await started(table)
    current = seated[game.current_player]
    post = table.standin.channel_messages(table.channel)[-1]
    low = min(game.state.players[game.current_player].storeroom)
    await current.slash(table.channel, "cubist move", move=f"place {low} w1 c3")
    _record, mid = await table.bot.service.queries.game(gid)
    await table.bot.close()
    bot2 = make_bot(table.db)
    await table.run_bot(bot2)  # type: ignore[operator]
    _record, again = await bot2.service.queries.game(gid)
    assert again == mid
    # The old post's button works with the new process.
    r = await current.click(post, f"cubist:{gid}:play")
    assert r.ephemeral and "Storeroom" in r.content
    r = await end_via_panel(table, gid, current)
    assert await turn_over(r)
    _record, after = await bot2.service.queries.game(gid)
    assert after.state.last_turn is not None and str(after.state.last_turn.plays[0].move) == f"place {low} w1 c3"
