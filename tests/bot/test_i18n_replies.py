"""Interaction replies in two languages, through the real bot and the stand-in: a French-locale
user and an English-locale user at one table.  Refusals (ephemeral) come in the language of
whoever asked and change nothing; the public answers of lobby commands, votes and admin
moves follow the server's language (its locale, or ``/cubist settings language``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.i18n import Message, t
from engine import Game
from standin import Player, StandIn

from .asyncplay import HOUR, MANAGE_CHANNELS, FakeClock, make_clocked_bot, poll, skip_confirmed
from .conftest import Table

FR, EN = "fr", "en"


@pytest.fixture
async def mixed(standin: StandIn, run_bot, tmp_path: Path, clock: FakeClock) -> Table:
    """An English-speaking server; amélie's Discord is in French (and she moderates), bob's
    in English; carla (English) is not in the game."""
    guild = standin.add_guild("Club Cubist", locale="en-US")
    channel = standin.add_channel(guild, "cubist")
    mods = standin.add_role(guild, "mods", permissions=MANAGE_CHANNELS)
    amelie = standin.add_user("amelie", locale="fr", roles=[mods])
    bob = standin.add_user("bob", locale="en-US")
    carla = standin.add_user("carla", locale="en-GB")
    db = tmp_path / "cubist.db"
    bot = make_clocked_bot(db, clock)
    await run_bot(bot)
    return Table(standin, bot, guild, channel, [amelie, bob, carla], db, run_bot)


def _seats(table: Table) -> list[tuple]:
    with sqlite3.connect(table.db) as conn:
        return conn.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall()


async def refused(table: Table, user: Player, command: str, expected: str, **options: object) -> str:
    """An ephemeral answer that is exactly ``expected``; nothing changed in the database."""
    before, moves, seats = await table.snapshot(), await table.moves_logged(), _seats(table)
    r = await user.slash(table.channel, command, **options)
    assert not r.failed and r.ephemeral, r.content
    assert r.content == expected, r.content
    assert await table.snapshot() == before and await table.moves_logged() == moves
    assert _seats(table) == seats
    return r.content


async def public(table: Table, user: Player, command: str, **options: object) -> str:
    r = await user.slash(table.channel, command, **options)
    assert not r.failed and not r.ephemeral, r.content
    return r.content


async def start(table: Table) -> tuple[int, Game, dict[int, Player]]:
    """amélie opens, bob joins, amélie starts; returns the game id, the game and users by seat."""
    amelie, bob = table.users[:2]
    await public(table, amelie, "cubist lobby new", players=2)
    await public(table, bob, "cubist lobby join")
    await public(table, amelie, "cubist lobby start")
    await table.standin.wait_for_message(table.channel, lambda m: bool(m.attachments))  # the table is posted
    record = await table.bot.store.games.active_game_for_channel(table.channel.id)
    assert record is not None
    record, game = await table.bot.service.queries.game(record.id)
    by_id = {u.id: u for u in table.users}
    return record.id, game, {s.seat: by_id[s.user_id] for s in record.seats if s.user_id is not None}


async def test_lobby_refusals_privately_in_each_language_and_answers_in_the_servers(mixed: Table) -> None:
    t_ = mixed
    amelie, bob, carla = t_.users
    # The server is English: amélie's lobby is announced in English, her own refusals are French.
    opened = await public(t_, amelie, "cubist lobby new", players=2)
    assert opened.startswith("**amelie** opened a game of Cubist for up to 2 players")
    await refused(t_, amelie, "cubist lobby new", t("lobby.busy_lobby", FR))
    await refused(t_, bob, "cubist lobby new", t("lobby.busy_lobby", EN))
    await refused(t_, amelie, "cubist lobby join", t("lobby.already_joined", FR))
    await refused(t_, bob, "cubist lobby leave", "You are not in this game's lobby.")
    await refused(t_, amelie, "cubist lobby leave", t("lobby.creator_leave", FR))
    await refused(t_, amelie, "cubist lobby start", t("lobby.two_players", FR))
    await refused(t_, amelie, "cubist turn", t("table.not_started", FR, count=1))
    joined = await public(t_, bob, "cubist lobby join")
    assert joined.startswith("**bob** joined. Players: amelie, bob (2/2).")
    await refused(t_, carla, "cubist lobby join", "The table is full (2 players).")
    await refused(t_, bob, "cubist lobby start", "Only the player who created the game can start it.")
    await refused(
        t_, bob, "cubist table cancel", "Only the game's creator or a member with Manage Channels can cancel it."
    )

    # The server switches to French: public answers turn French, bob's refusals stay English.
    assert (await amelie.slash(t_.channel, "cubist settings language", language="fr")).ephemeral
    assert await public(t_, bob, "cubist lobby leave") == "**bob** a quitté la partie en attente. Joueurs : amelie."
    joined = await public(t_, bob, "cubist lobby join")
    assert joined.startswith("**bob** a rejoint la partie. Joueurs : amelie, bob (2/2).")
    await refused(t_, bob, "cubist lobby join", "You are already in this game's lobby.")
    record = await t_.bot.store.games.active_game_for_channel(t_.channel.id)
    assert record is not None
    started = await public(t_, amelie, "cubist lobby start")  # one post
    assert started.startswith("La partie commence ! Les places, comme sur la table : ")
    await refused(t_, carla, "cubist lobby join", t("lobby.already_started_watch", EN))
    await refused(t_, amelie, "cubist lobby start", t("lobby.already_started", FR))
    cancelled = await public(t_, amelie, "cubist table cancel")
    assert cancelled == f"La partie {record.id} a été annulée par **amelie**."


async def test_a_french_server_answers_an_english_player_in_french_publicly(
    standin: StandIn, run_bot, tmp_path: Path, clock: FakeClock
) -> None:
    guild = standin.add_guild("Club", locale="fr")
    channel = standin.add_channel(guild, "cubist")
    bob = standin.add_user("bob", locale="en-GB")
    bot = make_clocked_bot(tmp_path / "c.db", clock)
    await run_bot(bot)
    r = await bob.slash(channel, "cubist lobby new", players=3, computers=1)
    assert not r.ephemeral
    assert r.content.startswith("**bob** a ouvert une partie de Cubist pour 3 joueurs au plus")
    assert " Joueurs ordinateur : Ordinateur 1 (glouton)." in r.content and "(`fill` installe" in r.content
    r = await bob.slash(channel, "cubist lobby new")  # his refusal: English
    assert r.ephemeral and r.content == t("lobby.busy_lobby", EN)
    r = await bob.slash(channel, "cubist table cancel")
    assert not r.ephemeral and r.content.startswith("La partie ") and r.content.endswith(" a été annulée par **bob**.")
    r = await bob.slash(channel, "cubist lobby new", players=2, computers=2)
    assert r.ephemeral and r.content == t("lobby.computers_no_seat", EN, computers=2, max=2, most=1)


async def test_game_mistakes_each_in_their_own_language(mixed: Table) -> None:
    t_ = mixed
    amelie, bob, carla = t_.users
    _gid, game, by_seat = await start(t_)
    current, other = by_seat[game.current_player], by_seat[1 - game.current_player]
    lang = {amelie.id: FR, bob.id: EN}
    playing = current.name

    # Not your turn: the panel, the hint; the status and the board captions in each language.
    await refused(t_, other, "cubist turn", t("turn.not_your_turn", lang[other.id], name=playing))
    await refused(t_, other, "cubist hint", t("hints.not_your_turn", lang[other.id], name=playing))
    outsider = "You are not playing in this game. Watch with `/cubist board`, or join the next one."
    await refused(t_, carla, "cubist turn", outsider)
    await refused(t_, amelie, "cubist studio", t("look.not_playing", FR, name="carla"), player=carla.user)
    r = await amelie.slash(t_.channel, "cubist status")
    assert (
        r.ephemeral and r.content.startswith("Tour 1 : ") and " joue.\n" in r.content and "0 dé au musée" in r.content
    )
    r = await bob.slash(t_.channel, "cubist status")
    assert r.ephemeral and r.content.startswith("Turn 1: ") and " is playing.\n" in r.content
    r = await amelie.slash(t_.channel, "cubist rules", topic="museum")
    assert r.ephemeral and r.content == t("rules.topic.museum", FR)
    r = await bob.slash(t_.channel, "cubist look cards")
    assert r.ephemeral and r.content.startswith("**Artists**\n1. **")
    r = await amelie.slash(t_.channel, "cubist look cards")
    assert r.ephemeral and r.content.startswith("**Artistes**\n1. **") and "**Installations disponibles**" in r.content

    # Bad reminder settings: refused in each language, nothing stored.
    for user in (amelie, bob):
        mine = lang[user.id]
        await refused(t_, user, "cubist settings reminders", t("settings.bad_zone", mine, zone="Mars/Olympus"),
                      time_zone="Mars/Olympus")  # fmt: skip
        await refused(t_, user, "cubist settings reminders", t("settings.bad_quiet", mine, text="noon"), quiet="noon")
        await refused(
            t_, user, "cubist settings reminders", t("settings.bad_quiet_range", mine, text="25-7"), quiet="25-7"
        )
        await refused(t_, user, "cubist settings reminders", t("settings.quiet_same", mine), quiet="7-7")
    r = await amelie.slash(t_.channel, "cubist settings reminders")
    assert r.ephemeral and r.content.startswith("Vos réglages pour la partie ") and "rappels activés" in r.content
    r = await bob.slash(t_.channel, "cubist settings reminders")
    assert r.ephemeral and r.content.startswith("Your settings for game ") and "reminders on" in r.content


async def test_moves_refused_in_each_language(mixed: Table) -> None:
    """``/cubist move`` and ``/cubist undo`` answers come through bot/lobby/actions.py ``play_move``,
    which must pass the ``UserError``'s message (``e.args[0]``) to ``send_error``, not
    ``str(e)`` (English), for the answer to be in the reader's language."""
    t_ = mixed
    amelie, bob, _carla = t_.users
    _gid, game, by_seat = await start(t_)
    current, other = by_seat[game.current_player], by_seat[1 - game.current_player]
    lang = {amelie.id: FR, bob.id: EN}
    legal = str(game.legal_moves()[0])
    for user in (current, other):  # both orders: whoever is French gets French
        mine = lang[user.id]
        if user is other:
            expected = t("turn.not_your_turn", mine, name=current.name)
            await refused(t_, user, "cubist move", expected, move=legal)
            await refused(t_, user, "cubist undo", expected)
            continue
        await refused(t_, user, "cubist undo", Message("turn.nothing_to_undo").render(mine))
        bad = "complete w1 #99"
        why = Message("turn.illegal_why", move=bad, reason=_engine_reason(game, bad), hint=_hint(game))
        text = await refused(t_, user, "cubist move", why.render(mine), move=bad)
        assert text.startswith(
            {FR: "`complete w1 #99` n'est pas autorisé : ", EN: "`complete w1 #99` is not allowed: "}[mine]
        )
        assert {FR: "Possibles maintenant : ", EN: "Possible now: "}[mine] in text
        bad = "fly to the moon"
        why = Message("turn.not_a_move", text=bad, reason=_syntax_reason(bad))
        text = await refused(t_, user, "cubist move", why.render(mine), move=bad)
        assert text.startswith("`fly to the moon` " + {FR: "n'est pas un coup", EN: "is not a move"}[mine])


def _engine_reason(game: Game, text: str) -> Message | str:
    """The engine's refusal as the bot shows it: a Message in the reader's language."""
    from bot.i18n.rules import error_message
    from engine import IllegalMove, parse_move

    try:
        game.clone().apply(parse_move(text))
    except IllegalMove as e:
        return error_message(e)
    raise AssertionError(f"{text} is legal")


def _syntax_reason(text: str) -> Message | str:
    from bot.i18n.rules import error_message
    from engine import MoveSyntaxError, parse_move

    try:
        parse_move(text)
    except MoveSyntaxError as e:
        return error_message(e)
    raise AssertionError(f"{text} parses")


def _hint(game: Game) -> Message:
    from bot.refusal_words import possible

    return possible([str(m) for m in game.legal_moves()])


async def test_votes_and_admin_moves(mixed: Table, clock: FakeClock) -> None:
    t_ = mixed
    amelie, bob, carla = t_.users
    gid, game, by_seat = await start(t_)
    away, voter = by_seat[game.current_player], by_seat[1 - game.current_player]
    lang = {amelie.id: FR, bob.id: EN, carla.id: EN}
    turn = game.state.turn
    clock.advance(72 * HOUR + 1)
    await poll(t_)
    await poll(t_)
    post = next(m for m in t_.standin.channel_messages(t_.channel) if f":v:skip:{turn}" in str(m.components))
    r = await away.click(post, f"cubist:{gid}:v:skip:{turn}")
    assert r.ephemeral and r.content == t("votes.own_turn", lang[away.id])
    r = await carla.click(post, f"cubist:{gid}:v:skip:{turn}")
    assert r.ephemeral and r.content == t("votes.players_only", EN)
    await refused(t_, carla, "cubist table skip", t("votes.admins_only", EN))
    # The server goes French; bob (English) votes: the public answer is French.
    assert (await amelie.slash(t_.channel, "cubist settings language", language="fr")).ephemeral
    r = await voter.click(post, f"cubist:{gid}:v:skip:{turn}")
    assert not r.ephemeral and r.content == t("votes.skipped_by_vote", FR, name=away.name)
    r = await voter.click(post, f"cubist:{gid}:v:remove:{turn}")
    assert r.ephemeral and r.content == t("votes.vote_void", lang[voter.id])
    # An admin's skip: a public French headline.
    _record, game = await t_.bot.service.queries.game(gid)
    now = by_seat[game.current_player]
    r = await skip_confirmed(amelie, t_.channel)
    assert not r.ephemeral and r.content == f"**amelie** a passé le tour de **{now.name}**."
    await refused(t_, amelie, "cubist table kick", t("votes.not_playing", FR, name="carla"), player=carla.user)


def test_user_errors_are_english_as_text_and_translated_when_shown() -> None:
    from bot.service.refusals import UserError

    error = UserError(Message("turn.not_your_turn", name="Ada"))
    assert str(error) == "It is not your turn: Ada is playing."  # logs and older callers: English
    assert error.args[0].render("fr") == "Ce n'est pas à vous de jouer : c'est au tour d'Ada."
    game = Game.new(players=2, seed=5)
    hint = _hint(game)
    assert str(hint).startswith("Possible now: `") and hint.render("fr").startswith("Possibles maintenant : `")


async def test_engine_refusals_are_entirely_in_the_reader_s_language(mixed: Table) -> None:
    """The reason the engine gives for refusing a move (a rule, a syntax error) is translated
    too: a French player reads no English words in it; English reads as the engine says."""
    t_ = mixed
    amelie, bob, _carla = t_.users
    gid, game, by_seat = await start(t_)
    lang = {amelie.id: FR, bob.id: EN}
    for _ in range(2):  # the current player, then (after their turn) the other one
        user = by_seat[game.current_player]
        mine = lang[user.id]
        bad = "switch i1.1"
        why = Message("turn.illegal_why", move=bad, reason=_engine_reason(game, bad), hint=_hint(game))
        text = await refused(t_, user, "cubist move", why.render(mine), move=bad)
        reason = {
            FR: "`switch i1.1` n'est pas autorisé : i1.1 : vous avez 0 carte Installation terminée.",
            EN: "`switch i1.1` is not allowed: i1.1: you have 0 completed installation cards.",
        }[mine]
        assert text.startswith(reason), text
        bad = "complete w1 #99"
        text = await refused(
            t_,
            user,
            "cubist move",
            Message("turn.illegal_why", move=bad, reason=_engine_reason(game, bad), hint=_hint(game)).render(mine),
            move=bad,
        )
        assert {FR: "n'est pas proposée (proposées : #", EN: "is not on offer (on offer: #"}[mine] in text
        bad = "end 7"
        text = await refused(
            t_,
            user,
            "cubist move",
            Message("turn.not_a_move", text=bad, reason=_syntax_reason(bad)).render(mine),
            move=bad,
        )
        assert text.startswith(
            {
                FR: "`end 7` n'est pas un coup : '7' n'est pas une valeur de dé : écrivez un nombre de 1 à 6.",
                EN: "`end 7` is not a move: '7' is not a die value: write a number from 1 to 6.",
            }[mine]
        ), text
        if mine == FR:
            assert "installation card" not in text and "write" not in text
        r = await user.slash(t_.channel, "cubist move", move="end")
        assert not r.failed, r.content
        _record, game = await t_.bot.service.queries.game(gid)
        assert by_seat[game.current_player] is not user
