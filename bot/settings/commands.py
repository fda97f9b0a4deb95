"""``/cubist settings reminders|language``: a player's turn reminders, a server's language."""

from __future__ import annotations

import functools
import re
import zoneinfo

import discord
from discord import app_commands

from bot.chat.feature import Feature
from bot.chat.language import channel_language, user_language
from bot.chat.replies import answer
from bot.i18n import Message, language_choices, language_name, t, words_in_any_language
from bot.service.refusals import UserError
from bot.turn.reminders import prefs_text

_QUIET = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?\s*$")


@functools.cache
def _time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def parse_reminder_options(
    enabled: bool | None, every_hours: int | None, quiet: str | None, time_zone: str | None
) -> dict[str, object]:
    """The fields of ReminderPrefs to change; raises UserError (nothing changes) on bad input."""
    changes: dict[str, object] = {}
    if enabled is not None:
        changes["enabled"] = enabled
        changes["snoozed_until"] = None
    if every_hours is not None:
        changes["interval"] = every_hours * 3600
    if time_zone is not None:
        tz = time_zone.strip()
        if tz not in _time_zones() and tz != "UTC":
            raise UserError(Message("settings.bad_zone", zone=tz[:64]))
        changes["time_zone"] = tz
    if quiet is not None:
        if quiet.strip().lower() in words_in_any_language("settings.quiet_off_words"):
            changes["quiet_start"] = changes["quiet_end"] = None
        else:
            m = _QUIET.match(quiet)
            if m is None:
                raise UserError(Message("settings.bad_quiet", text=quiet[:20]))
            h1, m1, h2, m2 = int(m[1]), int(m[2] or 0), int(m[3]), int(m[4] or 0)
            if not (0 <= h1 <= 23 and 0 <= h2 <= 23 and m1 < 60 and m2 < 60):
                raise UserError(Message("settings.bad_quiet_range", text=quiet[:20]))
            if (h1, m1) == (h2, m2):
                raise UserError(Message("settings.quiet_same"))
            changes["quiet_start"], changes["quiet_end"] = h1 * 60 + m1, h2 * 60 + m2
    return changes


class SettingsCommands(Feature):
    settings = app_commands.Group(
        name="settings", description="Your turn reminders and pictures; this server's language"
    )

    @settings.command()
    @app_commands.describe(
        enabled="Reminders on or off",
        every_hours="Hours between reminders (1-168)",
        quiet="Quiet hours in your time, e.g. 22-7 or 22:30-07:00; 'off' for none",
        time_zone="Your time zone, e.g. Europe/Paris (for the quiet hours)",
    )
    async def reminders(
        self,
        interaction: discord.Interaction,
        enabled: bool | None = None,
        every_hours: app_commands.Range[int, 1, 168] | None = None,
        quiet: app_commands.Range[str, 1, 20] | None = None,
        time_zone: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Your turn reminders (all your games): on/off, interval, quiet hours in your time zone."""
        changes = parse_reminder_options(enabled, every_hours, quiet, time_zone)  # UserError: nothing changed
        if not await self.service.queries.open_games_of(interaction.user.id):
            raise UserError(Message("settings.no_open_game"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        records, prefs = await self.service.change_reminders(interaction.user.id, changes)
        mine = user_language(interaction)
        shown = prefs_text(prefs, mine)
        # Something changed (or the player asked): try DMing again.
        reachable = await self.bot.dms.probe(interaction.user.id, t("settings.reminders_dm", mine, prefs=shown))
        games = t("common.list_sep", mine).join(str(r.id) for r in records)
        dm = t("settings.dm_ok" if reachable else "settings.dm_closed", mine)
        head = "settings.saved" if changes else "settings.current"
        await answer(interaction, t(head, mine, count=len(records), games=games, prefs=shown, dm=dm))

    @reminders.autocomplete("time_zone")
    async def time_zone_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        zones = sorted(z for z in _time_zones() if typed in z.lower())
        return [app_commands.Choice(name=z, value=z) for z in zones[:25]]

    # Every command records the user's Discord locale (DMs sent later follow it); the server's
    # language for channel posts is chosen here.
    @settings.command()
    @app_commands.describe(style="Seen from a corner (cubes in stacks, the default) or from straight above")
    @app_commands.choices(
        style=[
            app_commands.Choice(name="from a corner", value="iso"),
            app_commands.Choice(name="from above", value="flat"),
        ]
    )
    async def pictures(self, interaction: discord.Interaction, style: str | None = None) -> None:
        """How the pictures only you see are drawn: your turn panel, DMs, Board and My studio."""
        mine = user_language(interaction)
        if style is None:
            current = await self.service.picture_style(interaction.user.id)
            text = t("settings.pictures_current", mine, style=t(f"settings.style_{current}", mine))
        else:
            await self.service.set_picture_style(interaction.user.id, style)  # UserError: nothing changed
            text = t("settings.pictures_set", mine, style=t(f"settings.style_{style}", mine))
        await answer(interaction, text)

    @settings.command()
    @app_commands.describe(language="The language of game posts; empty: show the current one")
    @app_commands.choices(language=[app_commands.Choice(name=name, value=code) for code, name in language_choices()])
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        """The language of this server's game posts (Manage Server or Manage Channels)."""
        mine = user_language(interaction)  # the answer is ephemeral: the asker's own language
        if interaction.guild_id is None:
            raise UserError(t("settings.language.no_guild", mine))
        if language is None:
            current = await channel_language(self.bot, interaction)
            name = language_name(current, mine)
            await interaction.response.send_message(t("settings.language.current", mine, language=name), ephemeral=True)
            return
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and (perms.manage_guild or perms.manage_channels)):
            raise UserError(t("settings.language.not_allowed", mine))
        await self.service.queries.set_guild_language(interaction.guild_id, language)
        # Said in the new language: the admin sees what the channel will read from now on.
        await interaction.response.send_message(t("settings.language.set", language), ephemeral=True)
