"""Store benchmark: the SQLite game store with 1,000 games in play.

Fixture: 1,000 two-to-four-player games started through the store API and played 0-30
moves each (100 move sequences chosen by ``GreedyPlayer``, each stored for ten games; built
with ``synchronous=OFF``: the fixture needs no durability, only the measurements do).
Then, on the file reopened with the production settings:

* committing a move (``apply_move``: version check, engine validation, move row, snapshot,
  game row, timer, all in one transaction) under ``synchronous=NORMAL`` (the default) and
  ``FULL``, with the store's game cache and without it;
* loading a game from the database (``load_game`` with the cache off: row, seats, snapshot
  parsed and cross-checked) and from the cache;
* ``verify_all`` over the 1,000 active games (the start-up check: every snapshot replayed);
* database bytes per finished game (games played to the end in a fresh file, then
  checkpointed and vacuumed).

Targets: commit p95 <= 5 ms, load p95 <= 5 ms.  ``python -m benchmarks store --store-games 200``
(or ``STORE_GAMES=200``) is quicker.
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from bot.store import Status, Store, TimerSpec
from engine import Game
from engine.moves import Move
from engine.players import GreedyPlayer

GAMES = int(os.environ.get("STORE_GAMES", "1000"))
MAX_FIXTURE_MOVES = 30
TEMPLATES = 100
COMMITS = 600  # per configuration
LOADS = 1000
FINISHED_GAMES = 12


def _ms(samples: list[float]) -> tuple[str, str]:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return f"{statistics.median(samples) * 1000:.2f} ms", f"{p95 * 1000:.2f} ms"


def _nudge(game: Game, new_turn: bool = True) -> list[TimerSpec]:
    """The timer a move sets (the bot's next reminder), as the bot does."""
    return [TimerSpec("nudge", "reminder", time.time() + 3600, {"turn": game.state.turn})]


async def _new_game(store: Store, channel: int, players: int, seed: int) -> tuple[int, Game]:
    rec = await store.lobby.create_lobby(1, channel, channel)
    for i in range(players):
        await store.lobby.join_seat(rec.id, channel * 10 + i, f"p{i}")
    rec, game = await store.moves.start_game(rec.id, seed, timers=lambda g, r: _nudge(g))
    return rec.id, game


def _templates(rng: random.Random) -> list[tuple[int, int, list[Move]]]:
    """(players, seed, moves) of TEMPLATES games played by GreedyPlayer to random depths."""
    player = GreedyPlayer(1)
    out = []
    for _ in range(TEMPLATES):
        players, seed = rng.choice((2, 3, 4)), rng.randrange(2**31)
        game = Game.new(players, seed)
        for _ in range(rng.randrange(MAX_FIXTURE_MOVES + 1)):
            if game.is_over:
                break
            game.apply(player.choose(game))
        out.append((players, seed, list(game.log)))
    return out


async def _build_fixture(path: Path, rng: random.Random) -> None:
    """GAMES games through the store API, each replaying one of the templates' moves (choosing
    moves is the slow part, so each chosen sequence is stored for GAMES / TEMPLATES games)."""
    templates = _templates(rng)
    store = await Store.open(path, synchronous="OFF", cache_size=0, checkpoint_interval=None)
    try:
        for channel in range(1, GAMES + 1):
            players, seed, moves = templates[channel % len(templates)]
            game_id, _ = await _new_game(store, channel, players, seed)
            for version, move in enumerate(moves):
                await store.moves.apply_move(game_id, version, move, None, timers=_nudge, with_record=False)
    finally:
        await store.close()


async def _commits(path: Path, synchronous: str, cache_size: int, rng: random.Random) -> list[float]:
    """Time of apply_move alone (the move is chosen beforehand, outside the timing)."""
    store = await Store.open(path, synchronous=synchronous, cache_size=cache_size)
    player = GreedyPlayer(2)
    samples: list[float] = []
    try:
        ids = [r.id for r in await store.games.list_games([Status.ACTIVE], limit=GAMES)]
        while len(samples) < COMMITS:
            game_id = rng.choice(ids)
            record, game = await store.games.load_game(game_id)  # warms the cache, as the bot's own load does
            if game.is_over:
                continue
            move = player.choose(game)
            t = time.perf_counter()
            await store.moves.apply_move(game_id, record.version, move, None, timers=_nudge, with_record=False)
            samples.append(time.perf_counter() - t)
    finally:
        await store.close()
    return samples


async def _loads(path: Path, rng: random.Random) -> tuple[list[float], list[float]]:
    cold: list[float] = []
    warm: list[float] = []
    uncached = await Store.open(path, cache_size=0)
    cached = await Store.open(path, cache_size=GAMES)
    try:
        ids = [r.id for r in await uncached.games.list_games([Status.ACTIVE], limit=GAMES)]
        for game_id in ids:  # fill the cache
            await cached.games.load_game(game_id)
        for _ in range(LOADS):
            game_id = rng.choice(ids)
            t = time.perf_counter()
            await uncached.games.load_game(game_id)
            cold.append(time.perf_counter() - t)
            t = time.perf_counter()
            await cached.games.load_game(game_id)
            warm.append(time.perf_counter() - t)
    finally:
        await uncached.close()
        await cached.close()
    return cold, warm


async def _verify_all(path: Path) -> tuple[float, int]:
    store = await Store.open(path, cache_size=0)
    try:
        t = time.perf_counter()
        problems = await store.integrity.verify_all()
        return time.perf_counter() - t, len(problems)
    finally:
        await store.close()


def _settled_size(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
    finally:
        conn.close()
    return path.stat().st_size


async def _bytes_per_finished_game(tmp: Path, rng: random.Random) -> tuple[float, float]:
    path = tmp / "finished.db"
    await (await Store.open(path)).close()
    empty = _settled_size(path)
    store = await Store.open(path, synchronous="OFF")
    plies = 0
    try:
        for channel in range(1, FINISHED_GAMES + 1):
            game_id, game = await _new_game(store, channel, rng.choice((2, 3, 4)), rng.randrange(2**31))
            player, version = GreedyPlayer(channel), 0
            while not game.is_over:
                played = await store.moves.apply_move(game_id, version, player.choose(game), channel * 10)
                game, version = played.game, played.version
            plies += version
    finally:
        await store.close()
    return (_settled_size(path) - empty) / FINISHED_GAMES, plies / FINISHED_GAMES


def _timed(fn: Callable[[], Coroutine[Any, Any, Any]]) -> tuple[Any, float]:
    t = time.perf_counter()
    result = asyncio.run(fn())
    return result, time.perf_counter() - t


def run() -> list[tuple[str, str]]:
    rng = random.Random(5)
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="store_bench_") as tmp_name:
        tmp = Path(tmp_name)
        path = tmp / "games.db"
        _, took = _timed(lambda: _build_fixture(path, rng))
        size = path.stat().st_size + (Path(f"{path}-wal").stat().st_size if Path(f"{path}-wal").exists() else 0)
        rows.append((f"fixture: {GAMES} active games (0-{MAX_FIXTURE_MOVES} moves each)", f"{took:.1f} s"))
        rows.append(("fixture database size", f"{size / 1e6:.1f} MB"))

        for synchronous, cache_size, label in (
            ("FULL", 256, "FULL, cached game"),
            ("FULL", 0, "FULL, no cache"),
            ("NORMAL", 256, "NORMAL, cached game"),
            ("NORMAL", 0, "NORMAL, no cache"),
        ):
            samples, _ = _timed(functools.partial(_commits, path, synchronous, cache_size, rng))
            median, p95 = _ms(samples)
            rows.append((f"commit a move ({label}) median", median))
            rows.append((f"commit a move ({label}) p95", p95))

        (cold, warm), _ = _timed(lambda: _loads(path, rng))
        for label, samples in (("from the database", cold), ("from the cache", warm)):
            median, p95 = _ms(samples)
            rows.append((f"load a game ({label}) median", median))
            rows.append((f"load a game ({label}) p95", p95))

        (took, problems), _ = _timed(lambda: _verify_all(path))
        rows.append((f"verify_all over {GAMES} active games", f"{took:.2f} s ({problems} problems)"))

        (per_game, plies), _ = _timed(lambda: _bytes_per_finished_game(tmp, rng))
        rows.append((f"database size per finished game ({FINISHED_GAMES} games, {plies:.0f} plies avg)",
                     f"{per_game / 1024:.1f} KiB"))  # fmt: skip
    return rows


if __name__ == "__main__":
    from benchmarks.__main__ import run_module

    sys.exit(run_module("store"))
