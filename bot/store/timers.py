"""Timed events of games in play: the reminder schedule (``reminders``) and turn clocks
(``turn_clocks``).  ``set_reminder``/``start_turn_clock`` run inside the move's own
transaction; ``TimersRoom`` holds the whole transactions the bot's pollers use."""

from __future__ import annotations

from typing import Any

from engine import Game

from .connection import Tx
from .records import DueReminder, SeatRecord, TurnClock
from .room import Room
from .rows import game_row


def set_reminder(tx: Tx, game_id: int, due_at: float | None) -> None:
    if due_at is None:
        tx.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
    else:
        tx.execute(
            "INSERT INTO reminders (game_id, due_at, sent_count, last_sent_at) VALUES (?, ?, 0, NULL)"
            " ON CONFLICT (game_id) DO UPDATE SET due_at = excluded.due_at, sent_count = 0, last_sent_at = NULL",
            (game_id, due_at),
        )


def start_turn_clock(tx: Tx, game_id: int, game: Game, now: float, seconds: float) -> None:
    tx.execute(
        "INSERT INTO turn_clocks (game_id, turn, seat, started_at, expires_at, vote_posted) VALUES (?, ?, ?, ?, ?, 0)"
        " ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, seat = excluded.seat,"
        " started_at = excluded.started_at, expires_at = excluded.expires_at, vote_posted = 0",
        (game_id, game.state.turn, game.current_player, now, now + seconds),
    )
    tx.execute("DELETE FROM away_votes WHERE game_id = ? AND turn <> ?", (game_id, game.state.turn))


def stop_turn_clock(tx: Tx, game_id: int) -> None:
    tx.execute("DELETE FROM turn_clocks WHERE game_id = ?", (game_id,))


class TimersRoom(Room):
    async def due_reminders(self, before: float, limit: int = 100) -> list[DueReminder]:
        """Reminders of games in play due before ``before``, earliest first, with the seat the
        game waits on and its preferences (quiet hours and snoozing are the caller's call)."""
        sql = (
            "SELECT s.*, r.due_at, r.sent_count, r.last_sent_at, g.version, g.guild_id, g.channel_id"
            " FROM reminders r JOIN games g ON g.id = r.game_id"
            " JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat"
            " WHERE r.due_at < ? AND g.status = 'active' ORDER BY r.due_at LIMIT ?"
        )
        out = []
        for r in await self.db.read(lambda tx: tx.all(sql, (before, limit))):
            seat = SeatRecord.from_row(r)
            out.append(
                DueReminder(
                    game_id=r["game_id"], version=r["version"], guild_id=r["guild_id"], channel_id=r["channel_id"],
                    seat=seat.seat, user_id=seat.user_id, due_at=r["due_at"], sent_count=r["sent_count"],
                    last_sent_at=r["last_sent_at"], dm_reachable=seat.dm_reachable, prefs=seat.prefs,
                )
            )  # fmt: skip
        return out

    async def mark_reminder_sent(
        self, game_id: int, version: int, next_due: float | None, *, expected_count: int | None = None
    ) -> bool:
        """Records that a reminder went out and schedules the next (None: no more).  Does
        nothing and returns False if the game moved since the reminder was listed (or, with
        ``expected_count``, if another sender already counted this reminder)."""
        now = self.clock()

        def tx(tx: Tx) -> bool:
            row = tx.one("SELECT version FROM games WHERE id = ?", (game_id,))
            if row is None or row["version"] != version:
                return False
            if expected_count is not None:
                rem = tx.one("SELECT sent_count FROM reminders WHERE game_id = ?", (game_id,))
                if rem is None or rem["sent_count"] != expected_count:
                    return False
            if next_due is None:
                cur = tx.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            else:
                cur = tx.execute(
                    "UPDATE reminders SET sent_count = sent_count + 1, last_sent_at = ?, due_at = ? WHERE game_id = ?",
                    (now, next_due, game_id),
                )
            return cur.rowcount == 1

        return await self.db.write(tx)

    async def set_reminder(self, game_id: int, due_at: float | None) -> None:
        """Reschedules (or with None removes) a game's reminder without a move; resets the count."""

        def tx(tx: Tx) -> None:
            game_row(tx, game_id)
            set_reminder(tx, game_id, due_at)

        await self.db.write(tx)

    async def reminder(self, game_id: int) -> tuple[float, int, float | None] | None:
        """(due_at, sent_count, last_sent_at) of a game's pending reminder, if any."""
        r: Any = await self.db.read(lambda tx: tx.one("SELECT * FROM reminders WHERE game_id = ?", (game_id,)))
        return None if r is None else (r["due_at"], r["sent_count"], r["last_sent_at"])

    async def reschedule_reminder(self, game_id: int, version: int, due_at: float) -> bool:
        """Moves a pending reminder to ``due_at`` keeping its sent count (quiet hours, snooze).
        Does nothing and returns False if the game moved since ``version``."""

        def tx(tx: Tx) -> bool:
            row = tx.one("SELECT version FROM games WHERE id = ?", (game_id,))
            if row is None or row["version"] != version:
                return False
            return tx.execute("UPDATE reminders SET due_at = ? WHERE game_id = ?", (due_at, game_id)).rowcount == 1

        return await self.db.write(tx)

    async def turn_clock(self, game_id: int) -> TurnClock | None:
        r = await self.db.read(lambda tx: tx.one("SELECT * FROM turn_clocks WHERE game_id = ?", (game_id,)))
        return None if r is None else TurnClock.from_row(r)

    async def expired_turn_clocks(self, before: float, limit: int = 100) -> list[TurnClock]:
        """Clocks of turns still in play that ran out before ``before`` and whose vote was not
        posted yet, earliest first."""
        sql = (
            "SELECT t.* FROM turn_clocks t JOIN games g ON g.id = t.game_id"
            " WHERE t.vote_posted = 0 AND t.expires_at < ? AND g.status = 'active' AND g.turn = t.turn"
            " ORDER BY t.expires_at LIMIT ?"
        )
        return [TurnClock.from_row(r) for r in await self.db.read(lambda tx: tx.all(sql, (before, limit)))]

    async def claim_turn_vote(self, game_id: int, turn: int) -> bool:
        """Marks the vote of this turn as posted; False if it already was or the turn is over."""
        sql = (
            "UPDATE turn_clocks SET vote_posted = 1 WHERE game_id = ? AND turn = ? AND vote_posted = 0"
            " AND turn = (SELECT turn FROM games WHERE id = ? AND status = 'active')"
        )
        return await self.db.write(lambda tx: tx.execute(sql, (game_id, turn, game_id)).rowcount == 1)

    async def expire_turn_clock(self, game_id: int, turn: int, at: float) -> bool:
        """Ends a turn's clock early (the player is known to be gone)."""
        sql = (
            "UPDATE turn_clocks SET expires_at = CASE WHEN expires_at < ? THEN expires_at ELSE ? END"
            " WHERE game_id = ? AND turn = ?"
        )
        return await self.db.write(lambda tx: tx.execute(sql, (at, at, game_id, turn)).rowcount == 1)
