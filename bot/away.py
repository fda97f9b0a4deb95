"""Away players: the vote when a turn clock runs out, and the admins' skip and kick.

Skipping a turn (engine move ``skip``) needs one vote of another player; removing the
player (``remove pN``, RULES.md "Leaving a game") needs a majority of the other players
still in the game.  Votes are stored per turn, so they survive a restart; a vote button of
an earlier turn does nothing.  The engine decides what the moves do.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord

from engine import Game

from .replies import post_turn, send_error
from .service import MoveOutcome, TableSettings, UserError
from .store import GameRecord, Status
from .texts import MARKS

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)

# Hook: set to True once the bot has computer players; the vote then offers "a computer
# takes over" (VoteButton choice "computer"), to be handled in ``on_vote``.
COMPUTER_TAKEOVER_AVAILABLE = False

CHOICES = {
    "skip": ("Skip this turn", discord.ButtonStyle.primary),
    "remove": ("Remove from the game", discord.ButtonStyle.danger),
    "computer": ("A computer takes over", discord.ButtonStyle.secondary),
}


def voters(record: GameRecord, game: Game) -> list[int]:
    """Seats that may vote on the current player: the other humans still in the game."""
    return [
        s.seat
        for s in record.seats
        if s.seat != game.current_player and s.user_id is not None and not game.state.players[s.seat].removed
    ]


def needed(record: GameRecord, game: Game, choice: str) -> int:
    return 1 if choice == "skip" else len(voters(record, game)) // 2 + 1


def vote_text(record: GameRecord, game: Game, settings: TableSettings) -> str:
    seat = record.seats[game.current_player]
    who = f"<@{seat.user_id}>" if seat.user_id else f"**{seat.display_name}**"
    return (
        f"⌛ {MARKS[seat.seat]} {who}'s turn clock ({settings.turn_hours} h) in game {record.id} has run out. "
        f"The other players may vote: **skip this turn** (one vote is enough; their two highest storeroom "
        f"dice stay in storage) or **remove** them from the game (needs {needed(record, game, 'remove')} of "
        f"{len(voters(record, game))} votes). {who} can still play meanwhile."
    )


class VoteButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):v:(?P<choice>[a-z]+):(?P<turn>\d+)"
):
    """``cubist:<game>:v:<choice>:<turn>``: a vote on the away player of that turn."""

    def __init__(self, game_id: int, choice: str, turn: int) -> None:
        label, style = CHOICES.get(choice, (choice, discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"cubist:{game_id}:v:{choice}:{turn}"))
        self.game_id, self.choice, self.turn = game_id, choice, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> VoteButton:
        return cls(int(match["game"]), match["choice"], int(match["turn"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: CubistBot = interaction.client  # type: ignore[assignment]
        try:
            await on_vote(bot, interaction, self.game_id, self.choice, self.turn)
        except UserError as e:
            await send_error(interaction, str(e))


def vote_view(record: GameRecord, game: Game) -> discord.ui.View:
    from .components import _view

    choices = ["skip", "remove"] + (["computer"] if COMPUTER_TAKEOVER_AVAILABLE else [])
    return _view(*(VoteButton(record.id, c, game.state.turn) for c in choices))


async def on_vote(bot: CubistBot, interaction: discord.Interaction, game_id: int, choice: str, turn: int) -> None:
    if choice not in ("skip", "remove"):
        raise UserError("Computer players are not available yet.")
    record, game = await bot.service.game(game_id)
    if record.status != Status.ACTIVE or game.is_over:
        raise UserError("This game is not in play any more.")
    if game.state.turn != turn:
        raise UserError("That turn is over already: this vote no longer counts.")
    seat = record.seat_of(interaction.user.id)
    if seat is None:
        raise UserError("Only the players of this game can vote.")
    if seat.seat == game.current_player:
        raise UserError("This vote is about your own turn: just play it (`/cubist turn`).")
    if seat.seat not in voters(record, game):
        raise UserError("You have left this game: you cannot vote.")
    clock = await bot.store.turn_clock(game_id)
    if clock is None or clock.turn != turn or clock.expires_at > bot.clock():
        raise UserError("The turn clock has not run out yet.")
    counts = await bot.store.cast_vote(game_id, turn, seat.seat, choice)
    away = record.seats[game.current_player]
    have, need = counts.get(choice, 0), needed(record, game, choice)
    if have < need:
        what = "skip" if choice == "skip" else "remove"
        await interaction.response.send_message(
            f"**{seat.display_name}** votes to {what} **{away.display_name}** ({have} of {need} votes)."
        )
        return
    text = "skip" if choice == "skip" else f"remove p{away.seat + 1}"
    outcome = await bot.service.table_move(game_id, interaction.user.id, text, turn=turn)
    headline = (
        f"By vote, **{away.display_name}**'s turn was skipped."
        if choice == "skip"
        else f"By vote ({have} of {len(voters(record, game))}), **{away.display_name}** was removed from the game."
    )
    await interaction.response.send_message(headline)
    await announce_table_move(bot, interaction, outcome, headline)


async def admin_move(
    bot: CubistBot, interaction: discord.Interaction, *, kick: discord.abc.User | None, can_manage: bool
) -> None:
    """``/cubist skip`` and ``/cubist kick``: the creator or a Manage Channels member, at once."""
    record, game = await bot.service.channel_game(interaction.channel_id or 0)
    if interaction.user.id != record.creator_id and not can_manage:
        raise UserError("Only the game's creator or a member with Manage Channels can do this.")
    if kick is None:
        away = record.seats[game.current_player]
        text, headline = "skip", f"**{interaction.user.display_name}** skipped **{away.display_name}**'s turn."
    else:
        target = record.seat_of(kick.id)
        if target is None:
            raise UserError(f"{kick.display_name} is not playing in this game.")
        if game.state.players[target.seat].removed:
            raise UserError(f"{target.display_name} has already left this game.")
        text = f"remove p{target.seat + 1}"
        headline = f"**{interaction.user.display_name}** removed **{target.display_name}** from the game."
    outcome = await bot.service.table_move(record.id, interaction.user.id, text)
    await interaction.response.send_message(headline)
    await announce_table_move(bot, interaction, outcome, headline)


async def announce_table_move(
    bot: CubistBot, interaction: discord.Interaction, outcome: MoveOutcome, headline: str
) -> None:
    channel = interaction.channel
    if outcome.record.channel_id != interaction.channel_id or channel is None:
        channel = bot.get_partial_messageable(outcome.record.channel_id, guild_id=outcome.record.guild_id)
    await post_turn(bot, channel, outcome, headline=headline)  # type: ignore[arg-type]
