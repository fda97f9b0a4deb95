"""/cubist lobby new offers the equal_turns option (RULES.md "option equal_turns")."""

from __future__ import annotations

from bot.i18n import t

from .conftest import Table, started


async def test_new_game_with_equal_turns_says_so_and_plays_with_it(table: Table) -> None:
    ada = table.users[0]
    r = await ada.slash(table.channel, "cubist lobby new", players=2, equal_turns=True)
    assert not r.failed
    opened = await table.standin.wait_for_message(table.channel, lambda m: "opened a game" in m.content)
    assert t("lobby.opened_equal_turns", "en").strip() in opened.content
    await table.users[1].slash(table.channel, "cubist lobby join")
    assert not (await ada.slash(table.channel, "cubist lobby start")).failed
    record = await table.bot.store.games.active_game_for_channel(table.channel.id)
    assert record is not None
    _record, game = await table.bot.service.queries.game(record.id)
    assert game.options.equal_turns is True


async def test_equal_turns_is_off_unless_asked_for(table: Table) -> None:
    _gid, game, _seated = await started(table)
    assert game.options.equal_turns is False
    opened = next(m for m in table.standin.channel_messages(table.channel) if "opened a game" in m.content)
    assert t("lobby.opened_equal_turns", "en").strip() not in opened.content
