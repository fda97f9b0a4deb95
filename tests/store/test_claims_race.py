"""Claims across processes (issue 19): two stores opened on one database, as two bot processes
would, race for the same outbox row and the same reminder; exactly one
claim wins each time.  Runs on SQLite and PostgreSQL (see conftest.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.store import Store

from .helpers import FakeClock, start_game
from .test_outbox import _end_turn


async def test_two_stores_racing_claim_each_thing_once(db_path: Path | str, clock: FakeClock) -> None:
    stores = [await Store.open(db_path, clock=clock), await Store.open(db_path, clock=clock, cache_size=0)]
    try:
        record, _ = await start_game(stores[0], channel=7)
        _rec, _game, queued = await _end_turn(stores[0], record.id)
        assert queued.turn_post is not None
        post = queued.turn_post
        claims = await asyncio.gather(
            *(stores[i % 2].outbox_claim(post, f"process{i % 2}-task{i}", lease=30) for i in range(20))
        )
        assert sum(claims) == 1
        version = (await stores[1].get_game(record.id)).version
        _due, count, _last = await stores[1].reminder(record.id)  # type: ignore[misc]
        marks = await asyncio.gather(
            *(
                stores[i % 2].mark_reminder_sent(record.id, version, clock.now + 60, expected_count=count)
                for i in range(20)
            )
        )
        assert sum(marks) == 1  # one reminder, whoever sends it
        assert (await stores[0].reminder(record.id))[1] == count + 1  # type: ignore[index]
    finally:
        for store in stores:
            await store.close()
