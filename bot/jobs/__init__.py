"""Timed events as data: the store's ``timers`` table, a registry of kinds
(``registry.py``: turn-start DM, reminders, channel note, computer wake-up in
``nudges.py``; the turn clock in ``clock.py``), the poller that claims and runs them
(``poller.py``, on the loop shared with the outbox worker: ``loop.py``), and quiet-hours
maths as pure functions (``quiet_hours.py``)."""

from bot.jobs.poller import TimerPoller

__all__ = ["TimerPoller"]
