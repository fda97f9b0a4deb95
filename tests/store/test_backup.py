"""Online backup while moves are being written, and the command-line tools."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.store import Status, Store

from .helpers import play, start_game

ROOT = Path(__file__).resolve().parents[2]


async def test_backup_while_writes_go_on(store: Store, db_path: Path, tmp_path: Path) -> None:
    games = [(await start_game(store, channel=c, seed=c))[0] for c in range(1, 5)]
    for rec in games:
        await play(store, rec.id, 5)
    stop = asyncio.Event()
    moved = asyncio.Event()

    async def writer(game_id: int, seed: int) -> int:
        moves = 0
        while not stop.is_set():
            game, _ = await play(store, game_id, 1, seed)
            moves += 1
            moved.set()
            if game.is_over:
                break
        return moves

    writers = [asyncio.create_task(writer(rec.id, i)) for i, rec in enumerate(games)]
    await asyncio.wait_for(moved.wait(), 60)  # the backups are taken while moves are written
    copies = []
    for i in range(3):
        copies.append(await store.backup(tmp_path / f"copy{i}.db"))
        await asyncio.sleep(0.02)
    stop.set()
    written = await asyncio.gather(*writers)
    assert sum(written) > 0

    for copy in copies:
        assert not Path(f"{copy}.partial").exists()
        conn = sqlite3.connect(copy)
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        conn.close()
        backup = await Store.open(copy, cache_size=0)
        try:
            assert await backup.integrity.verify_all(None) == []
            assert len(await backup.games.list_games([Status.ACTIVE, Status.FINISHED])) == 4
            await play(backup, games[0].id, 1)  # a backup is a working database
        finally:
            await backup.close()
    # Versions in successive backups never go backwards.
    versions = []
    for copy in copies:
        conn = sqlite3.connect(copy)
        versions.append(sum(r[0] for r in conn.execute("SELECT version FROM games")))
        conn.close()
    assert versions == sorted(versions)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot.store", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_command_line_backup_and_verify(db_path: Path, tmp_path: Path) -> None:
    async def build() -> None:
        async with await Store.open(db_path) as store:
            rec, _ = await start_game(store, channel=1)
            await play(store, rec.id, 5)

    asyncio.run(build())
    dest = tmp_path / "backup.db"
    done = _run("backup", str(db_path), str(dest))
    assert done.returncode == 0, done.stderr
    assert dest.exists() and "backed up" in done.stdout

    done = _run("verify", str(dest))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith(": ok")

    conn = sqlite3.connect(dest)
    conn.execute("UPDATE snapshots SET json = 'garbage'")
    conn.commit()
    conn.close()
    done = _run("verify", str(dest))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("game 1: unreadable snapshot"), lines
