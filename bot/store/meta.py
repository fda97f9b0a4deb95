"""Store transactions for the bot's own facts (``bot_meta``) and people's DM status
(``dm_status``), migration 0007.  Plain functions of a ``Tx``; ``MetaRoom`` runs the bot's
facts, ``PeopleRoom`` (people.py) the DM status."""

from __future__ import annotations

from bot.store.connection import Tx
from bot.store.room import Room


async def get(tx: Tx, key: str) -> str | None:
    row = await tx.one("SELECT value FROM bot_meta WHERE key = ?", (key,))
    return None if row is None else str(row[0])


async def put(tx: Tx, key: str, value: str, now: float) -> None:
    await tx.execute(
        "INSERT INTO bot_meta (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key)"
        " DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        (key, value, now),
    )


async def dm_status(tx: Tx, user_id: int) -> tuple[bool, float] | None:
    row = await tx.one("SELECT reachable, checked_at FROM dm_status WHERE user_id = ?", (user_id,))
    return None if row is None else (bool(row[0]), float(row[1]))


async def set_dm_status(tx: Tx, user_id: int, reachable: bool, now: float) -> None:
    await tx.execute(
        "INSERT INTO dm_status (user_id, reachable, checked_at) VALUES (?, ?, ?) ON CONFLICT (user_id)"
        " DO UPDATE SET reachable = excluded.reachable, checked_at = excluded.checked_at",
        (user_id, int(reachable), now),
    )


class MetaRoom(Room):
    async def meta(self, key: str) -> str | None:
        return await self.db.read(lambda tx: get(tx, key))

    async def set_meta(self, key: str, value: str) -> None:
        now = self.clock()
        await self.db.write(lambda tx: put(tx, key, value, now))

    async def meta_or_set(self, key: str, value: str) -> str:
        """The value kept under ``key``; ``value`` kept and returned if there was none.  The
        first writer wins, so processes starting together agree (the web board's secret)."""
        now = self.clock()

        async def tx(tx: Tx) -> str:
            await tx.execute(
                "INSERT INTO bot_meta (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING",
                (key, value, now),
            )
            kept = await get(tx, key)
            assert kept is not None
            return kept

        return await self.db.write(tx)
