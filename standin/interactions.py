"""Interactions the stand-in sent to the bot, and what the bot answered.

`InteractionRecord` is the server's bookkeeping (deadlines, acknowledgement, messages);
`InteractionResult` is the read-only view the driver hands to tests.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .clock import HANG_GUARD_S
from .errors import Violation
from .models import Attachment, Channel, Message, User

COMMAND = 2
COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback types (the bot's first response).
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

ACK_DEADLINE_S = 3.0
TOKEN_LIFETIME_S = 15 * 60.0


class InteractionTimeout(TimeoutError):
    """The bot did not answer an interaction in (real) time."""


class InteractionFailed(AssertionError):
    """The bot's answer was refused, so the user would see "This interaction failed"."""


@dataclass
class InteractionRecord:
    id: int
    token: str
    kind: int
    user: User
    channel: Channel
    created_at: float
    payload: dict[str, Any]
    source_message_id: int | None = None
    response_type: int | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    modal_submitted: bool = False
    rejected: list[Violation] = field(default_factory=list)
    # A modal submission: the interaction whose answer opened the modal.
    triggered_by: InteractionRecord | None = None
    # Edits and follow-ups after the first response; a deferral is only "visible" after one.
    activity: int = 0
    _changed: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    def touch(self) -> None:
        """Wake everyone waiting on this interaction."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float, what: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise InteractionTimeout(
                    f"interaction {self.id} ({what}): bot gave no answer within {timeout:.1f}s "
                    f"(response type so far: {self.response_type})"
                )
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                continue

    def answered(self) -> bool:
        """The user sees something: a message, choices, a modal, an update, or a failure."""
        if self.rejected and not self.acknowledged:
            return True
        if self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            return self.activity > 0
        return self.acknowledged


class InteractionResult:
    """What a user saw after an interaction: the bot's response and its follow-ups.

    Message-derived attributes (content, embeds, ...) read the *current* state of the
    original response (or the first follow-up when there is none), so later edits show.
    """

    def __init__(self, record: InteractionRecord, messages: dict[int, Message]) -> None:
        self.record = record
        self._messages = messages

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} type={self.type} failed={self.failed} "
            f"content={self.content!r} ephemeral={self.ephemeral}>"
        )

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def type(self) -> int | None:
        """The callback type the bot answered with (4 message, 5 deferred, 7 update...)."""
        return self.record.response_type

    @property
    def deferred(self) -> bool:
        return self.type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def failed(self) -> bool:
        """True when the bot's answer was refused and nothing was acknowledged."""
        return bool(self.record.rejected) and not self.record.acknowledged

    @property
    def violations(self) -> list[Violation]:
        return list(self.record.rejected)

    @property
    def original(self) -> Message | None:
        """The original response message (None if there is none or it was deleted)."""
        mid = self.record.original_message_id
        message = self._messages.get(mid) if mid is not None else None
        return message if message is not None and not message.deleted else None

    @property
    def followups(self) -> list[Message]:
        return [self._messages[m] for m in self.record.followup_ids if not self._messages[m].deleted]

    @property
    def messages(self) -> list[Message]:
        first = [self.original] if self.original is not None else []
        return first + [m for m in self.followups if m is not self.original]

    @property
    def message(self) -> Message | None:
        msgs = self.messages
        return msgs[0] if msgs else None

    def _require_message(self) -> Message:
        message = self.message
        if message is None:
            raise AssertionError(f"interaction {self.id} produced no message (type {self.type})")
        return message

    @property
    def content(self) -> str:
        return self._require_message().content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self._require_message().embeds

    @property
    def components(self) -> list[dict[str, Any]]:
        return self._require_message().components

    @property
    def attachments(self) -> list[Attachment]:
        return self._require_message().attachments

    @property
    def ephemeral(self) -> bool:
        return self._require_message().ephemeral

    @property
    def choices(self) -> list[dict[str, Any]]:
        if self.record.choices is None:
            raise AssertionError(f"interaction {self.id} got no autocomplete result (type {self.type})")
        return self.record.choices

    @property
    def modal(self) -> dict[str, Any]:
        if self.record.modal is None:
            raise AssertionError(f"interaction {self.id} opened no modal (type {self.type})")
        return self.record.modal

    async def until_answered(self, timeout: float = HANG_GUARD_S) -> InteractionResult:
        """Wait until the user sees an answer (a deferral alone does not count)."""
        await self.record.wait_until(self.record.answered, timeout, "an answer")
        return self

    async def wait_for_followups(self, count: int = 1, timeout: float = HANG_GUARD_S) -> list[Message]:
        """Wait until at least `count` follow-ups exist (a deferral's first one edits the original)."""
        await self.record.wait_until(lambda: len(self.record.followup_ids) >= count, timeout, "follow-ups")
        return self.followups

    async def wait(self, predicate: Callable[[InteractionResult], bool], timeout: float = HANG_GUARD_S) -> None:
        await self.record.wait_until(lambda: predicate(self), timeout, "condition")
