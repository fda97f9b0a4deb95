"""Looking at a game: ``/cubist board|studio|status|rules`` one level deep (used during turns),
``/cubist look museum|cards|recap|history|mygames`` in a group."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.chat.feature import Feature, clip_lines, display_name
from bot.chat.language import user_language
from bot.chat.replies import answer, clip, png_file
from bot.i18n import Message, artist_action, artist_name, card_name, t
from bot.service.refusals import UserError
from bot.store import GameRecord, Status
from bot.turn.panel import studio_reply
from bot.turn.reminders import table_link
from bot.words.history import logged_moves, move_line, recap_lines
from bot.words.texts import MARKS, RULES_TOPICS, rules_text, scores_lines
from engine import Game


class LookCommands(Feature):
    async def _drawn(
        self, interaction: discord.Interaction, draw: Callable[..., Awaitable[bytes]]
    ) -> tuple[GameRecord, Game, bytes]:
        """The channel's game and its picture by ``draw`` (the table, the museum) as this reader
        sees pictures; drawing takes a moment, so the answer is deferred first."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        await interaction.response.defer(ephemeral=True, thinking=True)
        style = await self.service.picture_style(interaction.user.id)
        lang = user_language(interaction)
        return record, game, await draw(record.id, record.version, game, self.service.names(record), lang, style)

    @app_commands.command()
    async def board(self, interaction: discord.Interaction) -> None:
        """Show the whole table: museum, artists, installations and every studio."""
        record, game, png = await self._drawn(interaction, self.bot.pictures.table)
        await answer(
            interaction,
            t("look.board", interaction.locale, game=record.id, turn=game.state.turn + 1),
            files=[png_file(png, "table.png")],
        )

    @app_commands.command()
    @app_commands.describe(player="Whose studio (default: yours)")
    async def studio(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Show a player's studio up close: workrooms, storeroom, storage space and cards."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        who = player or interaction.user
        seat = record.seat_of(who.id)
        if seat is None:
            raise UserError(Message("look.not_playing", name=display_name(who)))
        await interaction.response.defer(ephemeral=True, thinking=True)
        caption = t("look.studio_of", interaction.locale, name=seat.display_name)
        await studio_reply(self.bot, interaction, record, game, seat.seat, caption)

    @app_commands.command()
    async def status(self, interaction: discord.Interaction) -> None:
        """Whose turn it is and the scores so far."""
        record = await self.service.channel_record(interaction.channel_id or 0)
        mine = user_language(interaction)
        if record.status == Status.LOBBY:
            seated = t("common.list_sep", mine).join(s.display_name for s in record.seats)
            await interaction.response.send_message(t("look.lobby", mine, game=record.id, names=seated), ephemeral=True)
            return
        record, game = await self.service.queries.game(record.id)
        names = self.service.names(record)
        seat = game.current_player
        head = (
            t("look.over", mine)
            if game.is_over
            else t("look.playing", mine, turn=game.state.turn + 1, mark=MARKS[seat], name=names[seat])
        )
        await interaction.response.send_message("\n".join([head, *scores_lines(game, names, mine)]), ephemeral=True)

    @app_commands.command()
    @app_commands.describe(topic="What to explain")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in RULES_TOPICS])
    async def rules(self, interaction: discord.Interaction, topic: str = "turn") -> None:
        """Short help on the rules of Cubist."""
        topic = topic if topic in RULES_TOPICS else "turn"
        await interaction.response.send_message(rules_text(topic, user_language(interaction)), ephemeral=True)

    look = app_commands.Group(name="look", description="The museum, the cards, what happened, your games")

    @look.command()
    async def museum(self, interaction: discord.Interaction) -> None:
        """Show the museum up close, with its cell names."""
        _record, game, png = await self._drawn(interaction, self.bot.pictures.museum)
        card = game.deck.museum(game.state.museum_card)
        name = card_name("museum", card, interaction.locale)
        await answer(interaction, t("look.museum", interaction.locale, name=name), files=[png_file(png, "museum.png")])

    @look.command()
    async def cards(self, interaction: discord.Interaction) -> None:
        """Explain the face-up artist and installation cards."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        names = self.service.names(record)
        mine = user_language(interaction)
        lines = [t("look.cards_artists", mine)]
        for slot, a in enumerate(game.state.artists):
            card = game.artist_card(slot)
            if card is None:
                lines.append(t("look.cards_empty", mine, slot=slot + 1))
                continue
            holder = (
                t("look.cards_holder", mine, count=a.count, value=a.value, name=names[a.owner])
                if a.owner is not None
                else ""
            )
            lines.append(
                t(
                    "look.cards_artist",
                    mine,
                    slot=slot + 1,
                    artist=artist_name(card, mine),
                    title=card_name("painting", card, mine),
                    dice=card.dice,
                    description=artist_action(card, mine),
                    holder=holder,
                )
            )
        lines.append(t("look.cards_offer", mine))
        for c in game.state.offer:
            if c is None:
                continue
            plan = game.deck.installation(c)
            bonus = ", ".join("/".join(map(str, b)) for b in plan.bonus)
            lines.append(
                t(
                    "look.cards_installation",
                    mine,
                    card=c,
                    name=card_name("installation", plan, mine),
                    dice=plan.dice,
                    points=plan.points,
                    bonus=bonus,
                )
            )
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    @look.command()
    async def recap(self, interaction: discord.Interaction) -> None:
        """What happened since your last turn."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        seat = self.service.seat_of(record, interaction.user.id)
        names = self.service.names(record)
        mine = user_language(interaction)
        lines = await asyncio.to_thread(recap_lines, game, seat, names, mine)
        text = t("look.recap_nothing", mine) if not lines else t("look.recap_head", mine) + "\n" + "\n".join(lines)
        if game.current_player == seat and not game.is_over:
            text += "\n" + t("look.recap_your_turn", mine)
        await interaction.response.send_message(clip_lines(text), ephemeral=True)

    @look.command()
    @app_commands.describe(n="How many moves (1-50, default 10)")
    async def history(self, interaction: discord.Interaction, n: app_commands.Range[int, 1, 50] = 10) -> None:
        """The last n moves of this channel's game."""
        record, game = await self.service.channel_game(interaction.channel_id or 0)
        moves = await self.service.queries.last_moves(record.id, n)
        mine = user_language(interaction)
        if not moves:
            await interaction.response.send_message(t("look.history_none", mine), ephemeral=True)
            return
        logged = await asyncio.to_thread(logged_moves, game)
        names = self.service.names(record)
        lines = [move_line(m.ply, logged[m.ply - 1], m.move, names, game, mine) for m in moves]
        head = t("look.history_head", mine, count=len(moves), game=record.id)
        await interaction.response.send_message(clip_lines(head + "\n" + "\n".join(lines)), ephemeral=True)

    @look.command()
    async def mygames(self, interaction: discord.Interaction) -> None:
        """Every game, on any server, where it is your turn."""
        waiting = await self.service.games_waiting_with_posts(interaction.user.id)
        mine = user_language(interaction)
        if not waiting:
            await interaction.response.send_message(t("look.no_turn", mine), ephemeral=True)
            return
        lines = [t("look.my_games", mine, count=len(waiting))]
        for r, post in waiting[:20]:
            lines.append(
                t(
                    "look.my_game",
                    mine,
                    game=r.id,
                    channel=r.channel_id,
                    turn=(r.turn or 0) + 1,
                    since=int(r.updated_at),
                    link=table_link(r.guild_id, r.channel_id, post),
                )
            )
        await interaction.response.send_message(clip("\n".join(lines)), ephemeral=True)
