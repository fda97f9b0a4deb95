"""The lobby: opening a table, taking and leaving seats, a computer taking over a seat."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.connection import Tx
from bot.store.errors import ChannelBusy, SeatError, TableFull, TooManyGames, TooSoon
from bot.store.records import OPEN_STATUSES, GameRecord, ReminderPrefs, SeatRecord, Status
from bot.store.room import Room
from bot.store.rows import INSERT_SEAT, OPEN_SQL, game_row, need, record, seat_rows
from engine import GameOptions

# The newest game opened under a channel: in it, or in a thread of it (moved there, or opened there).
LAST_OPENED = "SELECT max(created_at) AS at FROM games WHERE channel_id = ? OR opened_in = ?"


async def ensure_free(tx: Tx, channel_id: int) -> None:
    """ChannelBusy when ``channel_id`` holds an open game (one open game per channel)."""
    busy = await tx.one(f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN_SQL}", (channel_id,))
    if busy is not None:
        raise ChannelBusy(channel_id, busy["id"])


async def check_open_games(tx: Tx, user_id: int, most: int, besides: int | None = None) -> None:
    """TooManyGames when ``user_id`` has ``most`` open games (seated, or a lobby of theirs whose
    creator's seat is being taken in this very call) other than ``besides``."""
    row = await tx.one(
        f"SELECT count(*) AS n FROM games g WHERE g.status IN {OPEN_SQL} AND g.id <> ?"
        " AND (EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)"
        " OR (g.status = 'lobby' AND g.creator_id = ?))",
        (besides if besides is not None else -1, user_id, user_id),
    )
    count = int(row["n"]) if row is not None else 0
    if count >= most:
        raise TooManyGames(user_id, count, most)


class LobbyRoom(Room):
    async def create_lobby(
        self,
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        options: GameOptions | None = None,
        settings: str = "{}",
        *,
        opened_in: int | None = None,
        max_open: int | None = None,
        cooldown: float = 0.0,
    ) -> GameRecord:
        """A new game in its lobby.  Raises ChannelBusy if the channel already has an open game.
        ``settings`` is the bot's own JSON for the table (player limit, clocks).  The limits are
        checked in the same transaction, so lobbies opened at once cannot slip past them:
        ``max_open``, the creator's open games (TooManyGames); ``cooldown``, seconds since the
        last lobby opened under the same channel, in it or in any thread of it (TooSoon).
        ``opened_in``: the parent channel of a thread the lobby is opened in."""
        options_json = (options or GameOptions()).model_dump_json()
        now = self.clock()
        under = opened_in if opened_in is not None else channel_id  # the cooldown's channel

        async def tx(tx: Tx) -> GameRecord:
            await ensure_free(tx, channel_id)
            if max_open is not None:
                await check_open_games(tx, creator_id, max_open)
            if cooldown > 0:
                last = await tx.one(LAST_OPENED, (under, under))
                if last is not None and last["at"] is not None and now - float(last["at"]) < cooldown:
                    raise TooSoon(under, float(last["at"]) + cooldown - now)
            new = await tx.all(
                "INSERT INTO games"
                " (guild_id, channel_id, creator_id, options, settings, status, created_at, updated_at, opened_in)"
                " VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING id",
                (guild_id, channel_id, creator_id, options_json, settings, now, now, opened_in),
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
        max_open: int | None = None,
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
            if user_id is not None and max_open is not None:
                await check_open_games(tx, user_id, max_open, besides=game_id)
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
            await ensure_free(tx, channel_id)
            await tx.execute(
                "UPDATE games SET opened_in = channel_id, channel_id = ?, updated_at = ? WHERE id = ?",
                (channel_id, now, game_id),
            )
            return await record(tx, game_id)

        return await self.db.write(tx)

    async def rehome(self, game_id: int, lost: int, to: int | None = None) -> tuple[GameRecord, bool] | None:
        """An open game whose channel ``lost`` is gone (a deleted or locked thread) moves to
        ``to``, by default the channel it was opened in.  Returns the record where it lives now
        and whether this call moved it (False: another sender moved it first); None when it
        has nowhere to go (it lived in the channel it was opened in).  Raises ChannelBusy when
        ``to`` has an open game already."""
        now = self.clock()

        async def tx(tx: Tx) -> tuple[GameRecord, bool] | None:
            row = await game_row(tx, game_id)
            need(row, *OPEN_STATUSES)
            if row["channel_id"] != lost:
                return await record(tx, game_id, row), False  # moved already
            target = to if to is not None else row["opened_in"]
            if target is None or target == lost:
                return None
            await ensure_free(tx, target)
            await tx.execute(
                "UPDATE games SET channel_id = ?, opened_in = coalesce(opened_in, ?), updated_at = ? WHERE id = ?",
                (target, lost, now, game_id),
            )
            await tx.execute("DELETE FROM table_posts WHERE game_id = ?", (game_id,))  # they were in the lost channel
            return await record(tx, game_id), True

        return await self.db.write(tx)

    async def opened_in(self, game_id: int) -> int | None:
        """The channel a game was opened in, when it moved to a thread of its own."""
        row = await self.db.read(lambda tx: tx.one("SELECT opened_in FROM games WHERE id = ?", (game_id,)))
        return None if row is None or row["opened_in"] is None else int(row["opened_in"])

    async def last_lobby_opened(self, channel_id: int) -> float | None:
        """When the newest game opened in this channel was opened, wherever it lives now (None: never)."""
        row = await self.db.read(lambda tx: tx.one(LAST_OPENED, (channel_id, channel_id)))
        return None if row is None or row["at"] is None else float(row["at"])
