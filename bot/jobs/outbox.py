"""The one-offs' interaction side: the interaction (or computer player) that ended a turn
posts the turn's channel post itself, first.

The move's own store transaction queues the post and the next player's turn-start DM as jobs
(``bot/store/outbox.py``), so a crash, a Discord error or a 429 after the move was stored
never loses them, and the player never reads "the game is unchanged".  ``deliver_turn``
(``bot/chat/delivery.py``) claims the post's job (atomic), posts it, then finishes it, or
releases it on failure; the poller (``poller.py``) runs every other: posts nobody claimed
after a short grace, posts whose claimer died (its lease ran out) or failed (tried again with
every job's backoff), and every turn-start DM, after its turn's post.

Exactly once: a job is claimed before it is sent and finished after; a sender that died
between Discord's answer and the finish is covered by the message's enforced nonce
(``cubist-o<job id>``): Discord returns the first message instead of creating a second.
An interaction's answer carries no nonce, so a claim for a post that may become one names the
interaction; the poller taking over such a claim first asks Discord for that interaction's
answer (``@original``) and, if it is the turn post, only finishes the job.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from bot.jobs.host import JobHost
from bot.store import Job
from bot.store.jobs import LEASE_SECONDS

ANSWER = " answer "  # in a claim's owner: the post may be the answer of this interaction


def nonce(job_id: int) -> str:
    """The enforced nonce of a one-off's message (Discord allows 25 characters)."""
    return f"cubist-o{job_id}"


def reminder_nonce(game_id: int, turn: int, step: int) -> str:
    """The enforced nonce of a turn's reminder ``step``: a reminder tried again after an error
    that hid its success is not sent twice (a nudge timer is one job for every turn)."""
    return f"cubist-r{game_id}.{turn}.{step}"


class Outbox:
    def __init__(self, host: JobHost, *, job_lease_seconds: float = LEASE_SECONDS) -> None:
        self.host = host
        self.lease = job_lease_seconds
        self.owner = uuid.uuid4().hex  # this process's interactions' claims
        # The poller's wake-up (bot/jobs/poller.py): when a post is done (the next player's DM
        # waits for it) or released, the next round starts at once.
        self.wake_poller: Callable[[], None] = lambda: None

    async def claim(self, job_id: int, owner: str | None = None, answer: str | None = None) -> Job | None:
        """The job, when the caller posts it itself (then ``done`` or ``release``).  ``answer``:
        the interaction whose answer the post may become (kept on the job)."""
        return await self.host.service.jobs.claim(job_id, owner or self.owner, self.lease, answer)

    async def done(self, job: Job, message_id: int, owner: str | None = None) -> None:
        await self.host.service.jobs.finish(job, owner or self.owner, due_at=None, keep=True, message_id=message_id)
        self.wake_poller()  # the next player's DM waits for this post

    async def release(self, job_id: int, owner: str | None = None) -> None:
        """The caller could not post it: the poller posts it as a channel message."""
        await self.host.service.jobs.release(job_id, owner or self.owner)
        self.wake_poller()
