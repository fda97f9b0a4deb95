"""The kinds of jobs: a name (stored in ``jobs.kind``) -> what runs when a job of that kind
falls due.  A new kind is a function registered here (``@kind("name")``) and jobs set with its
name: no schema change.

A kind is ``async def run(host, job, now) -> Next``; ``Next`` says what becomes of the job:
run again later (maybe as another kind: the reminders' chain), kept for reading (a one-off:
done), or gone.  Raising is a failure: the poller tries again with every job's backoff
(``bot/store/jobs.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.jobs.host import JobHost
from bot.store import Job


@dataclass(frozen=True, slots=True)
class Next:
    """What becomes of a job after its run: due again at ``due_at`` (as ``kind``, from
    ``attempt``, with ``payload``; None: unchanged, a new kind starting at 0), or with
    ``due_at`` None removed (``keep``: kept for reading, a one-off done with the
    ``message_id`` it made).  ``counts``: whether the run did something (poll_once's count)."""

    due_at: float | None = None
    kind: str | None = None
    attempt: int | None = None
    payload: dict[str, Any] | None = None
    keep: bool = False
    counts: bool = True
    ran: bool = True  # False: the run only postponed itself (it does not count as the last run)
    message_id: int | None = None


DONE = Next()
NOTHING = Next(counts=False)  # the job no longer concerned anything (turn played, game over)

Kind = Callable[[JobHost, Job, float], Awaitable[Next]]
KINDS: dict[str, Kind] = {}


def kind(name: str) -> Callable[[Kind], Kind]:
    """Registers the decorated function as the kind ``name``."""

    def register(fn: Kind) -> Kind:
        if name in KINDS:
            raise ValueError(f"job kind {name!r} registered twice")
        KINDS[name] = fn
        return fn

    return register


def postponed(job: Job, until: float) -> Next:
    """Run again at ``until`` without counting this run (quiet hours, a snooze)."""
    return Next(due_at=until, attempt=max(0, job.attempt - 1), ran=False)
