"""A background loop that works rounds: one round at start, then one each ``poll_seconds``
or sooner when woken.  The job poller runs on it (claim -> run -> finish happens inside its
rounds).

Stops on a flag as well as a cancellation: Python 3.11's ``wait_for`` could swallow a
cancellation that raced a wake-up, so the wait is ``asyncio.timeout`` and the flag ends the
loop even when a cancellation is lost."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


async def cancelled(task: asyncio.Task[None] | None) -> None:
    """Cancels ``task`` (if any) and waits until it has stopped."""
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


class PollLoop:
    def __init__(
        self,
        name: str,
        round_: Callable[[], Awaitable[object]],
        poll_seconds: float | None,
        ready: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self.name = name
        self.poll_seconds = poll_seconds
        self._round = round_
        self._ready = ready
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._stopping = False

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self) -> None:
        """Starts the loop (not when ``poll_seconds`` is None: then rounds are run by hand)."""
        if self.poll_seconds is not None and self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name=self.name)

    def wake(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        task, self._task = self._task, None
        await cancelled(task)

    async def _run(self) -> None:
        assert self.poll_seconds is not None
        if self._ready is not None:
            await self._ready()
        while not self._stopping:
            try:
                await self._round()
            except Exception:  # keep going: one bad row must not stop every other
                log.exception("%s round failed", self.name)
            if self._stopping:
                return
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_seconds):
                    await self._wake.wait()
