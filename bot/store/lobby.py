"""The lobby: opening a table, taking and leaving seats, a computer taking over a seat."""

from __future__ import annotations

from collections.abc import Sequence

from engine import GameOptions

from .connection import Tx
from .errors import ChannelBusy, SeatError, TableFull
from .records import GameRecord, ReminderPrefs, SeatRecord, Status
from .room import Room
from .rows import INSERT_SEAT, OPEN_SQL, game_row, need, record, seat_rows


class LobbyRoom(Room):
    async def create_lobby(
        self,
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        options: GameOptions | None = None,
        settings: str = "{}",
    ) -> GameRecord:
        """A new game in its lobby.  Raises ChannelBusy if the channel already has an open game.
        ``settings`` is the bot's own JSON for the table (player limit, clocks)."""
        options_json = (options or GameOptions()).model_dump_json()
        now = self.clock()

        async def tx(tx: Tx) -> GameRecord:
            busy = await tx.one(f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN_SQL}", (channel_id,))
            if busy is not None:
                raise ChannelBusy(channel_id, busy["id"])
            new = await tx.all(
                "INSERT INTO games"
                " (guild_id, channel_id, creator_id, options, settings, status, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?) RETURNING id",
                (guild_id, channel_id, creator_id, options_json, settings, now, now),
            )
            return await record(tx, new[0]["id"])

        return await self.db.write(tx)

    async def join_seat(
        self,
        game_id: int,
        user_id: int | None,
        display_name: str,
        *,
        colour: str | None = None,
        is_computer: bool = False,
        ai_level: int | None = None,
        prefs: ReminderPrefs | None = None,
        colours: Sequence[str] = (),
        max_seats: int = 4,
    ) -> SeatRecord:
        """Takes the lowest free seat of a lobby.  Computer players have no user id.
        ``colours``: the first of these not taken yet is the seat's colour, chosen in the same
        transaction as the seat (two people joining at once never get the same colour).
        ``max_seats``: the table's size; raises SeatError ("full") past it."""
        if is_computer != (user_id is None):
            raise SeatError("a computer player has no user id, and a human needs one")
        prefs = prefs or ReminderPrefs()
        if problems := prefs.problems():
            raise SeatError("; ".join(problems))
        now = self.clock()

        async def tx(tx: Tx) -> SeatRecord:
            need(await game_row(tx, game_id), Status.LOBBY)
            seats = await seat_rows(tx, game_id)
            if user_id is not None and any(s["user_id"] == user_id for s in seats):
                raise SeatError(f"user {user_id} already has a seat in game {game_id}")
            chosen = colour
            if chosen is None and colours:
                taken = {s["colour"] for s in seats}
                chosen = next((c for c in colours if c not in taken), None)
            if chosen is not None and any(s["colour"] == chosen for s in seats):
                raise SeatError(f"colour {chosen} is already taken in game {game_id}")
            free = [i for i in range(4) if i not in {s["seat"] for s in seats}]
            if not free or len(seats) >= max_seats:
                raise TableFull(f"game {game_id} is full")
            await tx.execute(
                INSERT_SEAT,
                (
                    game_id, free[0], user_id, display_name, chosen, int(is_computer), ai_level, None,
                    int(prefs.enabled), prefs.interval, prefs.quiet_start, prefs.quiet_end,
                    prefs.time_zone, prefs.snoozed_until, now,
                ),
            )  # fmt: skip
            await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            row = await tx.one("SELECT * FROM seats WHERE game_id = ? AND seat = ?", (game_id, free[0]))
            assert row is not None
            return SeatRecord.from_row(row)

        return await self.db.write(tx)

    async def leave_seat(self, game_id: int, seat: int) -> None:
        """Frees a lobby seat (the other seats keep their numbers until the game starts)."""
        now = self.clock()

        async def tx(tx: Tx) -> None:
            need(await game_row(tx, game_id), Status.LOBBY)
            if await tx.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)) != 1:
                raise SeatError(f"seat {seat} of game {game_id} is empty")
            await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))

        await self.db.write(tx)

    async def hand_seat_to_computer(self, game_id: int, seat: int, ai_level: int, display_name: str) -> GameRecord:
        """A computer player takes over a seat of a game in play (the away vote): the seat
        loses its user, so reminders and votes no longer concern that person."""
        now = self.clock()

        async def tx(tx: Tx) -> GameRecord:
            need(await game_row(tx, game_id), Status.ACTIVE)
            cur = await tx.execute(
                "UPDATE seats SET user_id = NULL, is_computer = 1, ai_level = ?, display_name = ?,"
                " dm_reachable = NULL WHERE game_id = ? AND seat = ? AND is_computer = 0",
                (ai_level, display_name, game_id, seat),
            )
            if cur != 1:
                raise SeatError(f"seat {seat} of game {game_id} is empty or already a computer player")
            await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            return await record(tx, game_id)

        return await self.db.write(tx)

    async def move_lobby(self, game_id: int, channel_id: int) -> GameRecord:
        """Moves a lobby to another channel (the thread opened for it), remembering where it
        was opened.  Raises ChannelBusy if that channel has an open game already."""
        now = self.clock()

        async def tx(tx: Tx) -> GameRecord:
            row = await game_row(tx, game_id)
            need(row, Status.LOBBY)
            busy = await tx.one(f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN_SQL}", (channel_id,))
            if busy is not None:
                raise ChannelBusy(channel_id, busy["id"])
            await tx.execute(
                "UPDATE games SET opened_in = channel_id, channel_id = ?, updated_at = ? WHERE id = ?",
                (channel_id, now, game_id),
            )
            return await record(tx, game_id)

        return await self.db.write(tx)

    async def last_lobby_opened(self, channel_id: int) -> float | None:
        """When the newest game opened in this channel was opened, wherever it lives now (None: never)."""
        sql = "SELECT max(created_at) AS at FROM games WHERE channel_id = ? OR opened_in = ?"
        row = await self.db.read(lambda tx: tx.one(sql, (channel_id, channel_id)))
        return None if row is None or row["at"] is None else float(row["at"])
