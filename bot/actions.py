"""What buttons, selects and move commands do: load, ask the service, answer.

Every failure becomes an ephemeral answer (``UserError``'s message); nothing is stored
unless the service applied a move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from engine.moves import Undo

from . import turnpanel
from .components import game_buttons
from .i18n import Message, t
from .i18n.choose import channel_language, guild_language, user_language
from .replies import (
    AnswerUnconfirmed,
    after_move,
    answer,
    build_in_time,
    confirm_answer,
    missing_permissions,
    next_player_ping,
    png_file,
    post_as_response,
    post_failed,
    post_turn,
    send_error,
    studio_reply,
    whose_turn,
)
from .service import UserError
from .store import CorruptGame, GameNotFound, GameRecord, Status
from .texts import MARKS, describe, seat_colour_name

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)
DEFER_AFTER_S = 1.0  # a move not applied by then is deferred (the first answer is due within 3 s)


async def play_move(
    bot: CubistBot, interaction: discord.Interaction, game_id: int, text: str, *, edit: bool = False
) -> None:
    """Apply a move for the user and answer (the panel privately, or the channel post at turn end)."""
    missing = missing_permissions(interaction)
    if missing:
        await send_error(interaction, Message("actions.missing_permissions", missing=", ".join(missing)))
        return
    # A quick move is answered in one request; only a slow one gets the "thinking" deferral
    # first (well inside Discord's 3 s).  Saves a request per move under load (issue 6).
    playing = asyncio.ensure_future(bot.service.play_in(game_id, interaction.user.id, text))
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
        # Inside the turn: the private panel with the studio as it is now (bot/turnpanel.py).
        lang = user_language(interaction)
        if isinstance(outcome.move, Undo):
            note = t("turnpanel.undone", lang)
        else:
            note = t(
                "replies.you_did", lang, what=describe(outcome.move, None, lang, bot.service.names(outcome.record))
            )
        await turnpanel.show(interaction, bot, outcome.record, outcome.game, outcome.seat, note)
    except Exception as e:  # the move is stored: never "unchanged"; the outbox posts what is missing
        log.exception("answering a stored move in game %s failed", game_id)
        await send_error(interaction, post_failed(e))


async def _load(bot: CubistBot, interaction: discord.Interaction, game_id: int):
    try:
        return await bot.service.game_for_interaction(
            game_id, interaction.channel_id, interaction.user.id, in_dm=interaction.guild_id is None
        )
    except UserError as e:  # a forged or stale button: another channel's game, an impossible id
        await send_error(interaction, e.args[0])
    except GameNotFound:
        await send_error(interaction, Message("actions.gone"))
    except CorruptGame as e:
        log.error("game %s is corrupt: %s", game_id, e.reason)
        await send_error(interaction, Message("actions.corrupt"))
    return None


# --- what the game's buttons do (bot/items/game.py) ---------------------------------------


def _bot(interaction: discord.Interaction) -> CubistBot:
    return interaction.client  # type: ignore[return-value]


async def show_board(interaction: discord.Interaction, game_id: int) -> None:
    """The whole table, privately."""
    bot = _bot(interaction)
    loaded = await _load(bot, interaction, game_id)
    if loaded is None:
        return
    record, game = loaded
    await interaction.response.defer(ephemeral=True, thinking=True)
    lang = user_language(interaction)
    png = await bot.pictures.table(record.id, record.version, game, bot.service.names(record), lang)
    await answer(interaction, t("actions.table", lang), files=[png_file(png, "table.png")])


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    """A new game with the same players, announced in the channel."""
    bot = _bot(interaction)
    if await _load(bot, interaction, game_id) is None:
        return
    lang = await channel_language(bot, interaction)
    try:
        new_record, new_game = await bot.service.rematch(game_id, interaction.user.id, lang)
    except UserError as e:
        await send_error(interaction, e.args[0])
        return
    names = bot.service.names(new_record)
    seats = ", ".join(t("actions.rematch_seat", lang, seat=i + 1, name=n) for i, n in enumerate(names))
    await interaction.response.send_message(t("actions.rematch", lang, seats=seats))
    channel = interaction.channel
    assert channel is not None
    await post_table(bot, channel, new_record, new_game, lang, whose_turn(new_record, new_game, lang))  # type: ignore[arg-type]


async def _seated(interaction: discord.Interaction, game_id: int):
    """The game, the clicker's seat in it: None (and a refusal said) when they have none."""
    bot = _bot(interaction)
    loaded = await _load(bot, interaction, game_id)
    if loaded is None:
        return None
    record, game = loaded
    seat = record.seat_of(interaction.user.id)
    if seat is None:
        await send_error(interaction, Message("actions.not_playing"))
        return None
    return bot, record, game, seat


async def snooze(interaction: discord.Interaction, game_id: int) -> None:
    """The reminders of this game wait a few hours."""
    found = await _seated(interaction, game_id)
    if found is None:
        return
    bot, record, _game, _seat = found
    until = await bot.reminders.snooze(record.id, interaction.user.id)
    if until is None:
        await send_error(interaction, Message("actions.nothing_to_snooze"))
        return
    await send_error(interaction, Message("actions.snoozed", game=record.id, until=int(until)))


async def stop_reminders(interaction: discord.Interaction, game_id: int) -> None:
    """No more reminders for this game."""
    found = await _seated(interaction, game_id)
    if found is None:
        return
    bot, record, _game, _seat = found
    if not await bot.reminders.stop_game(record.id, interaction.user.id):
        await send_error(interaction, Message("actions.not_in_play"))
        return
    await send_error(interaction, Message("actions.stopped", game=record.id))


async def show_studio(interaction: discord.Interaction, game_id: int) -> None:
    """The clicker's studio, privately (with the turn panel when it is their turn)."""
    found = await _seated(interaction, game_id)
    if found is None:
        return
    bot, record, game, seat = found
    if record.status != Status.ACTIVE:
        await send_error(interaction, Message("actions.not_in_play"))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    note = t("actions.your_studio", user_language(interaction), name=seat.display_name)
    await studio_reply(bot, interaction, record, game, seat.seat, note)


async def old_panel_button(interaction: discord.Interaction, game_id: int, *, ask_end: bool) -> None:
    """Buttons and selects of posts from before the turn panel open it (End turn asks first)."""
    found = await _seated(interaction, game_id)
    if found is None:
        return
    _, record, game, seat = found
    if record.status != Status.ACTIVE:
        await send_error(interaction, Message("actions.not_in_play"))
        return
    if seat.seat != game.current_player:
        playing = record.seats[game.current_player].display_name
        await send_error(interaction, Message("service.not_your_turn", name=playing))
        return
    if ask_end:
        await turnpanel.ask_end(interaction, game_id, record.version)
    else:
        await turnpanel.open_panel(interaction, game_id)


def _why_no_end(game) -> Message:
    if game.is_abandoning():
        return Message("actions.why_abandoning")
    if not game.has_rolled():
        return Message("actions.why_short")
    return Message("actions.why_none")


async def announce_start(
    bot: CubistBot,
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
            "actions.seat",
            lang,
            mark=MARKS[i],
            seat=i + 1,
            name=record.seats[i].display_name,
            colour=seat_colour_name(i, lang),
        )
        for i in game.turn_order()
    )
    text = t("actions.begins", lang, seats=seats, whose_turn=whose_turn(record, game, lang))
    await post_table(bot, channel, record, game, lang, "\n".join(p for p in (lead, text) if p), interaction)


async def post_table(
    bot: CubistBot,
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
        return text, [png_file(png, name) for png, name in pictures], game_buttons(record.id, lang)

    text, files, view, carried = await build_in_time(interaction, build())
    mentions = next_player_ping(record, game)
    try:
        message = await post_as_response(interaction, text, files, view, mentions) if carried and interaction else None
    except AnswerUnconfirmed:  # Discord may have it: never a second start post blind
        await bot.reminders.after_table_post(record, game, None)
        bot.computers.wake(record, game)
        assert interaction is not None
        task = asyncio.create_task(_settle_start_post(bot, channel, interaction, build, mentions, record))
        _SETTLING.add(task)
        task.add_done_callback(_SETTLING.discard)
        return
    answered = interaction if message is not None else None
    if message is None:
        message = await channel.send(text, files=files, view=view, allowed_mentions=mentions)
        if interaction is not None and interaction.response.is_done():
            await send_error(interaction, Message("turnpanel.posted"))  # the deferral's answer
    await bot.reminders.after_table_post(record, game, message, answered)
    bot.computers.wake(record, game)  # the next turn may be a computer's


_SETTLING: set[asyncio.Task[None]] = set()
SETTLE_PAUSES = (2.0, 5.0, 10.0, 20.0, 40.0)  # s between looks at an unconfirmed start post


async def _settle_start_post(
    bot: CubistBot,
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
            await bot.service.remember_table_post(record.id, posted.id, record.version)
            return
        await bot.service.remember_table_post(record.id, found.id, record.version)
        return
    log.warning("game %s: its start post stayed unconfirmed; not posted again", record.id)


__all__ = [
    "announce_start",
    "old_panel_button",
    "play_move",
    "post_turn",
    "rematch",
    "show_board",
    "show_studio",
    "snooze",
    "stop_reminders",
]
