"""Connecting, READY/GUILD_CREATE, command registration, slash commands and their options."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from standin_testbot import SelfTestBot

from standin import DriverError, StandIn
from standin.pytest_plugin import start_bot

EXPECTED_COMMANDS = {
    "ping", "whoami", "secret", "game", "place", "crowd", "work", "board", "name",
    "picture", "long", "steps", "raw", "late", "expire", "dm", "post",
}  # fmt: skip


async def test_bot_connects_and_sees_guilds_channels_and_threads(standin: StandIn, run_bot: Any, world: Any) -> None:
    guild, channel, _, _ = world
    thread = standin.add_thread(channel, "game-1")
    bot = await run_bot(SelfTestBot())
    assert bot.user.id == standin.bot_user.id
    assert bot.application_id == standin.application_id
    seen = bot.get_guild(guild.id)
    assert seen is not None and seen.name == "Cubist Club"
    assert isinstance(seen.get_channel(channel.id), discord.TextChannel)
    assert isinstance(seen.get_thread(thread.id), discord.Thread)
    assert seen.me is not None and seen.me.guild_permissions.send_messages
    assert standin.gateway.identify_count == 1


async def test_autosharded_client_connects(standin: StandIn, run_bot: Any, world: Any) -> None:
    guild, _, _, _ = world
    client = discord.AutoShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    await run_bot(client)
    assert client.shard_count == 1
    assert client.get_guild(guild.id) is not None
    assert "GET /gateway/bot" in standin.requests


async def test_members_only_with_the_members_intent(standin: StandIn, run_bot: Any, world: Any) -> None:
    guild, _, alice, _ = world
    plain = await run_bot(discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05))
    assert plain.get_guild(guild.id).get_member(alice.id) is None  # as on Discord
    await plain.close()
    intents = discord.Intents.default()
    intents.members = True  # chunks guilds at start-up: REQUEST_GUILD_MEMBERS -> GUILD_MEMBERS_CHUNK
    member_bot = await run_bot(discord.Client(intents=intents, guild_ready_timeout=0.05))
    assert member_bot.get_guild(guild.id).get_member(alice.id).name == "alice"
    late = standin.add_user("carol")  # dispatched as GUILD_MEMBER_ADD
    for _ in range(500):
        if member_bot.get_guild(guild.id).get_member(late.id) is not None:
            break
        await asyncio.sleep(0.01)
    assert member_bot.get_guild(guild.id).get_member(late.id) is not None


async def test_channel_added_after_ready_is_dispatched(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    guild, _, alice, _ = world
    late = standin.add_channel(guild, "late-channel")
    result = await alice.slash(late, "ping")
    assert result.content == "pong fr alice"
    assert isinstance(bot.get_channel(late.id), discord.TextChannel)


async def test_global_command_sync(standin: StandIn, bot: SelfTestBot) -> None:
    registered = {c["name"]: c for c in standin.registered_commands()}
    assert set(registered) == EXPECTED_COMMANDS
    assert {c.name for c in bot.synced} == EXPECTED_COMMANDS
    game = registered["game"]
    assert {o["name"]: o["type"] for o in game["options"]} == {"new": 1, "admin": 2}


async def test_guild_command_sync_and_use(standin: StandIn, run_bot: Any, world: Any) -> None:
    guild, channel, alice, _ = world
    await run_bot(SelfTestBot(sync_guild=guild))
    assert {c["name"] for c in standin.registered_commands(guild)} == EXPECTED_COMMANDS
    result = await alice.slash(channel, "ping")
    assert result.record.payload["data"]["guild_id"] == str(guild.id)
    assert result.content == "pong fr alice"


async def test_slash_reply_is_public_and_stored(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    result = await alice.slash(channel, "ping")
    assert result.type == 4
    assert result.content == "pong fr alice"
    assert not result.ephemeral
    assert standin.last_message(channel).content == "pong fr alice"


async def test_interaction_carries_locale_member_permissions_channel(bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    in_guild = await alice.slash(channel, "whoami")
    assert in_guild.content == "fr|en-US|Member|TextChannel|True|True"
    in_dm = await alice.slash(alice.dm_channel(), "whoami")
    assert in_dm.content == "fr|-|User|DMChannel|True|False"


async def test_subcommands_groups_and_options(bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, bob = world
    result = await alice.slash(channel, "game new", players=3, mode="advanced", rival=bob)
    assert result.content == "new advanced game for 3 vs bob"
    assert (await alice.slash(channel, "game new", players=2)).content == "new basic game for 2 vs nobody"
    reset = await alice.slash(channel, "game admin reset")
    assert reset.content == "reset done" and reset.ephemeral


@pytest.mark.parametrize(
    ("command", "options", "complaint"),
    [
        ("nope", {}, "no slash command"),
        ("game", {}, "needs a subcommand"),
        ("game admin", {}, "needs a subcommand"),
        ("game new", {}, "required"),
        ("game new", {"players": 3, "colour": "red"}, "no option"),
        ("game new", {"players": 7}, "<= 4"),
        ("game new", {"players": "3"}, "integer"),
        ("game new", {"players": 3, "mode": "weird"}, "one of"),
    ],
)
async def test_driver_validates_against_registered_commands(
    bot: SelfTestBot, world: Any, command: str, options: dict[str, Any], complaint: str
) -> None:
    _, channel, alice, _ = world
    with pytest.raises(DriverError, match=complaint):
        await alice.slash(channel, command, options=options)


async def test_slash_in_thread(standin: StandIn, run_bot: Any, world: Any) -> None:
    _, channel, alice, _ = world
    thread = standin.add_thread(channel, "game-2")
    await run_bot(SelfTestBot())
    result = await alice.slash(thread, "ping")
    assert result.message.channel_id == thread.id
    assert standin.last_message(thread).content == "pong fr alice"


async def test_wrong_token_fails_login(standin: StandIn, world: Any) -> None:
    client = SelfTestBot()
    with pytest.raises(discord.LoginFailure):
        await start_bot(standin, client, token="not-the-token")
    await client.close()
    errors = standin.take_errors()
    assert [e.kind for e in errors] == ["unauthorized"]


async def test_unknown_endpoint_is_recorded(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    guild, channel, _, _ = world
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/guilds/{guild_id}/emojis", guild_id=guild.id))
    # A known path with a method the stand-in does not serve is unknown too.
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("PUT", "/channels/{channel_id}", channel_id=channel.id))
    errors = standin.take_errors()
    assert [e.kind for e in errors] == ["unknown endpoint"] * 2
    assert [(e.method, e.path) for e in errors] == [
        ("GET", f"/api/v10/guilds/{guild.id}/emojis"),
        ("PUT", f"/api/v10/channels/{channel.id}"),
    ]
