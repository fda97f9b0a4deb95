"""Two languages at one table, through the real bot and the stand-in: a French-locale user
and an English-locale user play one game; each gets DMs and private answers in their own
language, and channel posts follow the server's language (``/cubist settings language``).

Covers the parts converted to the catalogues so far (reminders, turn summaries, buttons,
command descriptions, /cubist settings language); more will follow as other modules convert."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import t
from bot.turn.reminders import MAX_REMINDERS
from engine.moves import EndTurn
from standin import StandIn

from .asyncplay import HOUR, MANAGE_CHANNELS, FakeClock, make_clocked_bot, poll, wait_dm
from .conftest import Table, custom_ids


@pytest.fixture
async def mixed(standin: StandIn, run_bot, tmp_path: Path, clock: FakeClock) -> Table:
    guild = standin.add_guild("Club Cubist", locale="en-US")
    channel = standin.add_channel(guild, "cubist")
    mods = standin.add_role(guild, "mods", permissions=MANAGE_CHANNELS)
    amelie = standin.add_user("amelie", locale="fr", roles=[mods])
    bob = standin.add_user("bob", locale="en-US")
    db = tmp_path / "cubist.db"
    bot = make_clocked_bot(db, clock)
    await run_bot(bot)
    return Table(standin, bot, guild, channel, [amelie, bob], db, run_bot)


def labels(message) -> list[str]:
    return [c.get("label", "") for row in message.components for c in row.get("components", [])]


async def test_commands_are_registered_with_french_descriptions(mixed: Table) -> None:
    commands = mixed.standin.registered_commands()
    cubist = next(c for c in commands if c["name"] == "cubist")
    assert cubist["description_localizations"]["fr"] == t("commands.cubist.description", "fr")
    groups = 0

    def walk(node: dict, path: str) -> None:  # subcommands and subcommand groups (types 1 and 2)
        nonlocal groups
        for sub in node["options"]:
            key = f"{path}.{sub['name']}"
            assert sub["description_localizations"]["fr"] == t(f"{key}.description", "fr"), key
            assert "name_localizations" not in sub or not sub["name_localizations"]  # names stay English
            if sub["type"] == 2:
                groups += 1
                walk(sub, key)
                continue
            for option in sub.get("options", []):
                assert option["description_localizations"]["fr"], (key, option["name"])

    walk(cubist, "commands.cubist")
    assert groups == 5
    rules = next(s for s in cubist["options"] if s["name"] == "rules")
    assert {c["name_localizations"]["fr"] for c in rules["options"][0]["choices"]} >= {"tour", "musée", "fin"}


async def test_a_french_and_an_english_player_each_in_their_own_language(mixed: Table, clock: FakeClock) -> None:
    t_ = mixed
    amelie, bob = t_.users
    french = {amelie.id: True, bob.id: False}
    await amelie.slash(t_.channel, "cubist lobby new", players=2)
    await bob.slash(t_.channel, "cubist lobby join")
    r = await amelie.slash(t_.channel, "cubist lobby start")
    assert not r.failed
    await t_.standin.wait_for_message(t_.channel, lambda m: "The game begins" in m.content)
    # Every interaction recorded the user's Discord locale (DMs use it later).
    assert await t_.bot.store.people.user_locale(amelie.id) == "fr"
    assert await t_.bot.store.people.user_locale(bob.id) == "en-US"

    record = await t_.bot.store.games.active_game_for_channel(t_.channel.id)
    assert record is not None
    record, game = await t_.bot.service.queries.game(record.id)
    by_id = {u.id: u for u in t_.users}
    first = by_id[record.seats[game.current_player].user_id]
    second = bob if first is amelie else amelie

    # The turn-start DM of whoever begins, in their language, buttons included.
    head = {True: "À vous de jouer dans la partie de Cubist", False: "Your turn in Cubist game"}
    dm = (await wait_dm(t_.standin, first, head[french[first.id]]))[0]
    # The DM is the turn panel: a button per die, its select, End turn…, Board, then Snooze and Stop.
    ids = custom_ids(dm)
    assert ids[0].startswith(f"cubist:{record.id}:die:{record.version}:")
    assert f"cubist:{record.id}:t:{record.version}:" in ids
    assert labels(dm)[0].startswith("Poser le " if french[first.id] else "Place the ")
    assert ids[-2:] == [f"cubist:{record.id}:b:snooze", f"cubist:{record.id}:b:stop"]
    assert labels(dm)[-2] == ("Plus tard (4 h)" if french[first.id] else "Snooze 4 h")
    options = [o["label"] for row in dm.components for c in row["components"] for o in c.get("options", [])]
    assert options[0].startswith("Poser le " if french[first.id] else "Place the ")

    # Private answers follow each user's own client: the language command, asked by both.
    asked = await bob.slash(t_.channel, "cubist settings language", language="fr")
    assert asked.ephemeral and asked.content == t("settings.language.not_allowed", "en")
    shown = await amelie.slash(t_.channel, "cubist settings language")
    assert shown.ephemeral and shown.content == t("settings.language.current", "fr", language="anglais")

    # The first player ends the turn; the other's turn-start DM tells them, in their language.
    end = next(str(m) for m in game.legal_moves() if isinstance(m, EndTurn))
    r = await first.slash(t_.channel, "cubist move", move=end)
    assert not r.failed
    dm = (await wait_dm(t_.standin, second, head[french[second.id]]))[0]
    if french[second.id]:
        assert "Depuis votre dernier tour :" in dm.content and "a terminé son tour" in dm.content
    else:
        assert "Since your last turn:" in dm.content and "ended the turn" in dm.content

    # The server switches to French: an admin's confirmation, privately, in the new language.
    r = await amelie.slash(t_.channel, "cubist settings language", language="fr")
    assert r.ephemeral and r.content == t("settings.language.set", "fr")
    assert await t_.bot.store.people.guild_language(t_.guild.id) == "fr"

    # Reminders DM the player in their own language; the note in the channel is French.
    reminder = {True: "⏰ Rappel", False: "⏰ Reminder"}[french[second.id]]
    for n in range(1, MAX_REMINDERS + 1):
        clock.advance(12 * HOUR + 1)
        await poll(t_)
        assert len(await wait_dm(t_.standin, second, reminder, n)) == n
    clock.advance(12 * HOUR + 1)
    await poll(t_)
    note = await t_.standin.wait_for_message(t_.channel, lambda m: "📣" in m.content)
    assert "n'a pas terminé son tour" in note.content and f"<@{second.id}>" in note.content
    assert not [m for m in t_.standin.channel_messages(t_.channel) if "has not finished their turn" in m.content]

    # The other way round: the second player ends their turn; the first one's DM and
    # reminder come in the first one's language, with the other's turn described in it.
    _record, game = await t_.bot.service.queries.game(record.id)
    end = next(str(m) for m in game.legal_moves() if isinstance(m, EndTurn))
    assert not (await second.slash(t_.channel, "cubist move", move=end)).failed
    dm = (await wait_dm(t_.standin, first, head[french[first.id]], 2))[-1]
    if french[first.id]:
        assert "Depuis votre dernier tour :" in dm.content and "a terminé son tour" in dm.content
    else:
        assert "Since your last turn:" in dm.content and "ended the turn" in dm.content
    clock.advance(12 * HOUR + 1)
    await poll(t_)
    reminder = {True: "⏰ Rappel 1/3", False: "⏰ Reminder 1/3"}[french[first.id]]
    await wait_dm(t_.standin, first, reminder)


async def test_a_server_in_french_defaults_to_french_posts(
    standin: StandIn, run_bot, tmp_path: Path, clock: FakeClock
) -> None:
    guild = standin.add_guild("Club", locale="fr")
    channel = standin.add_channel(guild, "cubist")
    owner_role = standin.add_role(guild, "mods", permissions=MANAGE_CHANNELS)
    bob = standin.add_user("bob", locale="en-GB", roles=[owner_role])
    bot = make_clocked_bot(tmp_path / "c.db", clock)
    await run_bot(bot)
    shown = await bob.slash(channel, "cubist settings language")
    assert shown.content == t("settings.language.current", "en", language="French")  # English answer, French server
    r = await bob.slash(channel, "cubist settings language", language="en")
    assert r.content == t("settings.language.set", "en")
    shown = await bob.slash(channel, "cubist settings language")
    assert shown.content == t("settings.language.current", "en", language="English")
