"""Faults on demand: closed DMs, rate limits, dropped gateway connections."""

from __future__ import annotations

from typing import Any

import discord
from standin_testbot import SelfTestBot

from standin import StandIn


async def test_dm_to_user_with_closed_dms_is_forbidden(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, bob = world
    result = await alice.slash(channel, "dm", user=bob)
    assert result.content == "forbidden 50007" and result.ephemeral
    [error] = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert any(r.startswith("403 POST /channels/") for r in standin.invalid_requests)
    assert standin.dms(bob) == []


async def test_dm_to_open_user_arrives(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, bob = world
    result = await bob.slash(channel, "dm", user=alice)
    assert result.content == "sent"
    assert [m.content for m in alice.dms()] == ["your turn"]


async def test_a_refused_dm_is_answered_503_and_not_delivered(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, bob = world
    dm = standin.dm_channel(alice)
    rule = standin.faults.refuse(f"POST /channels/{dm.id}/messages", status=503)
    post = standin.faults.refuse("POST /channels/{channel_id}/messages", count=0)  # spent: never met
    result = await bob.slash(channel, "dm", user=alice)
    assert result.content == "server error 503"  # discord.py does not retry a 503 itself
    [error] = bot.errors
    assert isinstance(error, discord.DiscordServerError) and error.text == "503: Service Unavailable"
    assert alice.dms() == [] and rule.hits == [f"POST /channels/{dm.id}/messages"] and not post.hits
    result = await bob.slash(channel, "dm", user=alice)  # once only: the next one goes through
    assert result.content == "sent" and [m.content for m in alice.dms()] == ["your turn"]


async def test_429_is_retried_by_discord_py(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    rule = standin.faults.rate_limit("POST /channels/{channel_id}/messages", count=2, retry_after=0.05)
    result = await alice.slash(channel, "post", text="hello")
    assert result.content == "posted"
    assert len(rule.hits) == 2
    assert [m.content for m in standin.channel_messages(channel)] == ["hello"]
    assert sum(r.startswith("429 ") for r in standin.invalid_requests) == 2


async def test_global_429_on_interaction_callback(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    rule = standin.faults.rate_limit(
        "POST /interactions/{id}/{token}/callback", count=1, retry_after=0.05, is_global=True
    )
    result = await alice.slash(channel, "ping")
    assert result.content == "pong fr alice"
    assert len(rule.hits) == 1


async def test_dropped_gateway_resumes_and_replays(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    await standin.gateway.drop()
    # Dispatched while the bot is away: replayed after RESUME.
    result = await alice.slash(channel, "ping")
    assert result.content == "pong fr alice"
    await standin.gateway.wait_resumed(1)
    assert standin.gateway.identify_count == 1
    assert standin.gateway.connection_paths[-1] == "/gateway-resume"
    assert bot.resumed_count == 1


async def test_abrupt_disconnect_resumes(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    await standin.gateway.drop(abrupt=True)
    await standin.gateway.wait_resumed(1)
    assert (await alice.slash(channel, "ping")).content == "pong fr alice"


async def test_reconnect_op7(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    await standin.gateway.send_reconnect()
    await standin.gateway.wait_resumed(1)
    assert (await alice.slash(channel, "ping")).content == "pong fr alice"
    assert standin.gateway.identify_count == 1


async def test_invalid_session_op9_forces_identify(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    await standin.gateway.invalidate_session(resumable=False)
    await standin.gateway.wait_identified(2)
    assert (await alice.slash(channel, "ping")).content == "pong fr alice"
    assert standin.gateway.resume_count == 0
