"""The outbox's store side (issue 16 item 7): rows queued in the move's own transaction,
atomic claims with a lease, release, done, retries with backoff, order within a game."""

from __future__ import annotations

from bot.store import Store
from bot.store.jobs import MAX_FAILURES, retry_delay
from bot.store.outbox import POST_GRACE
from engine.moves import EndTurn

from .helpers import FakeClock, start_game


def _post(step, game) -> dict[str, object]:
    return {"seat": 0, "turn_moves": ["end"], "finished": game.is_over}


async def _end_turn(store: Store, game_id: int):
    record, game = await store.load_game(game_id)
    end = next(m for m in game.legal_moves() if isinstance(m, EndTurn))
    played = await store.apply_move(game_id, record.version, end, queue=_post)
    return played.record, played.game, played.queued


async def test_a_turn_end_queues_its_post_and_the_next_dm_in_the_same_transaction(store: Store) -> None:
    record, _game = await start_game(store, channel=1)
    _rec, game, queued = await _end_turn(store, record.id)
    assert queued.turn_post is not None and queued.turn_dm is not None and queued.turn_post < queued.turn_dm
    # A move inside a turn queues nothing.
    rec, game = await store.load_game(record.id)
    inside = next(m for m in game.legal_moves() if not isinstance(m, EndTurn))
    nothing = (await store.apply_move(record.id, rec.version, inside, queue=_post)).queued
    assert nothing.turn_post is None and nothing.turn_dm is None


async def test_claims_are_atomic_leased_released_and_done(store: Store, clock: FakeClock) -> None:
    record, _game = await start_game(store, channel=2)
    _rec, _game2, queued = await _end_turn(store, record.id)
    post = queued.turn_post
    assert post is not None
    assert await store.outbox_claim(post, "handler", lease=30)
    assert not await store.outbox_claim(post, "worker", lease=30)  # one sender at a time
    assert await store.outbox_due() == []  # not due (grace) and claimed
    clock.now += POST_GRACE + 1
    assert await store.outbox_due() == []  # claimed, lease running
    clock.now += 30
    rows = await store.outbox_due()
    # The claimer died: the lease ran out.  The DM waited behind its post (above) only while
    # the post was younger than DM_WAITS_FOR_POST: the player's turn begins anyway.
    assert [r.id for r in rows] == [post, queued.turn_dm]
    assert await store.outbox_claim(post, "worker", lease=30)
    await store.outbox_release(post, "handler")  # a stale owner's release changes nothing
    assert not await store.outbox_claim(post, "other", lease=30)
    await store.outbox_release(post, "worker")
    assert await store.outbox_claim(post, "other", lease=30)
    await store.outbox_done(post, 123)
    assert not await store.outbox_claim(post, "late", lease=30)  # sent: never again
    assert [r.kind for r in await store.outbox_due()] == ["turn_dm"]


async def test_failed_sends_back_off_and_are_given_up_at_last(store: Store, clock: FakeClock) -> None:
    record, _game = await start_game(store, channel=3)
    _rec, _g, queued = await _end_turn(store, record.id)
    post = queued.turn_post
    assert post is not None
    clock.now += POST_GRACE
    waits = []
    for attempt in range(1, MAX_FAILURES + 1):
        assert await store.outbox_claim(post, "w", lease=30)
        kept = await store.outbox_retry(post, "w", "HTTPException 503")
        assert kept == (attempt < MAX_FAILURES)
        if kept:
            # Not before its backoff; the DM behind it is not held back by a failed post.
            assert [r.kind for r in await store.outbox_due()] == ["turn_dm"]
            waits.append(retry_delay(attempt))
            clock.now += waits[-1]
    assert waits[:3] == [2.0, 4.0, 8.0]
    assert (await store.outbox_counts())["failed"] == 1


async def test_a_post_never_waits_behind_a_dm(store: Store, clock: FakeClock) -> None:
    record, _game = await start_game(store, channel=4)
    _rec, _g, first = await _end_turn(store, record.id)
    assert first.turn_post is not None and first.turn_dm is not None
    await store.outbox_done(first.turn_post, 1)
    # The next player's turn-start DM waits for the end of their quiet hours, ten hours on.
    await store.outbox_postpone(first.turn_dm, clock.now + 36000)
    clock.now += 60
    _rec, _g, second = await _end_turn(store, record.id)  # they play at night all the same
    assert second.turn_post is not None and second.turn_dm is not None
    clock.now += POST_GRACE
    due = await store.outbox_due()
    assert [r.id for r in due] == [second.turn_post]  # the post goes; its DM waits for it
    # The post failed once (its channel refused it): it is tried again after its backoff,
    # and still never behind the earlier DM, nor behind a DM failing meanwhile.
    assert await store.outbox_claim(second.turn_post, "w", lease=30)
    assert await store.outbox_retry(second.turn_post, "w", "HTTPException 503")
    assert [r.id for r in await store.outbox_due()] == [second.turn_dm]  # a failed post holds no DM
    assert await store.outbox_claim(second.turn_dm, "w", lease=30)
    assert await store.outbox_retry(second.turn_dm, "w", "HTTPException 503")
    clock.now += retry_delay(1)
    assert [r.id for r in await store.outbox_due()] == [second.turn_post, second.turn_dm]  # posts first
