"""Channel posts in the server's language, private answers in the reader's: a whole game on a
French server between an English-speaking person and a computer player, through the real
bot and the stand-in."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops

from bot.demo import play_demo_game
from bot.i18n import t
from standin import StandIn

from .conftest import make_bot


async def test_a_game_on_a_french_server_is_posted_in_french(standin: StandIn, run_bot, tmp_path: Path) -> None:
    guild = standin.add_guild("Club", locale="fr")
    channel = standin.add_channel(guild, "cubist")
    bob = standin.add_user("bob", locale="en-GB")
    bot = make_bot(tmp_path / "c.db")
    await run_bot(bot)
    game_id = await play_demo_game(standin, bot, [bob], channel, seed=5, computers=1)
    posts = standin.channel_messages(channel)
    begins = next(m for m in posts if "La partie commence !" in m.content)
    assert "**Ordinateur 1 (glouton)**" in begins.content  # named in the table's language
    turn_posts = [m for m in posts if "c'est à vous de jouer" in m.content or "joue ensuite" in m.content]
    assert turn_posts and all(m.attachments for m in turn_posts)
    assert not any("it is your turn" in m.content for m in posts)
    final = posts[-1]
    assert final.content.splitlines()[1] == t("table.over_headline", "fr")
    assert t("stats.chart_attached", "fr") in final.content
    assert [a.filename for a in final.attachments] == ["table.png", "replay.gif", "scores.png"]
    # The French table picture differs from the English one of the same position (its words).
    record, game = await bot.service.queries.game(game_id)
    names = bot.service.names(record)
    fr = await bot.pictures.table(record.id, record.version, game, names, "fr")
    en = await bot.pictures.table(record.id, record.version, game, names, "en")
    assert final.attachments[0].data == fr
    with Image.open(io.BytesIO(fr)) as a, Image.open(io.BytesIO(en)) as b:
        assert a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is not None
    # bob reads his private answers in English on this French server.
    r = await bob.slash(channel, "cubist hint")
    assert r.ephemeral and r.content == t("table.no_game", "en"), r.content
