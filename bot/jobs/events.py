"""The one way from the workers to the features: what falls due is handed over by name.

The job runs (``bot/jobs``) never import the Discord-facing code;
they ``ask`` (one subscriber, its answer returned) or ``tell`` (every subscriber) an
event here, and the features subscribe when the client is built, as RoboDanny's timers
dispatch ``on_<event>_timer_complete`` to the cogs that listen.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

Handler = Callable[..., Awaitable[Any]]

# Asked of exactly one subscriber (the answer matters):
TURN_POST_DUE = "turn_post_due"  # (record, game, job) -> the message id of the turn's post
TURN_DM_DUE = "turn_dm_due"  # (record, game, job) -> None: sent (or not needed), or when to try again
COMPUTER_TURN_DUE = "computer_turn_due"  # (game_id) -> bool: played (False: stopped by a shutdown)
USER_EXISTS = "user_exists"  # (user_id) -> bool: whether Discord still knows the person in turn
# Told to every subscriber:
TURN_START_DM = "turn_start_dm"  # (record, game): the turn-start DM, now
REMINDER_DUE = "reminder_due"  # (record, game, seat, step)
CHANNEL_NOTE_DUE = "channel_note_due"  # (record, game, seat, waited seconds)
PLAYER_GONE = "player_gone"  # (game_id, game): the person in turn no longer exists
VOTE_DUE = "vote_due"  # (record, game): the turn's clock ran out


class Events:
    def __init__(self) -> None:
        self._subscribers: dict[str, list[Handler]] = defaultdict(list)

    def subscribe(self, event: str, handler: Handler) -> None:
        self._subscribers[event].append(handler)

    async def ask(self, event: str, *args: Any) -> Any:
        """The answer of the one subscriber of ``event``."""
        subscribers = self._subscribers.get(event, [])
        if len(subscribers) != 1:
            raise LookupError(f"event {event!r} needs one subscriber, has {len(subscribers)}")
        return await subscribers[0](*args)

    async def tell(self, event: str, *args: Any) -> None:
        """Runs every subscriber of ``event`` in the order they subscribed."""
        for handler in list(self._subscribers.get(event, [])):
            await handler(*args)
