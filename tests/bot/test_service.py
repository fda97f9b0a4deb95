"""The game service without Discord: a real SQLite store, a hand-driven clock, no bot.

What a start and each move schedule (timers as data, in the move's own transaction), the
outbox rows a turn end queues, refusals that change nothing, and the service calls the
background work (reminders, votes, the outbox) reaches the store through."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.game import GameService, TableSettings, parse
from bot.service.gate import Entry
from bot.service.quiet_hours import interval_of
from bot.service.refusals import Refusal, UserError
from bot.service.schedule import COMPUTER_GRACE, START_GRACE
from bot.store import Status, Store
from engine import GameOptions, parse_move
from engine.moves import EndTurn, Skip

from ..store.helpers import FakeClock

HOUR = 3600.0
SETTINGS = TableSettings(turn_hours=48, reminder_hours=6)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "service.db", clock=clock)
    try:
        yield s
    finally:
        await s.close()


def service(store: Store, clock: FakeClock, *, outbox: bool = True) -> GameService:
    return GameService(store, clock=clock, seed_source=random.Random(7), outbox=outbox)


async def started(svc: GameService, channel: int = 100, computers: int = 0):
    lobby = await svc.new(
        1, channel, 11, "Ann", options=GameOptions(), settings=SETTINGS, computers=computers, lang="en", cooldown=False
    )
    if not computers:
        await svc.join(channel, 12, "Bob")
    return await svc.start(channel, 11, lang="en"), lobby


async def end_turn(svc: GameService, game_id: int):
    record, game = await svc.queries.game(game_id)
    mover = record.seats[game.current_player]
    end = next(m for m in game.legal_moves() if isinstance(m, EndTurn))
    return await svc.play_in(game_id, mover.user_id, end, as_seat=game.current_player)


async def test_a_start_gives_the_first_turn_its_clock_and_its_turn_start_dm(store: Store, clock: FakeClock) -> None:
    svc = service(store, clock)
    (record, game), _ = await started(svc)
    nudge = await svc.timers.get(record.id, "nudge")
    assert nudge is not None and nudge.kind == "turn_start" and nudge.due_at == clock.now + START_GRACE
    assert nudge.payload == {"turn": game.state.turn}
    turn_clock = await svc.queries.turn_clock(record.id)
    assert turn_clock is not None and not turn_clock.vote_posted
    assert (turn_clock.turn, turn_clock.seat) == (game.state.turn, game.current_player)
    assert turn_clock.expires_at == clock.now + SETTINGS.turn_hours * HOUR


async def test_a_turn_end_queues_post_and_dm_and_starts_the_next_players_reminders(
    store: Store, clock: FakeClock
) -> None:
    svc = service(store, clock)
    (record, _game), _ = await started(svc)
    clock.now += 500
    outcome = await end_turn(svc, record.id)
    assert outcome.turn_ended and outcome.turn_post is not None and outcome.turn_dm is not None
    assert outcome.record.version == 1 and outcome.record.turn == outcome.game.state.turn
    # The turn-start DM is in the outbox, so the next player's timer starts at the first reminder.
    nudge = await svc.timers.get(record.id, "nudge")
    seat = outcome.record.seats[outcome.game.current_player]
    assert nudge is not None and nudge.kind == "reminder" and nudge.attempt == 0
    assert nudge.due_at == clock.now + interval_of(seat.prefs, SETTINGS.reminder_hours)
    turn_clock = await svc.queries.turn_clock(record.id)
    assert turn_clock is not None and turn_clock.turn == outcome.game.state.turn and turn_clock.started_at == clock.now
    assert await store.posts.counts() == {"total": 2, "sent": 0, "failed": 0}


async def test_without_the_outbox_the_turn_start_dm_stays_a_timer(store: Store, clock: FakeClock) -> None:
    svc = service(store, clock, outbox=False)
    (record, _game), _ = await started(svc)
    outcome = await end_turn(svc, record.id)
    assert outcome.turn_post is None and outcome.turn_dm is None
    nudge = await svc.timers.get(record.id, "nudge")
    assert nudge is not None and nudge.kind == "turn_start" and nudge.payload == {"turn": outcome.game.state.turn}
    assert await store.posts.counts() == {"total": 0, "sent": 0, "failed": 0}


async def test_a_move_inside_a_turn_keeps_the_turns_timers(store: Store, clock: FakeClock) -> None:
    svc = service(store, clock)
    (record, game), _ = await started(svc)
    before = await store.timers.of_game(record.id)
    clock.now += 60
    mover = record.seats[game.current_player]
    inside = next(m for m in game.legal_moves() if not isinstance(m, EndTurn))
    outcome = await svc.play_in(record.id, mover.user_id, inside)
    assert not outcome.turn_ended
    assert await store.timers.of_game(record.id) == before


async def test_a_computers_turn_is_a_job_instead_of_dms(store: Store, clock: FakeClock) -> None:
    svc = service(store, clock)
    (record, game), _ = await started(svc, computers=1)
    if record.seats[game.current_player].is_computer:
        turn_of_computer = record
    else:
        turn_of_computer = (await end_turn(svc, record.id)).record
    nudge = await svc.timers.get(record.id, "nudge")
    assert nudge is not None and nudge.kind == "computer_turn" and nudge.due_at == clock.now + COMPUTER_GRACE
    assert turn_of_computer.seats[turn_of_computer.current_seat or 0].is_computer


async def test_refused_and_stale_moves_change_nothing(store: Store, clock: FakeClock) -> None:
    svc = service(store, clock)
    (record, game), _ = await started(svc)
    waiting = record.seats[1 - game.current_player]
    before = (await store.timers.of_game(record.id), await store.games.get_game(record.id))
    with pytest.raises(UserError):
        await svc.play_in(record.id, waiting.user_id, EndTurn())  # not their turn
    with pytest.raises(UserError):  # the engine refuses it, in the store's transaction
        illegal = next(
            text
            for text in (f"place {v} w{r} c{c}" for v in range(1, 7) for r in (1, 2) for c in range(1, 7))
            if not game.is_legal(parse_move(text))
        )
        await svc.play_in(record.id, record.seats[game.current_player].user_id, parse(illegal))
    with pytest.raises(UserError):  # text that is no move is refused where it is typed
        parse("fly to the moon")
    assert (await store.timers.of_game(record.id), await store.games.get_game(record.id)) == before
    # Another process moved first: the version check refuses the second move, nothing written.
    end = next(m for m in game.legal_moves() if isinstance(m, EndTurn))
    await store.moves.apply_move(record.id, 0, end)
    other = service(store, clock)
    with pytest.raises(UserError):
        await other._store_move(record, game, end, None, stale=Refusal.STALE)
    assert (await store.games.get_game(record.id)).version == 1


async def test_snooze_moves_the_next_reminder_and_stop_switches_them_off(store: Store, clock: FakeClock) -> None:
    svc = service(store, clock)
    (record, _game), _ = await started(svc)
    outcome = await end_turn(svc, record.id)
    player = outcome.record.seats[outcome.game.current_player]
    until = clock.now + 4 * HOUR
    seat = await svc.set_reminders(record.id, player.user_id or 0, snoozed_until=until)
    assert seat is not None and seat.prefs.snoozed_until == until
    nudge = await svc.timers.get(record.id, "nudge")
    assert nudge is not None and nudge.due_at == until and nudge.kind == "reminder"
    assert await svc.set_reminders(record.id, 999, enabled=False) is None  # no seat: nothing
    off = await svc.set_reminders(record.id, player.user_id or 0, enabled=False)
    assert off is not None and not off.prefs.enabled and off.prefs.snoozed_until == until


async def test_votes_and_an_early_end_of_the_turn_clock(store: Store, clock: FakeClock) -> None:
    svc = service(store, clock)
    (record, game), _ = await started(svc)
    turn = game.state.turn
    assert not await svc.end_turn_clock(record.id, turn + 1)  # another turn's clock: untouched
    clock.now += 10
    assert await svc.end_turn_clock(record.id, turn)
    turn_clock = await svc.queries.turn_clock(record.id)
    assert turn_clock is not None and turn_clock.expires_at == clock.now
    voter = record.seats[1 - game.current_player]
    assert await svc.cast_vote(record.id, turn, voter.seat, "skip") == {"skip": 1}
    outcome = await svc.table_move(record.id, voter.user_id, Skip(), entry=Entry.VOTE, turn=turn)
    assert outcome.turn_ended and outcome.record.turn == turn + 1
    with pytest.raises(UserError):  # the vote was about a turn that is over
        await svc.table_move(record.id, voter.user_id, Skip(), entry=Entry.VOTE, turn=turn)
    assert (await store.games.get_game(record.id)).status == Status.ACTIVE
