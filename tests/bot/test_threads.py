"""A thread per game (issue 15): where the bot may create public threads, ``/cubist lobby
new`` answers in the channel and opens the game's thread from that answer; the lobby, the
start and every turn live in the thread, so one channel hosts many games.  ``thread:False``
keeps the game in the channel; without the permission the default is the channel and asking
for a thread is refused in words, with nothing opened."""

from __future__ import annotations

from pathlib import Path

from bot.demo import game_channel, play_demo_game
from standin import Channel, Player, StandIn
from standin.models import Permission

from .conftest import make_bot


async def threaded_server(standin: StandIn, run_bot, tmp_path: Path, *, locale: str = "en-US"):
    guild = standin.add_guild(
        "Thread Club",
        locale=locale,
        bot_permissions=Permission.BOT_DEFAULT,  # CREATE_PUBLIC_THREADS included
        everyone_permissions=Permission.EVERYONE_DEFAULT,
    )
    channel = standin.add_channel(guild, "cubist")
    users = [standin.add_user(n) for n in ("ada", "bruno", "chloe", "dmitri")]
    bot = make_bot(tmp_path / "cubist.db")
    await run_bot(bot)
    return bot, channel, users


def threads_of(standin: StandIn, channel: Channel) -> list[Channel]:
    return sorted((c for c in standin.channels.values() if c.parent_id == channel.id), key=lambda c: c.id)


async def open_game(standin: StandIn, bot, channel: Channel, creator: Player, **options: object) -> Channel:
    answer = await creator.slash(channel, "cubist lobby new", players=2, **options)
    assert not answer.failed and not answer.ephemeral, answer.content
    return await game_channel(standin, channel, answer, thread=options.get("thread"))


async def test_each_game_gets_its_thread_and_the_channel_stays_readable(standin: StandIn, run_bot, tmp_path: Path):
    bot, channel, (ada, bruno, chloe, _dmitri) = await threaded_server(standin, run_bot, tmp_path)
    first = await open_game(standin, bot, channel, ada)
    second = await open_game(standin, bot, channel, chloe)  # a second game in the same channel
    assert [first, second] == threads_of(standin, channel)
    announcements = standin.channel_messages(channel)
    assert len(announcements) == 2  # one line per game in the channel, nothing else
    assert "join it in the thread below" in announcements[0].content
    assert first.id == announcements[0].id  # the thread hangs from the game's announcement
    record = await bot.service.queries.game_in_channel(first.id)
    assert record is not None and first.name == f"Cubist game {record.id} (ada)"
    lobby = standin.channel_messages(first)
    assert len(lobby) == 1 and "/cubist lobby join" in lobby[0].content
    # The lobby is joined and started from the thread; the channel has no game of its own.
    assert "joined" in (await bruno.slash(first, "cubist lobby join")).content
    refused = await bruno.slash(channel, "cubist lobby join")
    assert refused.ephemeral
    assert not (await ada.slash(first, "cubist lobby start")).failed
    assert any("The game begins" in m.content for m in standin.channel_messages(first))
    assert await bot.service.queries.game_in_channel(second.id) is not None  # the other game waits in its thread
    assert len(standin.channel_messages(channel)) == 2
    # The opening DM links to the thread.
    assert any(f"<#{first.id}>" in dm.content for dm in standin.dms(ada))
    assert not standin.take_violations()


async def test_a_whole_game_in_its_thread(standin: StandIn, run_bot, tmp_path: Path):
    bot, channel, users = await threaded_server(standin, run_bot, tmp_path)
    game_id = await play_demo_game(standin, bot, users[:2], channel, seed=4, panel=True)
    record, game = await bot.service.queries.game(game_id)
    assert game.is_over
    (thread,) = threads_of(standin, channel)
    assert record.channel_id == thread.id
    posts = standin.channel_messages(thread)
    turn_posts = [m for m in posts if m.attachments]
    assert len(turn_posts) >= game.state.turn  # every turn's table picture went to the thread
    assert "The game is over" in posts[-1].content
    assert len(standin.channel_messages(channel)) == 1  # the channel kept its one announcement


async def test_thread_false_keeps_the_game_in_the_channel(standin: StandIn, run_bot, tmp_path: Path):
    bot, channel, (ada, bruno, *_) = await threaded_server(standin, run_bot, tmp_path)
    assert await open_game(standin, bot, channel, ada, thread=False) == channel
    assert threads_of(standin, channel) == []
    assert "joined" in (await bruno.slash(channel, "cubist lobby join")).content


async def test_without_the_permission_a_thread_is_refused_and_nothing_opens(standin: StandIn, run_bot, tmp_path):
    bot, channel, (ada, *_) = await threaded_server(standin, run_bot, tmp_path)
    channel.bot_permissions = Permission.BOT_DEFAULT & ~Permission.CREATE_PUBLIC_THREADS
    refused = await ada.slash(channel, "cubist lobby new", players=2, thread=True)
    assert refused.ephemeral
    assert "Create Public Threads" in refused.content and "thread" in refused.content
    assert await bot.service.queries.game_in_channel(channel.id) is None and threads_of(standin, channel) == []
    # Without asking, the game simply lives in the channel.
    assert await open_game(standin, bot, channel, ada) == channel


async def test_threads_speak_the_servers_language(standin: StandIn, run_bot, tmp_path: Path):
    bot, channel, (ada, *_) = await threaded_server(standin, run_bot, tmp_path, locale="fr")
    thread = await open_game(standin, bot, channel, ada)
    record = await bot.service.queries.game_in_channel(thread.id)
    assert record is not None and thread.name == f"Partie de Cubist {record.id} (ada)"
    (announcement,) = standin.channel_messages(channel)
    assert "rejoignez-la dans le fil ci-dessous" in announcement.content
    assert "/cubist lobby join" in standin.channel_messages(thread)[0].content


async def test_a_command_typed_in_the_channel_points_to_the_games_threads(standin: StandIn, run_bot, tmp_path):
    bot, channel, (ada, bruno, *_) = await threaded_server(standin, run_bot, tmp_path)
    thread = await open_game(standin, bot, channel, ada)
    refused = await bruno.slash(channel, "cubist lobby join")  # in the channel, not the thread
    assert refused.ephemeral and f"<#{thread.id}>" in refused.content and "threads" in refused.content
    assert await bot.service.queries.game_in_channel(thread.id) is not None
    assert len((await bot.service.queries.game_in_channel(thread.id)).seats) == 1  # type: ignore[union-attr]  # nobody joined
