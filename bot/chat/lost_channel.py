"""A game whose thread (or channel) stops taking posts mid-game: deleted, archived or locked.

Discord answers a post there with Unknown Channel (10003), an archived thread (50083), a
locked one (160005) or Missing Access (50001).  ``find_home`` decides where the game goes
on: an archived thread is unarchived where the bot may; otherwise the game moves back to the
channel it was opened in (or, when that channel holds another open game, to a new thread of
it) and says so there.  The caller then posts the turn in the new place.
"""

from __future__ import annotations

import logging

import discord

from bot.chat.base import Bot
from bot.chat.language import guild_language
from bot.i18n import t
from bot.service.refusals import UserError
from bot.store import GameRecord

log = logging.getLogger(__name__)

ARCHIVED = 50083


async def _unarchive(bot: Bot, channel_id: int) -> bool:
    try:
        thread = await bot.fetch_channel(channel_id)
        if not isinstance(thread, discord.Thread) or thread.locked:
            return False
        await thread.edit(archived=False)
        return True
    except discord.HTTPException as e:
        log.info("thread %s could not be unarchived: %s", channel_id, e)
        return False


async def _new_thread(bot: Bot, record: GameRecord, parent_id: int, lang: str) -> int | None:
    """A new public thread in ``parent_id`` for the game (its parent holds another game)."""
    try:
        parent = await bot.fetch_channel(parent_id)
        if not isinstance(parent, discord.TextChannel):
            return None
        creator = next((s.display_name for s in record.seats if s.user_id == record.creator_id), "")
        thread = await parent.create_thread(
            name=t("lobby.thread_name", lang, game=record.id, name=creator)[:100],
            type=discord.ChannelType.public_thread,
            auto_archive_duration=10080,
        )
        return thread.id
    except discord.HTTPException as e:
        log.warning("game %s: no new thread in channel %s: %s", record.id, parent_id, e)
        return None


async def find_home(bot: Bot, record: GameRecord, error: discord.HTTPException) -> GameRecord | None:
    """Where game ``record`` goes on after ``error`` refused a post in its channel: the same
    record when its archived thread was unarchived, the moved record after saying so in the
    new place, or None when it has nowhere to go (the post stays with the outbox, and the
    players still get their turns by DM)."""
    lost = record.channel_id
    if error.code == ARCHIVED and await _unarchive(bot, lost):
        log.info("game %s: its archived thread %s was unarchived", record.id, lost)
        return record
    lang = await guild_language(bot, record.guild_id)
    try:
        found = await bot.service.rehome(record.id, lost)
    except UserError:  # the parent channel holds an open game of its own: a new thread there
        parent = await bot.service.queries.parent_channel(record.id)
        thread = await _new_thread(bot, record, parent, lang) if parent is not None else None
        if thread is None:
            return None
        found = await bot.service.rehome(record.id, lost, to=thread)
        if found is not None and found[1] and parent is not None:
            await _say(bot, parent, record, t("table.game_moved_to", lang, game=record.id, thread=thread))
    if found is None:
        return None
    moved, by_us = found
    if by_us:
        log.warning(
            "game %s: channel %s refused posts (%s); it goes on in %s", record.id, lost, error, moved.channel_id
        )
        await _say(bot, moved.channel_id, moved, t("table.game_goes_on_here", lang, game=record.id))
    return moved


async def _say(bot: Bot, channel_id: int, record: GameRecord, text: str) -> None:
    try:
        await bot.get_partial_messageable(channel_id, guild_id=record.guild_id).send(text)
    except discord.HTTPException as e:
        log.warning("game %s: could not say where it moved in %s: %s", record.id, channel_id, e)
