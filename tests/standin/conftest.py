"""Fixtures for the stand-in self-tests (the bot itself lives in standin_testbot.py)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

# The repository root must be importable for `tests.standin_fixtures` (pytest puts only
# this folder on sys.path, as tests/ has no __init__.py).
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from standin_testbot import SelfTestBot  # noqa: E402

from bot.standin import Channel, Guild, Player, StandIn  # noqa: E402


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
