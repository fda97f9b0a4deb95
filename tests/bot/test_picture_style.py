"""``/cubist settings pictures``: each person chooses how the pictures only they see are
drawn (seen from a corner by default, or from straight above).  Their turn DM, panel, Board and
``/cubist board`` follow it, byte for byte what render draws in that style; the channel's
table post stays in the default style for everyone; a style Discord would never send is
refused and nothing changes; the choice survives a restart."""

from __future__ import annotations

import render
from bot.i18n.pictures import render_labels

from .asyncplay import FakeClock, make_clocked_bot, utc, wait_dm
from .conftest import Table


async def test_each_player_chooses_the_pictures_only_they_see(bilingual: Table) -> None:
    t = bilingual
    amelie, bob = t.users
    shown = await bob.slash(t.channel, "cubist settings pictures")
    assert shown.ephemeral and "from a corner" in shown.content
    chosen = await bob.slash(t.channel, "cubist settings pictures", style="flat")
    assert chosen.ephemeral and "from straight above" in chosen.content, chosen.content
    assert "stays as everyone sees it" in chosen.content
    french = await amelie.slash(t.channel, "cubist settings pictures")
    assert "vue de trois quarts" in french.content, french.content

    await amelie.slash(t.channel, "cubist lobby new", players=2)
    await bob.slash(t.channel, "cubist lobby join")
    assert not (await amelie.slash(t.channel, "cubist lobby start")).failed
    post = await t.standin.wait_for_message(t.channel, lambda m: "The game begins" in m.content)
    record = await t.bot.store.games.active_game_for_channel(t.channel.id)
    assert record is not None
    record, game = await t.bot.service.queries.game(record.id)
    names = t.bot.service.names(record)
    en, fr = render_labels("en"), render_labels("fr")
    assert render.table_png(game, names, labels=en, style="flat") != render.table_png(game, names, labels=en)

    # The channel's post: the default, whoever chose what.
    assert post.attachments[0].data == render.table_png(game, names, labels=en)
    # Bob's own board is drawn from above; Amélie's from a corner.
    board = await bob.slash(t.channel, "cubist board")
    assert board.attachments[0].data == render.table_png(game, names, labels=en, style="flat")
    board = await amelie.slash(t.channel, "cubist board")
    assert board.attachments[0].data == render.table_png(game, names, labels=fr)
    # The Board button under the post, the same.
    clicked = await bob.click(post, f"cubist:{record.id}:b:board")
    assert clicked.attachments[0].data == render.table_png(game, names, labels=en, style="flat")

    first = next(u for u in t.users if u.id == record.seats[game.current_player].user_id)
    head = "À vous de jouer" if first is amelie else "Your turn in Cubist"
    dm = (await wait_dm(t.standin, first, head))[0]
    seat = game.current_player
    if first is bob:
        assert dm.attachments[0].data == render.studio_png(game, seat, names, labels=en, style="flat")
    else:
        assert dm.attachments[0].data == render.studio_png(game, seat, names, labels=fr)

    # The choice is stored: a new process draws Bob's board from above too.
    await t.bot.close()
    again = make_clocked_bot(t.db, FakeClock(utc(2024, 5, 1, 15, 0)))
    await t.run_bot(again)  # type: ignore[operator]
    board = await bob.slash(t.channel, "cubist board")
    assert board.attachments[0].data == render.table_png(game, names, labels=en, style="flat")


async def test_a_style_discord_would_never_send_is_refused(bilingual: Table) -> None:
    t = bilingual
    bob = t.users[1]
    refused = await bob.slash(t.channel, "cubist settings pictures", style="cubes", forged=True)
    assert refused.ephemeral and "Nothing was changed" in refused.content, refused.content
    assert await t.bot.service.picture_style(bob.id) == "iso"
