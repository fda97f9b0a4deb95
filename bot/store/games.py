"""Reading games: records with their seats, engine games (from the cache or the snapshot),
lookups by channel and player, the move history and results."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.store.connection import Tx
from bot.store.errors import GameStateError
from bot.store.records import OPEN_STATUSES, GameRecord, MoveRecord, ResultRecord, Status
from bot.store.room import Room
from bot.store.rows import OPEN_SQL, game_at, game_row, record, records_of, result
from engine import Game, GameOptions


class GamesRoom(Room):
    async def get_game(self, game_id: int) -> GameRecord:
        """The game's record (any status), with its seats."""
        return await self.db.read(lambda tx: record(tx, game_id))

    async def load_game(self, game_id: int) -> tuple[GameRecord, Game]:
        """The record and engine game of a started game (active, finished, or cancelled after
        starting); the caller may mutate the game.  Raises CorruptGame if the stored snapshot
        is unreadable or disagrees with the game's row (or the game failed verification)."""
        self.cache.check(game_id)
        cached = self.cache.get(game_id)

        async def tx(tx: Tx) -> tuple[GameRecord, Game, bool]:
            row = await game_row(tx, game_id)
            if row["seed"] is None:
                raise GameStateError(game_id, row["status"], "started")
            hit = cached is not None and cached[0] == row["version"]
            return await record(tx, game_id, row), await game_at(tx, row, cached), hit

        rec, game, hit = await self.db.read(tx)
        if not hit and rec.status == Status.ACTIVE:  # only games in play are worth caching
            self.cache.remember(game_id, rec.version, game.clone())
        return rec, game

    async def game_at(self, game_id: int, version: int) -> Game:
        """The game as it was at ``version`` (a replay of its first ``version`` moves): what an
        outbox post shows even when the game moved on before it was sent."""

        async def tx(tx: Tx) -> tuple[Any, list[str]]:
            row = await game_row(tx, game_id)
            sql = "SELECT move FROM moves WHERE game_id = ? AND ply <= ? ORDER BY ply"
            return row, [m["move"] for m in await tx.all(sql, (game_id, version))]

        row, moves = await self.db.read(tx)

        def replay() -> Game:
            game = Game.new(row["players"], row["seed"], GameOptions.model_validate_json(row["options"]))
            for m in moves:
                game.apply_text(m)
            return game

        cached = self.cache.at(game_id, version)
        if cached is not None:
            return cached.clone()
        return await asyncio.to_thread(replay)

    async def active_game_for_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (in its lobby or in play), if any."""

        async def tx(tx: Tx) -> GameRecord | None:
            row = await tx.one(f"SELECT * FROM games WHERE channel_id = ? AND status IN {OPEN_SQL}", (channel_id,))
            return None if row is None else await record(tx, row["id"], row)

        return await self.db.read(tx)

    async def open_games_opened_in(self, channel_id: int, limit: int = 5) -> list[tuple[int, int]]:
        """(game id, the channel it lives in) of open games opened in this channel that moved
        to a thread of their own, newest first."""
        sql = f"SELECT id, channel_id FROM games WHERE opened_in = ? AND status IN {OPEN_SQL} ORDER BY id DESC LIMIT ?"
        rows = await self.db.read(lambda tx: tx.all(sql, (channel_id, limit)))
        return [(int(r["id"]), int(r["channel_id"])) for r in rows]

    async def games_waiting_on(self, user_id: int) -> list[GameRecord]:
        """Games in play whose current seat is this user's, longest-waiting first."""
        sql = (
            "SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat"
            " WHERE g.status = 'active' AND s.user_id = ? ORDER BY g.updated_at"
        )
        return await self.db.read(lambda tx: records_of(tx, sql, (user_id,)))

    async def open_games_of(self, user_id: int) -> list[GameRecord]:
        """Open games (lobby or in play) in which this user has a seat, oldest first."""
        sql = (
            f"SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id"
            f" WHERE s.user_id = ? AND g.status IN {OPEN_SQL} ORDER BY g.id"
        )
        return await self.db.read(lambda tx: records_of(tx, sql, (user_id,)))

    async def list_games(
        self, statuses: Sequence[Status] = OPEN_STATUSES, *, guild_id: int | None = None, limit: int = 1000
    ) -> list[GameRecord]:
        """Games with the given statuses, newest first, optionally of one guild."""
        sql = f"SELECT * FROM games WHERE status IN ({self.db.dialect.params(len(statuses))})"
        params: list[Any] = [str(s) for s in statuses]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(limit)
        return await self.db.read(lambda tx: records_of(tx, sql, params))

    async def last_moves(self, game_id: int, n: int = 10) -> list[MoveRecord]:
        """The last ``n`` moves of a game, oldest first."""
        sql = "SELECT * FROM (SELECT * FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT ?) AS m ORDER BY ply"
        rows = await self.db.read(lambda tx: tx.all(sql, (game_id, n)))
        return [MoveRecord(r["game_id"], r["ply"], r["move"], r["user_id"], r["created_at"]) for r in rows]

    async def results(self, game_id: int) -> list[ResultRecord]:
        sql = "SELECT * FROM results WHERE game_id = ? ORDER BY seat"
        return [result(r) for r in await self.db.read(lambda tx: tx.all(sql, (game_id,)))]

    async def user_results(self, user_id: int, limit: int = 50) -> list[ResultRecord]:
        """A user's results in finished games, most recent first."""
        sql = (
            "SELECT r.* FROM results r JOIN games g ON g.id = r.game_id WHERE r.user_id = ?"
            " ORDER BY g.finished_at DESC, g.id DESC LIMIT ?"
        )
        return [result(r) for r in await self.db.read(lambda tx: tx.all(sql, (user_id, limit)))]
