"""Claims across processes (issue 19): two stores opened on one database, as two bot processes
would, race for the same one-off and the same timers; exactly one
claim wins each time.  Runs on SQLite and PostgreSQL (see conftest.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.store import Store, TimerSpec

from .helpers import FakeClock, nudge_at, start_game
from .test_outbox import _end_turn


async def test_two_stores_racing_claim_each_thing_once(db_path: Path | str, clock: FakeClock) -> None:
    stores = [await Store.open(db_path, clock=clock), await Store.open(db_path, clock=clock, cache_size=0)]
    try:
        record, _ = await start_game(stores[0], channel=7)
        _rec, _game, queued = await _end_turn(stores[0], record.id)
        assert queued.turn_post is not None
        post = queued.turn_post
        claims = await asyncio.gather(
            *(stores[i % 2].jobs.claim(post, f"process{i % 2}-task{i}", 30) for i in range(20))
        )
        assert sum(c is not None for c in claims) == 1
        # Timers (as the bot sets them after a move: the turn-start DM, a turn clock): each claimed once.
        other, _ = await start_game(stores[1], channel=8)
        await stores[0].timers.set(
            record.id, [nudge_at(clock.now + 5), TimerSpec("turn_clock", "turn_clock", clock.now + 9, {})]
        )
        await stores[1].timers.set(other.id, [nudge_at(clock.now + 7)])
        later = clock.now + 10**6
        batches = await asyncio.gather(
            *(
                stores[i % 2].jobs.claim_due(f"process{i % 2}-task{i}", 30.0, now=later, one_offs=False)
                for i in range(20)
            )
        )
        claimed = [t.id for batch in batches for t in batch]
        assert len(claimed) == len(set(claimed)) == 3
        assert await stores[0].jobs.claim_due("late", 30.0, now=later, one_offs=False) == []  # leased, all of them
    finally:
        for store in stores:
            await store.close()
