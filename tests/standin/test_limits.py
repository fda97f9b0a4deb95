"""Discord's limits: refused with Discord's errors and recorded as violations."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
from standin_testbot import SelfTestBot

from standin import StandIn
from standin.limits import check_components, check_embeds


async def test_content_over_2000_chars_is_refused(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    result = await alice.slash(channel, "long")
    assert result.failed
    [error] = bot.errors
    assert isinstance(error, discord.HTTPException) and error.status == 400 and error.code == 50035
    [violation] = standin.take_violations()
    assert [d.path for d in violation.details] == ["data.content"]  # in the interaction callback's body
    assert violation.interaction_id == result.id


async def test_embed_title_over_256_chars_is_refused(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    result = await alice.slash(channel, "long", part="embed")
    assert result.failed
    [violation] = standin.take_violations()
    assert [d.path for d in violation.details] == ["data.embeds.0.title"]


async def test_custom_id_over_100_chars_is_refused(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    result = await alice.slash(channel, "raw", kind="long_id")
    assert result.content == "tried"
    [error] = bot.errors
    assert isinstance(error, discord.HTTPException) and error.code == 50035
    [violation] = standin.take_violations()
    assert [d.path for d in violation.details] == ["components.0.components.0.custom_id"]
    assert standin.channel_messages(channel) == []


async def test_six_action_rows_are_refused(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    await alice.slash(channel, "raw", kind="six_rows")
    [error] = bot.errors
    assert error.code == 50035
    [violation] = standin.take_violations()
    assert [d.path for d in violation.details] == ["components"]


async def test_first_response_after_3_seconds_is_refused(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    pending = await alice.slash(channel, "late", wait=False)
    await asyncio.wait_for(bot.started.wait(), 60)
    standin.clock.advance(3.5)  # the bot "took" 3.5 s
    bot.gate.set()
    result = await pending.until_answered()
    assert result.failed
    [error] = bot.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    [violation] = standin.take_violations()
    assert violation.code == 10062


async def test_token_expires_after_15_minutes(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    pending = await alice.slash(channel, "expire", wait=False)
    await asyncio.wait_for(bot.started.wait(), 60)  # it deferred in time
    standin.clock.advance(15 * 60 + 1)
    bot.gate.set()
    await pending.wait(lambda r: bool(r.violations))
    assert pending.deferred and not pending.failed
    [error] = bot.errors
    assert isinstance(error, discord.HTTPException) and error.status == 401 and error.code == 50027
    [violation] = standin.take_violations()
    assert violation.code == 50027


async def test_second_response_is_refused_with_40060(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    result = await alice.slash(channel, "ping")
    url = f"{standin.url}/api/v10/interactions/{result.id}/{result.record.token}/callback"
    body = {"type": 4, "data": {"content": "again"}}
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
        assert response.status == 400
        assert response.headers["Content-Type"] == "application/json"
        assert (await response.json())["code"] == 40060
    [violation] = standin.take_violations()
    assert violation.code == 40060


async def test_attachment_over_10_mib_is_refused(standin: StandIn, world: Any) -> None:
    _, channel, _, _ = world
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", '{"content": "big"}', content_type="application/json")
    form.add_field("files[0]", b"\0" * (10 * 1024 * 1024 + 1), filename="big.bin")
    headers = {"Authorization": f"Bot {standin.token}"}
    url = f"{standin.url}/api/v10/channels/{channel.id}/messages"
    async with aiohttp.ClientSession() as session, session.post(url, data=form, headers=headers) as response:
        assert response.status == 413
        assert (await response.json())["code"] == 40005
    [violation] = standin.take_violations()
    assert violation.code == 40005


def test_embed_limits() -> None:
    assert check_embeds([{"title": "t" * 256, "description": "d" * 4096}]) == []
    paths = [e.path for e in check_embeds([{"title": "t" * 257, "description": "d" * 4097}])]
    assert paths == ["embeds.0.title", "embeds.0.description"]
    fields = [{"name": "n", "value": "v"}] * 26
    assert [e.path for e in check_embeds([{"fields": fields}])] == ["embeds.0.fields"]
    assert [e.path for e in check_embeds([{"title": "x"}] * 11)] == ["embeds"]
    assert [e.code for e in check_embeds([{"description": "d" * 4000}, {"description": "d" * 2001}])] == [
        "MAX_EMBED_SIZE_EXCEEDED"
    ]


def test_component_limits() -> None:
    button = {"type": 2, "style": 1, "label": "b"}
    six = [{"type": 1, "components": [button | {"custom_id": f"b{i}"} for i in range(6)]}]
    assert [e.path for e in check_components(six)] == ["components.0.components"]
    options = [{"label": str(i), "value": str(i)} for i in range(26)]
    select = [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": options}]}]
    assert [e.path for e in check_components(select)] == ["components.0.components.0.options"]
    mixed = [
        {"type": 1, "components": [button | {"custom_id": "a"}, {"type": 3, "custom_id": "s", "options": options[:2]}]}
    ]
    assert [e.code for e in check_components(mixed)] == ["COMPONENT_LAYOUT_WIDTH_EXCEEDED"]
    dup = [{"type": 1, "components": [button | {"custom_id": "a"}, button | {"custom_id": "a"}]}]
    assert [e.code for e in check_components(dup)] == ["COMPONENT_CUSTOM_ID_DUPLICATED"]
