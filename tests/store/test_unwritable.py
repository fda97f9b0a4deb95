"""A database that stops taking writes while the bot runs never kills the process by a signal
(issue 28, item 9).  A real child process (``main`` below) opens a store and takes orders
on stdin; the parent freezes its files (``chattr +i``) or fills its disk meanwhile:

* the database or its ``-wal`` file immutable, or the disk full: each write is refused with
  ``CannotWrite`` (the player's "cannot save right now"), reads go on, and once the file is
  writable again writes work again;
* the ``-shm`` file (SQLite's WAL index, mapped into memory) immutable: before, the next
  write died of SIGBUS; now the process stops with exit status 74 and one log line.

Needs root and a file system with inode flags (or tmpfs mounts for the disk-full case); the
tests skip, saying which, where the trick is unavailable.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import CannotWrite, Store
from bot.store.connection import UNUSABLE_EXIT_STATUS

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0


# --- the child ------------------------------------------------------------------------------


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(path: str) -> None:
    """Orders, one a line: ``write`` (one small transaction), ``fill`` (write until refused),
    ``read``, ``close``.  Answers one line each."""
    store = await Store.open(path)
    game = await store.lobby.create_lobby(1, 1, 1)
    say("ready")
    n = 0
    loop = asyncio.get_running_loop()
    while order := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
        try:
            if order == "write":
                n += 1
                await store.meta_room.set_meta(f"k{n}", "x")
                say("wrote")
            elif order == "fill":
                while True:
                    n += 1
                    await store.meta_room.set_meta(f"k{n}", "x" * 4000)
            elif order == "read":
                record = await store.games.get_game(game.id)
                say(f"read {record.id}")
            elif order == "close":
                await store.close()
                say("closed")
                return
        except CannotWrite as e:
            say(f"refused {e.reason}")


# --- the parent -----------------------------------------------------------------------------


class Child:
    def __init__(self, db: Path) -> None:
        self.stderr = db.with_name("child.err")
        self._err = self.stderr.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.store.test_unwritable", str(db)],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._err,
            text=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.next() == "ready", self.log()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next(self) -> str | None:
        """The child's next line; None once it has ended."""
        return self.lines.get(timeout=TIMEOUT)

    def ask(self, order: str) -> str | None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(order + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return None
        return self.next()

    def wait(self) -> int:
        code = self.proc.wait(timeout=TIMEOUT)
        self._err.close()
        return code

    def log(self) -> str:
        return self.stderr.read_text(errors="replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=TIMEOUT)
        self._err.close()


def chattr(flag: str, *paths: Path) -> None:
    subprocess.run(["chattr", flag, *map(str, paths)], check=True, capture_output=True)


@pytest.fixture
def freezable(tmp_path: Path) -> Iterator[Path]:
    """A directory whose files ``chattr +i`` can freeze; unfreezes everything afterwards."""
    if shutil.which("chattr") is None:
        pytest.skip("no chattr on this machine")
    probe = tmp_path / "probe"
    probe.write_bytes(b"")
    try:
        chattr("+i", probe)
    except subprocess.CalledProcessError as e:
        pytest.skip(f"chattr +i does not work here (needs root and ext4/xfs/btrfs): {e.stderr.decode().strip()}")
    chattr("-i", probe)
    yield tmp_path
    for p in tmp_path.iterdir():
        subprocess.run(["chattr", "-i", str(p)], capture_output=True)


def signalled(code: int) -> str:
    return f"killed by signal {-code}" if code < 0 else f"exit status {code}"


@pytest.mark.parametrize("suffix", ["", "-wal"])
def test_frozen_database_or_wal_refuses_writes_and_keeps_reading(freezable: Path, suffix: str) -> None:
    db = freezable / "games.db"
    child = Child(db)
    try:
        assert child.ask("write") == "wrote"
        frozen = Path(f"{db}{suffix}")
        chattr("+i", frozen)
        answer = child.ask("write")
        assert answer is not None, f"the child died: {signalled(child.wait())}\n{child.log()}"
        assert answer.startswith("refused") and "immutable" in answer, answer
        assert child.ask("read") == "read 1"
        assert (child.ask("write") or "").startswith("refused")
        chattr("-i", frozen)
        assert child.ask("write") == "wrote"  # works again by itself once the file does
        assert child.ask("close") == "closed"
        assert child.wait() == 0, child.log()
    finally:
        child.kill()
    assert "Traceback" not in child.log()


@pytest.mark.parametrize("suffixes", [["-shm"], ["", "-wal", "-shm"]], ids=["shm", "all"])
def test_frozen_wal_index_stops_with_one_line_not_sigbus(freezable: Path, suffixes: list[str]) -> None:
    db = freezable / "games.db"
    child = Child(db)
    try:
        assert child.ask("write") == "wrote"
        assert child.ask("read") == "read 1"
        chattr("+i", *(Path(f"{db}{s}") for s in suffixes))
        answer = child.ask("write")
        code = child.wait()
    finally:
        child.kill()
    log = child.log()
    assert code >= 0, f"{signalled(code)} (before: SIGBUS in SQLite's mapping of the -shm file)\n{log}"
    assert answer is None and code == UNUSABLE_EXIT_STATUS, (answer, code, log)
    stopping = [line for line in log.splitlines() if "stopping:" in line]
    assert len(stopping) == 1 and "-shm" in stopping[0] and "immutable" in stopping[0], log
    assert "Traceback" not in log


def test_frozen_files_refuse_to_open(freezable: Path) -> None:
    db = freezable / "games.db"

    async def make_and_open() -> None:
        store = await Store.open(db)
        await store.close()
        chattr("+i", db)
        with pytest.raises(CannotWrite, match="immutable"):
            await Store.open(db)

    asyncio.run(make_and_open())


def test_full_disk_refuses_writes_and_keeps_reading(tmp_path: Path) -> None:
    where = tmp_path / "small"
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1M", "tmpfs", str(where)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {mounted.stderr.strip()}")
    try:
        child = Child(where / "games.db")
        try:
            answer = child.ask("fill")
            assert answer is not None, f"the child died: {signalled(child.wait())}\n{child.log()}"
            assert answer.startswith("refused") and "full" in answer, answer
            assert child.ask("read") == "read 1"
            assert child.ask("close") == "closed"
            assert child.wait() == 0, child.log()
        finally:
            child.kill()
        assert "Traceback" not in child.log()
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    asyncio.run(main(sys.argv[1]))


async def test_looking_at_the_files_keeps_sqlites_locks(tmp_path: Path) -> None:
    """The flags are read by path (statx), never by opening the files: closing any descriptor
    of a file drops every POSIX lock the process holds on it, SQLite's own included.  Before,
    another process closing its connection then took itself for the last one, checkpointed and
    deleted the -wal the store was still writing into, and the store's next commits were lost."""
    path = tmp_path / "c.db"
    store = await Store.open(path)
    other = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute(sys.argv[2]).fetchall()); c.close()"
    try:
        await store.meta_room.set_meta("first", "1")  # a write: the guard looks at the three files
        subprocess.run([sys.executable, "-c", other, str(path), "SELECT count(*) FROM games"], check=True)
        await store.meta_room.set_meta("second", "2")  # committed while the other process has gone
        seen = subprocess.run(
            [sys.executable, "-c", other, str(path), "SELECT value FROM bot_meta WHERE key = 'second'"],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        assert "'2'" in seen, seen
        assert Path(f"{path}-wal").exists()
    finally:
        await store.close()
