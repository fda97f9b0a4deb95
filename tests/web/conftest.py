"""The web board against a real SQLite store and a real service, over loopback HTTP."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.service.game import GameService, TableSettings
from bot.store import Store
from bot.web.links import SPECTATOR, sign
from bot.web.server import WebBoard
from engine import Game, GameOptions

from ..store.helpers import FakeClock

SECRET = "test-secret-not-for-production"


def board_links(message: Any) -> list[str]:
    """The "Open the board" link buttons' URLs on a stand-in message."""
    return [
        str(item["url"])
        for row in message.components
        for item in row.get("components", [])
        if item.get("style") == 5 and "/g/" in str(item.get("url", ""))
    ]


HOUR = 3600.0


async def until(condition: Callable[[], bool], within: float, what: str) -> None:
    """Waits for ``condition`` (looked at every 10 ms) at most ``within`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not condition():
        assert loop.time() < deadline, what
        await asyncio.sleep(0.01)


@dataclass
class Board:
    store: Store
    service: GameService
    web: WebBoard
    clock: FakeClock
    http: aiohttp.ClientSession
    game_id: int

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.web.port}"

    def token(self, member: int, game: int | None = None, hours: float = 24) -> str:
        return sign(SECRET, game or self.game_id, member, int(self.clock.now + hours * HOUR))

    def spectator(self) -> str:
        return self.token(SPECTATOR)

    async def game(self) -> Game:
        _record, game = await self.service.queries.game(self.game_id)
        return game

    async def current_user(self) -> int:
        record, game = await self.service.queries.game(self.game_id)
        user = record.seats[game.current_player].user_id
        assert user is not None
        return user

    async def state(self, token: str, **headers: str) -> tuple[int, dict]:
        async with self.http.get(
            f"{self.base}/g/{self.game_id}/state", headers={"X-Cubist-Token": token, **headers}
        ) as r:
            return r.status, await r.json()

    async def get(self, what: str, token: str) -> tuple[int, dict]:
        """``what``: "me" (the link's seat) or "play" (the moves of the player on turn)."""
        url = f"{self.base}/g/{self.game_id}/{what}"
        async with self.http.get(url, headers={"X-Cubist-Token": token}) as r:
            return r.status, await r.json()

    async def move(self, token: str, move: str, version: int, **headers: str) -> tuple[int, dict]:
        async with self.http.post(
            f"{self.base}/g/{self.game_id}/move",
            json={"move": move, "version": version},
            headers={"X-Cubist-Token": token, **headers},
        ) as r:
            return r.status, await r.json()


async def start_game(service: GameService, channel: int, users: tuple[int, int], names: tuple[str, str]) -> int:
    settings = TableSettings(turn_hours=48, reminder_hours=6)
    await service.new(
        1, channel, users[0], names[0], options=GameOptions(), settings=settings, lang="en", cooldown=False
    )
    await service.join(channel, users[1], names[1])
    record, _game = await service.start(channel, users[0], lang="en")
    return record.id


@pytest.fixture
async def board(tmp_path: Path) -> AsyncIterator[Board]:
    clock = FakeClock()
    store = await Store.open(tmp_path / "web.db", clock=clock)
    service = GameService(store, clock=clock, seed_source=random.Random(7), outbox=True)
    game_id = await start_game(service, 100, (11, 12), ("Ann", "Bob"))
    web = WebBoard(service, secret=SECRET, clock=clock)
    await web.start()
    http = aiohttp.ClientSession()
    try:
        yield Board(store, service, web, clock, http, game_id)
    finally:
        await http.close()
        await web.stop()
        await store.close()
