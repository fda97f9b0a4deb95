"""Starting games: the post that starts one (``announce_start``, ``post_table``) and the
rematch button's new game.  A start post that Discord did not confirm is settled by looking
again, never posted twice blind."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.chat.base import Bot
from bot.chat.board_link import board_link
from bot.chat.buttons import game_buttons
from bot.chat.language import channel_language, guild_language
from bot.chat.load import host, load
from bot.chat.replies import (
    AnswerUnconfirmed,
    build_in_time,
    confirm_answer,
    next_player_ping,
    png_file,
    post_as_response,
    send_error,
    whose_turn,
)
from bot.chat.table_posts import after_table_post
from bot.i18n import Message, t
from bot.refusal_words import said
from bot.service.refusals import UserError
from bot.store import GameRecord
from bot.words.texts import MARKS, seat_colour_name

log = logging.getLogger(__name__)


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    """A new game with the same players, announced in the channel."""
    bot = host(interaction)
    if await load(interaction, game_id) is None:
        return
    lang = await channel_language(bot, interaction)
    try:
        new_record, new_game = await bot.service.rematch(game_id, interaction.user.id, lang)
    except UserError as e:
        await send_error(interaction, said(e))
        return
    names = bot.service.names(new_record)
    seats = ", ".join(t("lobby.rematch_seat", lang, seat=i + 1, name=n) for i, n in enumerate(names))
    await interaction.response.send_message(t("lobby.rematch", lang, seats=seats))
    channel = interaction.channel
    assert channel is not None
    await post_table(bot, channel, new_record, new_game, lang, whose_turn(new_record, new_game, lang))  # type: ignore[arg-type]


async def announce_start(
    bot: Bot,
    channel: discord.abc.Messageable,
    record,
    game,
    *,
    interaction: discord.Interaction | None = None,
    lead: str = "",
) -> None:
    """The one post that starts a game (``lead``: a line before it), as the answer to
    ``interaction`` when there is one."""
    lang = await guild_language(bot, record.guild_id)
    seats = ", ".join(
        t(
            "lobby.seat",
            lang,
            mark=MARKS[i],
            seat=i + 1,
            name=record.seats[i].display_name,
            colour=seat_colour_name(i, lang),
        )
        for i in game.active_players()  # in seat order, as the table picture lays them out
    )
    text = t("lobby.begins", lang, seats=seats, whose_turn=whose_turn(record, game, lang))
    await post_table(bot, channel, record, game, lang, "\n".join(p for p in (lead, text) if p), interaction)


async def post_table(
    bot: Bot,
    channel: discord.abc.Messageable,
    record,
    game,
    lang: str,
    text: str,
    interaction: discord.Interaction | None = None,
) -> None:
    """A table post that starts a game: the picture and the game's buttons, then the first
    player's DM (or a computer's move).  It is ``interaction``'s answer when it can be (an
    interaction response does not count against the bot's global rate limit)."""

    async def build() -> tuple[str, list[discord.File], discord.ui.View]:
        pictures = await bot.pictures.table_files(record.id, record.version, game, bot.service.names(record), lang)
        view = game_buttons(record.id, lang, board_link(bot, record.id, lang))
        return text, [png_file(png, name) for png, name in pictures], view

    text, files, view, carried = await build_in_time(interaction, build())
    mentions = next_player_ping(record, game)
    try:
        message = await post_as_response(interaction, text, files, view, mentions) if carried and interaction else None
    except AnswerUnconfirmed:  # Discord may have it: never a second start post blind
        await after_table_post(bot, record, game, None)
        assert interaction is not None
        task = asyncio.create_task(_settle_start_post(bot, channel, interaction, build, mentions, record))
        _SETTLING.add(task)
        task.add_done_callback(_SETTLING.discard)
        return
    answered = interaction if message is not None else None
    if message is None:
        message = await channel.send(text, files=files, view=view, allowed_mentions=mentions)
        if interaction is not None and interaction.response.is_done():
            await send_error(interaction, Message("panel.posted"))  # the deferral's answer
    await after_table_post(bot, record, game, message, answered)


_SETTLING: set[asyncio.Task[None]] = set()
SETTLE_PAUSES = (2.0, 5.0, 10.0, 20.0, 40.0)  # s between looks at an unconfirmed start post


async def _settle_start_post(
    bot: Bot,
    channel: discord.abc.Messageable,
    interaction: discord.Interaction,
    build: Callable[[], Awaitable[tuple[str, list[discord.File], discord.ui.View]]],
    mentions: discord.AllowedMentions,
    record: GameRecord,
) -> None:
    """A start post sent as an answer Discord did not confirm: look again for a while; when
    Discord says the interaction has no answer (404), post it in the channel, once.  While it
    will not say, nothing is posted (at most once: the players have their turn DMs)."""
    for pause in SETTLE_PAUSES:
        await asyncio.sleep(pause)
        try:
            found = await confirm_answer(interaction)
        except AnswerUnconfirmed:
            continue
        if found is None:  # Discord has no answer: it was not taken
            text, files, view = await build()
            posted = await channel.send(text, files=files, view=view, allowed_mentions=mentions)
            await bot.service.queries.remember_table_post(record.id, posted.id, record.version)
            return
        await bot.service.queries.remember_table_post(record.id, found.id, record.version)
        return
    log.warning("game %s: its start post stayed unconfirmed; not posted again", record.id)
