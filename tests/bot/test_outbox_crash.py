"""The outbox under SIGKILL (issue 16 item 7): a bot process (``python -m bot``) is killed at
random moments while players end their turns, and restarted, many times.  Every finished
turn gets its channel post and the next player's turn-start DM, none twice, and no player
reads "the game is unchanged" about a stored move."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path

from standin import StandIn
from standin.pytest_plugin import bot_environment

from .conftest import custom_ids

ROOT = Path(__file__).resolve().parents[2]
KILLS = 12


def _db(db: Path, sql: str, *params: object) -> list[tuple]:
    with sqlite3.connect(db, timeout=10) as conn:
        return conn.execute(sql, params).fetchall()


async def test_sigkill_mid_turn_loses_no_post_and_doubles_none(standin: StandIn, tmp_path: Path) -> None:
    guild = standin.add_guild("Club")
    channel = standin.add_channel(guild, "cubist")
    ada, bruno = standin.add_user("ada"), standin.add_user("bruno")
    db = tmp_path / "cubist.db"
    env = os.environ | bot_environment(standin) | {
        "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(db), "OUTBOX_LEASE_SECONDS": "2", "LOBBY_COOLDOWN": "0",
    }  # fmt: skip
    procs: list[asyncio.subprocess.Process] = []

    async def start() -> None:
        procs.append(await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env, cwd=tmp_path))
        await standin.gateway.wait_identified(count=len(procs), timeout=60)
        await asyncio.sleep(1.0)  # guild streaming settles (guild_ready_timeout)

    rng = random.Random(16)
    answers = []
    try:
        await start()
        await ada.slash(channel, "cubist new", players=2, timeout=30)
        await bruno.slash(channel, "cubist join", timeout=30)
        await ada.slash(channel, "cubist start", timeout=30)
        await standin.wait_for_message(channel, lambda m: "The game begins" in m.content, timeout=30)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while not [m for u in (ada, bruno) for m in standin.dms(u) if "Your turn in Cubist" in m.content]:
            assert loop.time() < deadline, "the first player's turn-start DM (sent at the start, not an outbox row)"
            await asyncio.sleep(0.1)
        by_id = {ada.id: ada, bruno.id: bruno}
        for _kill in range(KILLS):
            (seat,) = _db(db, "SELECT current_seat FROM games")[0]
            (user,) = _db(db, "SELECT user_id FROM seats WHERE seat = ?", seat)[0]
            answers.append(await by_id[user].slash(channel, "cubist end", keep="", wait=False))
            await asyncio.sleep(rng.uniform(0.0, 0.6))
            procs[-1].send_signal(signal.SIGKILL)
            await procs[-1].wait()
            await start()
            # The restarted bot sends what the killed one left (the lease is 2 s here).
            deadline = loop.time() + 30
            while _db(db, "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed = 0")[0][0]:
                assert loop.time() < deadline, _db(db, "SELECT * FROM outbox WHERE sent_at IS NULL")
                await asyncio.sleep(0.2)
        await asyncio.sleep(1.0)
        (turn,) = _db(db, "SELECT turn FROM games")[0]
        assert _db(db, "SELECT count(*) FROM outbox WHERE failed = 1") == [(0,)]
        posts = [m for m in standin.channel_messages(channel) if any(c.endswith(":b:end") for c in custom_ids(m))]
        turn_posts = [m for m in posts if "The game begins" not in m.content]
        dms = [m for u in (ada, bruno) for m in standin.dms(u) if "Your turn in Cubist" in m.content]
        counts = f"{turn} turns finished, {len(turn_posts)} turn posts, {len(dms)} turn-start DMs"
        print(f"\nSIGKILL loop: {KILLS} kills, {counts}")
        assert turn >= KILLS // 3  # most kills came after the move was stored
        assert len(turn_posts) == turn  # every finished turn posted, once
        assert len(dms) == turn + 1  # the first turn's DM, then one per finished turn, once each
        seen = [m.content for a in answers for m in a.messages]  # answers that got out before a kill
        assert seen and not [text for text in seen if "unchanged" in text], seen
    finally:
        for p in procs:
            if p.returncode is None:
                p.send_signal(signal.SIGKILL)
                await p.wait()
        standin.take_errors()
        standin.take_violations()
