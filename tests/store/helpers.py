"""Helpers for the store tests: games driven by GreedyPlayer, a controllable clock, and SQL
run straight on the database (a SQLite file or a PostgreSQL URL) outside the store."""

from __future__ import annotations

import asyncio
import concurrent.futures
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.store import GameRecord, Store, TimerSpec
from bot.store import db as dbmod
from bot.store.postgres import is_postgres_url, to_postgres
from engine import Game
from engine.players import GreedyPlayer


def sql(db: Path | str, statement: str, params: tuple[Any, ...] = (), *, force: bool = False) -> list[tuple[Any, ...]]:
    """Runs one statement on the database behind the store's back, committed at once; the
    rows as tuples.  ``force``: CHECK constraints do not stop it (to damage a database)."""
    if is_postgres_url(db):
        return _pool.submit(asyncio.run, _pg(str(db), statement, params, force)).result()
    conn = sqlite3.connect(db)
    try:
        if force:
            conn.execute("PRAGMA ignore_check_constraints = ON")
        rows = [tuple(r) for r in conn.execute(statement, params).fetchall()]
        conn.commit()
        return rows
    finally:
        conn.close()


_pool = concurrent.futures.ThreadPoolExecutor(1)  # asyncio.run off the test's own event loop


async def _pg(url: str, statement: str, params: tuple[Any, ...], force: bool) -> list[tuple[Any, ...]]:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            if force:  # PostgreSQL cannot ignore CHECKs: drop them (the test damages a copy)
                for r in await conn.fetch(
                    "SELECT conrelid::regclass::text AS t, conname FROM pg_constraint WHERE contype = 'c'"
                    " AND connamespace = 'public'::regnamespace"
                ):
                    await conn.execute(f'ALTER TABLE {r["t"]} DROP CONSTRAINT "{r["conname"]}"')
            rows = await conn.fetch(to_postgres(statement), *params)
        return [tuple(r) for r in rows]
    finally:
        await conn.close()


async def old_database(path: Path, version: int, script: str = "") -> Path:
    """A SQLite file at ``path`` migrated up to schema ``version`` only, holding the rows that
    ``script`` writes as that version kept them: what an upgrade starts from."""
    conn = await dbmod.connect(path)
    try:
        assert await dbmod.migrate(conn, str(path), target=version) == version
        if script:
            await conn.executescript(script)
    finally:
        await conn.close()
    return path


@asynccontextmanager
async def opened(path: Path) -> AsyncIterator[Store]:
    """The store on ``path`` (migrating it to the latest schema), closed afterwards."""
    store = await Store.open(path)
    try:
        yield store
    finally:
        await store.close()


class FakeClock:
    """Wall-clock seconds that only move when told to."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def nudge_at(due_at: float) -> TimerSpec:
    """A game's ``nudge`` timer due at ``due_at`` (what the bot sets for a turn's DMs)."""
    return TimerSpec("nudge", "turn_start", due_at, {})


async def nudge(store: Store, game_id: int) -> tuple[float | None, str, int, float | None] | None:
    """(due_at, kind, attempt, last_run_at) of a game's nudge timer, if any."""
    t = await store.timers.get(game_id, "nudge")
    return None if t is None else (t.due_at, t.kind, t.attempt, t.last_run_at)


async def start_game(
    store: Store, channel: int, players: int = 2, seed: int = 1, guild: int = 1
) -> tuple[GameRecord, Game]:
    """A started game in ``channel`` with human players whose user ids are channel*10 + i."""
    rec = await store.lobby.create_lobby(guild, channel, channel * 10)
    for i in range(players):
        await store.lobby.join_seat(rec.id, channel * 10 + i, f"player{i}")
    return await store.moves.start_game(rec.id, seed)


async def play(store: Store, game_id: int, moves: int, seed: int = 0) -> tuple[Game, int]:
    """Plays up to ``moves`` GreedyPlayer moves (fewer if the game ends); returns game and version."""
    rec, game = await store.games.load_game(game_id)
    version = rec.version
    player = GreedyPlayer(seed)
    for _ in range(moves):
        if game.is_over:
            break
        user = rec.seats[game.current_player].user_id
        played = await store.moves.apply_move(game_id, version, player.choose(game), user)
        game, version = played.game, played.version
    return game, version


async def play_to_end(store: Store, game_id: int, seed: int = 0) -> tuple[Game, int]:
    return await play(store, game_id, 10_000, seed)
