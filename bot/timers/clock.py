"""The turn clock: a timer per game (slot ``turn_clock``) due when the turn's time is up; its
run opens the vote on the away player (bot/away.py) and keeps the timer for reading."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..store import Status, Store, Timer, TimerSpec
from .registry import CLOCK, NOTHING, Next, kind

if TYPE_CHECKING:
    from ..client import CubistBot


@dataclass(frozen=True, slots=True)
class TurnClock:
    """The clock of a game's turn: after ``expires_at`` the others may vote."""

    game_id: int
    turn: int
    seat: int
    started_at: float
    expires_at: float
    vote_posted: bool
    # Wall-clock time the turn began (seconds since the epoch, what Discord's interaction
    # timestamps are compared with; the service's clock may be a test's).  None: older clocks.
    began: float | None = None

    @classmethod
    def of(cls, timer: Timer) -> TurnClock:
        p = timer.payload
        return cls(
            timer.game_id, int(p["turn"]), int(p["seat"]), float(p["started_at"]), float(p["expires_at"]),
            timer.due_at is None, float(p["began"]) if "began" in p else None,
        )  # fmt: skip


def clock_spec(turn: int, seat: int, now: float, seconds: float) -> TimerSpec:
    payload = {"turn": turn, "seat": seat, "started_at": now, "expires_at": now + seconds, "began": time.time()}
    return TimerSpec(CLOCK, "turn_clock", now + seconds, payload)


async def turn_clock(store: Store, game_id: int) -> TurnClock | None:
    timer = await store.timers.get(game_id, CLOCK)
    return None if timer is None else TurnClock.of(timer)


async def expire(store: Store, game_id: int, turn: int, at: float) -> bool:
    """Ends a turn's clock early (the player is known to be gone)."""
    return await store.timers.hasten(game_id, CLOCK, at, {"turn": turn}, {"expires_at": at})


@kind("turn_clock")
async def turn_clock_ran_out(bot: CubistBot, timer: Timer, now: float) -> Next:
    record, game = await bot.service.game(timer.game_id)
    if record.status != Status.ACTIVE or game.is_over or game.state.turn != timer.payload.get("turn"):
        return NOTHING
    await bot.reminders.post_vote(record, game)
    return Next(keep=True)  # the vote is posted; the clock stays for reading
