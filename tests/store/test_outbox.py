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
    record, game = await store.games.load_game(game_id)
    end = next(m for m in game.legal_moves() if isinstance(m, EndTurn))
    played = await store.moves.apply_move(game_id, record.version, end, queue=_post)
    return played.record, played.game, played.queued


async def test_a_turn_end_queues_its_post_and_the_next_dm_in_the_same_transaction(store: Store) -> None:
    record, _game = await start_game(store, channel=1)
    _rec, game, queued = await _end_turn(store, record.id)
    assert queued.turn_post is not None and queued.turn_dm is not None and queued.turn_post < queued.turn_dm
    # A move inside a turn queues nothing.
    rec, game = await store.games.load_game(record.id)
    inside = next(m for m in game.legal_moves() if not isinstance(m, EndTurn))
    nothing = (await store.moves.apply_move(record.id, rec.version, inside, queue=_post)).queued
    assert nothing.turn_post is None and nothing.turn_dm is None


async def _due(store: Store, owner: str) -> list[int]:
    """The one-offs ``owner`` claims now (for 30 s)."""
    return [j.id for j in await store.jobs.claim_due(owner, 30, standing=False)]


async def test_claims_are_atomic_leased_released_and_done(store: Store, clock: FakeClock) -> None:
    record, _game = await start_game(store, channel=2)
    _rec, _game2, queued = await _end_turn(store, record.id)
    post, dm = queued.turn_post, queued.turn_dm
    assert post is not None and dm is not None
    mine = await store.jobs.claim(post, "handler", 30)
    assert mine is not None and mine.attempt == 1
    assert await store.jobs.claim(post, "worker", 30) is None  # one sender at a time
    assert await _due(store, "worker") == []  # the post is claimed; its DM waits for it
    clock.now += POST_GRACE + 1
    assert await _due(store, "worker") == []  # claimed, lease running; the DM waits (young post)
    clock.now += 30
    # The claimer died: the lease ran out.  The DM waited behind its post (above) only while
    # the post was younger than DM_WAITS_FOR_POST: the player's turn begins anyway.
    assert await _due(store, "worker") == [post, dm]
    await store.jobs.release(post, "handler")  # a stale owner's release changes nothing
    assert await store.jobs.claim(post, "other", 30) is None
    await store.jobs.release(post, "worker")
    taken = await store.jobs.claim(post, "other", 30)
    assert taken is not None
    assert not await store.jobs.finish(mine, "handler", due_at=None, keep=True, message_id=7)  # its claim is lost
    assert await store.jobs.finish(taken, "other", due_at=None, keep=True, message_id=123)
    assert await store.jobs.claim(post, "late", 30) is None  # sent: never again
    assert await store.posts.counts() == {"total": 2, "sent": 1, "failed": 0}


async def test_failed_sends_back_off_and_are_given_up_at_last(store: Store, clock: FakeClock) -> None:
    record, _game = await start_game(store, channel=3)
    _rec, _g, queued = await _end_turn(store, record.id)
    post, dm = queued.turn_post, queued.turn_dm
    assert post is not None and dm is not None
    clock.now += POST_GRACE
    waits = []
    for attempt in range(1, MAX_FAILURES + 1):
        job = await store.jobs.claim(post, "w", 30)
        assert job is not None and job.failures == attempt - 1
        kept = await store.jobs.fail(job, "w", "HTTPException 503")
        assert kept == (attempt < MAX_FAILURES)
        if kept:
            # Not before its backoff; the DM behind it is not held back by a failed post.
            due = await store.jobs.claim_due("w", 30, standing=False)
            assert [j.id for j in due] == ([dm] if attempt == 1 else [])
            for sent in due:
                assert await store.jobs.finish(sent, "w", due_at=None, keep=True)
            waits.append(retry_delay(attempt))
            clock.now += waits[-1]
    assert waits[:3] == [2.0, 4.0, 8.0]
    assert await store.posts.counts() == {"total": 2, "sent": 1, "failed": 1}
    assert await store.jobs.claim(post, "w", 30) is None  # given up: kept for reading, never sent


async def test_a_post_never_waits_behind_a_dm(store: Store, clock: FakeClock) -> None:
    record, _game = await start_game(store, channel=4)
    _rec, _g, first = await _end_turn(store, record.id)
    assert first.turn_post is not None and first.turn_dm is not None
    post = await store.jobs.claim(first.turn_post, "w", 30)
    assert post is not None and await store.jobs.finish(post, "w", due_at=None, keep=True, message_id=1)
    # The next player's turn-start DM waits for the end of their quiet hours, ten hours on.
    (dm,) = await store.jobs.claim_due("w", 30, standing=False)
    assert dm.id == first.turn_dm
    assert await store.jobs.finish(dm, "w", due_at=clock.now + 36000, attempt=0, ran=False)
    clock.now += 60
    _rec, _g, second = await _end_turn(store, record.id)  # they play at night all the same
    assert second.turn_post is not None and second.turn_dm is not None
    clock.now += POST_GRACE
    (again,) = await store.jobs.claim_due("w", 30, standing=False)
    assert again.id == second.turn_post  # the post goes; its DM waits for it
    # The post failed once (its channel refused it): it is tried again after its backoff,
    # and still never behind the earlier DM, nor behind a DM failing meanwhile.
    assert await store.jobs.fail(again, "w", "HTTPException 503")
    (dm2,) = await store.jobs.claim_due("w", 30, standing=False)
    assert dm2.id == second.turn_dm  # a failed post holds no DM
    assert await store.jobs.fail(dm2, "w", "HTTPException 503")
    clock.now += retry_delay(1)
    claimed = await store.jobs.claim_due("w", 30, standing=False)
    assert [j.id for j in claimed] == [second.turn_post, second.turn_dm]  # posts first
