"""``/cubist lobby new|join|leave|start``: opening a table and filling its seats."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.chat.feature import LEVEL_CHOICES, Feature, display_name, missing_text
from bot.chat.language import channel_language, user_language
from bot.chat.replies import answer, missing_permissions, missing_thread_permissions, send_error
from bot.i18n import t
from bot.lobby.actions import announce_start
from bot.service.game import TableSettings
from bot.store import GameRecord
from engine import GameOptions

log = logging.getLogger(__name__)


class LobbyCommands(Feature):
    lobby = app_commands.Group(name="lobby", description="Open a table, join it, start the game")

    @lobby.command()
    @app_commands.describe(
        players="Most players who may join (2-4)",
        clear_full_artist_row="Clear all four artist cards when they all hold dice (default on)",
        equal_turns="When the game's end is reached, finish the round so everyone has as many turns (default off)",
        turn_hours="Hours a player has for a turn before the others may vote (default 72)",
        reminder_hours="Hours between DM reminders (default 12)",
        computers="Computer players to seat now (0-3); a full table starts at once (solo play)",
        level="How well the computer players play (default greedy)",
        thread="Play in a thread of its own (default: yes where I may create threads)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 4] = 4,
        clear_full_artist_row: bool = True,
        equal_turns: bool = False,
        turn_hours: app_commands.Range[int, 1, 336] = 72,
        reminder_hours: app_commands.Range[int, 1, 168] = 12,
        computers: app_commands.Range[int, 0, 3] = 0,
        level: str = "greedy",
        thread: bool | None = None,
    ) -> None:
        """Open a new game of Cubist (in a thread of its own); others join with /cubist lobby join."""
        mine = user_language(interaction)
        missing = missing_permissions(interaction)
        if missing:
            await send_error(interaction, t("lobby.missing_permissions", mine, missing=missing_text(missing, mine)))
            return
        # A thread per game keeps the channel readable and lets it host many games; inside a
        # thread (or a DM) the game lives where it was opened.
        threadable = interaction.guild_id is not None and not isinstance(interaction.channel, discord.Thread)
        lacking = missing_thread_permissions(interaction) if threadable else []
        if thread and threadable and lacking:
            await send_error(interaction, t("lobby.missing_thread", mine, missing=missing_text(lacking, mine)))
            return
        use_thread = threadable and not lacking and thread is not False
        lang = await channel_language(self.bot, interaction)  # channel posts: the server's language
        record = await self.service.new(
            interaction.guild_id,
            interaction.channel_id or 0,
            interaction.user.id,
            display_name(interaction.user),
            options=GameOptions(clear_full_artist_row=clear_full_artist_row, equal_turns=equal_turns),
            settings=TableSettings(
                max_players=players, turn_hours=turn_hours, reminder_hours=reminder_hours, computer_level=level
            ),
            computers=computers,
            level=level,
            lang=lang,  # computer players' names
            # In a thread (one a member made, say), the cooldown is its parent channel's.
            parent_id=interaction.channel.parent_id if isinstance(interaction.channel, discord.Thread) else None,
        )
        name = display_name(interaction.user)
        where: discord.abc.Messageable | None = None  # the thread, once the lobby moved there
        if use_thread:
            # The channel's post announces the game; the thread hangs from it.  Both the answer
            # and the look-up of its message are interaction calls, outside the global limit.
            await interaction.response.send_message(
                t("lobby.opened_thread", lang, name=name, game=record.id, players=players)
            )
            where, record = await self._open_thread(interaction, record, lang)
        reachable = await self.bot.dms.probe(  # a DM: the player's own language
            interaction.user.id, t("lobby.opened_dm", mine, game=record.id, channel=record.channel_id)
        )
        dm = "" if reachable else t("lobby.opened_dms_closed", lang)
        bots = [s.display_name for s in record.seats if s.is_computer]
        seated = t("lobby.computers_seated", lang, names=t("common.list_sep", lang).join(bots)) if bots else ""
        if bots and len(record.seats) == players:  # a full table (solo play): no lobby to wait in
            record, game = await self.service.start(record.channel_id, interaction.user.id, lang=lang)
            lead = t("lobby.opened_started", lang, name=name, game=record.id, seated=seated) + dm
            answered = interaction.response.is_done()
            channel = where or interaction.channel
            assert channel is not None
            await announce_start(
                self.bot,
                channel,  # type: ignore[arg-type]
                record,
                game,
                interaction=None if answered else interaction,
                lead=lead,
            )
            return
        text = (
            t(
                "lobby.opened",
                lang,
                name=name,
                players=players,
                rule=t("lobby.on" if clear_full_artist_row else "lobby.off", lang),
                turn_hours=turn_hours,
                reminder_hours=reminder_hours,
                seated=seated,
                game=record.id,
            )
            + (t("lobby.opened_equal_turns", lang) if equal_turns else "")
            + dm
        )
        if where is not None:
            await where.send(text)
        elif interaction.response.is_done():  # the thread could not be opened: the lobby stays here
            await answer(interaction, text, ephemeral=False)
        else:
            await interaction.response.send_message(text)

    async def _open_thread(
        self, interaction: discord.Interaction, record: GameRecord, lang: str
    ) -> tuple[discord.Thread | None, GameRecord]:
        """Opens the game's thread from the interaction's answer and moves the lobby into it.
        If Discord refuses (the permission was just taken away, the channel is a forum...),
        the game stays in the channel and says so."""
        try:
            message = await interaction.original_response()
            opened = await message.create_thread(
                name=t("lobby.thread_name", lang, game=record.id, name=display_name(interaction.user))[:100],
                auto_archive_duration=10080,  # a week: games are played across days
            )
        except discord.HTTPException as e:
            log.warning("game %s: could not open a thread in channel %s: %s", record.id, record.channel_id, e)
            await answer(interaction, t("lobby.thread_failed", lang), ephemeral=False)
            return None, record
        return opened, await self.service.move_lobby(record.id, opened.id)

    @lobby.command()
    async def join(self, interaction: discord.Interaction) -> None:
        """Join the game waiting in this channel's lobby."""
        record = await self.service.join(
            interaction.channel_id or 0, interaction.user.id, display_name(interaction.user)
        )
        # A short welcome DM tells us (and the player) whether turn reminders can reach them.
        reachable = await self.bot.dms.probe(
            interaction.user.id,
            t("lobby.joined_dm", user_language(interaction), game=record.id, channel=record.channel_id),
        )
        lang = await channel_language(self.bot, interaction)
        names = t("common.list_sep", lang).join(s.display_name for s in record.seats)
        dm = t("lobby.joined_dm_ok" if reachable else "lobby.joined_dm_closed", lang)
        await interaction.response.send_message(
            t(
                "lobby.joined",
                lang,
                name=display_name(interaction.user),
                names=names,
                count=len(record.seats),
                max=self.service.table_settings(record).max_players,
                dm=dm,
            )
        )

    @lobby.command()
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the lobby of this channel's game (before it starts)."""
        record = await self.service.leave(interaction.channel_id or 0, interaction.user.id)
        lang = await channel_language(self.bot, interaction)
        names = t("common.list_sep", lang).join(s.display_name for s in record.seats)
        await interaction.response.send_message(t("lobby.left", lang, name=display_name(interaction.user), names=names))

    @lobby.command()
    @app_commands.describe(fill="Seat computer players of this level in the empty seats first")
    @app_commands.choices(fill=LEVEL_CHOICES)
    async def start(self, interaction: discord.Interaction, fill: str | None = None) -> None:
        """Start the game: random seating and first player."""
        missing = missing_permissions(interaction)
        if missing:
            mine = user_language(interaction)
            await send_error(interaction, t("lobby.missing_permissions", mine, missing=missing_text(missing, mine)))
            return
        # Checked and stored before answering, so a refusal can still be private.
        lang = await channel_language(self.bot, interaction)
        record, game = await self.service.start(interaction.channel_id or 0, interaction.user.id, fill=fill, lang=lang)
        channel = interaction.channel
        assert channel is not None
        await announce_start(self.bot, channel, record, game, interaction=interaction)  # type: ignore[arg-type]
