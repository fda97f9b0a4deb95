"""The bot can also run as its own process, configured only through the environment."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from standin import StandIn
from standin.pytest_plugin import bot_environment

BOT_SCRIPT = Path(__file__).with_name("subprocess_bot.py")
ROOT = Path(__file__).resolve().parents[2]


async def test_bot_in_a_subprocess(standin: StandIn, world: Any) -> None:
    _, channel, alice, _ = world
    env = os.environ | bot_environment(standin) | {"PYTHONPATH": str(ROOT)}
    process = await asyncio.create_subprocess_exec(sys.executable, str(BOT_SCRIPT), env=env)
    try:
        await standin.gateway.wait_identified()
        # Commands are synced in setup_hook, before the gateway connection.
        assert [c["name"] for c in standin.registered_commands()] == ["ping"]
        result = await alice.slash(channel, "ping")
        assert result.content == f"pong from pid {process.pid}"
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), 60)
