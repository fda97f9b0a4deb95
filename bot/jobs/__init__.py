"""The workers: every durable job (table ``jobs``) is claimed and run by one poller
(``poller.py``, on ``loop.py``): the one-offs that follow a move, posts and DMs, sent by
``outbox.py``; the standing jobs of a game, reminders and clocks, run by their kinds
(``registry.py``, ``runs.py``).  What falls due is handed to the features through
``events.py``; ``host.py`` is what the workers need of the process."""

from bot.jobs.poller import Poller

__all__ = ["Poller"]
