"""The stand-in's notion of time, injectable so tests can jump past Discord's deadlines.

Only interaction deadlines (3 s to acknowledge, 15 min token lifetime) read this clock;
networking and asyncio timeouts keep using real time.
"""

from __future__ import annotations

import time
from typing import Protocol

# How long a wait on the bot (an answer, a message, an identify) lasts before it fails: a
# guard against a hung test, not a budget.  Waits end as soon as what they wait for happens,
# and a busy machine (tests beside other work, CI) can be many times slower than a quiet one.
# How fast the bot must be is checked elsewhere: Discord's 3 s to acknowledge, on this clock.
HANG_GUARD_S = 60.0


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale."""
        ...


class AdjustableClock:
    """Real monotonic time plus an offset that tests can push forward."""

    def __init__(self) -> None:
        self._offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self._offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._offset += seconds


class ManualClock:
    """A clock that only moves when told to (for fully deterministic tests)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._now += seconds
