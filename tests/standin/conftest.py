"""Fixtures for the stand-in self-tests (the bot itself lives in standin_testbot.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from standin_testbot import SelfTestBot

from standin import Channel, Guild, Player, StandIn


@pytest.fixture
def world(standin: StandIn) -> tuple[Guild, Channel, Player, Player]:
    """A guild with a #games channel and two players, alice (French) and bob (DMs closed)."""
    guild = standin.add_guild("Cubist Club")
    channel = standin.add_channel(guild, "games")
    alice = standin.add_user("alice", locale="fr")
    bob = standin.add_user("bob", dms_closed=True)
    return guild, channel, alice, bob


@pytest.fixture
async def bot(standin: StandIn, run_bot: Any, world: Any) -> AsyncIterator[SelfTestBot]:
    client = SelfTestBot()
    await run_bot(client)
    yield client
