"""Responses of every kind: ephemeral, deferred, autocomplete, components, modals, files."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
import pytest
from standin_testbot import SelfTestBot, png_bytes

from standin import DriverError, InteractionFailed, StandIn


async def test_ephemeral_flag_is_kept(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    result = await alice.slash(channel, "secret")
    assert result.content == "only you"
    assert result.ephemeral
    assert result.message.flags & 64
    assert standin.channel_messages(channel) == []
    assert [m.content for m in standin.channel_messages(channel, include_ephemeral=True)] == ["only you"]


async def test_deferral_followups_and_edit_original(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    result = await alice.slash(channel, "work")
    assert result.deferred and result.type == 5
    followups = await result.wait_for_followups(2)
    # The first follow-up after "thinking" replaces the thinking message (it is the original).
    assert followups[0].id == result.original.id
    assert followups[1].content == "step 2 (private)" and followups[1].ephemeral
    await result.wait(lambda r: r.original.content == "step 1 (edited)")
    assert not result.original.ephemeral and not result.original.loading
    assert [m.content for m in standin.channel_messages(channel)] == ["step 1 (edited)"]


async def test_autocomplete_returns_choices(bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    choices = await alice.autocomplete(channel, "place", option="move", value="4")
    assert [c["name"] for c in choices] == ["4 w", "4 b"]
    assert (await alice.autocomplete(channel, "place", option="move", value="")) != []
    result = await alice.slash(channel, "place", move="4 w")
    assert result.content == "placed 4 w"


async def test_autocomplete_over_25_choices_is_refused(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    with pytest.raises(InteractionFailed):
        await alice.autocomplete(channel, "crowd", option="item", value="")
    [violation] = standin.take_violations()
    assert violation.code == 50035
    assert [d.path for d in violation.details] == ["data.choices"]


async def test_autocomplete_needs_an_autocomplete_option(bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    with pytest.raises(DriverError, match="no autocomplete"):
        await alice.autocomplete(channel, "game new", option="players", value="3")


async def test_button_clicks(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, bob = world
    board = await alice.slash(channel, "board")
    assert {"board:roll", "board:help", "board:quiet", "board:colour"} <= set(board.message.custom_ids)

    rolled = await bob.click(board.message, "board:roll")
    assert rolled.type == 7
    assert rolled.message.id == board.message.id
    assert standin.messages[board.message.id].content == "rolled by bob"

    helped = await alice.click(board.message, "board:help")
    assert helped.content == "help text" and helped.ephemeral
    with pytest.raises(DriverError, match="cannot see ephemeral"):
        await bob.click(helped.message, "board:roll")

    quiet = await alice.click(board.message, "board:quiet")
    assert quiet.type == 6
    assert quiet.content == "quietly updated"
    with pytest.raises(DriverError, match="no component"):
        await alice.click(board.message, "board:nope")


async def test_select_menu(bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    board = await alice.slash(channel, "board")
    picked = await alice.select(board.message, "board:colour", ["red", "blue"])
    assert picked.content == "picked red,blue" and picked.ephemeral
    with pytest.raises(DriverError, match="no option"):
        await alice.select(board.message, "board:colour", ["pink"])
    with pytest.raises(DriverError, match=r"takes 1\.\.2 values"):
        await alice.select(board.message, "board:colour", ["red", "green", "blue"])


async def test_persistent_view_survives_a_bot_restart(standin: StandIn, run_bot: Any, world: Any) -> None:
    _, channel, alice, _ = world
    first = await run_bot(SelfTestBot())
    board = await alice.slash(channel, "board")
    await first.close()
    await run_bot(SelfTestBot())
    assert standin.gateway.identify_count == 2
    rolled = await alice.click(board.message, "board:roll")
    assert rolled.content == "rolled by alice"


async def test_modal_submit(bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, bob = world
    opened = await alice.slash(channel, "name")
    assert opened.type == 9
    assert opened.modal["title"] == "Name your game"
    with pytest.raises(DriverError, match="modal:name"):
        await alice.submit_modal(opened, {"modal:notes": "no name given"})
    with pytest.raises(DriverError, match="only the user"):
        await bob.submit_modal(opened, {"modal:name": "x"})
    submitted = await alice.submit_modal(opened, {"modal:name": "Cube night"})
    assert submitted.content == "named Cube night (-)"
    with pytest.raises(DriverError, match="already submitted"):
        await alice.submit_modal(opened, {"modal:name": "again"})


async def test_png_attachments_multipart(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    result = await alice.slash(channel, "picture")
    [attachment] = result.attachments
    assert attachment.filename == "board.png"
    assert attachment.data == png_bytes()
    assert attachment.image().size == (8, 6)

    posted = await standin.wait_for_message(channel, lambda m: m.content == "and another")
    assert posted.attachments[0].image().size == (4, 4)

    # discord.py reads it back: GET the message, then the file from the stand-in's CDN.
    fetched = await bot.get_channel(channel.id).fetch_message(posted.id)
    assert await fetched.attachments[0].read() == posted.attachments[0].data
    assert fetched.attachments[0].width == 4


async def test_interactions_can_be_dispatched_without_waiting(bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    pending = [await alice.slash(channel, "ping", wait=False) for _ in range(5)]
    results = await asyncio.gather(*(p.until_answered() for p in pending))
    assert [r.content for r in results] == ["pong fr alice"] * 5


async def test_followups_edited_and_deleted_by_id(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    result = await alice.slash(channel, "steps")
    await result.wait(lambda r: r.original is None)
    assert [m.content for m in result.messages] == ["second (edited)"]
    assert [m.content for m in standin.channel_messages(channel)] == ["second (edited)"]
    third = standin.messages[result.record.followup_ids[1]]
    assert third.deleted and third.content == "third after first"


async def test_channel_messages_edit_delete_history(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, alice, _ = world
    text_channel = bot.get_channel(channel.id)
    first = await text_channel.send(f"hello {alice.mention}")
    assert [u.id for u in first.mentions] == [alice.id]
    second = await text_channel.send("with file", file=discord.File(io.BytesIO(png_bytes()), "a.png"))
    edited = await second.edit(content="no file", attachments=[])
    assert edited.content == "no file" and edited.attachments == []
    kept = await first.edit(attachments=[discord.File(io.BytesIO(png_bytes((2, 2))), "b.png")])
    assert [a.filename for a in kept.attachments] == ["b.png"]
    history = [m.content async for m in text_channel.history(limit=10)]
    assert history == ["no file", f"hello {alice.mention}"]
    await second.delete()
    assert [m.content for m in standin.channel_messages(channel)] == [f"hello {alice.mention}"]
    assert standin.messages[second.id].deleted


async def test_a_stand_in_that_keeps_edits_keeps_each_version(standin: StandIn, bot: SelfTestBot, world: Any) -> None:
    _, channel, _, _ = world
    text_channel = bot.get_channel(channel.id)
    plain = await text_channel.send("not kept")
    await plain.edit(content="still not kept")
    assert standin.messages[plain.id].versions == []  # off by default: long runs keep no old pictures
    standin.keep_edits = True
    sent = await text_channel.send("first", file=discord.File(io.BytesIO(png_bytes()), "a.png"))
    await sent.edit(content="second")
    await sent.edit(attachments=[])
    versions = standin.messages[sent.id].versions
    assert [v.content for v in versions] == ["first", "second", "second"]
    assert [[a.filename for a in v.attachments] for v in versions] == [["a.png"], ["a.png"], []]
    assert versions[0].at == sent.id and versions[0].at < versions[1].at < versions[2].at
    later = await text_channel.send("after the edits")
    assert versions[2].at < later.id  # versions and new messages share one order
