"""``/cubist turn|move|end|undo|hint``: a turn's commands, one level deep so they stay short to type."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.chat.feature import Feature
from bot.chat.language import user_language
from bot.chat.replies import answer, clip
from bot.i18n import Message, t
from bot.i18n.rules import reasons_text
from bot.service.refusals import UserError
from bot.store import Status
from bot.turn import hints
from bot.turn import panel as turnpanel
from bot.turn.hints import hint_view
from bot.turn.moves import play_move
from bot.words.story import plan_plays, turn_words


class PlayCommands(Feature):
    @app_commands.command()
    @app_commands.describe(move="The move, e.g. 'place 4 w1 c3' (autocomplete lists the legal ones)")
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        """Make a move in your turn (any legal move; see /cubist rules notation)."""
        record = await self.service.channel_record(interaction.channel_id or 0)
        if record.status != Status.ACTIVE:
            raise UserError(Message("turn.not_started"))
        await play_move(self.bot, interaction, record.id, move)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        record = await self.service.queries.game_in_channel(interaction.channel_id or 0)
        if record is None or record.status != Status.ACTIVE:
            return []
        record, game = await self.service.queries.game(record.id)
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
            raise UserError(Message("turn.not_your_turn", name=record.seats[game.current_player].display_name))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await turnpanel.show(interaction, self.bot, record, game, seat)

    @app_commands.command()
    async def hint(self, interaction: discord.Interaction) -> None:
        """Suggest a whole turn for you, with the reason (only you see it)."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        seat = self.service.seat_of(record, interaction.user.id)
        if game.is_over:
            raise UserError(Message("hints.over"))
        if seat != game.current_player:
            playing = record.seats[game.current_player].display_name
            raise UserError(Message("hints.not_your_turn", name=playing))
        await interaction.response.defer(ephemeral=True, thinking=True)
        mine = user_language(interaction)
        got = await hints.suggest(game, (record.seed or 0) + game.state.turn, self.bot.hint_seconds)
        moves = got.moves
        if not moves:
            await answer(interaction, t("hints.none", mine))
            return
        plays = plan_plays(game, moves)  # what the moves would do from here, told as a suggestion
        plan = turn_words(plays, game.deck, mine, self.service.names(record), suggest=True)
        why = reasons_text(got.reasons, mine, self.service.names(record))
        words = "hints.turn_master" if got.level == "master" else "hints.turn_strong"
        text = t(words, mine, plan=plan, reason=why)
        hints.remember(record.id, record.version, interaction.user.id, list(moves))
        await interaction.edit_original_response(content=clip(text), view=hint_view(record.id, record.version, mine))

    @app_commands.command()
    @app_commands.describe(keep="Up to two storeroom dice to keep in the storage space, e.g. '6 2' (empty: none)")
    async def end(self, interaction: discord.Interaction, keep: str = "") -> None:
        """End your turn, keeping up to two storeroom dice in the storage space."""
        record = await self.service.channel_record(interaction.channel_id or 0)
        await play_move(self.bot, interaction, record.id, f"end {keep}".strip())

    @app_commands.command()
    async def undo(self, interaction: discord.Interaction) -> None:
        """Take back your last action this turn (not past the roll or a card drawn)."""
        record = await self.service.channel_record(interaction.channel_id or 0)
        await play_move(self.bot, interaction, record.id, "undo")
