"""Crash safety: a child process applies moves in a loop and is SIGKILLed at random moments,
many times.  After every kill the file passes SQLite's integrity check, every game loads and
its snapshot equals the replay of its moves, and every move the child reported as committed
is there.  Runs on SQLite and on PostgreSQL (where the killed writer is a client of the
server, whose transaction the server rolls back)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.store import Status, Store
from bot.store.postgres import is_postgres_url

from .helpers import sql

ROOT = Path(__file__).resolve().parents[2]
KILLS = 20
# Only a hung child trips this: it plays a move in milliseconds even on a busy machine.
HANG_GUARD_S = 120


class Child:
    """The child process, with its stdout collected by a thread (complete lines only)."""

    def __init__(self, db: Path | str, seed: int, stderr: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self._err = stderr.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.store.crash_child", str(db), str(seed)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=self._err,
        )
        self.lines: list[str] = []
        self.ready = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.decode()
            if not line.endswith("\n"):  # cut off by the kill: never counted as reported
                break
            if line == "ready\n":
                self.ready.set()
            else:
                self.lines.append(line.rstrip("\n"))

    def wait_for_moves(self, count: int) -> None:
        hang_guard = time.monotonic() + HANG_GUARD_S
        while sum(line.startswith("M ") for line in self.lines) < count:
            assert self.proc.poll() is None, "the child stopped by itself"
            assert time.monotonic() < hang_guard, f"the child committed fewer than {count} moves"
            time.sleep(0.01)

    def kill(self) -> int | None:
        """SIGKILLs the child; returns its exit status if it had already exited on its own."""
        early = self.proc.poll()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._thread.join(timeout=10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        self._err.close()
        return early


def check_after_kill(db: Path | str, reported: dict[tuple[int, int], str], started: set[int]) -> int:
    """Checks the database after a kill; returns the number of finished games."""
    if not is_postgres_url(db):
        conn = sqlite3.connect(db)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            conn.close()

    async def verify() -> None:
        store = await Store.open(db, cache_size=0)  # what the restarted bot does (migrating if needed)
        try:
            assert await store.integrity.integrity_check() == []
            assert await store.integrity.verify_all(list(Status)) == []
            for rec in await store.games.list_games(list(Status)):
                if rec.seed is not None:
                    await store.games.load_game(rec.id)
        finally:
            await store.close()

    asyncio.run(verify())
    stored = {(g, p): m for g, p, m in sql(db, "SELECT game_id, ply, move FROM moves")}
    games = {r[0] for r in sql(db, "SELECT id FROM games WHERE seed IS NOT NULL")}
    # A finished game has its results, written in the same transaction as its last move.
    unscored = sql(
        db,
        "SELECT g.id FROM games g WHERE g.status = 'finished'"
        " AND (SELECT count(*) FROM results r WHERE r.game_id = g.id) != g.players",
    )
    finished = sql(db, "SELECT count(*) FROM games WHERE status = 'finished'")[0][0]
    lost = {k: v for k, v in reported.items() if stored.get(k) != v}
    assert not lost, f"moves reported as committed but missing or different: {sorted(lost.items())[:5]}"
    assert started <= games
    assert unscored == []
    return int(finished)


@pytest.mark.slow
def test_sigkill_never_loses_a_committed_move(db_path: Path | str, tmp_path: Path) -> None:
    db = db_path
    rng = random.Random(20240607)
    reported: dict[tuple[int, int], str] = {}
    started: set[int] = set()
    for run in range(KILLS):
        child = Child(db, seed=run, stderr=tmp_path / f"child{run}.err")
        try:
            if run % 4 == 0:
                # Any moment after spawning: start-up, migration, set-up of games, or play.
                time.sleep(rng.uniform(0.0, 1.0))
            else:
                # Kill once the child has committed a few moves (counted, not timed, so a busy
                # machine does not leave it too little play), at a random moment after that.
                assert child.ready.wait(timeout=HANG_GUARD_S), "the child never got ready"
                child.wait_for_moves(rng.randint(4, 8))
                time.sleep(rng.uniform(0.0, 0.2))
        finally:
            early = child.kill()
        err = (tmp_path / f"child{run}.err").read_text()
        assert early is None, f"the child exited by itself ({early}): {err}"
        for line in child.lines:
            kind, *rest = line.split(" ", 3)
            if kind == "M":
                game_id, ply, move = int(rest[0]), int(rest[1]), rest[2]
                assert (game_id, ply) not in reported, f"ply {ply} of game {game_id} committed twice"
                reported[(game_id, ply)] = move
            else:
                started.add(int(rest[0]))
        check_after_kill(db, reported, started)
    assert len(reported) >= 50, "the children hardly got to play: the test exercised little"
