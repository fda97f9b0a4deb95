"""What the workers need from the process that runs them (``bot.client.CubistBot`` is one):
the game service, the clock, the events the features subscribe to, and readiness."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from bot.jobs.events import Events
from bot.service.game import GameService


class JobHost(Protocol):
    service: GameService
    events: Events
    clock: Callable[[], float]

    async def wait_until_ready(self) -> None: ...
