"""A move typed as a command (``/cubist move``, ``end``, ``undo``): applied by the service,
answered with the turn panel, or with the table post when it ended the turn."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.chat.base import Bot
from bot.chat.delivery import after_move
from bot.chat.language import user_language
from bot.chat.replies import missing_permissions, post_failed, send_error
from bot.i18n import Message, t
from bot.service.game import UserError, parse
from bot.turn import panel
from bot.words.texts import describe
from engine.moves import Undo

log = logging.getLogger(__name__)
DEFER_AFTER_S = 1.0  # a move not applied by then is deferred (the first answer is due within 3 s)


async def play_move(bot: Bot, interaction: discord.Interaction, game_id: int, text: str, *, edit: bool = False) -> None:
    """Apply a move for the user and answer (the panel privately, or the channel post at turn end)."""
    missing = missing_permissions(interaction)
    if missing:
        await send_error(interaction, Message("actions.missing_permissions", missing=", ".join(missing)))
        return
    # A quick move is answered in one request; only a slow one gets the "thinking" deferral
    # first (well inside Discord's 3 s).  Saves a request per move under load.
    try:
        move = parse(text)  # the one parse of a typed move
    except UserError as e:
        await send_error(interaction, e.args[0])
        return
    playing = asyncio.ensure_future(bot.service.play_in(game_id, interaction.user.id, move))
    if not edit:
        done, _pending = await asyncio.wait({playing}, timeout=DEFER_AFTER_S)
        if not done:
            await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        outcome = await playing
    except UserError as e:
        await send_error(interaction, e.args[0])
        return
    try:
        if outcome.turn_ended:  # after_move answers with the table post (or defers privately)
            await after_move(bot, interaction, outcome, edit=edit)
            return
        # Inside the turn: the private panel with the studio as it is now (bot/turn/panel.py).
        lang = user_language(interaction)
        if isinstance(outcome.move, Undo):
            note = t("turnpanel.undone", lang)
        else:
            note = t(
                "replies.you_did", lang, what=describe(outcome.move, None, lang, bot.service.names(outcome.record))
            )
        await panel.show(interaction, bot, outcome.record, outcome.game, outcome.seat, note)
    except Exception as e:  # the move is stored: never "unchanged"; the outbox posts what is missing
        log.exception("answering a stored move in game %s failed", game_id)
        await send_error(interaction, post_failed(e))
