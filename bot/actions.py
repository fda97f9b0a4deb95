"""What buttons, selects and move commands do: load, ask the service, answer.

Every failure becomes an ephemeral answer (``UserError``'s message); nothing is stored
unless the service applied a move.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from . import panel
from .components import dest_view
from .replies import after_move, missing_permissions, post_turn, send_error, studio_reply
from .service import UserError
from .store import CorruptGame, GameNotFound, Status

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)


async def play_move(
    bot: CubistBot, interaction: discord.Interaction, game_id: int, text: str, *, edit: bool = False
) -> None:
    """Apply a move for the user and answer (studio privately, or the channel post at turn end)."""
    missing = missing_permissions(interaction)
    if missing:
        await send_error(interaction, "I cannot post the game here: I am missing " + ", ".join(missing) + ".")
        return
    if not edit:
        await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        outcome = await bot.service.play_in(game_id, interaction.user.id, text)
    except UserError as e:
        await send_error(interaction, str(e))
        return
    await after_move(bot, interaction, outcome, edit=edit)


async def _load(bot: CubistBot, interaction: discord.Interaction, game_id: int):
    try:
        return await bot.service.game(game_id)
    except GameNotFound:
        await send_error(interaction, "That game no longer exists.")
    except CorruptGame as e:
        log.error("game %s is corrupt: %s", game_id, e.reason)
        await send_error(interaction, "That game's saved data is damaged; an admin has been told in the log.")
    return None


async def on_button(bot: CubistBot, interaction: discord.Interaction, game_id: int, action: str) -> None:
    loaded = await _load(bot, interaction, game_id)
    if loaded is None:
        return
    record, game = loaded
    if action == "board":
        await interaction.response.defer(ephemeral=True, thinking=True)
        names = bot.service.names(record)
        png = await bot.pictures.table(record.id, record.version, game, names)
        from .replies import png_file

        await interaction.followup.send("The table:", file=png_file(png, "table.png"), ephemeral=True)
        return
    if action == "rematch":
        try:
            new_record, new_game = await bot.service.rematch(game_id, interaction.user.id)
        except UserError as e:
            await send_error(interaction, str(e))
            return
        names = bot.service.names(new_record)
        await interaction.response.send_message(
            "Rematch! Seats: " + ", ".join(f"p{i + 1} {n}" for i, n in enumerate(names)) + "."
        )
        from .replies import whose_turn

        channel = interaction.channel
        assert channel is not None
        png = await bot.pictures.table(new_record.id, new_record.version, new_game, names)
        from .components import game_buttons
        from .replies import png_file

        message = await channel.send(
            whose_turn(new_record, new_game), file=png_file(png, "table.png"), view=game_buttons(new_record.id)
        )  # type: ignore[union-attr]
        await bot.reminders.after_table_post(new_record, new_game, message)
        return
    if action in ("snooze", "stop"):
        await reminder_button(bot, interaction, record, action)
        return
    if record.status != Status.ACTIVE:
        await send_error(interaction, "This game is not in play any more.")
        return
    seat = record.seat_of(interaction.user.id)
    if seat is None:
        await send_error(interaction, "You are not playing in this game.")
        return
    if action == "studio":
        await interaction.response.defer(ephemeral=True, thinking=True)
        await studio_reply(bot, interaction, record, game, seat.seat, f"Your studio ({seat.display_name}).")
        return
    if seat.seat != game.current_player:
        await send_error(
            interaction, f"It is not your turn: {record.seats[game.current_player].display_name} is playing."
        )
        return
    if action == "turn":
        edit = interaction.message is not None and interaction.message.flags.ephemeral
        if not edit:
            await interaction.response.defer(ephemeral=True, thinking=True)
        await studio_reply(bot, interaction, record, game, seat.seat, "Your turn: pick a die or an action.", edit=edit)
        return
    if action == "undo":
        await play_move(bot, interaction, game_id, "undo")
        return
    if action == "end":
        text = panel.end_needs_choice(game)
        if text is not None:
            await play_move(bot, interaction, game_id, text)
            return
        choices = panel.end_choices(game)
        if not choices:
            await send_error(interaction, "You cannot end your turn yet: " + _why_no_end(game))
            return
        view, _n = dest_view(game_id, game, "end")
        room = game.state.players[seat.seat].storeroom
        await interaction.response.send_message(
            f"Your storeroom holds {', '.join(map(str, room))}. Up to two dice stay in storage; "
            "the others go back to your supply. Which do you keep?",
            view=view,
            ephemeral=True,
        )
        return
    await send_error(interaction, f"Unknown button {action!r}.")


async def reminder_button(bot: CubistBot, interaction: discord.Interaction, record, action: str) -> None:
    """The buttons under a reminder DM: snooze a few hours, or stop this game's reminders."""
    if record.seat_of(interaction.user.id) is None:
        await send_error(interaction, "You are not playing in this game.")
        return
    if action == "snooze":
        until = await bot.reminders.snooze(record.id, interaction.user.id)
        if until is None:
            await send_error(interaction, "This game is not in play any more: nothing to snooze.")
            return
        await send_error(interaction, f"Snoozed: no reminder for game {record.id} before <t:{int(until)}:t>.")
        return
    if not await bot.reminders.stop_game(record.id, interaction.user.id):
        await send_error(interaction, "This game is not in play any more.")
        return
    await send_error(
        interaction,
        f"No more reminders for game {record.id}. Turn them back on with `/cubist reminders enabled:True`.",
    )


def _why_no_end(game) -> str:
    if game.is_abandoning():
        return "first place the abandoned dice on an artist card or `release` them."
    if not game.has_rolled():
        return "your supply is short: return dice first (complete or abandon an installation, or use an artist)."
    return "no end of turn is possible now."


async def on_select(
    bot: CubistBot, interaction: discord.Interaction, game_id: int, action: str, arg: str, values: list[str]
) -> None:
    if not values:
        await send_error(interaction, "Nothing was chosen.")
        return
    value = values[0]
    loaded = await _load(bot, interaction, game_id)
    if loaded is None:
        return
    record, game = loaded
    seat = record.seat_of(interaction.user.id)
    if seat is None or record.status != Status.ACTIVE or seat.seat != game.current_player:
        await send_error(interaction, "It is not your turn in this game.")
        return
    edit = interaction.message is not None and interaction.message.flags.ephemeral
    if action == "pick":
        moves = panel.groups(game).get(value)
        if not moves:
            await send_error(
                interaction, f"`{value}` is not possible any more. Open the panel again with `/cubist turn`."
            )
            return
        if len(moves) == 1:
            await play_move(bot, interaction, game_id, moves[0], edit=edit)
            return
        view, n = dest_view(game_id, game, value)
        more = (
            f" Only the first {panel.MAX_OPTIONS} of {n} are listed: type `/cubist move {value}` for the rest."
            if n > panel.MAX_OPTIONS
            else ""
        )
        note = f"{panel.group_label(game, value)}: choose where.{more}"
        if edit:
            await interaction.response.edit_message(content=note, view=view)
        else:
            await interaction.response.send_message(note, view=view, ephemeral=True)
        return
    if action in ("dest", "end"):
        await play_move(bot, interaction, game_id, value, edit=edit)
        return
    await send_error(interaction, f"Unknown choice {action!r}.")


async def announce_start(bot: CubistBot, channel: discord.abc.Messageable, record, game) -> None:
    from .components import game_buttons
    from .replies import png_file, whose_turn
    from .texts import COLOUR_NAMES, MARKS

    names = bot.service.names(record)
    seats = ", ".join(
        f"{MARKS[i]} p{i + 1} **{n}** ({record.seats[i].colour or COLOUR_NAMES[i]})" for i, n in enumerate(names)
    )
    png = await bot.pictures.table(record.id, record.version, game, names)
    message = await channel.send(
        f"The game begins! Seating: {seats}.\n{whose_turn(record, game)}",
        file=png_file(png, "table.png"),
        view=game_buttons(record.id),
    )
    await bot.reminders.after_table_post(record, game, message)
    bot.computers.wake(record, game)  # the next turn may be a computer's


__all__ = ["announce_start", "on_button", "on_select", "play_move", "post_turn"]
