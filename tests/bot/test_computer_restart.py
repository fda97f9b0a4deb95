"""A computer's turn is a job: a bot process (``python -m bot``) killed with SIGKILL in the
middle of a computer's turn (one of its moves stored, the turn not ended) and started again
carries the turn on from the stored position, and the game goes on exactly once: one channel
post per finished turn, one turn-start DM for the person whose turn follows, no move lost."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

from standin import StandIn
from standin.pytest_plugin import bot_environment

ROOT = Path(__file__).resolve().parents[2]
TRIES = 6  # computer turns watched for a moment to kill the bot in


def _db(db: Path, sql: str, *params: object) -> list[tuple]:
    with sqlite3.connect(db, timeout=10) as conn:
        return conn.execute(sql, params).fetchall()


async def _until(condition, what: str, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, what
        await asyncio.sleep(0.01)


async def test_a_computers_turn_cut_short_by_sigkill_goes_on_once_after_a_restart(
    standin: StandIn, tmp_path: Path
) -> None:
    guild = standin.add_guild("Club")
    channel = standin.add_channel(guild, "cubist")
    ada = standin.add_user("ada")
    db = tmp_path / "cubist.db"
    env = os.environ | bot_environment(standin) | {
        "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(db), "JOB_LEASE_SECONDS": "2", "TIMER_POLL_SECONDS": "0.2",
        "LOBBY_COOLDOWN": "0",
    }  # fmt: skip
    procs: list[asyncio.subprocess.Process] = []

    async def start() -> None:
        procs.append(await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env, cwd=tmp_path))
        await standin.gateway.wait_identified(count=len(procs), timeout=60)

    def game() -> tuple[int, int, int]:
        return _db(db, "SELECT version, turn, current_seat FROM games")[0]  # type: ignore[return-value]

    def ada_turns(turn: int) -> int:
        """Ada's turns begun up to ``turn`` (two seats take turns from seat 0)."""
        return sum(1 for k in range(turn + 1) if k % 2 == ada_seat)

    def turn_dms() -> int:
        return len([m for m in standin.dms(ada) if "Your turn in Cubist" in m.content])

    try:
        await start()
        await ada.slash(channel, "cubist lobby new", players=2)
        await ada.slash(channel, "cubist lobby start", fill="strong")
        await standin.wait_for_message(channel, lambda m: "The game begins" in m.content)
        (ada_seat,) = _db(db, "SELECT seat FROM seats WHERE user_id = ?", ada.id)[0]
        killed = None
        for _try in range(TRIES):
            await _until(lambda: game()[2] == ada_seat, "ada's turn comes")
            await _until(lambda: turn_dms() == ada_turns(game()[1]), "ada's turn-start DM")
            turn = game()[1]
            await ada.slash(channel, "cubist end", keep="")
            await _until(lambda t=turn: game()[1] > t, "ada's turn ends")
            begun = game()[0]  # the computer's turn begins at this version
            # Its first move stored, its turn not over: kill the bot there.
            await _until(lambda v=begun: game()[0] > v or game()[2] == ada_seat, "the computer moves")
            if game()[2] != ada_seat:
                procs[-1].send_signal(signal.SIGKILL)
                await procs[-1].wait()
                killed = game()
                if killed[2] != ada_seat:
                    break
                await start()  # the turn ended before the kill: try again at the next one
        assert killed is not None and killed[2] != ada_seat, "never caught the computer in the middle of its turn"
        posts_before = len([m for m in standin.channel_messages(channel) if m.attachments])
        await start()  # its lease (2 s) runs out, and the new process takes the turn over
        await _until(lambda: game()[2] == ada_seat, "the computer's turn goes on after the restart")
        version, turn, _seat = game()
        assert turn == killed[1] + 1 and version > killed[0]
        await _until(lambda: turn_dms() == ada_turns(turn), "ada hears that it is her turn")
        await asyncio.sleep(1.0)  # anything sent twice would be out by now (lease 2 s, polls 0.2 s)
        assert game() == (version, turn, ada_seat)  # nobody played for ada, nothing played twice
        posts = [m for m in standin.channel_messages(channel) if m.attachments]
        turn_posts = [m for m in posts if "The game begins" not in m.content]
        assert len(turn_posts) == turn and len(posts) == posts_before + 1  # each finished turn posted, once
        assert turn_dms() == ada_turns(turn)  # one turn-start DM per turn of ada's
        assert _db(db, "SELECT count(*) FROM jobs WHERE failed = 1 OR failures > 0") == [(0,)]
        assert _db(db, "SELECT count(*) FROM moves") == [(version,)]  # every stored move counted once
    finally:
        for p in procs:
            if p.returncode is None:
                p.send_signal(signal.SIGKILL)
                await p.wait()
        standin.take_errors()
        standin.take_violations()
