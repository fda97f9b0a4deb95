"""Turning service results into Discord messages: the turn post, studio replies, errors.

Shared by the slash commands and the persistent components so both answer alike.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from engine import Game
from engine.moves import Undo

from . import panel
from .components import game_buttons, panel_view, rematch_view
from .replay_gif import replay_gif
from .service import MoveOutcome
from .store import GameRecord
from .texts import MARKS, describe, scores_lines, tie_break_text, turn_summary

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)
MAX_CONTENT = 2000

NEEDED = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
    "read_message_history": "Read Message History",
}


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def png_file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """What the bot lacks in this channel to post turns (empty when all is well)."""
    perms = interaction.app_permissions
    needed = dict(NEEDED)
    if isinstance(interaction.channel, discord.Thread):
        needed["send_messages_in_threads"] = "Send Messages in Threads"
        needed.pop("send_messages")
    return [label for attr, label in needed.items() if not getattr(perms, attr, False)]


async def send_error(interaction: discord.Interaction, message: str) -> None:
    """An ephemeral answer, whether or not the interaction was deferred already."""
    message = clip(message)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.NotFound:
        # The interaction expired (answered after Discord's 3 s): nobody can see an answer
        # now, and raising here only turns one late reply into a traceback storm.
        log.warning("interaction %s expired before its answer: %s", interaction.id, message[:80])


def whose_turn(record: GameRecord, game: Game) -> str:
    seat = record.seats[game.current_player]
    roll = game.state.last_roll
    rolled = f" Rolled: {' and '.join(map(str, roll))}." if roll else ""
    if seat.is_computer:
        return f"{MARKS[game.current_player]} **{seat.display_name}** plays next.{rolled}"
    who = f"<@{seat.user_id}>" if seat.user_id else f"**{seat.display_name}**"
    return f"{MARKS[game.current_player]} {who}, it is your turn.{rolled}"


async def post_turn(
    bot: CubistBot, channel: discord.abc.Messageable, outcome: MoveOutcome, *, headline: str | None = None
) -> discord.Message:
    """The channel post after every turn: table picture, what was done, who is next (with
    the replay GIF at the end of the game).  Then the next player gets their DM."""
    record, game = outcome.record, outcome.game
    names = [s.display_name for s in record.seats]
    mover = names[outcome.seat]
    lines = [headline or f"{MARKS[outcome.seat]} **{mover}** {turn_summary(outcome.turn_moves, game)}."]
    if outcome.finished:
        lines.append("**The game is over.**")
        lines += scores_lines(game, names)
        tie = tie_break_text(game, names)
        if tie:
            lines.append(tie)
        winners = game.winners()
        lines.append("🏛 The new museum is named after " + " and ".join(f"**{names[w]}**" for w in winners) + "!")
        view: discord.ui.View = rematch_view(record.id)
    else:
        lines.append(whose_turn(record, game))
        view = game_buttons(record.id)
    png = await bot.pictures.table(record.id, record.version, game, names)
    files = [png_file(png, "table.png")]
    if outcome.finished:
        try:
            gif = await asyncio.to_thread(replay_gif, game, names)
            files.append(discord.File(io.BytesIO(gif), filename="replay.gif"))
            lines.append("🎞 The replay of the game is attached.")
        except Exception:  # the result matters more than the animation
            log.exception("replay GIF of game %s failed", record.id)
    message = await channel.send(clip("\n".join(lines)), files=files, view=view)
    await bot.reminders.after_table_post(record, game, message)
    bot.computers.wake(record, game)  # the next turn may be a computer's
    return message


async def studio_reply(
    bot: CubistBot,
    interaction: discord.Interaction,
    record: GameRecord,
    game: Game,
    seat: int,
    note: str,
    *,
    edit: bool = False,
) -> None:
    """Answer the player privately with their studio picture and the turn panel."""
    names = [s.display_name for s in record.seats]
    png = await bot.pictures.studio(record.id, record.version, game, names, seat)
    file = png_file(png, "studio.png")
    mine = game.current_player == seat and not game.is_over
    view = panel_view(record.id, game) if mine else None
    content = clip(note)
    if edit:
        if interaction.response.is_done():
            await interaction.edit_original_response(content=content, attachments=[file], view=view)
        else:
            await interaction.response.edit_message(content=content, attachments=[file], view=view)
        return
    kwargs = {"view": view} if view is not None else {}
    if interaction.response.is_done():
        await interaction.followup.send(content, file=file, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, file=file, ephemeral=True, **kwargs)


async def after_move(
    bot: CubistBot, interaction: discord.Interaction, outcome: MoveOutcome, *, edit: bool = False
) -> None:
    """Answer a move: the studio privately while the turn goes on; the channel post when it ends."""
    if outcome.turn_ended:
        # Post first, so that the player's answer arrives after the table is in the channel.
        channel = interaction.channel
        assert channel is not None
        await post_turn(bot, channel, outcome)  # type: ignore[arg-type]
        note = "Your turn is over." if not outcome.finished else "The game is over."
        if edit and not interaction.response.is_done():
            await interaction.response.edit_message(content=note, attachments=[], view=None)
        else:
            await send_error(interaction, note)
        return
    what = "Undone." if isinstance(outcome.move, Undo) else f"You {describe(outcome.move, outcome.game)}."
    groups = panel.groups(outcome.game)
    hint = f" {len(outcome.game.legal_moves())} moves possible now." if groups else ""
    await studio_reply(bot, interaction, outcome.record, outcome.game, outcome.seat, what + hint, edit=edit)
