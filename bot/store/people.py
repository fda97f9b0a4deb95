"""People and servers: Discord locales, servers' chosen language, how a person wants their
pictures, whether a person's DMs are open, and reminder preferences.  The SQL of locales,
picture styles and DM status is in ``locales.py`` and ``meta.py``."""

from __future__ import annotations

from collections.abc import Callable

from bot.store import locales as locales_db
from bot.store import meta as meta_db
from bot.store.cache import GameCache
from bot.store.connection import Database, Tx, TxFunction
from bot.store.errors import SeatError
from bot.store.records import ReminderPrefs, SeatRecord
from bot.store.room import Room
from bot.store.rows import OPEN_SQL


class PeopleRoom(Room):
    def __init__(self, db: Database, clock: Callable[[], float], cache: GameCache) -> None:
        super().__init__(db, clock, cache)
        # Read for every channel post and DM and written by this process only, so kept in
        # memory once read or written.
        self._user_locales: dict[int, str | None] = {}
        self._guild_languages: dict[int, str | None] = {}

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        """Records the user's Discord locale; writes only when it changed."""
        locale = locale[: locales_db.MAX_LOCALE_LENGTH]
        if self._user_locales.get(user_id) == locale:
            return
        now = self.clock()
        await self.db.write(lambda tx: locales_db.set_user_locale(tx, user_id, locale, now))
        self._user_locales[user_id] = locale

    async def user_locale(self, user_id: int) -> str | None:
        """The Discord locale of the user's last interaction ('fr', 'en-US'...), or None."""
        return await self._remembered(self._user_locales, user_id, lambda tx: locales_db.user_locale(tx, user_id))

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """A server's language for channel posts (None: follow the server's own locale)."""
        now = self.clock()
        await self.db.write(lambda tx: locales_db.set_guild_language(tx, guild_id, language, now))
        self._guild_languages[guild_id] = language

    async def guild_language(self, guild_id: int) -> str | None:
        return await self._remembered(
            self._guild_languages, guild_id, lambda tx: locales_db.guild_language(tx, guild_id)
        )

    async def _remembered(self, memory: dict[int, str | None], key: int, read: TxFunction[str | None]) -> str | None:
        """``memory[key]``, read from the database the first time it is asked for."""
        if key not in memory:
            memory[key] = await self.db.read(read)
        return memory[key]

    async def set_picture_style(self, user_id: int, style: str) -> None:
        """How the pictures only this person sees are drawn (checked by the service)."""
        now = self.clock()
        await self.db.write(lambda tx: locales_db.set_picture_style(tx, user_id, style, now))

    async def picture_style(self, user_id: int) -> str | None:
        """None: never chosen (the default).  Read each time: another process may have set it."""
        return await self.db.read(lambda tx: locales_db.picture_style(tx, user_id))

    async def dm_status(self, user_id: int) -> tuple[bool, float] | None:
        """(reachable, when last tried) of a person's DMs, across all games; None: never tried."""
        return await self.db.read(lambda tx: meta_db.dm_status(tx, user_id))

    async def set_dm_status(self, user_id: int, reachable: bool) -> None:
        now = self.clock()
        await self.db.write(lambda tx: meta_db.set_dm_status(tx, user_id, reachable, now))

    async def set_dm_reachable(self, user_id: int, reachable: bool) -> int:
        """Whether the bot can DM this user, on all their seats in open games.  Returns the
        number of seats updated."""
        sql = (
            f"UPDATE seats SET dm_reachable = ? WHERE user_id = ?"
            f" AND game_id IN (SELECT id FROM games WHERE status IN {OPEN_SQL})"
        )
        return await self.db.write(lambda tx: tx.execute(sql, (int(reachable), user_id)))

    async def set_seat_preferences(self, game_id: int, seat: int, prefs: ReminderPrefs) -> SeatRecord:
        """Replaces a seat's reminder preferences (use ``dataclasses.replace`` on ``seat.prefs``)."""
        if problems := prefs.problems():
            raise SeatError("; ".join(problems))

        async def tx(tx: Tx) -> SeatRecord:
            cur = await tx.execute(
                "UPDATE seats SET reminders_enabled = ?, reminder_interval = ?, quiet_start = ?, quiet_end = ?,"
                " time_zone = ?, snoozed_until = ? WHERE game_id = ? AND seat = ?",
                (
                    int(prefs.enabled), prefs.interval, prefs.quiet_start, prefs.quiet_end,
                    prefs.time_zone, prefs.snoozed_until, game_id, seat,
                ),
            )  # fmt: skip
            if cur != 1:
                raise SeatError(f"game {game_id} has no seat {seat}")
            row = await tx.one("SELECT * FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            assert row is not None
            return SeatRecord.from_row(row)

        return await self.db.write(tx)
