"""The other players' votes on an away player's turn (skip it, or hand the seat to a computer)."""

from __future__ import annotations

from bot.store.connection import Tx
from bot.store.errors import GameStateError
from bot.store.records import Status
from bot.store.room import Room
from bot.store.rows import game_row, need


class VotesRoom(Room):
    async def cast_vote(self, game_id: int, turn: int, voter_seat: int, choice: str) -> dict[str, int]:
        """Records (or changes) a player's vote on the away player of ``turn``; returns the
        counts per choice.  Raises GameStateError if that turn is no longer in play."""
        now = self.clock()

        async def tx(tx: Tx) -> dict[str, int]:
            row = await game_row(tx, game_id)
            need(row, Status.ACTIVE)
            if row["turn"] != turn:
                raise GameStateError(game_id, f"at turn {row['turn']}", f"at turn {turn}")
            await tx.execute(
                "INSERT INTO away_votes (game_id, turn, voter_seat, choice, created_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, turn, voter_seat) DO UPDATE SET choice = excluded.choice,"
                " created_at = excluded.created_at",
                (game_id, turn, voter_seat, choice, now),
            )
            sql = "SELECT choice, count(*) AS n FROM away_votes WHERE game_id = ? AND turn = ? GROUP BY choice"
            return {r["choice"]: r["n"] for r in await tx.all(sql, (game_id, turn))}

        return await self.db.write(tx)

    async def votes(self, game_id: int, turn: int) -> dict[int, str]:
        """Voter seat -> choice for a turn."""
        sql = "SELECT voter_seat, choice FROM away_votes WHERE game_id = ? AND turn = ?"
        rows = await self.db.read(lambda tx: tx.all(sql, (game_id, turn)))
        return {r["voter_seat"]: r["choice"] for r in rows}
