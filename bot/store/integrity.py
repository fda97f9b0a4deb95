"""Integrity: replaying games against their snapshots (quarantining the bad ones), rebuilding
a snapshot from the move list, the database's own check, and online backups."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.store.connection import Tx
from bot.store.errors import CorruptGame, GameStateError
from bot.store.records import Status
from bot.store.room import Room
from bot.store.rows import game_row, replay_moves
from bot.store.verify import check_replay, snapshot_game
from engine import Game, dump_game


class IntegrityRoom(Room):
    async def verify_game(self, game_id: int) -> Game | None:
        """Checks that the game's snapshot equals the replay of its move list, and the other
        cross-checks of ``bot.store.verify``.  Raises CorruptGame naming the game; until it
        verifies again (or is rebuilt) load_game and apply_move refuse it.  Returns the game
        (None for a game that never started)."""

        async def tx(tx: Tx) -> tuple[Any, Any, list[tuple[int, str]]]:
            row = await game_row(tx, game_id)
            snap = await tx.one("SELECT version, json FROM snapshots WHERE game_id = ?", (game_id,))
            moves = await tx.all("SELECT ply, move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
            return row, snap, [(m["ply"], m["move"]) for m in moves]

        row, snap, moves = await self.db.read(tx)

        def check() -> Game | None:
            if row["seed"] is None:
                if moves or snap is not None:
                    raise CorruptGame(game_id, "a game that never started has moves or a snapshot")
                if row["status"] not in ("lobby", "cancelled"):
                    raise CorruptGame(game_id, f"a game with no seed has status {row['status']!r}")
                return None
            game = snapshot_game(game_id, row, snap and snap["version"], snap and snap["json"])
            return check_replay(game_id, row, game, moves)

        try:
            game = await asyncio.to_thread(check)  # replaying is CPU work: keep the event loop free
        except CorruptGame as e:
            self.cache.quarantine(game_id, e.reason)
            raise
        self.cache.release(game_id)
        return game

    async def verify_all(self, statuses: Sequence[Status] | None = (Status.ACTIVE,)) -> list[CorruptGame]:
        """Verifies every game with these statuses (at start-up: the active ones; None: every
        game).  Returns the problems (one CorruptGame per bad game) instead of raising."""
        if statuses is None:
            sql, params = "SELECT id FROM games ORDER BY id", []
        else:
            sql = f"SELECT id FROM games WHERE status IN ({self.db.dialect.params(len(statuses))}) ORDER BY id"
            params = [str(s) for s in statuses]
        ids = [r["id"] for r in await self.db.read(lambda tx: tx.all(sql, params))]
        problems = []
        for game_id in ids:
            try:
                await self.verify_game(game_id)
            except CorruptGame as e:
                problems.append(e)
        return problems

    async def rebuild_snapshot(self, game_id: int) -> Game:
        """Admin repair: rewrites a game's snapshot and derived columns from its move list (the
        source of truth).  Raises CorruptGame if the moves themselves do not replay."""

        async def tx(tx: Tx) -> Game:
            row = await game_row(tx, game_id)
            if row["seed"] is None:
                raise GameStateError(game_id, row["status"], "started")
            game = await replay_moves(tx, row)
            version = len(game.log)
            await tx.execute(
                "INSERT INTO snapshots (game_id, version, json) VALUES (?, ?, ?) ON CONFLICT (game_id)"
                " DO UPDATE SET version = excluded.version, json = excluded.json",
                (game_id, version, dump_game(game)),
            )
            await tx.execute(
                "UPDATE games SET version = ?, current_seat = ?, turn = ? WHERE id = ?",
                (version, game.current_player, game.state.turn, game_id),
            )
            return game

        game = await self.db.write(tx)
        self.cache.release(game_id)
        self.cache.forget(game_id)
        return game

    async def integrity_check(self) -> list[str]:
        """The database's own check; an empty list means fine."""
        return await self.db.integrity_check()

    async def backup(self, dest: str | Path) -> Path:
        """An online, consistent copy of the database at ``dest``; games keep being served."""
        return await self.db.backup(dest)
