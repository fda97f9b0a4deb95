"""The gate: who may make which move, from where.  The whole table, then every actor through
``/cubist move`` and the admin commands on the stand-in (the real discord.py client, a real
SQLite file), and the service's own entries (a vote's outcome, the bot's own work)."""

from __future__ import annotations

import sqlite3
from itertools import product
from pathlib import Path

import pytest

from bot.i18n import t
from bot.service.gate import ALLOWED, Actor, Entry, Kind, Roles, allowed
from bot.service.refusals import Refusal, Refused, UserError
from engine.moves import Place, Remove, Skip
from standin import Player, StandIn

from .asyncplay import FakeClock, clocked_table, start_game
from .conftest import Table

# One text of each kind, in the notation a player types (legal or not: the gate comes first).
SAMPLES = {
    Kind.PLACE: "place 4 w1 a1",
    Kind.MUSEUM: "museum i1.1 d4",
    Kind.ARTIST: "artist 3 5 5",
    Kind.USE: "use 2",
    Kind.COMPLETE: "complete w1 #7",
    Kind.ABANDON: "abandon w2",
    Kind.RELEASE: "release",
    Kind.SWITCH: "switch i1.1",
    Kind.UNDO: "undo",
    Kind.END: "end",  # last: it may end the turn
}
BY_HAND = {Entry.COMMAND, Entry.PANEL, Entry.HINT, Entry.WEB}
TABLE_WAYS = {
    (Actor.VOTE, Entry.VOTE),
    (Actor.CREATOR, Entry.ADMIN),
    (Actor.ADMIN, Entry.ADMIN),
    (Actor.CLOCK, Entry.JOB),
}


def policy(kind: Kind, actor: Actor, entry: Entry) -> bool:
    """The rule in words: a turn's moves by the player at turn by hand, or by a computer seat
    through the bot's own work; skip and remove only by a passed vote, the creator's or an
    admin's command, or a turn clock."""
    if kind in (Kind.SKIP, Kind.REMOVE):
        return (actor, entry) in TABLE_WAYS
    return (actor is Actor.AT_TURN and entry in BY_HAND) or (actor, entry) == (Actor.COMPUTER, Entry.JOB)


@pytest.mark.parametrize(("kind", "actor", "entry"), list(product(Kind, Actor, Entry)))
def test_the_table_says_who_may_make_which_move_from_where(kind: Kind, actor: Actor, entry: Entry) -> None:
    assert allowed(kind, actor, entry) is policy(kind, actor, entry)


def test_every_kind_has_an_entry_and_table_moves_are_never_made_by_hand() -> None:
    assert {k for k, _a, _e in ALLOWED} == set(Kind)
    for kind in (Kind.SKIP, Kind.REMOVE):
        assert not Roles.of(Actor).may(kind, Entry.COMMAND)  # whoever the person is, by hand: never
        assert not Roles.of([Actor.AT_TURN, Actor.CREATOR, Actor.ADMIN]).may(kind, Entry.WEB)


# --- through the stand-in -------------------------------------------------------------------

GATE_WORDS = ("votes.table_move", "turn.not_a_turn_move", "table.not_playing", "votes.admins_only")


def gate_refused(content: str) -> bool:
    said = content.lower()
    return any(t(key, "en").lower()[:40] in said for key in GATE_WORDS) or "it is not your turn" in said


@pytest.fixture
async def club(standin: StandIn, run_bot, tmp_path: Path, clock: FakeClock) -> Table:
    return await clocked_table(standin, run_bot, tmp_path / "cubist.db", clock, moderator=True)


def seats_now(table: Table) -> list[tuple]:
    with sqlite3.connect(table.db) as conn:
        return conn.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall()


async def unchanged_after(table: Table, user: Player, command: str, **options: object) -> str:
    """Runs the command; asserts it was refused privately and changed nothing; its words."""
    before, moves, seats = await table.snapshot(), await table.moves_logged(), seats_now(table)
    r = await user.slash(table.channel, command, **options)
    assert not r.failed and r.ephemeral, r.content
    assert await table.snapshot() == before and await table.moves_logged() == moves and seats_now(table) == seats
    return r.content


def people(table: Table, game_current: int, seated: list[Player]) -> dict[str, tuple[Player, set[Actor]]]:
    """Each actor a person can be, with who plays it and every role they hold (the creator,
    ada, may be the player at turn too)."""
    creator = table.users[0]
    at_turn = seated[game_current]
    other = next(p for p in seated if p is not at_turn and p is not creator)

    def roles(p: Player) -> set[Actor]:
        got = {Actor.AT_TURN if p is at_turn else Actor.SEATED}
        return got | ({Actor.CREATOR} if p is creator else set())

    return {
        "the player at turn": (at_turn, roles(at_turn)),
        "another seated player": (other, roles(other)),
        "the game's creator": (creator, roles(creator)),
        "a spectator": (table.users[3], {Actor.SPECTATOR}),
        "a server admin": (table.users[5], {Actor.SPECTATOR, Actor.ADMIN}),
    }


ACTORS = ["the player at turn", "another seated player", "the game's creator", "a spectator", "a server admin"]


@pytest.mark.parametrize("who", ACTORS)
async def test_cubist_move_asks_the_gate_for_every_kind(club: Table, who: str) -> None:
    gid, game, seated = await start_game(club, players=3)
    person, roles = people(club, game.current_player, seated)[who]
    target = next(p for p in seated if p is not seated[game.current_player])
    away = next(i for i, p in enumerate(seated) if p is target)
    for text in ("skip", f"remove p{away + 1}"):  # never by hand, whoever asks
        said = await unchanged_after(club, person, "cubist move", move=text)
        assert t("votes.table_move", "en") in said, said
    for kind, text in SAMPLES.items():
        r = await person.slash(club.channel, "cubist move", move=text)
        assert not r.failed, (text, r.content)
        if Roles.of(roles).may(kind, Entry.COMMAND):
            assert not gate_refused(r.content), (text, r.content)
        else:
            assert gate_refused(r.content) and r.ephemeral, (text, r.content)
    record, after = await club.bot.service.queries.game(gid)
    assert not any(p.removed for p in after.state.players) and record.status.value == "active"


@pytest.mark.parametrize(("who", "command"), list(product(ACTORS, ["cubist table skip", "cubist table kick"])))
async def test_the_admin_commands_ask_the_gate(club: Table, who: str, command: str) -> None:
    _gid, game, seated = await start_game(club, players=3)
    person, roles = people(club, game.current_player, seated)[who]
    options = {"player": seated[game.current_player]} if command.endswith("kick") else {}
    if Roles.of(roles).may(Kind.SKIP, Entry.ADMIN):
        r = await person.slash(club.channel, command, **options)
        assert not r.failed and not gate_refused(r.content), r.content
        return
    said = await unchanged_after(club, person, command, **options)
    assert t("votes.admins_only", "en") in said, said


# --- the service's own entries ------------------------------------------------------------------


async def test_a_vote_that_did_not_carry_moves_nothing(club: Table) -> None:
    gid, game, seated = await start_game(club, players=3)
    service, turn = club.bot.service, game.state.turn
    voter = seated[1 - game.current_player if game.current_player < 2 else 0]
    before = await club.snapshot()
    for move in (Skip(), Remove(game.current_player)):
        with pytest.raises(Refused) as refused:
            await service.table_move(gid, voter.id, move, entry=Entry.VOTE, turn=turn)
        assert refused.value.refusal is Refusal.TABLE_MOVE
    assert await club.snapshot() == before


async def test_the_bot_plays_only_a_computer_seat_at_turn(club: Table) -> None:
    gid, game, _seated = await start_game(club, players=2)
    end = next(m for m in game.legal_moves() if str(m) == "end") if game.has_rolled() else game.legal_moves()[0]
    before = await club.snapshot()
    with pytest.raises(Refused) as refused:  # a human's seat: the bot's own work may not play it
        await club.bot.service.play_in(gid, None, end, entry=Entry.JOB, as_seat=game.current_player)
    assert refused.value.refusal is Refusal.NOT_A_TURN_MOVE
    with pytest.raises(UserError):  # and no table move through a player's entry, even with a seat given
        await club.bot.service.play_in(gid, None, Skip(), entry=Entry.JOB, as_seat=game.current_player)
    assert await club.snapshot() == before


@pytest.mark.parametrize("who", ACTORS)
async def test_panel_and_hint_buttons_play_only_for_the_player_at_turn(club: Table, who: str) -> None:
    """The panel's and the hint's buttons, as a modified client would press them in the game's
    channel: a die to a cell (place), Undo, the end of the turn, the hint's Play this."""
    gid, game, seated = await start_game(club, players=3)
    person, roles = people(club, game.current_player, seated)[who]
    version = (await club.bot.service.queries.record(gid)).version
    place = next(m for m in game.legal_moves() if isinstance(m, Place) and m.die.kind == "s")
    presses = {
        Kind.PLACE: f"cubist:{gid}:cell:{version}:{place.die}:{place.room + 1}:{place.cell}",
        Kind.UNDO: f"cubist:{gid}:undo:{version}",
        Kind.END: f"cubist:{gid}:endok:{version}:",
        Kind.PLACE.value + " (hint)": f"cubist:{gid}:hintplay:{version}",
    }
    forged = club.standin.forged_message(club.channel, list(presses.values()))
    for kind, custom_id in presses.items():
        if isinstance(kind, Kind) and Roles.of(roles).may(kind, Entry.PANEL):
            continue  # the player at turn: their own buttons work (tests/bot/test_turn_panel.py)
        before, moves = await club.snapshot(), await club.moves_logged()
        r = await person.click(forged, custom_id)
        assert not r.failed and r.ephemeral, (kind, r.content)
        assert await club.snapshot() == before and await club.moves_logged() == moves, (kind, r.content)
    if Actor.AT_TURN in roles:
        r = await person.click(forged, presses[Kind.PLACE])
        assert not r.failed and (await club.bot.service.queries.record(gid)).version == version + 1, r.content
