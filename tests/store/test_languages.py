"""People's and servers' languages and picture styles, kept in the database: written, changed,
and read back by another store on the same database (no cache in between), on each backend."""

from __future__ import annotations

from pathlib import Path

from bot.store import Store
from bot.store.locales import MAX_LOCALE_LENGTH

from .helpers import FakeClock


async def test_languages_and_picture_styles_are_kept_changed_and_read_back(
    store: Store, db_path: Path | str, clock: FakeClock
) -> None:
    people = store.people
    assert await people.user_locale(1) is None and await people.guild_language(9) is None
    assert await people.picture_style(1) is None
    await people.set_user_locale(1, "fr")
    await people.set_user_locale(2, "en-US" + "x" * 40)  # not a locale: cut to the longest kept
    await people.set_guild_language(9, "fr")
    await people.set_guild_language(8, "en")
    await people.set_guild_language(8, None)  # back to the server's own locale
    await people.set_picture_style(1, "flat")
    await people.set_picture_style(1, "cubes")
    assert (await people.user_locale(1), await people.guild_language(8)) == ("fr", None)  # as this process wrote
    other = await Store.open(db_path, clock=clock)  # another process: reads the database itself
    try:
        again = other.people
        assert await again.user_locale(1) == "fr"
        assert await again.user_locale(2) == ("en-US" + "x" * 40)[:MAX_LOCALE_LENGTH]
        assert await again.user_locale(3) is None
        assert (await again.guild_language(9), await again.guild_language(8)) == ("fr", None)
        assert (await again.picture_style(1), await again.picture_style(2)) == ("cubes", None)
    finally:
        await other.close()
