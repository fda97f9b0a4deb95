"""Rate limits for the web board: a token bucket per member (or per address, for
spectators), so one page cannot flood the bot with moves or reads."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

MAX_KEYS = 10_000  # the least recently seen keys are forgotten past this


class Throttle:
    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate  # tokens per second
        self.burst = burst
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, when)

    def allow(self, key: str) -> bool:
        now = self.clock()
        tokens, when = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        allowed = tokens >= 1
        self._buckets[key] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > MAX_KEYS:
            self._buckets.popitem(last=False)
        return allowed
