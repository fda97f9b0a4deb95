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
from typing import TYPE_CHECKING

import aiohttp
import discord

from engine import parse_move

from .lost_channel import find_home
from .replies import AnswerUnconfirmed, channel_lost, post_turn
from .service import MoveOutcome
from .store.outbox import OutboxRow
from .timers.loop import PollLoop

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)

LEASE_SECONDS = 30.0  # a claim older than this is taken to be dead
ANSWER = " answer "  # in a claim's owner: the post may be the answer of this interaction


def nonce(row_id: int) -> str:
    """The enforced nonce of an outbox row's message (Discord allows 25 characters)."""
    return f"cubist-o{row_id}"


class Outbox:
    def __init__(self, bot: CubistBot, *, poll_seconds: float | None = 1.0, lease: float = LEASE_SECONDS) -> None:
        self.bot = bot
        self.poll_seconds = poll_seconds
        self.lease = lease
        self.owner = uuid.uuid4().hex  # this process's claims
        self._round = asyncio.Lock()
        # The same loop as the timers poller's (bot/timers/loop.py); woken when a post is done
        # (the next player's DM waits for it) or released.
        self.loop = PollLoop("cubist-outbox", self.send_due, poll_seconds, bot.wait_until_ready)

    # --- the interaction's side: claim, done, release -----------------------------------------

    async def claim(self, row_id: int, owner: str | None = None, answer: str | None = None) -> bool:
        """True: the caller delivers this row itself (then ``done`` or ``release``).  ``answer``:
        the interaction whose answer the post may become (kept on the row)."""
        return await self.bot.service.posts.claim(row_id, owner or self.owner, self.lease, answer)

    def answer_owner(self, interaction: discord.Interaction) -> str:
        """The claim of a post that may become ``interaction``'s answer: an answer carries no
        nonce, so a worker taking over after a crash first looks whether it was posted."""
        return f"{self.owner}{ANSWER}{answer_ref(interaction)}"

    async def _posted_as_answer(self, row: OutboxRow) -> int | None:
        """The id of the turn post a sender sent as its interaction's answer, if Discord has it;
        None when it has not.  Raises AnswerUnconfirmed while Discord will not say (429, 5xx,
        timeouts): the row is tried again later, never posted blind."""
        ref = row.answer or (
            row.claimed_by.split(ANSWER, 1)[1] if row.claimed_by and ANSWER in row.claimed_by else None
        )
        if ref is None:
            return None
        app, _, token = ref.partition(":")
        try:
            webhook = discord.Webhook.partial(int(app), token, client=self.bot)
            message = await webhook.fetch_message("@original")  # type: ignore[arg-type]  # Discord's alias
        except (discord.NotFound, ValueError):
            return None  # never answered with a message
        except discord.HTTPException as e:
            if e.status == 401:  # the token's 15 minutes are over: nobody can tell any more
                log.warning("outbox row %s: its interaction expired before its answer could be read", row.id)
                return None
            raise AnswerUnconfirmed(row.id) from e
        except (TimeoutError, aiohttp.ClientError) as e:
            raise AnswerUnconfirmed(row.id) from e
        marks = {f"cubist:{row.game_id}:play", f"cubist:{row.game_id}:b:rematch"}
        ids = {getattr(c, "custom_id", None) for r in message.components for c in getattr(r, "children", [])}
        if marks & ids and not message.flags.ephemeral:
            log.info("outbox row %s was posted as its interaction's answer; not again", row.id)
            await self.bot.service.remember_table_post(row.game_id, message.id, row.version)
            return message.id
        return None

    async def done(self, row_id: int, message_id: int | None = None) -> None:
        await self.bot.service.posts.done(row_id, message_id)
        self.wake()  # the next player's DM waits for this post

    async def release(self, row_id: int, owner: str | None = None) -> None:
        """The caller could not deliver it: the worker posts it as a channel message."""
        await self.bot.service.posts.release(row_id, owner or self.owner)
        self.wake()

    # --- the worker ----------------------------------------------------------------------------

    def start(self) -> None:
        self.loop.start()

    def wake(self) -> None:
        self.loop.wake()

    async def stop(self) -> None:
        await self.loop.stop()

    async def send_due(self) -> int:
        """Sends every row due now; returns how many were sent.  One round at a time: a caller
        (the reminder poller) waits for a round under way, so a reminder never overtakes the
        turn-start DM of its turn."""
        async with self._round:
            return await self._send_due()

    async def _send_due(self) -> int:
        sent = 0
        while rows := await self.bot.service.posts.due(self.lease):
            progress = 0
            for row in rows:
                if not await self.claim(row.id):
                    continue  # somebody else has it
                progress += 1
                try:
                    message_id = await self._send(row)
                except Exception as e:
                    log.warning("outbox row %s (%s of game %s) failed: %s", row.id, row.kind, row.game_id, e)
                    if not await self.bot.service.posts.retry(row.id, self.owner, repr(e)):
                        log.error("outbox row %s of game %s given up", row.id, row.game_id)
                    continue
                if message_id is not False:
                    await self.bot.service.posts.done(row.id, message_id)
                    sent += 1
            if not progress:
                break
        return sent

    async def _send(self, row: OutboxRow) -> int | bool | None:
        """Sends one row; returns the message id (None for a DM), or False when it was postponed."""
        record = await self.bot.service.record(row.game_id)
        game = await self.bot.service.game_at(row.game_id, row.version)
        record = dataclasses.replace(record, version=row.version)
        if row.kind == "turn_post":
            payload = row.payload
            last = payload.get("turn_moves") or []
            outcome = MoveOutcome(
                record, game, parse_move(last[-1]) if last else parse_move("skip"), int(payload.get("seat", 0)),
                True, bool(payload.get("finished")), list(last),
            )  # fmt: skip
            answered = await self._posted_as_answer(row)
            if answered is not None:
                return answered
            channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            message = await post_in_place(
                self.bot, channel, outcome, headline=payload.get("headline"), nonce=nonce(row.id)
            )
            return message.id
        if row.kind == "turn_dm":
            return await self.bot.reminders.turn_start_from_outbox(record, game, row)
        log.error("outbox row %s has an unknown kind %r; dropped", row.id, row.kind)
        return None


def answer_ref(interaction: discord.Interaction) -> str:
    return f"{interaction.application_id}:{interaction.token}"


async def post_in_place(
    bot: CubistBot,
    channel: discord.abc.Messageable,
    outcome: MoveOutcome,
    *,
    headline: str | None = None,
    nonce: str | None = None,
    interaction: discord.Interaction | None = None,
) -> discord.Message:
    """``post_turn``; where the game's thread refused it (deleted, archived, locked), once more
    where the game goes on (bot/lost_channel.py)."""
    try:
        return await post_turn(bot, channel, outcome, headline=headline, nonce=nonce, interaction=interaction)
    except discord.HTTPException as e:
        if not channel_lost(e):
            raise
        home = await find_home(bot, outcome.record, e)
        if home is None:
            raise
    record = dataclasses.replace(home, version=outcome.record.version)
    moved = dataclasses.replace(outcome, record=record)
    channel = bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
    return await post_turn(bot, channel, moved, headline=headline, nonce=nonce)


async def deliver_turn(
    bot: CubistBot,
    channel: discord.abc.Messageable,
    outcome: MoveOutcome,
    *,
    headline: str | None = None,
    interaction: discord.Interaction | None = None,
) -> discord.Message | None:
    """The turn's channel post, from the interaction or computer player that ended the turn:
    claimed from the outbox and posted here, or left to the worker when it has it already.
    Raises what the post raised, after releasing the row to the worker (AnswerUnconfirmed:
    the post may be the interaction's answer; the worker asks Discord before it posts)."""
    row = outcome.turn_post
    if row is None:  # no outbox row (the service runs without one)
        return await post_in_place(bot, channel, outcome, headline=headline, interaction=interaction)
    owner = bot.outbox.answer_owner(interaction) if interaction is not None else None
    ref = answer_ref(interaction) if interaction is not None else None
    if not await bot.outbox.claim(row, owner, ref):
        return None  # sent already, or being sent by the worker
    try:
        # With ``interaction`` the post may be its answer (bot/replies.py post_as_response).
        message = await post_in_place(
            bot, channel, outcome, headline=headline, nonce=nonce(row), interaction=interaction
        )
    except BaseException:
        await bot.outbox.release(row, owner)
        raise
    await bot.outbox.done(row, message.id)
    return message
