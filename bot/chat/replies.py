"""Turning service results into Discord messages: the turn post, studio replies, errors.

Shared by the slash commands and the persistent components so both answer alike.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Sequence
from typing import TypeVar

import aiohttp
import discord
from discord.utils import MISSING

from bot.i18n import Message, join, localize, t
from bot.store import GameRecord
from bot.words.texts import MARKS
from engine import Game

log = logging.getLogger(__name__)
MAX_CONTENT = 2000
ALREADY_ACKNOWLEDGED = 40060  # Discord's code: the interaction has an answer already
# Discord's codes for a channel that takes no posts: Unknown Channel, Missing Access, an
# archived thread, a locked thread (bot/chat/lost_channel.py moves the game; this is what is left).
CHANNEL_GONE = frozenset({10003, 50001, 50083, 160005})

NEEDED = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
    "read_message_history": "Read Message History",
}


def pings(*user_ids: int | None) -> discord.AllowedMentions:
    """Allowed mentions for a post that pings exactly these players (the client's default
    pings nobody: names are text, a nickname like ``<@id> @everyone`` must ping no one)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in user_ids if u]
    )


def next_player_ping(record: GameRecord, game: Game) -> discord.AllowedMentions:
    """The post that hands the turn on pings the player whose turn it is, nobody else."""
    if game.is_over:
        return pings()
    return pings(record.seats[game.current_player].user_id)


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def png_file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


THREAD_NEEDED = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}


def missing_thread_permissions(interaction: discord.Interaction) -> list[str]:
    """What the bot lacks in this channel to give a game a thread of its own."""
    perms = interaction.app_permissions
    return [label for attr, label in THREAD_NEEDED.items() if not getattr(perms, attr, False)]


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """What the bot lacks in this channel to post turns (empty when all is well)."""
    perms = interaction.app_permissions
    needed = dict(NEEDED)
    if isinstance(interaction.channel, discord.Thread):
        needed["send_messages_in_threads"] = "Send Messages in Threads"
        needed.pop("send_messages")
    return [label for attr, label in needed.items() if not getattr(perms, attr, False)]


async def answer(
    interaction: discord.Interaction,
    content: str,
    *,
    files: Sequence[discord.File] = (),
    view: discord.ui.View | None = None,
    ephemeral: bool = True,
) -> None:
    """The one way to answer a command or a click with a message: the interaction's
    response when it has none yet; after a deferral ("thinking..."), that deferred message
    edited into the answer (Discord's way: a follow-up after a deferral is deprecated); after
    that, a follow-up message."""
    content = clip(content)
    response = interaction.response
    if not response.is_done() and not interaction.extras.get("answered"):
        await response.send_message(content, files=list(files), view=view or MISSING, ephemeral=ephemeral)
        return
    if response.type is discord.InteractionResponseType.deferred_channel_message and not interaction.extras.get(
        "deferral_answered"
    ):
        interaction.extras["deferral_answered"] = True
        await interaction.edit_original_response(content=content, attachments=list(files), view=view)
        return
    await interaction.followup.send(content, files=list(files), view=view or MISSING, ephemeral=ephemeral)


async def send_error(interaction: discord.Interaction, message: object) -> None:
    """An ephemeral answer, whether or not the interaction was deferred already.  ``message``
    is text, or a ``bot.i18n.Message`` (e.g. a refusal's, ``bot.refusal_words.said``), which is written
    in the user's own language (their Discord locale)."""
    text = clip(localize(message, interaction.locale))
    try:
        await answer(interaction, text)
    except discord.NotFound:
        # The interaction expired (answered after Discord's 3 s): nobody can see an answer
        # now, and raising here only turns one late reply into a traceback storm.
        log.warning("interaction %s expired before its answer: %s", interaction.id, text[:80])


def channel_lost(error: BaseException) -> bool:
    """True when Discord refused a post because of where it was going, not what it was."""
    return isinstance(error, discord.HTTPException) and error.code in CHANNEL_GONE


def post_failed(error: BaseException) -> Message:
    """What the mover reads when their turn is stored but its table post failed: true in
    every case (the post may be in the channel already; the channel may be gone)."""
    if isinstance(error, AnswerUnconfirmed):
        return Message("table.saved_post_checking")
    if channel_lost(error):
        return Message("table.saved_no_channel")
    return Message("table.saved_post_follows")


def whose_turn(record: GameRecord, game: Game, lang: str) -> str:
    seat = record.seats[game.current_player]
    roll = game.state.last_roll
    rolled = t("table.rolled", lang, roll=join([str(v) for v in roll], lang)) if roll else ""
    mark = MARKS[game.current_player]
    if seat.is_computer:
        return t("table.computer_next", lang, mark=mark, name=seat.display_name, rolled=rolled)
    who = f"<@{seat.user_id}>" if seat.user_id else f"**{seat.display_name}**"
    return t("table.your_turn", lang, mark=mark, who=who, rolled=rolled)


T = TypeVar("T")
DEFER_AFTER_S = 1.0  # a first answer not ready by then is deferred (Discord allows 3 s)


def time_left(interaction: discord.Interaction) -> float:
    """Seconds left before a slow answer should be deferred (counted from the interaction's
    creation, so a busy event loop defers sooner)."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return max(0.0, DEFER_AFTER_S - age)


async def defer(interaction: discord.Interaction, edit: bool) -> None:
    """Tells Discord an answer is coming: ``edit``, the clicked message itself will be edited;
    otherwise a private "thinking…" answer."""
    if interaction.response.is_done():
        return
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def in_time(interaction: discord.Interaction, work: Awaitable[T], *, edit: bool = False) -> T:
    """Awaits ``work``, deferring the answer first (``defer``) if it is not done when a first
    answer is due: a quick answer takes one request, a slow one is still answered in time."""
    task = asyncio.ensure_future(work)
    if not interaction.response.is_done():
        done, _pending = await asyncio.wait({task}, timeout=time_left(interaction))
        if not done:
            await defer(interaction, edit)
    return await task


async def build_in_time(
    interaction: discord.Interaction | None, building: Awaitable[tuple[str, list[discord.File], discord.ui.View]]
) -> tuple[str, list[discord.File], discord.ui.View, bool]:
    """Build a channel post; the last value says whether ``interaction`` can carry it as its
    first answer.  A post that takes too long goes to the channel instead (after a private
    deferral): an answer edited in later would not ping the next player."""
    if interaction is None:
        return (*await building, False)
    free = not interaction.response.is_done()
    built = await in_time(interaction, building)
    return (*built, free and not interaction.response.is_done())


def carries_post(interaction: discord.Interaction, record: GameRecord) -> bool:
    """True when ``interaction`` may answer with the game's channel post: it happened in
    the game's channel (a DM's answer would land in the DM)."""
    return interaction.channel_id == record.channel_id


class AnswerUnconfirmed(Exception):
    """An interaction's public answer (a table post) was sent, but Discord's answer is unknown:
    the callback answered 5xx or timed out, an earlier try of it was taken ("already
    acknowledged"), or the post's lookup kept failing.  The post may be in the channel, so
    nobody posts it again without asking Discord first (the outbox row names the
    interaction; the worker looks at its answer before it posts)."""


CONFIRM_TRIES = (0.0, 0.5, 1.5)  # s before each look at an answer whose posting is unconfirmed


async def confirm_answer(interaction: discord.Interaction) -> discord.Message | None:
    """The interaction's answer as Discord has it: the message, or None when it has none
    (404).  Raises AnswerUnconfirmed when Discord would not say (429, 5xx, timeouts)."""
    for pause in CONFIRM_TRIES:
        await asyncio.sleep(pause)
        try:
            return await interaction.original_response()
        except discord.NotFound:
            return None
        except (discord.HTTPException, TimeoutError, aiohttp.ClientError) as e:
            log.warning("interaction %s: its answer could not be looked up: %s", interaction.id, e)
    raise AnswerUnconfirmed(interaction.id)


async def post_as_response(
    interaction: discord.Interaction,
    content: str,
    files: list[discord.File],
    view: discord.ui.View,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> discord.Message | None:
    """Deliver a channel post as ``interaction``'s first, public answer: interaction responses do
    not count against the bot's global rate limit, channel messages do.  Returns the posted
    message, or None when the interaction cannot carry it (answered privately already,
    expired, refused): the caller then posts in the channel.  Raises AnswerUnconfirmed when
    Discord may have taken it but did not say so: the caller must not post it again.
    ``allowed_mentions`` as for the channel post (default: nobody is pinged)."""
    allowed_mentions = allowed_mentions or discord.AllowedMentions.none()
    if interaction.response.is_done() or interaction.extras.get("answered"):
        return None
    try:
        await interaction.response.send_message(
            clip(content), files=files, view=view, allowed_mentions=allowed_mentions
        )
    except discord.HTTPException as e:
        # 40060: discord.py retried a callback that Discord had taken (it answered 5xx
        # first); a 5xx after the last try: taken or not.  Anything else was refused.
        if e.code != ALREADY_ACKNOWLEDGED and e.status < 500:
            log.warning("interaction %s could not carry the post: %s", interaction.id, e)
            for f in files:
                f.reset()
            return None
        interaction.extras["answered"] = True  # later answers go as follow-ups
        log.warning("interaction %s: Discord's answer to the post is unclear (%s); asking", interaction.id, e)
    except (TimeoutError, aiohttp.ClientError) as e:
        interaction.extras["answered"] = True
        log.warning("interaction %s: the post's callback did not come back (%r); asking", interaction.id, e)
    message = await confirm_answer(interaction)
    if message is None and interaction.extras.get("answered"):
        interaction.extras["answered"] = False  # Discord has no answer: it was not taken
        for f in files:
            f.reset()
    return message
