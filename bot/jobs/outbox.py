"""The outbox worker: sends the posts and DMs that must follow a stored move.

The move's own store transaction queues them (``bot/store/outbox.py``): the turn's channel
post and the next player's turn-start DM.  So a crash, a Discord error or a 429 after the
move was stored never loses them, and the player never reads "the game is unchanged".

Who sends a turn post:
- the interaction (or computer player) that ended the turn, first: ``deliver_turn`` claims
  the row (atomic), posts it, then marks it done, or releases it on failure;
- this worker otherwise: rows nobody claimed after a short grace (``POST_GRACE``), rows whose
  claim is older than the lease (the claimer died), and rows whose send failed (retried with
  exponential backoff).  It also sends every turn-start DM, after the turn's post.

Exactly once: a row is claimed before it is sent and marked done after; a sender that died
between Discord's answer and the mark is covered by the message's enforced nonce
(``cubist-o<row id>``): Discord returns the first message instead of creating a second.
An interaction's answer carries no nonce, so a claim for a post that may become one names the
interaction; the worker taking over such a claim first asks Discord for that interaction's
answer (``@original``) and, if it is the turn post, only marks the row done.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import uuid
from collections.abc import Callable

from bot.jobs import events as ev
from bot.jobs.host import JobHost
from bot.store.outbox import OutboxRow

log = logging.getLogger(__name__)

LEASE_SECONDS = 30.0  # a claim older than this is taken to be dead
ANSWER = " answer "  # in a claim's owner: the post may be the answer of this interaction


def nonce(row_id: int) -> str:
    """The enforced nonce of an outbox row's message (Discord allows 25 characters)."""
    return f"cubist-o{row_id}"


class Outbox:
    def __init__(self, host: JobHost, *, lease: float = LEASE_SECONDS) -> None:
        self.host = host
        self.lease = lease
        self.owner = uuid.uuid4().hex  # this process's claims
        self._round = asyncio.Lock()
        # The poller's wake-up (bot/jobs/poller.py): when a post is done (the next player's DM
        # waits for it) or released, the next round starts at once.
        self.wake_poller: Callable[[], None] = lambda: None

    # --- the interaction's side: claim, done, release -----------------------------------------

    async def claim(self, row_id: int, owner: str | None = None, answer: str | None = None) -> bool:
        """True: the caller delivers this row itself (then ``done`` or ``release``).  ``answer``:
        the interaction whose answer the post may become (kept on the row)."""
        return await self.host.service.posts.claim(row_id, owner or self.owner, self.lease, answer)

    async def done(self, row_id: int, message_id: int | None = None) -> None:
        await self.host.service.posts.done(row_id, message_id)
        self.wake()  # the next player's DM waits for this post

    async def release(self, row_id: int, owner: str | None = None) -> None:
        """The caller could not deliver it: the worker posts it as a channel message."""
        await self.host.service.posts.release(row_id, owner or self.owner)
        self.wake()

    # --- the worker ----------------------------------------------------------------------------

    def wake(self) -> None:
        self.wake_poller()

    async def send_due(self) -> int:
        """Sends every row due now; returns how many were sent.  One round at a time: a caller
        (the reminder poller) waits for a round under way, so a reminder never overtakes the
        turn-start DM of its turn."""
        async with self._round:
            return await self._send_due()

    async def _send_due(self) -> int:
        sent = 0
        while rows := await self.host.service.posts.due():
            progress = 0
            for row in rows:
                if not await self.claim(row.id):
                    continue  # somebody else has it
                progress += 1
                try:
                    message_id = await self._send(row)
                except Exception as e:
                    log.warning("outbox row %s (%s of game %s) failed: %s", row.id, row.kind, row.game_id, e)
                    if not await self.host.service.posts.retry(row.id, self.owner, repr(e)):
                        log.error("outbox row %s of game %s given up", row.id, row.game_id)
                    continue
                if message_id is not False:
                    await self.host.service.posts.done(row.id, message_id)
                    sent += 1
            if not progress:
                break
        return sent

    async def _send(self, row: OutboxRow) -> int | bool | None:
        """Sends one row through its feature (``bot/jobs/events.py``); returns the message id
        (None for a DM), or False when it was postponed."""
        record = await self.host.service.queries.record(row.game_id)
        game = await self.host.service.queries.game_at(row.game_id, row.version)
        record = dataclasses.replace(record, version=row.version)
        if row.kind == "turn_post":
            return await self.host.events.ask(ev.OUTBOX_TURN_POST, record, game, row)  # type: ignore[no-any-return]
        if row.kind == "turn_dm":
            return await self.host.events.ask(ev.OUTBOX_TURN_DM, record, game, row)  # type: ignore[no-any-return]
        log.error("outbox row %s has an unknown kind %r; dropped", row.id, row.kind)
        return None
