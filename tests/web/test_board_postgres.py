"""Several bot processes on one PostgreSQL database: any process serves any game's page,
and a move stored by one process reaches the viewers of another (LISTEN/NOTIFY).

Two stores, two services and two web boards, as two processes would have them, on a
private PostgreSQL server (tests/postgres.py)."""

from __future__ import annotations

import asyncio
import random

import aiohttp

from bot.service.game import GameService
from bot.store import Store
from bot.web.events import version_of
from bot.web.links import SPECTATOR, sign
from bot.web.server import WebBoard
from engine.moves import Place

from ..store.helpers import FakeClock
from .conftest import SECRET, start_game


async def test_a_move_in_one_process_reaches_the_viewers_of_another(postgres_url: str) -> None:
    clock = FakeClock()
    one = await Store.open(postgres_url, clock=clock)
    two = await Store.open(postgres_url, clock=clock)
    svc_one = GameService(one, clock=clock, seed_source=random.Random(7), outbox=True)
    svc_two = GameService(two, clock=clock, seed_source=random.Random(8), outbox=True)
    game_id = await start_game(svc_one, 100, (11, 12), ("Ann", "Bob"))
    board = WebBoard(svc_two, secret=SECRET, clock=clock)  # the other process serves the page
    await board.start()
    try:
        token = sign(SECRET, game_id, SPECTATOR, int(clock.now + 3600))
        heard: list[str] = []
        connected = asyncio.Event()

        async def listen() -> None:
            url = f"http://127.0.0.1:{board.port}/g/{game_id}/events?t={token}"
            event = ""
            async with aiohttp.ClientSession() as http, http.get(url) as r:
                async for raw in r.content:
                    line = raw.decode().strip()
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    if line.startswith("data:"):
                        heard.append(str(version_of(event, line[5:].strip())))
                        connected.set()
                        if len(heard) == 2:
                            return

        task = asyncio.create_task(listen())
        await asyncio.wait_for(connected.wait(), 60)
        record, game = await svc_one.queries.game(game_id)
        mover = record.seats[game.current_player].user_id
        move = next(m for m in game.legal_moves() if isinstance(m, Place))
        await svc_one.play_in(game_id, mover, move)  # stored by process one
        # A hang guard only: how soon viewers hear a move is for `python -m benchmarks`.
        await asyncio.wait_for(task, 60)
        assert heard == ["0", "1"]
        # And the other process's page shows it (its cache knew the game at version 0).
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{board.port}/g/{game_id}/state"
            async with http.get(url, headers={"X-Cubist-Token": token}) as r:
                state = await r.json()
        assert state["version"] == 1
    finally:
        await board.stop()
        await one.close()
        await two.close()
