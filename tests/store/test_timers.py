"""Timers as data (migration 0009): set with moves, claimed with a lease, finished or failed,
and carried over from the reminder and turn-clock tables of older databases."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from bot.store import Store, TimerSpec
from bot.store.jobs import MAX_FAILURES
from engine.moves import EndTurn

from .helpers import FakeClock, nudge_at, old_database, opened, play_to_end, start_game

# An active two-player game, id 1, at version 3 and turn 2, as the older schemas keep it.
GAME_1 = (
    "INSERT INTO games (id, guild_id, channel_id, creator_id, status, seed, players, version, turn,"
    " created_at, updated_at) VALUES (1, 1, 10, 7, 'active', 5, 2, 3, 2, 1.0, 1.0);"
)


async def test_claims_are_leased_ordered_counted_and_finished(store: Store, clock: FakeClock) -> None:
    t = clock.now
    a, _ = await start_game(store, channel=1)
    b, _ = await start_game(store, channel=2)
    await store.timers.set(a.id, [nudge_at(t + 10), TimerSpec("turn_clock", "turn_clock", t + 30, {"turn": 0})])
    await store.timers.set(b.id, [nudge_at(t + 20)])
    assert await store.jobs.claim_due("p1", 60, now=t + 5, one_offs=False) == []
    got = await store.jobs.claim_due("p1", 60, now=t + 25, one_offs=False)
    assert [(x.game_id, x.slot, x.attempt) for x in got] == [(a.id, "nudge", 1), (b.id, "nudge", 1)]
    # Claimed: nobody else gets them while the lease holds, not even when due.
    assert [x.slot for x in await store.jobs.claim_due("p2", 60, now=t + 40, one_offs=False)] == ["turn_clock"]
    assert await store.jobs.claim_due("p2", 60, now=t + 80, one_offs=False) == []
    # A claimer that died: after the lease, someone else claims it (and counts the attempt).
    again = await store.jobs.claim_due("p2", 60, now=t + 90, one_offs=False)
    assert {(x.game_id, x.slot, x.attempt) for x in again} == {(a.id, "nudge", 2), (b.id, "nudge", 2)}
    stale = next(x for x in got if x.game_id == a.id)
    assert not await store.jobs.finish(stale, "p1", due_at=t + 500)  # p1's claim is lost
    mine = next(x for x in again if x.game_id == a.id)
    clock.now = t + 91
    assert await store.jobs.finish(mine, "p2", due_at=t + 500, kind="reminder", payload={"turn": 3})
    now = await store.timers.get(a.id, "nudge")
    assert now is not None
    assert (now.kind, now.due_at, now.attempt, now.payload, now.last_run_at) == (
        "reminder",
        t + 500,
        0,
        {"turn": 3},
        t + 91,
    )
    other = next(x for x in again if x.game_id == b.id)
    assert await store.jobs.finish(other, "p2", due_at=None)
    assert await store.timers.get(b.id, "nudge") is None


async def test_a_move_replaces_a_claimed_timer_and_the_old_claim_loses(store: Store, clock: FakeClock) -> None:
    rec, game = await start_game(store, channel=1)
    await store.timers.set(rec.id, [nudge_at(clock.now)])
    (claimed,) = await store.jobs.claim_due("p1", 60, now=clock.now, one_offs=False)
    end = next(m for m in game.legal_moves() if isinstance(m, EndTurn))
    await store.moves.apply_move(rec.id, 0, end, timers=lambda g, new: [nudge_at(clock.now + 99)] if new else [])
    assert not await store.jobs.finish(claimed, "p1", due_at=clock.now + 5)
    fresh = await store.timers.get(rec.id, "nudge")
    assert fresh is not None and (fresh.due_at, fresh.attempt) == (clock.now + 99, 0)
    # A move inside a turn that sets nothing keeps the timers as they are.
    _rec, game = await store.games.load_game(rec.id)
    inside = next(m for m in game.legal_moves() if not isinstance(m, EndTurn))
    await store.moves.apply_move(rec.id, 1, inside, timers=lambda g, new: [nudge_at(1.0)] if new else [])
    assert (await store.timers.get(rec.id, "nudge")) == fresh


async def test_finished_and_cancelled_games_have_no_timers(store: Store, clock: FakeClock) -> None:
    a, _ = await start_game(store, channel=1)
    b, _ = await start_game(store, channel=2)
    for rec in (a, b):
        await store.timers.set(rec.id, [nudge_at(clock.now + 5)])
    await play_to_end(store, a.id)
    await store.moves.cancel(b.id)
    assert await store.timers.of_game(a.id) == [] and await store.timers.of_game(b.id) == []
    assert await store.jobs.claim_due("p", 60, now=clock.now + 10**9, one_offs=False) == []


async def test_failures_back_off_and_are_dropped_at_last(store: Store, clock: FakeClock) -> None:
    rec, _ = await start_game(store, channel=1)
    await store.timers.set(rec.id, [nudge_at(clock.now)])
    for n in range(1, MAX_FAILURES):
        (timer,) = await store.jobs.claim_due("p", 60, now=clock.now + 10**6 * n, one_offs=False)
        assert timer.failures == n - 1 and timer.attempt == 1  # a failed run is not counted
        assert await store.jobs.fail(timer, "p", "HTTPException 503")
    (timer,) = await store.jobs.claim_due("p", 60, now=clock.now + 10**9, one_offs=False)
    assert not await store.jobs.fail(timer, "p", "HTTPException 503")
    assert await store.timers.get(rec.id, "nudge") is None


async def test_hasten_reschedule_and_claiming_one_slot(store: Store, clock: FakeClock) -> None:
    rec, _ = await start_game(store, channel=1)
    t = clock.now
    clock_spec = TimerSpec("turn_clock", "turn_clock", t + 100, {"turn": 4, "expires_at": t + 100})
    await store.timers.set(rec.id, [clock_spec, nudge_at(t + 50)])
    assert not await store.timers.hasten(rec.id, "turn_clock", t + 1, {"turn": 3})  # another turn's clock
    assert await store.timers.hasten(rec.id, "turn_clock", t + 1, {"turn": 4}, {"expires_at": t + 1})
    assert await store.timers.hasten(rec.id, "turn_clock", t + 90, {"turn": 4})  # never later
    got = await store.timers.get(rec.id, "turn_clock")
    assert got is not None and got.due_at == t + 1 and got.payload["expires_at"] == t + 1
    assert not await store.timers.reschedule(rec.id, "nudge", t + 70, ["reminder"])  # not of that kind
    assert await store.timers.reschedule(rec.id, "nudge", t + 70, ["turn_start"])
    assert await store.jobs.claim_slot(rec.id, "nudge", "p", 60, ["turn_start"], {"turn": 5}) is None  # another turn
    one = await store.jobs.claim_slot(rec.id, "nudge", "p", 60, ["turn_start"], {})  # not due yet, claimed anyway
    # It runs now: due now, so that if its claimer dies it is taken over when the lease runs out.
    assert one is not None and one.due_at == t and one.attempt == 1
    assert await store.jobs.claim_slot(rec.id, "nudge", "q", 60, ["turn_start"], {}) is None  # held
    assert [j.slot for j in await store.jobs.claim_due("q", 60, now=t + 59, one_offs=False)] == ["turn_clock"]
    assert [j.id for j in await store.jobs.claim_due("q", 60, now=t + 61, one_offs=False)] == [one.id]


async def test_migration_carries_reminders_and_turn_clocks_over(tmp_path: Path) -> None:
    path = await old_database(
        tmp_path / "old.db",
        8,
        "INSERT INTO games (id, guild_id, channel_id, creator_id, status, seed, players, version, turn,"
        " created_at, updated_at) VALUES"
        " (1, 1, 10, 7, 'active', 5, 2, 3, 2, 1.0, 1.0), (2, 1, 20, 7, 'active', 6, 2, 0, 0, 1.0, 1.0),"
        " (3, 1, 30, 7, 'active', 7, 2, 9, 4, 1.0, 1.0);"
        "INSERT INTO reminders (game_id, due_at, sent_count, last_sent_at) VALUES"
        " (1, 500.0, 0, NULL), (2, 600.0, 2, 550.0), (3, 700.0, 4, 650.0);"
        "INSERT INTO turn_clocks (game_id, turn, seat, started_at, expires_at, vote_posted) VALUES"
        " (1, 2, 1, 100.0, 900.0, 0), (3, 4, 0, 200.0, 300.0, 1);",
    )
    async with opened(path) as store:
        nudges = {g: await store.timers.get(g, "nudge") for g in (1, 2, 3)}
        assert {g: (t.kind, t.due_at, t.attempt, t.last_run_at, t.payload) for g, t in nudges.items() if t} == {
            1: ("turn_start", 500.0, 0, None, {"turn": 2}),
            2: ("reminder", 600.0, 1, 550.0, {"turn": 0}),  # reminder 2 is next: one sent
            3: ("channel_note", 700.0, 0, 650.0, {"turn": 4}),
        }
        one, three = await store.timers.get(1, "turn_clock"), await store.timers.get(3, "turn_clock")
        assert one is not None and three is not None
        assert (one.due_at, one.payload) == (900.0, {"turn": 2, "seat": 1, "started_at": 100.0, "expires_at": 900.0})
        assert three.due_at is None and three.payload["expires_at"] == 300.0  # its vote was posted
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "jobs" in tables and not {"reminders", "turn_clocks", "timers", "outbox"} & tables
    assert json.loads(sqlite3.connect(path).execute("SELECT payload FROM jobs LIMIT 1").fetchone()[0])


async def test_migration_makes_one_jobs_table_of_outbox_and_timers(tmp_path: Path) -> None:
    """0014: the outbox's rows (with their ids: their messages' nonces are made of them) and
    the timers become jobs; a pending post stays due, a sent one keeps its message, a timer
    its slot, kind and count."""
    path = await old_database(
        tmp_path / "old.db",
        13,
        GAME_1 + "INSERT INTO outbox (id, game_id, version, kind, payload, created_at, due_at, attempts, sent_at,"
        " message_id, failed) VALUES (41, 1, 2, 'turn_post', '{\"seat\": 0}', 5.0, 8.0, 0, 9.0, 777, 0),"
        " (42, 1, 3, 'turn_post', '{\"seat\": 1}', 6.0, 9.0, 2, NULL, NULL, 0);"
        "INSERT INTO timers (game_id, slot, kind, due_at, attempt, payload, created_at)"
        " VALUES (1, 'nudge', 'reminder', 500.0, 2, '{\"turn\": 2}', 4.0);",
    )
    async with opened(path) as store:
        nudge = await store.timers.get(1, "nudge")
        assert nudge is not None and (nudge.kind, nudge.due_at, nudge.attempt) == ("reminder", 500.0, 2)
        due = await store.jobs.claim_due("p", 30, now=10.0, standing=False)
        assert [(r.id, r.failures, r.payload) for r in due] == [(42, 2, {"seat": 1})]
        assert await store.posts.counts() == {"total": 2, "sent": 1, "failed": 0}
    row = sqlite3.connect(path).execute("SELECT message_id, due_at FROM jobs WHERE id = 41").fetchone()
    assert row == (777, None)


async def test_two_processes_claiming_at_once_never_share_a_timer(
    store: Store, db_path: Path, clock: FakeClock
) -> None:
    games = [(await start_game(store, channel=c, seed=c))[0] for c in range(1, 13)]
    for i, rec in enumerate(games):
        await store.timers.set(rec.id, [nudge_at(clock.now + i), TimerSpec("turn_clock", "turn_clock", clock.now + i)])
    other = await Store.open(db_path, clock=clock)  # a second process's store on the same file
    try:
        claims = await asyncio.gather(
            *(
                s.jobs.claim_due(owner, 60, limit=5, now=clock.now + 100, one_offs=False)
                for s, owner in [(store, "a"), (other, "b")] * 4
            )
        )
    finally:
        await other.close()
    ids = [t.id for batch in claims for t in batch]
    assert len(ids) == len(set(ids)) == 2 * len(games)  # every due timer claimed, none twice
    assert all(t.attempt == 1 for batch in claims for t in batch)


async def test_a_live_claimer_renews_its_leases_and_a_dead_ones_run_out(store: Store, clock: FakeClock) -> None:
    a, _ = await start_game(store, channel=1)
    b, _ = await start_game(store, channel=2)
    await store.timers.set(a.id, [nudge_at(clock.now)])
    await store.timers.set(b.id, [nudge_at(clock.now)])
    (mine,) = await store.jobs.claim_due("alive", 30, limit=1, one_offs=False)
    (theirs,) = await store.jobs.claim_due("dead", 30, limit=1, one_offs=False)
    clock.now += 20
    assert await store.jobs.renew("alive", 30) == 1  # only its own claims
    clock.now += 15  # 35 s after the claims: the dead claimer's lease ran out, the live one's not
    assert [j.id for j in await store.jobs.claim_due("other", 30, one_offs=False)] == [theirs.id]
    assert await store.jobs.finish(mine, "alive", due_at=None)


async def test_migration_makes_computer_wake_ups_computer_turns(tmp_path: Path) -> None:
    """0015: a computer's wake-up timer becomes the job that plays its turn."""
    path = await old_database(
        tmp_path / "old.db",
        14,
        GAME_1 + "INSERT INTO jobs (game_id, slot, kind, due_at, payload, created_at)"
        " VALUES (1, 'nudge', 'computer_wake', 500.0, '{\"turn\": 2}', 4.0);",
    )
    async with opened(path) as store:
        nudge = await store.timers.get(1, "nudge")
        assert nudge is not None and (nudge.kind, nudge.due_at, nudge.payload) == ("computer_turn", 500.0, {"turn": 2})
