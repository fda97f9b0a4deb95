"""Store transactions for languages: users' Discord locales and servers' chosen language.

Plain functions of a ``Tx``, run each as one transaction by ``PeopleRoom`` (people.py).
"""

from __future__ import annotations

from bot.store.connection import Tx

MAX_LOCALE_LENGTH = 16  # Discord's are at most 6 ('es-419'); anything longer is not a locale


# Each is one value per user or server, in a table of its own: (table, key column, value column).
_USER_LOCALE = ("user_locales", "user_id", "locale")
_GUILD_LANGUAGE = ("guild_settings", "guild_id", "language")
_PICTURE_STYLE = ("user_pictures", "user_id", "style")


async def _put(tx: Tx, where: tuple[str, str, str], key: int, value: str | None, now: float) -> None:
    table, key_column, column = where
    await tx.execute(
        f"INSERT INTO {table} ({key_column}, {column}, updated_at) VALUES (?, ?, ?) ON CONFLICT ({key_column})"
        f" DO UPDATE SET {column} = excluded.{column}, updated_at = excluded.updated_at",
        (key, value, now),
    )


async def _get(tx: Tx, where: tuple[str, str, str], key: int) -> str | None:
    table, key_column, column = where
    row = await tx.one(f"SELECT {column} FROM {table} WHERE {key_column} = ?", (key,))
    return None if row is None or row[0] is None else str(row[0])


async def set_user_locale(tx: Tx, user_id: int, locale: str, now: float) -> None:
    await _put(tx, _USER_LOCALE, user_id, locale[:MAX_LOCALE_LENGTH], now)


async def user_locale(tx: Tx, user_id: int) -> str | None:
    return await _get(tx, _USER_LOCALE, user_id)


async def set_guild_language(tx: Tx, guild_id: int, language: str | None, now: float) -> None:
    await _put(tx, _GUILD_LANGUAGE, guild_id, language, now)


async def guild_language(tx: Tx, guild_id: int) -> str | None:
    return await _get(tx, _GUILD_LANGUAGE, guild_id)


async def set_picture_style(tx: Tx, user_id: int, style: str, now: float) -> None:
    await _put(tx, _PICTURE_STYLE, user_id, style, now)


async def picture_style(tx: Tx, user_id: int) -> str | None:
    return await _get(tx, _PICTURE_STYLE, user_id)
