"""The pictures the bot sends are drawn in the reader's language: a French-locale and an
English-locale player each get `/cubist board`, `/cubist look museum` and the turn-start DM's
studio drawn with their own words (byte for byte the picture render draws for that
language: same game, same bytes)."""

from __future__ import annotations

import render
from bot.i18n.pictures import render_labels

from .asyncplay import wait_dm
from .conftest import Table


async def test_each_reader_gets_pictures_in_their_language(bilingual: Table) -> None:
    t_ = bilingual
    amelie, bob = t_.users
    await amelie.slash(t_.channel, "cubist lobby new", players=2)
    await bob.slash(t_.channel, "cubist lobby join")
    assert not (await amelie.slash(t_.channel, "cubist lobby start")).failed
    await t_.standin.wait_for_message(t_.channel, lambda m: "The game begins" in m.content)
    record = await t_.bot.store.games.active_game_for_channel(t_.channel.id)
    assert record is not None
    record, game = await t_.bot.service.queries.game(record.id)
    names = t_.bot.service.names(record)
    fr, en = render_labels("fr"), render_labels("en")
    assert render.table_png(game, names, labels=fr) != render.table_png(game, names, labels=en)

    for user, labels in ((amelie, fr), (bob, en)):
        board = await user.slash(t_.channel, "cubist board")
        assert board.attachments[0].data == render.table_png(game, names, labels=labels), user
        museum = await user.slash(t_.channel, "cubist look museum")
        assert museum.attachments[0].data == render.museum_png(game, labels=labels), user

    first = next(u for u in t_.users if u.id == record.seats[game.current_player].user_id)
    head = "À vous de jouer" if first is amelie else "Your turn in Cubist"
    dm = (await wait_dm(t_.standin, first, head))[0]
    labels = fr if first is amelie else en
    assert dm.attachments[0].data == render.studio_png(game, game.current_player, names, labels=labels)


async def test_a_four_player_turn_post_carries_the_current_players_studio(table: Table) -> None:
    from engine.moves import EndTurn

    from .conftest import started

    gid, game, seated = await started(table, players=4)
    assert render.table_needs_studio(game)
    end = next(str(m) for m in game.legal_moves() if isinstance(m, EndTurn))
    assert not (await seated[game.current_player].slash(table.channel, "cubist move", move=end)).failed
    post = await table.standin.wait_for_message(table.channel, lambda m: "ended the turn" in m.content)
    record, game = await table.bot.service.queries.game(gid)
    names = table.bot.service.names(record)
    assert [a.filename for a in post.attachments] == ["table.png", "studio.png"]
    assert post.attachments[1].data == render.studio_png(game, game.current_player, names, labels=render_labels("en"))
