"""What the Snooze and Stop buttons under a turn-start DM or a reminder do."""

from __future__ import annotations

import discord

from bot.chat.load import host, load
from bot.chat.replies import send_error
from bot.i18n import Message
from bot.service.game import Access

SNOOZE_HOURS = 4  # "Remind me later": no DM about this game for this long


async def snooze(interaction: discord.Interaction, game_id: int) -> None:
    """The reminders of this game wait a few hours."""
    loaded = await load(interaction, game_id, Access.SEAT)
    if loaded is None:
        return
    bot, record = host(interaction), loaded.record
    until = bot.clock() + SNOOZE_HOURS * 3600
    if await bot.service.set_reminders(record.id, interaction.user.id, snoozed_until=until) is None:
        await send_error(interaction, Message("reminders.nothing_to_snooze"))
        return
    await send_error(interaction, Message("reminders.snoozed", game=record.id, until=int(until)))


async def stop_reminders(interaction: discord.Interaction, game_id: int) -> None:
    """No more reminders for this game."""
    loaded = await load(interaction, game_id, Access.SEAT)
    if loaded is None:
        return
    bot, record = host(interaction), loaded.record
    if await bot.service.set_reminders(record.id, interaction.user.id, enabled=False) is None:
        await send_error(interaction, Message("table.not_in_play_any_more"))
        return
    await send_error(interaction, Message("reminders.stopped", game=record.id))
