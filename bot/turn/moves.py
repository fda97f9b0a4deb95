"""A move typed as a command (``/cubist move``, ``end``, ``undo``): parsed once, then made
and answered as a panel's pick is (``bot.turn.panel.answer_move``)."""

from __future__ import annotations

import discord

from bot.chat.base import Bot
from bot.chat.replies import missing_permissions, send_error
from bot.i18n import Message
from bot.refusal_words import said
from bot.service.game import parse
from bot.service.gate import Entry
from bot.service.refusals import UserError
from bot.turn import panel


async def play_move(bot: Bot, interaction: discord.Interaction, game_id: int, text: str) -> None:
    """Apply a typed move for the user and answer (the panel privately, or the channel post at turn end)."""
    missing = missing_permissions(interaction)
    if missing:
        await send_error(interaction, Message("turn.missing_permissions", missing=", ".join(missing)))
        return
    try:
        move = parse(text)  # the one parse of a typed move
    except UserError as e:
        await send_error(interaction, said(e))
        return
    await panel.answer_move(bot, interaction, game_id, move, entry=Entry.COMMAND)
