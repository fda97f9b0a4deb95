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

from .actions import announce_start, play_move
from .away import admin_move
from .computer import advise
from .history import move_line, recap_lines, seats_of_moves
from .reminders import prefs_text, table_link
from .replies import clip, missing_permissions, png_file, send_error, studio_reply
from .service import TableSettings, UserError
from .store import Status
from .texts import MARKS, RULES_TOPICS, scores_lines

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


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
            raise UserError(f"`{tz[:64]}` is not a time zone I know: use a name like `Europe/Paris` or `UTC`.")
        changes["time_zone"] = tz
    if quiet is not None:
        if quiet.strip().lower() in ("off", "none", "no"):
            changes["quiet_start"] = changes["quiet_end"] = None
        else:
            m = _QUIET.match(quiet)
            if m is None:
                raise UserError(f"`{quiet[:20]}` is not a time range: write quiet hours like `22-7` or `22:30-07:00`.")
            h1, m1, h2, m2 = int(m[1]), int(m[2] or 0), int(m[3]), int(m[4] or 0)
            if not (0 <= h1 <= 23 and 0 <= h2 <= 23 and m1 < 60 and m2 < 60):
                raise UserError(f"`{quiet[:20]}`: hours go from 0 to 23 and minutes from 00 to 59.")
            if (h1, m1) == (h2, m2):
                raise UserError("Quiet hours must start and end at different times (or `off`).")
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
            await send_error(interaction, str(original))
            return
        log.exception("command failed", exc_info=original)
        await send_error(interaction, "Something went wrong on my side; the game is unchanged. Please try again.")

    # --- lobby ---------------------------------------------------------------------------

    @app_commands.command()
    @app_commands.describe(
        players="Most players who may join (2-4)",
        clear_full_artist_row="Clear all four artist cards when they all hold dice (default on)",
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
        turn_hours: app_commands.Range[int, 1, 336] = 72,
        reminder_hours: app_commands.Range[int, 1, 168] = 12,
        computers: app_commands.Range[int, 0, 3] = 0,
        level: str = "greedy",
    ) -> None:
        """Open a new game of Cubist in this channel; others join with /cubist join."""
        missing = missing_permissions(interaction)
        if missing:
            await send_error(interaction, "I cannot run a game here: I am missing " + ", ".join(missing) + ".")
            return
        record = await self.service.new(
            interaction.guild_id,
            interaction.channel_id or 0,
            interaction.user.id,
            _name(interaction.user),
            options=GameOptions(clear_full_artist_row=clear_full_artist_row),
            settings=TableSettings(
                max_players=players, turn_hours=turn_hours, reminder_hours=reminder_hours, computer_level=level
            ),
            computers=computers,
            level=level,
        )
        rule = "on" if clear_full_artist_row else "off"
        reachable = await self.bot.reminders.probe_dm(
            interaction.user.id,
            f"You opened Cubist game {record.id} in <#{record.channel_id}>. I will DM you when it is your turn; "
            "change that with `/cubist reminders`.",
        )
        dm = "" if reachable else " (I cannot DM you: your DMs are closed, so I will mention you here instead.)"
        bots = [s.display_name for s in record.seats if s.is_computer]
        seated = f" Computer players: {', '.join(bots)}." if bots else ""
        if bots and len(record.seats) == players:  # a full table (solo play): no lobby to wait in
            record, game = await self.service.start(record.channel_id, interaction.user.id)
            await interaction.response.send_message(
                f"**{_name(interaction.user)}** opened and started game {record.id} of Cubist.{seated}" + dm
            )
            assert interaction.channel is not None
            await announce_start(self.bot, interaction.channel, record, game)  # type: ignore[arg-type]
            return
        await interaction.response.send_message(
            f"**{_name(interaction.user)}** opened a game of Cubist for up to {players} players "
            f"(full artist row clears: {rule}; turn clock {turn_hours} h; reminders every {reminder_hours} h)."
            f"{seated} Join with `/cubist join`; {_name(interaction.user)} starts it with `/cubist start` "
            f"(`fill` seats computer players in the empty seats). (game {record.id})" + dm
        )

    @app_commands.command()
    async def join(self, interaction: discord.Interaction) -> None:
        """Join the game waiting in this channel's lobby."""
        record = await self.service.join(interaction.channel_id or 0, interaction.user.id, _name(interaction.user))
        names = ", ".join(s.display_name for s in record.seats)
        # A short welcome DM tells us (and the player) whether turn reminders can reach them.
        reachable = await self.bot.reminders.probe_dm(
            interaction.user.id,
            f"You joined Cubist game {record.id} in <#{record.channel_id}>. I will DM you when it is your turn; "
            "change that with `/cubist reminders`.",
        )
        dm = (
            "I can DM them when it is their turn."
            if reachable
            else "I cannot DM them (their DMs are closed), so I will mention them here instead."
        )
        await interaction.response.send_message(
            f"**{_name(interaction.user)}** joined. Players: {names} ({len(record.seats)}/"
            f"{self.service.table_settings(record).max_players}). {dm}"
        )

    @app_commands.command()
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the lobby of this channel's game (before it starts)."""
        record = await self.service.leave(interaction.channel_id or 0, interaction.user.id)
        names = ", ".join(s.display_name for s in record.seats)
        await interaction.response.send_message(f"**{_name(interaction.user)}** left the lobby. Players: {names}.")

    @app_commands.command()
    @app_commands.describe(fill="Seat computer players of this level in the empty seats first")
    @app_commands.choices(fill=LEVEL_CHOICES)
    async def start(self, interaction: discord.Interaction, fill: str | None = None) -> None:
        """Start the game: random seating and first player."""
        missing = missing_permissions(interaction)
        if missing:
            await send_error(interaction, "I cannot run a game here: I am missing " + ", ".join(missing) + ".")
            return
        # Checked and stored before answering, so a refusal can still be private.
        record, game = await self.service.start(interaction.channel_id or 0, interaction.user.id, fill=fill)
        await interaction.response.send_message(f"Game {record.id} started with {len(record.seats)} players.")
        channel = interaction.channel
        assert channel is not None
        await announce_start(self.bot, channel, record, game)  # type: ignore[arg-type]

    @app_commands.command()
    async def cancel(self, interaction: discord.Interaction) -> None:
        """Cancel this channel's game (its creator, or members with Manage Channels)."""
        record = await self.service.cancel(interaction.channel_id or 0, interaction.user.id, _can_manage(interaction))
        await interaction.response.send_message(f"Game {record.id} was cancelled by **{_name(interaction.user)}**.")

    # --- moves -------------------------------------------------------------------------------

    @app_commands.command()
    @app_commands.describe(move="The move, e.g. 'place 4 w1 c3' (autocomplete lists the legal ones)")
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        """Make a move in your turn (any legal move; see /cubist rules notation)."""
        record = await self.service.channel_record(interaction.channel_id or 0)
        if record.status != Status.ACTIVE:
            raise UserError("The game here has not started yet.")
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
            raise UserError(f"It is not your turn: {record.seats[game.current_player].display_name} is playing.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await studio_reply(self.bot, interaction, record, game, seat, "Your turn: pick a die or an action.")

    @app_commands.command()
    async def hint(self, interaction: discord.Interaction) -> None:
        """Suggest a whole turn for you, with the reason (only you see it)."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        seat = self.service.seat_of(record, interaction.user.id)
        if game.is_over:
            raise UserError("The game is over: no more hints.")
        if seat != game.current_player:
            playing = record.seats[game.current_player].display_name
            raise UserError(f"Hints are for your own turn: {playing} is playing.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        moves, reason = await asyncio.to_thread(advise, game, (record.seed or 0) + game.state.turn)
        if not moves:
            await interaction.followup.send("I have no suggestion in this position.", ephemeral=True)
            return
        plan = " → ".join(f"`{m}`" for m in moves)
        await interaction.followup.send(clip(f"💡 Try {plan}\nWhy: {reason}."), ephemeral=True)

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
        png = await self.bot.pictures.table(record.id, record.version, game, self.service.names(record))
        await interaction.followup.send(
            f"Game {record.id}, turn {game.state.turn + 1}.", file=png_file(png, "table.png"), ephemeral=True
        )

    @app_commands.command()
    @app_commands.describe(player="Whose studio (default: yours)")
    async def studio(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Show a player's studio up close: workrooms, storeroom, storage and cards."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        who = player or interaction.user
        seat = record.seat_of(who.id)
        if seat is None:
            raise UserError(f"{_name(who)} is not playing in this game.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await studio_reply(self.bot, interaction, record, game, seat.seat, f"The studio of {seat.display_name}.")

    @app_commands.command()
    async def museum(self, interaction: discord.Interaction) -> None:
        """Show the museum up close, with its cell names."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.bot.pictures.museum(record.id, record.version, game, self.service.names(record))
        card = game.deck.museum(game.state.museum_card)
        await interaction.followup.send(f"The museum: {card.name}.", file=png_file(png, "museum.png"), ephemeral=True)

    @app_commands.command()
    async def cards(self, interaction: discord.Interaction) -> None:
        """Explain the face-up artist and installation cards."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        names = self.service.names(record)
        lines = ["**Artists**"]
        for slot, a in enumerate(game.state.artists):
            card = game.artist_card(slot)
            if card is None:
                lines.append(f"{slot + 1}. (empty)")
                continue
            holder = f" — holds {a.count}×{a.value} of {names[a.owner]}" if a.owner is not None else ""
            lines.append(
                f"{slot + 1}. **{card.display_name}**, *{card.title}* ({card.dice} dice): {card.description}{holder}"
            )
        lines.append("**Installations on offer**")
        for c in game.state.offer:
            if c is None:
                continue
            plan = game.deck.installation(c)
            bonus = ", ".join("/".join(map(str, b)) for b in plan.bonus)
            lines.append(f"#{c} **{plan.name}**: {plan.dice} dice, {plan.points} points, bonus dice {bonus}")
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command()
    @app_commands.describe(topic="What to explain")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in RULES_TOPICS])
    async def rules(self, interaction: discord.Interaction, topic: str = "turn") -> None:
        """Short help on the rules of Cubist."""
        await interaction.response.send_message(RULES_TOPICS[topic], ephemeral=True)

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
            raise UserError("You are not in any open Cubist game: settings are kept per game; join one first.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        prefs = None
        for record in records:
            seat = record.seat_of(interaction.user.id)
            assert seat is not None
            prefs = dataclasses.replace(seat.prefs, **changes)
            await self.service.store.set_seat_preferences(record.id, seat.seat, prefs)
        assert prefs is not None
        # Something changed (or the player asked): try DMing again.
        reachable = await self.bot.reminders.probe_dm(
            interaction.user.id, f"Your Cubist reminders: {prefs_text(prefs)}."
        )
        games = ", ".join(str(r.id) for r in records)
        dm = "I can DM you." if reachable else "I cannot DM you (your DMs are closed): I will mention you instead."
        head = "Saved" if changes else "Your settings"
        await interaction.followup.send(f"{head} for game(s) {games}: {prefs_text(prefs)}. {dm}", ephemeral=True)

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
        if not records:
            await interaction.response.send_message("It is not your turn in any game.", ephemeral=True)
            return
        lines = [f"It is your turn in {len(records)} game(s):"]
        for r in records[:20]:
            post = await self.service.store.table_post(r.id)
            since = f", waiting since <t:{int(r.updated_at)}:R>"
            lines.append(
                f"• Game {r.id} in <#{r.channel_id}> (turn {(r.turn or 0) + 1}{since}): "
                f"{table_link(r.guild_id, r.channel_id, post and post[0])}"
            )
        await interaction.response.send_message(clip("\n".join(lines)), ephemeral=True)

    @app_commands.command()
    async def recap(self, interaction: discord.Interaction) -> None:
        """What happened since your last turn."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        seat = self.service.seat_of(record, interaction.user.id)
        names = self.service.names(record)
        lines = await asyncio.to_thread(recap_lines, game, seat, names)
        if not lines:
            text = "Nothing has happened since your last turn."
        else:
            text = "**Since your last turn:**\n" + "\n".join(lines)
        if game.current_player == seat and not game.is_over:
            text += "\nIt is your turn now."
        await interaction.response.send_message(_clip_lines(text), ephemeral=True)

    @app_commands.command()
    @app_commands.describe(n="How many moves (1-50, default 10)")
    async def history(self, interaction: discord.Interaction, n: app_commands.Range[int, 1, 50] = 10) -> None:
        """The last n moves of this channel's game."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        moves = await self.service.store.last_moves(record.id, n)
        if not moves:
            await interaction.response.send_message("No move has been played yet.", ephemeral=True)
            return
        seats = await asyncio.to_thread(seats_of_moves, game)
        names = self.service.names(record)
        lines = [move_line(m.ply, seats[m.ply - 1], m.move, names) for m in moves]
        await interaction.response.send_message(
            _clip_lines(f"**The last {len(moves)} move(s) of game {record.id}:**\n" + "\n".join(lines)),
            ephemeral=True,
        )

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
        if record.status == Status.LOBBY:
            names = ", ".join(s.display_name for s in record.seats)
            await interaction.response.send_message(f"Lobby of game {record.id}: {names}.", ephemeral=True)
            return
        record, game = await self.service.game(record.id)
        names = self.service.names(record)
        seat = game.current_player
        head = (
            "The game is over."
            if game.is_over
            else f"Turn {game.state.turn + 1}: {MARKS[seat]} **{names[seat]}** is playing."
        )
        await interaction.response.send_message("\n".join([head, *scores_lines(game, names)]), ephemeral=True)
