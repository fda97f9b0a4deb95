"""A process-wide guard on invalid requests (401, 403, 429).

Discord blocks a bot's address for a while after 10,000 invalid requests in 10 minutes
(../shared/DISCORD-FACTS.md).  Every HTTP response discord.py receives passes through an
``aiohttp.TraceConfig`` given to the client (``http_trace``, discord.py's public hook); this
counts the invalid ones in a sliding window.  Past ``limit`` (a tenth of Discord's by default)
the bot stops what it sends on its own initiative (DMs, reminders, channel notes) until the
window has room again; answers to people's commands still go out.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp

log = logging.getLogger(__name__)

INVALID_STATUSES = frozenset({401, 403, 429})
WINDOW_SECONDS = 600.0  # Discord's window
DEFAULT_LIMIT = 1_000  # well before Discord's 10,000


class InvalidRequestGuard:
    def __init__(
        self, *, limit: int = DEFAULT_LIMIT, window: float = WINDOW_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._seen: deque[float] = deque()
        self.total = 0  # every invalid response since start (for logs and tests)
        self._warned = False

    def record(self, status: int) -> None:
        if status not in INVALID_STATUSES:
            return
        self.total += 1
        self._seen.append(self.clock())
        if self.tripped and not self._warned:
            self._warned = True
            log.error(
                "%d invalid requests (401/403/429) in the last %.0f s: pausing DMs and reminders",
                len(self._seen), self.window,
            )  # fmt: skip

    def _trim(self) -> None:
        cutoff = self.clock() - self.window
        while self._seen and self._seen[0] < cutoff:
            self._seen.popleft()

    @property
    def recent(self) -> int:
        self._trim()
        return len(self._seen)

    @property
    def tripped(self) -> bool:
        """True while the window holds ``limit`` invalid requests or more: back off."""
        tripped = self.recent >= self.limit
        if not tripped:
            self._warned = False
        return tripped

    def trace_config(self) -> aiohttp.TraceConfig:
        """The hook to pass as the client's ``http_trace``."""
        config = aiohttp.TraceConfig()

        async def on_request_end(
            _session: aiohttp.ClientSession, _ctx: SimpleNamespace, params: aiohttp.TraceRequestEndParams
        ) -> None:
            self.record(params.response.status)

        config.on_request_end.append(on_request_end)
        return config
