"""The ``/cubist`` slash commands.  Docstrings become the descriptions players see."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine import GameOptions

from .actions import announce_start, play_move
from .replies import missing_permissions, png_file, send_error, studio_reply
from .service import TableSettings, UserError
from .store import Status
from .texts import MARKS, RULES_TOPICS, scores_lines

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


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
    )
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 4] = 4,
        clear_full_artist_row: bool = True,
        turn_hours: app_commands.Range[int, 1, 336] = 72,
        reminder_hours: app_commands.Range[int, 1, 168] = 12,
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
            settings=TableSettings(max_players=players, turn_hours=turn_hours, reminder_hours=reminder_hours),
        )
        rule = "on" if clear_full_artist_row else "off"
        await interaction.response.send_message(
            f"**{_name(interaction.user)}** opened a game of Cubist for up to {players} players "
            f"(full artist row clears: {rule}; turn clock {turn_hours} h; reminders every {reminder_hours} h). "
            f"Join with `/cubist join`; {_name(interaction.user)} starts it with `/cubist start`. (game {record.id})"
        )

    @app_commands.command()
    async def join(self, interaction: discord.Interaction) -> None:
        """Join the game waiting in this channel's lobby."""
        record = await self.service.join(interaction.channel_id or 0, interaction.user.id, _name(interaction.user))
        names = ", ".join(s.display_name for s in record.seats)
        await interaction.response.send_message(
            f"**{_name(interaction.user)}** joined. Players: {names} ({len(record.seats)}/"
            f"{self.service.table_settings(record).max_players})."
        )

    @app_commands.command()
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the lobby of this channel's game (before it starts)."""
        record = await self.service.leave(interaction.channel_id or 0, interaction.user.id)
        names = ", ".join(s.display_name for s in record.seats)
        await interaction.response.send_message(f"**{_name(interaction.user)}** left the lobby. Players: {names}.")

    @app_commands.command()
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the game: random seating and first player."""
        missing = missing_permissions(interaction)
        if missing:
            await send_error(interaction, "I cannot run a game here: I am missing " + ", ".join(missing) + ".")
            return
        # Checked and stored before answering, so a refusal can still be private.
        record, game = await self.service.start(interaction.channel_id or 0, interaction.user.id)
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
