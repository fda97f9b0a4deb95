"""The ``/cubist`` slash commands.  Docstrings become the descriptions players see."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import re
import zoneinfo
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine import GameOptions

from . import hints, turnpanel
from .actions import announce_start, play_move
from .away import admin_move
from .computer import advise
from .hints import hint_view
from .history import move_line, recap_lines, seats_of_moves
from .i18n import (
    Message,
    artist_action,
    artist_name,
    card_name,
    catalog,
    language_choices,
    language_name,
    t,
    words_in_any_language,
)
from .i18n.choose import channel_language, remember, user_language
from .i18n.rules import reasons_text
from .rating import START
from .reminders import prefs_text, table_link
from .replies import clip, missing_permissions, png_file, send_error, studio_reply
from .service import TableSettings, UserError
from .stats import LEADERBOARD_SIZE, leaderboard_text, no_stats_text, stats_text
from .store import CannotWrite, Status
from .texts import MARKS, RULES_TOPICS, rules_text, scores_lines, turn_summary

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def _missing_text(missing: list[str], lang: str) -> str:
    """``missing_permissions``' English labels in ``lang``, as 'A, B, C'."""
    english = catalog.catalogues()[catalog.DEFAULT_LANGUAGE]
    keys = {text: key for key, text in english.items() if key.startswith("permissions.") and isinstance(text, str)}
    return t("common.list_sep", lang).join(t(keys[m], lang) if m in keys else m for m in missing)


def _clip_lines(text: str, limit: int = 2000) -> str:
    """Drops whole lines from the middle (keeping the heading) to fit Discord's limit."""
    lines = text.split("\n")
    while len("\n".join(lines)) > limit and len(lines) > 2:
        del lines[1]
    return clip("\n".join(lines), limit)


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
            raise UserError(Message("commands.bad_zone", zone=tz[:64]))
        changes["time_zone"] = tz
    if quiet is not None:
        if quiet.strip().lower() in words_in_any_language("commands.quiet_off_words"):
            changes["quiet_start"] = changes["quiet_end"] = None
        else:
            m = _QUIET.match(quiet)
            if m is None:
                raise UserError(Message("commands.bad_quiet", text=quiet[:20]))
            h1, m1, h2, m2 = int(m[1]), int(m[2] or 0), int(m[3]), int(m[4] or 0)
            if not (0 <= h1 <= 23 and 0 <= h2 <= 23 and m1 < 60 and m2 < 60):
                raise UserError(Message("commands.bad_quiet_range", text=quiet[:20]))
            if (h1, m1) == (h2, m2):
                raise UserError(Message("commands.quiet_same"))
            changes["quiet_start"], changes["quiet_end"] = h1 * 60 + m1, h2 * 60 + m2
    return changes


LEVEL_CHOICES = [
    app_commands.Choice(name="random (easy)", value="random"),
    app_commands.Choice(name="greedy (medium)", value="greedy"),
    app_commands.Choice(name="strong (hard)", value="strong"),
]


def _can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_channels)


class CubistCog(commands.GroupCog, group_name="cubist", group_description="Play Cubist, the dice-sculpting game"):
    def __init__(self, bot: CubistBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self):
        return self.bot.service

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            await send_error(interaction, original.args[0] if original.args else str(original))
            return
        if isinstance(original, CannotWrite):  # disk full, read-only: not "try again" forever
            await send_error(interaction, Message("trust.cannot_save"))
            return
        log.exception("command failed", exc_info=original)
        await send_error(interaction, Message("commands.error"))

    # --- lobby ---------------------------------------------------------------------------

    @app_commands.command()
    @app_commands.describe(
        players="Most players who may join (2-4)",
        clear_full_artist_row="Clear all four artist cards when they all hold dice (default on)",
        equal_turns="When the game's end is reached, finish the round so everyone has as many turns (default off)",
        turn_hours="Hours a player has for a turn before the others may vote (default 72)",
        reminder_hours="Hours between DM reminders (default 12)",
        computers="Computer players to seat now (0-3); a full table starts at once (solo play)",
        level="How well the computer players play (default greedy)",
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
    ) -> None:
        """Open a new game of Cubist in this channel; others join with /cubist join."""
        mine = user_language(interaction)
        missing = missing_permissions(interaction)
        if missing:
            await send_error(interaction, t("commands.missing_permissions", mine, missing=_missing_text(missing, mine)))
            return
        record = await self.service.new(
            interaction.guild_id,
            interaction.channel_id or 0,
            interaction.user.id,
            _name(interaction.user),
            options=GameOptions(clear_full_artist_row=clear_full_artist_row, equal_turns=equal_turns),
            settings=TableSettings(
                max_players=players, turn_hours=turn_hours, reminder_hours=reminder_hours, computer_level=level
            ),
            computers=computers,
            level=level,
            lang=await channel_language(self.bot, interaction),  # computer players' names
        )
        reachable = await self.bot.reminders.probe_dm(  # a DM: the player's own language
            interaction.user.id, t("commands.opened_dm", mine, game=record.id, channel=record.channel_id)
        )
        lang = await channel_language(self.bot, interaction)  # a channel post: the server's language
        dm = "" if reachable else t("commands.opened_dms_closed", lang)
        bots = [s.display_name for s in record.seats if s.is_computer]
        seated = t("commands.computers_seated", lang, names=t("common.list_sep", lang).join(bots)) if bots else ""
        if bots and len(record.seats) == players:  # a full table (solo play): no lobby to wait in
            record, game = await self.service.start(record.channel_id, interaction.user.id, lang=lang)
            lead = t("commands.opened_started", lang, name=_name(interaction.user), game=record.id, seated=seated) + dm
            assert interaction.channel is not None
            await announce_start(self.bot, interaction.channel, record, game, interaction=interaction, lead=lead)  # type: ignore[arg-type]
            return
        await interaction.response.send_message(
            t(
                "commands.opened",
                lang,
                name=_name(interaction.user),
                players=players,
                rule=t("commands.on" if clear_full_artist_row else "commands.off", lang),
                turn_hours=turn_hours,
                reminder_hours=reminder_hours,
                seated=seated,
                game=record.id,
            )
            + (t("commands.opened_equal_turns", lang) if equal_turns else "")
            + dm
        )

    @app_commands.command()
    async def join(self, interaction: discord.Interaction) -> None:
        """Join the game waiting in this channel's lobby."""
        record = await self.service.join(interaction.channel_id or 0, interaction.user.id, _name(interaction.user))
        # A short welcome DM tells us (and the player) whether turn reminders can reach them.
        reachable = await self.bot.reminders.probe_dm(
            interaction.user.id,
            t("commands.joined_dm", user_language(interaction), game=record.id, channel=record.channel_id),
        )
        lang = await channel_language(self.bot, interaction)
        names = t("common.list_sep", lang).join(s.display_name for s in record.seats)
        dm = t("commands.joined_dm_ok" if reachable else "commands.joined_dm_closed", lang)
        await interaction.response.send_message(
            t(
                "commands.joined",
                lang,
                name=_name(interaction.user),
                names=names,
                count=len(record.seats),
                max=self.service.table_settings(record).max_players,
                dm=dm,
            )
        )

    @app_commands.command()
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the lobby of this channel's game (before it starts)."""
        record = await self.service.leave(interaction.channel_id or 0, interaction.user.id)
        lang = await channel_language(self.bot, interaction)
        names = t("common.list_sep", lang).join(s.display_name for s in record.seats)
        await interaction.response.send_message(t("commands.left", lang, name=_name(interaction.user), names=names))

    @app_commands.command()
    @app_commands.describe(fill="Seat computer players of this level in the empty seats first")
    @app_commands.choices(fill=LEVEL_CHOICES)
    async def start(self, interaction: discord.Interaction, fill: str | None = None) -> None:
        """Start the game: random seating and first player."""
        missing = missing_permissions(interaction)
        if missing:
            mine = user_language(interaction)
            await send_error(interaction, t("commands.missing_permissions", mine, missing=_missing_text(missing, mine)))
            return
        # Checked and stored before answering, so a refusal can still be private.
        lang = await channel_language(self.bot, interaction)
        record, game = await self.service.start(interaction.channel_id or 0, interaction.user.id, fill=fill, lang=lang)
        channel = interaction.channel
        assert channel is not None
        await announce_start(self.bot, channel, record, game, interaction=interaction)  # type: ignore[arg-type]

    @app_commands.command()
    async def cancel(self, interaction: discord.Interaction) -> None:
        """Cancel this channel's game (its creator, or members with Manage Channels)."""
        record = await self.service.cancel(interaction.channel_id or 0, interaction.user.id, _can_manage(interaction))
        lang = await channel_language(self.bot, interaction)
        await interaction.response.send_message(
            t("commands.cancelled", lang, game=record.id, name=_name(interaction.user))
        )

    # --- moves -------------------------------------------------------------------------------

    @app_commands.command()
    @app_commands.describe(move="The move, e.g. 'place 4 w1 c3' (autocomplete lists the legal ones)")
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        """Make a move in your turn (any legal move; see /cubist rules notation)."""
        record = await self.service.channel_record(interaction.channel_id or 0)
        if record.status != Status.ACTIVE:
            raise UserError(Message("commands.not_started"))
        await play_move(self.bot, interaction, record.id, move)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        record = await self.service.store.active_game_for_channel(interaction.channel_id or 0)
        if record is None or record.status != Status.ACTIVE:
            return []
        record, game = await self.service.game(record.id)
        return [
            app_commands.Choice(name=t, value=t)
            for t in self.service.choices(game, record, interaction.user.id, current)
        ]

    @app_commands.command()
    async def turn(self, interaction: discord.Interaction) -> None:
        """Open your turn panel: build the turn by clicking."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        seat = self.service.seat_of(record, interaction.user.id)
        if seat != game.current_player:
            raise UserError(Message("service.not_your_turn", name=record.seats[game.current_player].display_name))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await turnpanel.show(interaction, self.bot, record, game, seat)

    @app_commands.command()
    async def hint(self, interaction: discord.Interaction) -> None:
        """Suggest a whole turn for you, with the reason (only you see it)."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        seat = self.service.seat_of(record, interaction.user.id)
        if game.is_over:
            raise UserError(Message("commands.hint_over"))
        if seat != game.current_player:
            playing = record.seats[game.current_player].display_name
            raise UserError(Message("commands.hint_not_your_turn", name=playing))
        await interaction.response.defer(ephemeral=True, thinking=True)
        mine = user_language(interaction)
        moves, reason = await asyncio.to_thread(advise, game, (record.seed or 0) + game.state.turn)
        if not moves:
            await interaction.followup.send(t("commands.hint_none", mine), ephemeral=True)
            return
        texts = [str(m) for m in moves]
        plan = turn_summary(texts, game, mine, self.service.names(record))  # in words, from this position
        text = t("hints.turn", mine, plan=plan, reason=reasons_text(reason, mine))
        hints.remember(record.id, record.version, interaction.user.id, texts)
        await interaction.edit_original_response(content=clip(text), view=hint_view(record.id, record.version, mine))

    @app_commands.command()
    @app_commands.describe(keep="Up to two storeroom dice to keep in storage, e.g. '6 2' (empty: none)")
    async def end(self, interaction: discord.Interaction, keep: str = "") -> None:
        """End your turn, keeping up to two storeroom dice in storage."""
        record = await self.service.channel_record(interaction.channel_id or 0)
        await play_move(self.bot, interaction, record.id, f"end {keep}".strip())

    @app_commands.command()
    async def undo(self, interaction: discord.Interaction) -> None:
        """Take back your last action this turn (not past the roll or a card drawn)."""
        record = await self.service.channel_record(interaction.channel_id or 0)
        await play_move(self.bot, interaction, record.id, "undo")

    # --- looking -------------------------------------------------------------------------

    @app_commands.command()
    async def board(self, interaction: discord.Interaction) -> None:
        """Show the whole table: museum, artists, installations and every studio."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.bot.pictures.table(
            record.id, record.version, game, self.service.names(record), user_language(interaction)
        )
        await interaction.followup.send(
            t("commands.board", interaction.locale, game=record.id, turn=game.state.turn + 1),
            file=png_file(png, "table.png"),
            ephemeral=True,
        )

    @app_commands.command()
    @app_commands.describe(player="Whose studio (default: yours)")
    async def studio(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Show a player's studio up close: workrooms, storeroom, storage and cards."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        who = player or interaction.user
        seat = record.seat_of(who.id)
        if seat is None:
            raise UserError(Message("commands.not_playing", name=_name(who)))
        await interaction.response.defer(ephemeral=True, thinking=True)
        caption = t("commands.studio_of", interaction.locale, name=seat.display_name)
        await studio_reply(self.bot, interaction, record, game, seat.seat, caption)

    @app_commands.command()
    async def museum(self, interaction: discord.Interaction) -> None:
        """Show the museum up close, with its cell names."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.bot.pictures.museum(
            record.id, record.version, game, self.service.names(record), user_language(interaction)
        )
        card = game.deck.museum(game.state.museum_card)
        name = card_name("museum", card, interaction.locale)
        await interaction.followup.send(
            t("commands.museum", interaction.locale, name=name), file=png_file(png, "museum.png"), ephemeral=True
        )

    @app_commands.command()
    async def cards(self, interaction: discord.Interaction) -> None:
        """Explain the face-up artist and installation cards."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        names = self.service.names(record)
        mine = user_language(interaction)
        lines = [t("commands.cards_artists", mine)]
        for slot, a in enumerate(game.state.artists):
            card = game.artist_card(slot)
            if card is None:
                lines.append(t("commands.cards_empty", mine, slot=slot + 1))
                continue
            holder = (
                t("commands.cards_holder", mine, count=a.count, value=a.value, name=names[a.owner])
                if a.owner is not None
                else ""
            )
            lines.append(
                t(
                    "commands.cards_artist",
                    mine,
                    slot=slot + 1,
                    artist=artist_name(card, mine),
                    title=card_name("painting", card, mine),
                    dice=card.dice,
                    description=artist_action(card, mine),
                    holder=holder,
                )
            )
        lines.append(t("commands.cards_offer", mine))
        for c in game.state.offer:
            if c is None:
                continue
            plan = game.deck.installation(c)
            bonus = ", ".join("/".join(map(str, b)) for b in plan.bonus)
            lines.append(
                t(
                    "commands.cards_installation",
                    mine,
                    card=c,
                    name=card_name("installation", plan, mine),
                    dice=plan.dice,
                    points=plan.points,
                    bonus=bonus,
                )
            )
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command()
    @app_commands.describe(topic="What to explain")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in RULES_TOPICS])
    async def rules(self, interaction: discord.Interaction, topic: str = "turn") -> None:
        """Short help on the rules of Cubist."""
        topic = topic if topic in RULES_TOPICS else "turn"
        await interaction.response.send_message(rules_text(topic, user_language(interaction)), ephemeral=True)

    # --- asynchronous play -------------------------------------------------------------------

    @app_commands.command()
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
        records = await self.service.store.open_games_of(interaction.user.id)
        if not records:
            raise UserError(Message("commands.no_open_game"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        prefs = None
        for record in records:
            seat = record.seat_of(interaction.user.id)
            assert seat is not None
            prefs = dataclasses.replace(seat.prefs, **changes)
            await self.service.store.set_seat_preferences(record.id, seat.seat, prefs)
        assert prefs is not None
        mine = user_language(interaction)
        shown = prefs_text(prefs, mine)
        # Something changed (or the player asked): try DMing again.
        reachable = await self.bot.reminders.probe_dm(
            interaction.user.id, t("commands.reminders_dm", mine, prefs=shown)
        )
        games = t("common.list_sep", mine).join(str(r.id) for r in records)
        dm = t("commands.dm_ok" if reachable else "commands.dm_closed", mine)
        head = "commands.saved" if changes else "commands.settings"
        await interaction.followup.send(t(head, mine, games=games, prefs=shown, dm=dm), ephemeral=True)

    @reminders.autocomplete("time_zone")
    async def time_zone_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        zones = sorted(z for z in _time_zones() if typed in z.lower())
        return [app_commands.Choice(name=z, value=z) for z in zones[:25]]

    @app_commands.command()
    async def mygames(self, interaction: discord.Interaction) -> None:
        """Every game, on any server, where it is your turn."""
        records = await self.service.store.games_waiting_on(interaction.user.id)
        mine = user_language(interaction)
        if not records:
            await interaction.response.send_message(t("commands.no_turn", mine), ephemeral=True)
            return
        lines = [t("commands.my_games", mine, count=len(records))]
        for r in records[:20]:
            post = await self.service.store.table_post(r.id)
            lines.append(
                t(
                    "commands.my_game",
                    mine,
                    game=r.id,
                    channel=r.channel_id,
                    turn=(r.turn or 0) + 1,
                    since=int(r.updated_at),
                    link=table_link(r.guild_id, r.channel_id, post and post[0]),
                )
            )
        await interaction.response.send_message(clip("\n".join(lines)), ephemeral=True)

    @app_commands.command()
    async def recap(self, interaction: discord.Interaction) -> None:
        """What happened since your last turn."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        seat = self.service.seat_of(record, interaction.user.id)
        names = self.service.names(record)
        mine = user_language(interaction)
        lines = await asyncio.to_thread(recap_lines, game, seat, names, mine)
        if not lines:
            text = t("commands.recap_nothing", mine)
        else:
            text = t("commands.recap_head", mine) + "\n" + "\n".join(lines)
        if game.current_player == seat and not game.is_over:
            text += "\n" + t("commands.recap_your_turn", mine)
        await interaction.response.send_message(_clip_lines(text), ephemeral=True)

    @app_commands.command()
    @app_commands.describe(n="How many moves (1-50, default 10)")
    async def history(self, interaction: discord.Interaction, n: app_commands.Range[int, 1, 50] = 10) -> None:
        """The last n moves of this channel's game."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        moves = await self.service.store.last_moves(record.id, n)
        mine = user_language(interaction)
        if not moves:
            await interaction.response.send_message(t("commands.history_none", mine), ephemeral=True)
            return
        seats = await asyncio.to_thread(seats_of_moves, game)
        names = self.service.names(record)
        lines = [move_line(m.ply, seats[m.ply - 1], m.move, names, mine) for m in moves]
        head = t("commands.history_head", mine, count=len(moves), game=record.id)
        await interaction.response.send_message(_clip_lines(head + "\n" + "\n".join(lines)), ephemeral=True)

    @app_commands.command()
    async def skip(self, interaction: discord.Interaction) -> None:
        """Skip the current player's turn (the game's creator or Manage Channels)."""
        await admin_move(self.bot, interaction, kick=None, can_manage=_can_manage(interaction))

    @app_commands.command()
    @app_commands.describe(player="The player to remove from the game")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        """Remove a player from the game (the game's creator or Manage Channels)."""
        await admin_move(self.bot, interaction, kick=player, can_manage=_can_manage(interaction))

    @app_commands.command()
    async def status(self, interaction: discord.Interaction) -> None:
        """Whose turn it is and the scores so far."""
        record = await self.service.channel_record(interaction.channel_id or 0)
        mine = user_language(interaction)
        if record.status == Status.LOBBY:
            names = t("common.list_sep", mine).join(s.display_name for s in record.seats)
            await interaction.response.send_message(
                t("commands.lobby", mine, game=record.id, names=names), ephemeral=True
            )
            return
        record, game = await self.service.game(record.id)
        names = self.service.names(record)
        seat = game.current_player
        head = (
            t("commands.over", mine)
            if game.is_over
            else t("commands.playing", mine, turn=game.state.turn + 1, mark=MARKS[seat], name=names[seat])
        )
        await interaction.response.send_message("\n".join([head, *scores_lines(game, names, mine)]), ephemeral=True)

    # --- statistics ------------------------------------------------------------------------
    # Public answers (people like to show them); refusals are ephemeral (UserError).

    @app_commands.command()
    @app_commands.describe(player="Whose statistics (default: yours)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """A player's finished games on this server: wins, scores, best installation, rating."""
        who = player or interaction.user
        stats = await self.service.player_stats(interaction.guild_id, interaction.user.id, who.id)
        if stats is None:
            mine = user_language(interaction)
            raise UserError(no_stats_text(_name(who), yourself=who.id == interaction.user.id, locale=mine))
        lang = await channel_language(self.bot, interaction)  # a public answer: the server's language
        await interaction.response.send_message(
            clip(stats_text(_name(who), stats, lang)), allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command()
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        """This server's Cubist ratings, computer players included."""
        entries = await self.service.leaderboard(interaction.guild_id, LEADERBOARD_SIZE)
        if not entries:
            raise UserError(leaderboard_text(entries, START, user_language(interaction)))
        lang = await channel_language(self.bot, interaction)
        await interaction.response.send_message(
            _clip_lines(leaderboard_text(entries, START, lang)), allowed_mentions=discord.AllowedMentions.none()
        )

    # --- languages ---------------------------------------------------------------------------
    # Every command records the user's Discord locale (DMs sent later follow it); the server's
    # language for channel posts is chosen here.

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await remember(self.bot.store, interaction)  # never raises
        return True

    @app_commands.command()
    @app_commands.describe(language="The language of game posts; empty: show the current one")
    @app_commands.choices(language=[app_commands.Choice(name=name, value=code) for code, name in language_choices()])
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        """The language of this server's game posts (Manage Server or Manage Channels)."""
        mine = user_language(interaction)  # the answer is ephemeral: the asker's own language
        if interaction.guild_id is None:
            raise UserError(t("language.no_guild", mine))
        if language is None:
            current = await channel_language(self.bot, interaction)
            name = language_name(current, mine)
            await interaction.response.send_message(t("language.current", mine, language=name), ephemeral=True)
            return
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and (perms.manage_guild or perms.manage_channels)):
            raise UserError(t("language.not_allowed", mine))
        await self.service.store.set_guild_language(interaction.guild_id, language)
        # Said in the new language: the admin sees what the channel will read from now on.
        await interaction.response.send_message(t("language.set", language), ephemeral=True)
