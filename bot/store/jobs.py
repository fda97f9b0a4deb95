"""The life of a job, the same for every kind (migration 0014, table ``jobs``): one lease and
one backoff and give-up policy.  ``bot/store/outbox.py`` (one-off posts and DMs) and
``bot/store/timers.py`` (a game's standing jobs: reminders, clocks) are two views of the table;
``bot/jobs/poller.py`` is the one poller that claims and runs them."""

from __future__ import annotations

MAX_FAILURES = 12  # failed runs in a row before a job is given up (and logged)
MAX_BACKOFF = 3600.0  # s


def retry_delay(failures: int) -> float:
    """Seconds before a job that has failed ``failures`` times in a row runs again: 2 s, 4 s,
    8 s ... at most an hour (twelve failures span about two hours of a Discord outage)."""
    return min(MAX_BACKOFF, 2.0**failures)


def gives_up(failures: int) -> bool:
    return failures >= MAX_FAILURES


# A job nobody holds: never claimed, or its claim's lease has run out (``?``: now).
UNCLAIMED = "(lease_until IS NULL OR lease_until < ?)"
