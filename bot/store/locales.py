"""Store transactions for languages: users' Discord locales and servers' chosen language.

Plain functions of a ``Tx``, run each as one transaction by ``PeopleRoom`` (people.py).
"""

from __future__ import annotations

from bot.store.connection import Tx

MAX_LOCALE_LENGTH = 16  # Discord's are at most 6 ('es-419'); anything longer is not a locale


async def set_user_locale(tx: Tx, user_id: int, locale: str, now: float) -> None:
    await tx.execute(
        "INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?) ON CONFLICT (user_id)"
        " DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at",
        (user_id, locale[:MAX_LOCALE_LENGTH], now),
    )


async def user_locale(tx: Tx, user_id: int) -> str | None:
    row = await tx.one("SELECT locale FROM user_locales WHERE user_id = ?", (user_id,))
    return None if row is None else str(row[0])


async def set_guild_language(tx: Tx, guild_id: int, language: str | None, now: float) -> None:
    await tx.execute(
        "INSERT INTO guild_settings (guild_id, language, updated_at) VALUES (?, ?, ?) ON CONFLICT (guild_id)"
        " DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at",
        (guild_id, language, now),
    )


async def guild_language(tx: Tx, guild_id: int) -> str | None:
    row = await tx.one("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return None if row is None or row[0] is None else str(row[0])


async def set_picture_style(tx: Tx, user_id: int, style: str, now: float) -> None:
    await tx.execute(
        "INSERT INTO user_pictures (user_id, style, updated_at) VALUES (?, ?, ?) ON CONFLICT (user_id)"
        " DO UPDATE SET style = excluded.style, updated_at = excluded.updated_at",
        (user_id, style, now),
    )


async def picture_style(tx: Tx, user_id: int) -> str | None:
    row = await tx.one("SELECT style FROM user_pictures WHERE user_id = ?", (user_id,))
    return None if row is None else str(row[0])
