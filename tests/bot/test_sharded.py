"""The bot on discord.py's sharded client (issue 19): one process over several shards, and
``python -m bot --shards`` running only its own shards' guilds."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from bot.client import CubistBot
from standin import StandIn
from standin.pytest_plugin import bot_environment

from .conftest import TEST_LIMITS, Table

ROOT = Path(__file__).resolve().parents[2]


async def test_one_process_alone_is_shard_zero_of_one(table: Table) -> None:
    assert [s.shard for s in table.standin.gateway.shards.values()] == [[0, 1]]
    assert table.bot.shard_count == 1


async def test_one_process_over_two_shards_plays_in_both(standin: StandIn, run_bot: Any, tmp_path: Path) -> None:
    guilds = [standin.add_guild(f"Club {n}", shard=(n, 2)) for n in range(2)]
    channels = [standin.add_channel(g, "cubist") for g in guilds]
    ada, bruno = standin.add_user("ada"), standin.add_user("bruno")
    bot = CubistBot(
        tmp_path / "c.db", guild_ready_timeout=0.05, seed=1, limits=TEST_LIMITS, shard_ids=[0, 1], shard_count=2
    )
    await run_bot(bot)
    assert sorted(bot.shards) == [0, 1]
    assert sorted((s.shard_id, s.shard_count) for s in standin.gateway.shards.values()) == [(0, 2), (1, 2)]
    for channel in channels:
        await ada.slash(channel, "cubist lobby new", players=2)
        joined = await bruno.slash(channel, "cubist lobby join")
        assert not joined.failed and "bruno" in joined.content
    with sqlite3.connect(tmp_path / "c.db") as conn:
        rows = conn.execute("SELECT guild_id FROM games ORDER BY id").fetchall()
    assert [r[0] for r in rows] == [g.id for g in guilds]


async def test_a_process_runs_only_its_shards(standin: StandIn, tmp_path: Path) -> None:
    mine = standin.add_channel(standin.add_guild("Mine", shard=(1, 2)), "cubist")
    other = standin.add_channel(standin.add_guild("Other", shard=(0, 2)), "cubist")
    ada = standin.add_user("ada")
    env = os.environ | bot_environment(standin) | {"PYTHONPATH": str(ROOT), "DATABASE_PATH": str(tmp_path / "c.db")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--shards", "1", "--shard-count", "2", env=env, cwd=tmp_path
    )
    try:
        await standin.gateway.wait_identified(timeout=60)
        assert [s.shard for s in standin.gateway.shards.values()] == [[1, 2]]
        answer = await ada.slash(mine, "cubist lobby new", players=2)
        assert not answer.failed and answer.content
        lost = await ada.slash(other, "cubist lobby new", players=2, wait=False)
        # Shard 0's guild: another process's work.  Dispatching is synchronous, so what this
        # process's session was sent is final already.
        (session,) = standin.gateway.shards.values()
        assert str(lost.id) not in {f["d"]["id"] for f in session.log if f["t"] == "INTERACTION_CREATE"}
        assert lost.type is None
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), 60)
