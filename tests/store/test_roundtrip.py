"""Round trips through every table, and the store's rules (one open game per channel, seats,
moves validated by the engine, optimistic versions, results, timers, preferences)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.store import (
    ChannelBusy,
    GameNotFound,
    GameStateError,
    ReminderPrefs,
    SeatError,
    StaleGame,
    Status,
    Store,
)
from engine import Game, GameOptions, IllegalMove, dump_game, parse_move
from engine.players import GreedyPlayer

from .helpers import FakeClock, nudge, nudge_at, play, play_to_end, sql, start_game


def count(db_path: Path | str, table: str) -> int:
    return int(sql(db_path, f"SELECT count(*) FROM {table}")[0][0])


async def test_lobby_and_seats_round_trip(store: Store, db_path: Path, clock: FakeClock) -> None:
    options = GameOptions(clear_full_artist_row=False)
    rec = await store.lobby.create_lobby(11, 22, 33, options)
    assert (rec.guild_id, rec.channel_id, rec.creator_id, rec.status) == (11, 22, 33, Status.LOBBY)
    assert rec.options == options and rec.created_at == clock.now and rec.seed is None and rec.seats == ()

    prefs = ReminderPrefs(enabled=False, interval=3600, quiet_start=22 * 60, quiet_end=7 * 60, time_zone="Europe/Paris")
    clock.now += 5
    a = await store.lobby.join_seat(rec.id, 33, "Ann", colour="red", prefs=prefs)
    b = await store.lobby.join_seat(rec.id, None, "Bot", is_computer=True, ai_level=2, colour="blue")
    c = await store.lobby.join_seat(rec.id, 44, "Cid")
    assert (a.seat, b.seat, c.seat) == (0, 1, 2)
    assert a.prefs == prefs and a.colour == "red" and a.joined_at == clock.now and a.dm_reachable is None
    assert b.is_computer and b.user_id is None and b.ai_level == 2

    with pytest.raises(SeatError, match="already has a seat"):
        await store.lobby.join_seat(rec.id, 33, "Ann again")
    with pytest.raises(SeatError, match="colour"):
        await store.lobby.join_seat(rec.id, 55, "Dee", colour="red")
    with pytest.raises(SeatError):
        await store.lobby.join_seat(rec.id, 55, "Dee", is_computer=True)
    with pytest.raises(SeatError, match="time zone"):
        await store.lobby.join_seat(rec.id, 55, "Dee", prefs=ReminderPrefs(time_zone="Mars/Olympus"))

    await store.lobby.leave_seat(rec.id, 1)
    with pytest.raises(SeatError, match="empty"):
        await store.lobby.leave_seat(rec.id, 1)
    d = await store.lobby.join_seat(rec.id, 55, "Dee")
    assert d.seat == 1  # the lowest free seat
    e = await store.lobby.join_seat(rec.id, 66, "Eve")
    assert e.seat == 3
    with pytest.raises(SeatError, match="full"):
        await store.lobby.join_seat(rec.id, 77, "Fay")

    got = await store.games.get_game(rec.id)
    assert [(s.seat, s.display_name) for s in got.seats] == [(0, "Ann"), (1, "Dee"), (2, "Cid"), (3, "Eve")]
    assert got.seats[0] == a

    # Start with a chosen seating: seats are renumbered in that order.
    await store.lobby.leave_seat(rec.id, 3)
    due = clock.now + 60
    record, game = await store.moves.start_game(rec.id, seed=99, seating=[2, 0, 1], timers=lambda g, r: [nudge_at(due)])
    assert record.status == Status.ACTIVE and record.seed == 99 and record.players == 3 and record.version == 0
    assert [(s.seat, s.display_name) for s in record.seats] == [(0, "Cid"), (1, "Ann"), (2, "Dee")]
    assert record.seats[1].prefs == prefs and record.seats[1].colour == "red"
    assert game == Game.new(3, 99, options)
    assert record.current_seat == game.current_player and record.turn == game.state.turn
    assert await nudge(store, rec.id) == (clock.now + 60, "turn_start", 0, None)

    with pytest.raises(GameStateError):
        await store.lobby.join_seat(rec.id, 88, "Late")
    with pytest.raises(GameStateError):
        await store.moves.start_game(rec.id, seed=1)
    assert count(db_path, "snapshots") == 1


async def test_start_needs_two_players_and_a_valid_seating(store: Store) -> None:
    rec = await store.lobby.create_lobby(1, 2, 3)
    await store.lobby.join_seat(rec.id, 3, "Solo")
    with pytest.raises(SeatError, match="2 to 4"):
        await store.moves.start_game(rec.id, 1)
    await store.lobby.join_seat(rec.id, 4, "Duo")
    with pytest.raises(SeatError, match="seating"):
        await store.moves.start_game(rec.id, 1, seating=[0, 0])
    record, _ = await store.moves.start_game(rec.id, 1, seating=[1, 0])
    assert [s.user_id for s in record.seats] == [4, 3]


async def test_one_open_game_per_channel(store: Store, db_path: Path) -> None:
    rec = await store.lobby.create_lobby(1, 500, 1)
    with pytest.raises(ChannelBusy) as info:
        await store.lobby.create_lobby(1, 500, 2)
    assert info.value.game_id == rec.id
    assert (await store.games.active_game_for_channel(500)).id == rec.id  # type: ignore[union-attr]
    assert await store.games.active_game_for_channel(501) is None
    await store.moves.cancel(rec.id)
    assert await store.games.active_game_for_channel(500) is None
    again = await store.lobby.create_lobby(1, 500, 2)
    # The schema itself enforces it, whatever the code does.
    with pytest.raises(Exception, match=r"(?i)unique|duplicate key") as refused:
        sql(
            db_path,
            "INSERT INTO games (channel_id, creator_id, status, created_at, updated_at) VALUES (500, 9, 'lobby', 0, 0)",
        )
    assert type(refused.value).__name__ in ("IntegrityError", "UniqueViolationError")
    # ...and lets any number of finished or cancelled games share the channel.
    sql(
        db_path,
        "INSERT INTO games (channel_id, creator_id, status, created_at, updated_at) VALUES (500, 9, 'cancelled', 0, 0)",
    )
    assert (await store.games.active_game_for_channel(500)).id == again.id  # type: ignore[union-attr]


async def test_a_lobby_moves_into_its_thread(store: Store, clock: FakeClock) -> None:
    """``/cubist lobby new`` with a thread: the lobby moves from the channel (500) to the
    thread (600); the channel is free again but still remembers when a lobby was opened in it
    (its cooldown), and a thread holds one open game like any channel."""
    rec = await store.lobby.create_lobby(1, 500, 1)
    opened = clock.now
    clock.now += 5
    moved = await store.lobby.move_lobby(rec.id, 600)
    assert moved.id == rec.id and moved.channel_id == 600
    assert await store.games.active_game_for_channel(500) is None
    assert (await store.games.active_game_for_channel(600)).id == rec.id  # type: ignore[union-attr]
    assert await store.lobby.last_lobby_opened(500) == opened
    other = await store.lobby.create_lobby(1, 500, 2)
    with pytest.raises(ChannelBusy):
        await store.lobby.move_lobby(other.id, 600)
    assert (await store.games.active_game_for_channel(500)).id == other.id  # type: ignore[union-attr]  # unchanged


async def test_moves_snapshots_and_history(store: Store, db_path: Path, clock: FakeClock) -> None:
    rec, game = await start_game(store, channel=1, players=3, seed=5)
    player = GreedyPlayer(3)
    version = 0
    texts = []
    for i in range(12):
        clock.now += 1
        text = str(player.choose(game))
        user = rec.seats[game.current_player].user_id
        due = clock.now + 100 + i
        played = await store.moves.apply_move(
            rec.id, version, parse_move(text), user, timers=lambda g, new, d=due: [nudge_at(d)]
        )
        game, version = played.game, played.version
        texts.append(text)
    assert version == 12
    assert [str(m) for m in game.log] == texts

    # A fresh store (no cache) loads the same game from the snapshot.
    other = await Store.open(db_path, cache_size=0)
    try:
        record, loaded = await other.games.load_game(rec.id)
    finally:
        await other.close()
    assert loaded == game == Game.replay(3, 5, [parse_move(t) for t in texts])
    assert dump_game(loaded) == dump_game(game)
    assert record.version == 12 and record.current_seat == game.current_player and record.turn == game.state.turn

    last = await store.games.last_moves(rec.id, 3)
    assert [(m.ply, m.move) for m in last] == [(10, texts[9]), (11, texts[10]), (12, texts[11])]
    assert last[-1].created_at == clock.now
    assert len(await store.games.last_moves(rec.id, 100)) == 12
    assert await nudge(store, rec.id) == (clock.now + 111, "turn_start", 0, None)
    await store.integrity.verify_game(rec.id)


async def test_the_loaded_game_is_the_callers_to_mutate(store: Store) -> None:
    rec, _ = await start_game(store, channel=1)
    _, game = await store.games.load_game(rec.id)
    game.apply(game.legal_moves()[0])  # mutating the caller's copy must not touch the cache
    _, again = await store.games.load_game(rec.id)
    assert len(again.log) == 0


async def test_illegal_or_unreadable_move_writes_nothing(store: Store, db_path: Path) -> None:
    rec, _ = await start_game(store, channel=1)
    await play(store, rec.id, 4)
    before = [count(db_path, t) for t in ("moves", "snapshots", "jobs")]
    snap_before = sql(db_path, "SELECT json FROM snapshots")[0][0]
    _, game = await store.games.load_game(rec.id)
    illegal = next(
        t
        for t in (f"place {v} w{r} c{c}" for v in range(1, 7) for r in (1, 2) for c in range(1, 7))
        if not game.is_legal(parse_move(t))
    )
    with pytest.raises(IllegalMove):
        await store.moves.apply_move(rec.id, 4, parse_move(illegal), timers=lambda g, new: [nudge_at(99.0)])
    assert [count(db_path, t) for t in ("moves", "snapshots", "jobs")] == before
    assert sql(db_path, "SELECT json FROM snapshots")[0][0] == snap_before
    assert (await store.games.get_game(rec.id)).version == 4
    await play(store, rec.id, 2)  # and the game goes on
    await store.integrity.verify_game(rec.id)


async def test_stale_version_is_refused(store: Store) -> None:
    rec, game = await start_game(store, channel=1)
    move = GreedyPlayer(0).choose(game)
    await store.moves.apply_move(rec.id, 0, move)
    with pytest.raises(StaleGame) as info:
        await store.moves.apply_move(rec.id, 0, move)
    assert (info.value.expected, info.value.actual) == (0, 1)
    with pytest.raises(StaleGame):
        await store.moves.apply_move(rec.id, 7, move)
    assert len(await store.games.last_moves(rec.id, 10)) == 1


async def test_moves_only_in_play(store: Store) -> None:
    lobby = await store.lobby.create_lobby(1, 1, 1)
    with pytest.raises(GameStateError):
        await store.moves.apply_move(lobby.id, 0, parse_move("end"))
    with pytest.raises(GameStateError):
        await store.games.load_game(lobby.id)
    with pytest.raises(GameNotFound):
        await store.moves.apply_move(12345, 0, parse_move("end"))
    with pytest.raises(GameNotFound):
        await store.games.load_game(12345)
    rec, _ = await start_game(store, channel=2)
    cancelled = await store.moves.cancel(rec.id)
    assert cancelled.status == Status.CANCELLED
    with pytest.raises(GameStateError):
        await store.moves.apply_move(rec.id, 0, parse_move("end"))
    with pytest.raises(GameStateError):
        await store.moves.cancel(rec.id)
    _, game = await store.games.load_game(rec.id)  # a cancelled game can still be looked at
    assert game.log == []


async def test_game_end_writes_results(store: Store, db_path: Path, clock: FakeClock) -> None:
    rec, _ = await start_game(store, channel=1, players=3, seed=8)
    clock.now += 50
    game, version = await play_to_end(store, rec.id, seed=2)
    assert game.is_over
    record = await store.games.get_game(rec.id)
    assert record.status == Status.FINISHED and record.finished_at == clock.now and record.version == version
    assert await store.games.active_game_for_channel(1) is None
    assert await store.timers.of_game(rec.id) == []  # a finished game has no timers

    results = await store.games.results(rec.id)
    scores, winners = game.scores(), set(game.winners())
    assert [(r.seat, r.user_id, r.score, r.museum_dice, r.winner) for r in results] == [
        (i, rec.seats[i].user_id, scores[i], game.museum_dice(i), i in winners) for i in range(3)
    ]
    assert {r.seat for r in results if r.rank == 1} == winners
    assert all(r.rank == 1 + sum(o.score > r.score for o in results) for r in results if not r.winner or r.rank == 1)
    assert await store.moves.finish(rec.id) == results  # idempotent
    assert [r.game_id for r in await store.games.user_results(rec.seats[0].user_id or 0)] == [rec.id]
    await store.integrity.verify_game(rec.id)
    assert await store.integrity.verify_all([Status.FINISHED]) == []
    with pytest.raises(GameStateError):
        await store.moves.apply_move(rec.id, version, parse_move("end"))

    rec2, _ = await start_game(store, channel=2)
    with pytest.raises(GameStateError, match="in play"):
        await store.moves.finish(rec2.id)


async def test_finish_recovers_an_over_game_left_active(store: Store, db_path: Path) -> None:
    rec, _ = await start_game(store, channel=1)
    await play_to_end(store, rec.id)
    # As if the bot had crashed before writing the results.
    sql(db_path, "DELETE FROM results")
    sql(db_path, "UPDATE games SET status = 'active', finished_at = NULL")
    problems = await store.integrity.verify_all()
    assert [p.game_id for p in problems] == [rec.id] and "still marked active" in problems[0].reason
    results = await store.moves.finish(rec.id)
    assert len(results) == 2
    assert (await store.games.get_game(rec.id)).status == Status.FINISHED
    assert await store.integrity.verify_all(list(Status)) == []


async def test_waiting_on_and_listing(store: Store) -> None:
    games = [await start_game(store, channel=c, seed=c) for c in (1, 2, 3)]
    waiting: dict[int, set[int]] = {}
    for rec, game in games:
        waiting.setdefault(rec.seats[game.current_player].user_id or 0, set()).add(rec.id)
    for user, ids in waiting.items():
        assert {r.id for r in await store.games.games_waiting_on(user)} == ids
    assert await store.games.games_waiting_on(999) == []
    lobby = await store.lobby.create_lobby(2, 9, 1)
    assert {r.id for r in await store.games.list_games()} == {r.id for r, _ in games} | {lobby.id}
    assert [r.id for r in await store.games.list_games([Status.LOBBY])] == [lobby.id]
    assert [r.id for r in await store.games.list_games(guild_id=2)] == [lobby.id]


async def test_seat_preferences_and_dm_reachability(store: Store) -> None:
    rec, _ = await start_game(store, channel=3)
    user = rec.seats[1].user_id
    assert user is not None
    prefs = dataclasses.replace(rec.seats[1].prefs, quiet_start=60, quiet_end=8 * 60, snoozed_until=123.5)
    seat = await store.people.set_seat_preferences(rec.id, 1, prefs)
    assert seat.prefs == prefs
    with pytest.raises(SeatError):
        await store.people.set_seat_preferences(rec.id, 1, ReminderPrefs(quiet_start=5))
    with pytest.raises(SeatError):
        await store.people.set_seat_preferences(rec.id, 1, ReminderPrefs(interval=0))
    with pytest.raises(SeatError):
        await store.people.set_seat_preferences(rec.id, 7, ReminderPrefs())

    other, _ = await start_game(store, channel=4)
    await store.lobby.join_seat((lobby := await store.lobby.create_lobby(1, 5, 1)).id, user, "again")
    assert await store.people.set_dm_reachable(user, False) == 2  # game 3's seat and the lobby's
    assert (await store.games.get_game(rec.id)).seats[1].dm_reachable is False
    assert (await store.games.get_game(lobby.id)).seats[0].dm_reachable is False
    assert all(s.dm_reachable is None for s in (await store.games.get_game(other.id)).seats)
    assert await store.people.set_dm_reachable(user, True) == 2
    assert (await store.games.get_game(rec.id)).seats[1].dm_reachable is True


async def test_everything_survives_a_restart(db_path: Path, clock: FakeClock) -> None:
    store = await Store.open(db_path, clock=clock)
    rec, _ = await start_game(store, channel=1, players=4, seed=3)
    game, version = await play(store, rec.id, 20)
    await store.timers.set(rec.id, [nudge_at(42.0)])
    finished, _ = await start_game(store, channel=2)
    await play_to_end(store, finished.id)
    results = await store.games.results(finished.id)
    await store.close()

    store = await Store.open(db_path, clock=clock)
    try:
        record, loaded = await store.games.load_game(rec.id)
        assert loaded == game and record.version == version
        assert await nudge(store, rec.id) == (42.0, "turn_start", 0, None)
        assert await store.games.results(finished.id) == results
        assert await store.integrity.verify_all(list(Status)) == []
        await play(store, rec.id, 5)
    finally:
        await store.close()
