"""Old turn posts lose their buttons (issue 15): once a newer table post replaces it, a turn
post offers no Play button any more; only the newest post of the game does.  Replaced posts
that answered an interaction are edited through its webhook (outside Discord's global rate
limit) while its token is fresh, others with a channel message edit."""

from __future__ import annotations

from bot.demo import play_demo_game
from bot.store import Status

from .asyncplay import wait_until
from .conftest import Table, custom_ids, started


def table_posts(table: Table) -> list:
    return sorted((m for m in table.standin.channel_messages(table.channel) if m.attachments), key=lambda m: m.id)


async def test_only_the_newest_turn_post_keeps_its_buttons(table: Table) -> None:
    game_id = await play_demo_game(table.standin, table.bot, table.users[:2], table.channel, seed=11)
    record, game = await table.bot.service.queries.game(game_id)
    # The final post replaces the last turn's post just after it is sent.
    await wait_until(lambda: sum(table.bot.old_posts.edits.values()) == game.state.turn + 1)
    await table.bot.old_posts.idle()
    assert game.is_over and record.status == Status.FINISHED
    posts = table_posts(table)
    assert len(posts) == game.state.turn + 2  # the start, one per turn, the final scores
    assert all(m.components == [] for m in posts[:-1]), [
        (i, m.content[:60]) for i, m in enumerate(posts[:-1]) if m.components
    ]
    assert "The game is over" in posts[-1].content and custom_ids(posts[-1])  # the rematch button stays
    # Every turn was ended by a command whose answer was the post: all edits went through
    # interaction webhooks, none counted against the global limit.
    assert table.bot.old_posts.edits == {"webhook": len(posts) - 1, "channel": 0}
    edits = [r for r in table.standin.requests if r.startswith("PATCH /channels/")]
    assert edits == []


async def test_a_post_older_than_its_token_is_edited_in_the_channel(table: Table) -> None:
    game_id, game, seated = await started(table)
    first = table_posts(table)[-1]
    assert any(c.endswith(":play") for c in custom_ids(first))
    # As if the turn took longer than the start's interaction token lives: a channel edit.
    table.bot.old_posts.token_fresh_s = 0.0
    player = seated[game.current_player]
    from engine.players import GreedyPlayer

    chooser = GreedyPlayer(1)
    while True:
        _record, game = await table.bot.service.queries.game(game_id)
        move = chooser.choose(game)
        if str(move).startswith("end"):
            await player.slash(table.channel, "cubist end", keep=" ".join(map(str, move.keep)))  # type: ignore[attr-defined]
            break
        result = await player.slash(table.channel, "cubist move", move=str(move))
        assert not result.failed, result.content
    await table.standin.wait_for_message(table.channel, lambda m: m.id > first.id and bool(m.attachments))
    await wait_until(lambda: sum(table.bot.old_posts.edits.values()) == 1)
    first = table.standin.messages[first.id]
    assert first.components == []
    assert table.bot.old_posts.edits == {"webhook": 0, "channel": 1}
    assert any(r.startswith(f"PATCH /channels/{table.channel.id}/messages/") for r in table.standin.requests)
    assert any(c.endswith(":play") for c in custom_ids(table_posts(table)[-1]))
