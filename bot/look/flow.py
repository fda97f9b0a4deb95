"""What the turn post's Studio and Board buttons show, privately."""

from __future__ import annotations

import discord

from bot.chat.language import user_language
from bot.chat.load import host, load
from bot.chat.replies import answer, png_file
from bot.i18n import t
from bot.service.game import Access
from bot.turn.panel import studio_reply


async def show_board(interaction: discord.Interaction, game_id: int) -> None:
    """The whole table, privately."""
    loaded = await load(interaction, game_id)
    if loaded is None:
        return
    bot, record, game = host(interaction), loaded.record, loaded.game
    await interaction.response.defer(ephemeral=True, thinking=True)
    lang = user_language(interaction)
    style = await bot.service.picture_style(interaction.user.id)
    png = await bot.pictures.table(record.id, record.version, game, bot.service.names(record), lang, style)
    await answer(interaction, t("look.table", lang), files=[png_file(png, "table.png")])


async def show_studio(interaction: discord.Interaction, game_id: int) -> None:
    """The clicker's studio, privately (with the turn panel when it is their turn)."""
    loaded = await load(interaction, game_id, Access.SEAT_IN_PLAY)
    if loaded is None or loaded.seat is None:
        return
    bot, record, game, seat = host(interaction), loaded.record, loaded.game, loaded.seat
    await interaction.response.defer(ephemeral=True, thinking=True)
    note = t("look.your_studio", user_language(interaction), name=seat.display_name)
    await studio_reply(bot, interaction, record, game, seat.seat, note)
