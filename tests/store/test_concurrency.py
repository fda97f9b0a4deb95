"""Many asyncio tasks (and two connections) applying moves at once: exactly the expected moves
land, no duplicates, no lost updates; losers get StaleGame and write nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import StaleGame, Store
from engine import Game, parse_move
from engine.players import GreedyPlayer

from .helpers import FakeClock, sql, start_game


def stored_moves(db_path: Path | str, game_id: int) -> list[tuple[int, str]]:
    return [(p, m) for p, m in sql(db_path, "SELECT ply, move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]


async def test_two_racing_moves_one_wins(store: Store, db_path: Path) -> None:
    other = await Store.open(db_path)
    try:
        rec, game = await start_game(store, channel=1)
        moves = list(game.legal_moves())
        assert len(set(moves)) >= 2
        # Two tasks on one connection and one on another connection, all from version 0.
        outcomes = await asyncio.gather(
            store.moves.apply_move(rec.id, 0, moves[0]),
            store.moves.apply_move(rec.id, 0, moves[1]),
            other.moves.apply_move(rec.id, 0, moves[-1]),
            return_exceptions=True,
        )
        won = [o for o in outcomes if not isinstance(o, BaseException)]
        lost = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(won) == 1 and len(lost) == 2
        assert all(isinstance(e, StaleGame) and e.actual == 1 for e in lost)
        winner_game, version = won[0].game, won[0].version  # type: ignore[union-attr]
        assert version == 1
        assert stored_moves(db_path, rec.id) == [(1, str(winner_game.log[0]))]
        # Both connections now see the winner's game.
        assert (await other.games.load_game(rec.id))[1] == winner_game == (await store.games.load_game(rec.id))[1]
        await store.integrity.verify_game(rec.id)
    finally:
        await other.close()


async def test_many_tasks_on_one_game(db_path: Path) -> None:
    stores = [await Store.open(db_path, clock=FakeClock()), await Store.open(db_path, cache_size=0)]
    try:
        rec, _ = await start_game(stores[0], channel=1, players=4, seed=11)
        target = 60
        wins: list[tuple[int, str]] = []
        stale = 0

        async def worker(i: int) -> None:
            nonlocal stale
            store = stores[i % 2]
            player = GreedyPlayer(i)
            while True:
                record, game = await store.games.load_game(rec.id)
                if record.version >= target or game.is_over:
                    return
                move = player.choose(game)
                await asyncio.sleep(0)  # let the others read the same version
                try:
                    played = await store.moves.apply_move(rec.id, record.version, move)
                    game, version = played.game, played.version
                except StaleGame:
                    stale += 1
                    continue
                wins.append((version, str(game.log[-1])))

        await asyncio.gather(*(worker(i) for i in range(12)))
        stored = stored_moves(db_path, rec.id)
        versions = [v for v, _ in wins]
        assert len(versions) == len(set(versions)), "a version was won twice"
        assert sorted(wins) == stored  # every winner's move landed, and nothing else did
        assert [p for p, _ in stored] == list(range(1, len(stored) + 1))
        assert len(stored) >= target or (await stores[0].games.load_game(rec.id))[1].is_over
        replayed = Game.replay(4, 11, [parse_move(m) for _, m in stored])
        assert (await stores[1].games.load_game(rec.id))[1] == replayed
        assert await stores[0].integrity.verify_all() == []
        assert stale + len(wins) > len(wins)  # there was contention
    finally:
        for s in stores:
            await s.close()


async def test_many_games_at_once(store: Store, db_path: Path) -> None:
    games = [await start_game(store, channel=c, players=2 + c % 3, seed=c) for c in range(1, 11)]

    async def drive(game_id: int, game: Game, seed: int) -> Game:
        player, version = GreedyPlayer(seed), 0
        for _ in range(25):
            if game.is_over:
                break
            played = await store.moves.apply_move(game_id, version, player.choose(game))
            game, version = played.game, played.version
            await asyncio.sleep(0)
        return game

    finals = await asyncio.gather(*(drive(rec.id, game, i) for i, (rec, game) in enumerate(games)))
    for (rec, _), final in zip(games, finals, strict=True):
        stored = stored_moves(db_path, rec.id)
        assert [m for _, m in stored] == [str(m) for m in final.log]
        assert (await store.games.load_game(rec.id))[1] == final
    assert await store.integrity.verify_all() == []


async def test_cancelled_task_leaves_the_store_consistent(store: Store, db_path: Path) -> None:
    rec, game = await start_game(store, channel=1)
    player = GreedyPlayer(0)
    version = 0
    for _ in range(10):
        task = asyncio.create_task(store.moves.apply_move(rec.id, version, player.choose(game)))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The move either landed whole or not at all; either way the store carries on.
        record, game = await store.games.load_game(rec.id)
        assert record.version in (version, version + 1)
        version = record.version
        played = await store.moves.apply_move(rec.id, version, player.choose(game))
        game, version = played.game, played.version
    assert len(stored_moves(db_path, rec.id)) == version
    assert await store.integrity.verify_all() == []
