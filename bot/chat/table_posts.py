"""After every table post: remember it (reminders link to it), start the turn it hands on
(its nudge job: the next person's DM, or a computer's turn), then take the buttons off the
post it replaces (bot/chat/old_posts.py)."""

from __future__ import annotations

import discord

from bot.chat.base import Bot
from bot.store import GameRecord
from engine import Game


async def after_table_post(
    bot: Bot,
    record: GameRecord,
    game: Game,
    message: discord.Message | None,
    answered: discord.Interaction | None = None,
) -> None:
    """``message``: the post, None when Discord did not confirm it; ``answered``: the
    interaction it answered."""
    previous = None
    if message is not None:
        previous = await bot.service.queries.table_post(record.id)
        await bot.service.queries.remember_table_post(record.id, message.id, record.version)
        if answered is not None:
            bot.old_posts.answered(message, answered)
    await bot.jobs.start_turn(record, game)
    if message is not None and previous is not None and previous[0] != message.id:
        bot.old_posts.replaced(record, previous[0])
