"""Sharding: GET /gateway/bot, IDENTIFY with [shard_id, shard_count], events only to their shard."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import discord
from standin_testbot import SelfTestBot

from standin import StandIn
from standin.gateway import INVALID_SHARD, SHARDING_REQUIRED, shard_of


def guild_ids_in(log: Any) -> set[int]:
    """Every guild an event in a session's log was about."""
    ids: set[int] = set()
    for frame in log:
        data = frame["d"]
        if frame["t"] == "GUILD_CREATE":
            ids.add(int(data["id"]))
        elif isinstance(data, dict) and data.get("guild_id"):
            ids.add(int(data["guild_id"]))
    return ids


async def test_guild_ids_land_on_the_shard_asked_for(standin: StandIn) -> None:
    for shard_id in range(4):
        guild = standin.add_guild(f"g{shard_id}", shard=(shard_id, 4))
        assert (guild.id >> 22) % 4 == shard_id == shard_of(guild.id, 4)
    assert shard_of(None, 4) == 0  # DMs


async def test_gateway_bot_recommends_shards_and_counts_session_starts(standin: StandIn, run_bot: Any) -> None:
    headers = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession() as http:
        for n in range(1001):
            standin.add_guild(f"g{n}")
        async with http.get(f"{standin.url}/api/v10/gateway/bot", headers=headers) as response:
            before = await response.json()
        await run_bot(SelfTestBot(shard_id=0, shard_count=2))
        async with http.get(f"{standin.url}/api/v10/gateway/bot", headers=headers) as response:
            after = await response.json()
        async with http.get(f"{standin.url}/api/v10/gateway/bot") as response:
            assert response.status == 401  # only for a bot token
        assert [e.kind for e in standin.take_errors()] == ["unauthorized"]
    assert before["shards"] == 2  # Discord recommends about one shard per 1,000 guilds
    assert before["url"] == standin.gateway_url
    limit = before["session_start_limit"]
    assert limit["max_concurrency"] == 1 and limit["reset_after"] > 0
    assert after["session_start_limit"]["remaining"] == limit["remaining"] - 1


async def test_a_shard_sees_only_its_guilds_and_no_dms(standin: StandIn, run_bot: Any) -> None:
    mine = standin.add_guild("Mine", shard=(1, 2))
    foreign = standin.add_guild("Foreign", shard=(0, 2))
    my_channel = standin.add_channel(mine, "games")
    foreign_channel = standin.add_channel(foreign, "games")
    alice = standin.add_user("alice")
    bot = await run_bot(SelfTestBot(shard_id=1, shard_count=2))
    assert bot.get_guild(mine.id) is not None
    assert bot.get_guild(foreign.id) is None
    assert (await alice.slash(my_channel, "ping")).content == "pong en-US alice"
    # An interaction in the foreign guild, a DM and a new foreign channel go to shard 0: nobody here.
    lost = await alice.slash(foreign_channel, "ping", wait=False)
    in_dm = await alice.slash(standin.dm_channel(alice), "ping", wait=False)
    standin.add_channel(foreign, "later")
    # Dispatching is synchronous: what this shard's session was sent is final already.
    session = standin.gateway.shards[1]
    delivered = {f["d"]["id"] for f in session.log if f["t"] == "INTERACTION_CREATE"}
    assert str(lost.id) not in delivered and str(in_dm.id) not in delivered
    assert lost.type is None and in_dm.type is None  # never answered
    assert session.shard == [1, 2]
    assert guild_ids_in(session.log) == {mine.id}
    assert not any(f["t"] == "INTERACTION_CREATE" and "guild_id" not in f["d"] for f in session.log)
    assert bot.get_guild(foreign.id) is None


async def test_autosharded_client_connects_every_shard(standin: StandIn, run_bot: Any) -> None:
    guilds = [standin.add_guild(f"g{n}", shard=(n, 2)) for n in range(2)]
    channels = [standin.add_channel(g, "games") for g in guilds]
    alice = standin.add_user("alice")
    standin.shard_recommendation = 2
    client = discord.AutoShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    tree = discord.app_commands.CommandTree(client)

    @tree.command(description="Which shard")
    async def shard(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"shard {interaction.guild.shard_id if interaction.guild else '-'}")

    await run_bot(client)
    await tree.sync()
    assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
    assert sorted((s.shard_id, s.shard_count) for s in standin.gateway.shards.values()) == [(0, 2), (1, 2)]
    for n, (guild, channel) in enumerate(zip(guilds, channels, strict=True)):
        seen = client.get_guild(guild.id)
        assert seen is not None and seen.shard_id == n
        assert (await alice.slash(channel, "shard")).content == f"shard {n}"


async def identify_raw(standin: StandIn, shard: Any) -> int | None:
    """IDENTIFY over a plain WebSocket; the close code the gateway answered with (None: READY)."""
    async with aiohttp.ClientSession() as http, http.ws_connect(standin.gateway_url) as ws:
        hello = json.loads((await ws.receive()).data)
        assert hello["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": standin.token, "intents": 0, "shard": shard, "properties": {}}})
        message = await ws.receive()
        if message.type is aiohttp.WSMsgType.TEXT:
            assert json.loads(message.data)["t"] == "READY"
            return None
        return ws.close_code


async def test_bad_shards_are_refused(standin: StandIn) -> None:
    standin.add_guild("one")
    for bad in ([2, 2], [-1, 2], [0, 0], [0], "0,1", [True, 2]):
        assert await identify_raw(standin, bad) == INVALID_SHARD, bad
    assert await identify_raw(standin, [1, 2]) is None
    assert standin.gateway.identify_count == 1


async def test_too_many_guilds_for_one_shard_is_refused(standin: StandIn) -> None:
    standin.gateway.max_guilds_per_shard = 2
    for n in range(3):
        standin.add_guild(f"g{n}", shard=(n % 2, 2))
    assert await identify_raw(standin, None) == SHARDING_REQUIRED
    assert await identify_raw(standin, [0, 2]) is None  # two of the three guilds
