"""Away players on Discord: the vote's post and buttons when a turn clock runs out, and the
admins' skip and kick.  The vote's rules are the service's (bot/service/votes.py); the
engine decides what the moves do."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from babel.dates import format_timedelta

from bot.chat.base import Bot
from bot.chat.buttons import view_of
from bot.chat.delivery import deliver_turn
from bot.chat.guard import Guarded
from bot.chat.language import guild_language, user_language
from bot.chat.replies import send_error
from bot.i18n import Message, babel_locale, has, language, t
from bot.refusal_words import said
from bot.service import votes
from bot.service.game import MoveOutcome, TableSettings, in_play
from bot.service.gate import Entry
from bot.service.refusals import UserError
from bot.service.votes import needed, voters
from bot.store import GameRecord
from bot.words.texts import MARKS
from engine import Game
from engine.moves import Remove, Skip

log = logging.getLogger(__name__)
SNOWFLAKE_RESOLUTION = 0.001  # s

# The choices of the vote and their buttons (labels: ``votes.choice.<choice>`` in the catalogues).
CHOICES = {
    "skip": discord.ButtonStyle.primary,
    "remove": discord.ButtonStyle.danger,
    "computer": discord.ButtonStyle.secondary,
}


def level_text(level: str, locale: object) -> str:
    """A computer level's name in the reader's language (an unknown one as it is)."""
    return t(f"seats.level.{level}", locale) if has(f"seats.level.{level}") else level


def vote_text(record: GameRecord, game: Game, settings: TableSettings, locale: object) -> str:
    """The channel post that opens the vote, in ``locale`` (the server's language; English
    when not given)."""
    seat = record.seats[game.current_player]
    who = f"<@{seat.user_id}>" if seat.user_id else f"**{seat.display_name}**"
    return t(
        "votes.vote",
        locale,
        mark=MARKS[seat.seat],
        who=who,
        hours=settings.turn_hours,
        game=record.id,
        level=level_text(settings.computer_level, locale),
        needed=needed(record, game, "remove"),
        voters=len(voters(record, game)),
    )


class VoteButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cubist:(?P<game>\d+):v:(?P<choice>[a-z]+):(?P<turn>\d+)",
):
    """``cubist:<game>:v:<choice>:<turn>``: a vote on the away player of that turn."""

    def __init__(self, game_id: int, choice: str, turn: int, locale: object) -> None:
        style = CHOICES.get(choice, discord.ButtonStyle.secondary)
        label = t(f"votes.choice.{choice}", locale) if choice in CHOICES else choice
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"cubist:{game_id}:v:{choice}:{turn}"))
        self.game_id, self.choice, self.turn = game_id, choice, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> VoteButton:
        return cls(int(match["game"]), match["choice"], int(match["turn"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Bot = interaction.client  # type: ignore[assignment]
        try:
            await on_vote(bot, interaction, self.game_id, self.choice, self.turn)
        except UserError as e:
            await send_error(interaction, said(e))  # in the voter's language


def vote_view(record: GameRecord, game: Game, locale: object) -> discord.ui.View:
    """The vote's buttons, labelled in ``locale`` (the server's language; English when not given)."""
    return view_of(*(VoteButton(record.id, c, game.state.turn, locale) for c in CHOICES))


async def on_vote(bot: Bot, interaction: discord.Interaction, game_id: int, choice: str, turn: int) -> None:
    tally = await votes.cast(
        bot.service, game_id, turn, interaction.user.id, choice,
        channel_id=interaction.channel_id, in_dm=interaction.guild_id is None,
    )  # fmt: skip
    record, game, seat = tally.record, tally.game, tally.voter
    away, have, need = tally.away, tally.have, tally.need
    lang = await _channel_language(bot, interaction, record)  # public posts: the server's language
    if have < need:
        await interaction.response.send_message(
            t(f"votes.votes_{choice}", lang, voter=seat.display_name, away=away.display_name, have=have, need=need)
        )
        return
    if choice == "computer":
        level = bot.service.table_settings(record).computer_level
        after = await bot.service.hand_to_computer(game_id, away.seat, level, turn=turn, lang=lang)
        text = t(
            "votes.computer_took_over",
            lang,
            have=have,
            voters=len(voters(record, game)),
            level=level_text(level, lang),
            name=away.display_name,
        )
        holder, before = bot.service.powers_holder(after, game), bot.service.powers_holder(record, game)
        if holder is not None and (before is None or holder.seat != before.seat):
            text += "\n" + t("table.powers_passed", lang, name=holder.display_name)
        await interaction.response.send_message(text)
        await bot.jobs.taken_over(game_id)
        return
    move: Skip | Remove = Skip() if choice == "skip" else Remove(away.seat)
    headline = (
        t("votes.skipped_by_vote", lang, name=away.display_name)
        if choice == "skip"
        else t("votes.removed_by_vote", lang, have=have, voters=len(voters(record, game)), name=away.display_name)
    )
    outcome = await bot.service.table_move(
        game_id, interaction.user.id, move, entry=Entry.VOTE, turn=turn, headline=headline
    )
    await interaction.response.send_message(headline)
    await announce_table_move(bot, interaction, outcome, headline)


class SkipConfirmButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):skipok:(?P<turn>\d+)"
):
    """``cubist:<game>:skipok:<turn>``: yes, skip the turn ``/cubist table skip`` asked about
    (only that turn: refused if it ended meanwhile)."""

    def __init__(self, game_id: int, turn: int, locale: object) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("votes.skip_confirm", locale),
                style=discord.ButtonStyle.danger,
                custom_id=f"cubist:{game_id}:skipok:{turn}",
            )
        )
        self.game_id, self.turn = game_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SkipConfirmButton:
        return cls(int(match["game"]), int(match["turn"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Bot = interaction.client  # type: ignore[assignment]
        perms = getattr(interaction.user, "guild_permissions", None)
        try:
            await admin_move(
                bot, interaction, kick=None, can_manage=bool(perms and perms.manage_channels),
                asked=(self.game_id, self.turn),
            )  # fmt: skip
        except UserError as e:
            await send_error(interaction, said(e))


def _since(seconds: float, locale: object) -> str:
    """'3 hours', '2 jours': how long a turn has lasted, as the reader's language says it."""
    return format_timedelta(round(max(60.0, seconds)), threshold=1.5, locale=babel_locale(language(locale)))


async def ask_skip(bot: Bot, interaction: discord.Interaction, *, can_manage: bool) -> None:
    """``/cubist table skip`` asks first: whose turn it is and how long they have had it, and
    a button to confirm, pinned to that turn."""
    record, game = await bot.service.channel_game(interaction.channel_id or 0)
    bot.service.check(record, game, Skip(), Entry.ADMIN, interaction.user.id, can_manage=can_manage)
    mine = user_language(interaction)
    seat = record.seats[game.current_player]
    clock = await bot.service.queries.turn_clock(record.id)
    this_turn = clock if clock is not None and clock.turn == game.state.turn else None
    # A snowflake's time is whole milliseconds: a turn that began within the interaction's
    # millisecond was in play when it was sent.
    sent = interaction.created_at.timestamp() + SNOWFLAKE_RESOLUTION
    if this_turn is not None and this_turn.began is not None and this_turn.began > sent:
        # Sent while the turn before was in play: that turn is over, and this one is not what was meant.
        raise UserError(Message("votes.turn_over", turn=game.state.turn))
    began = this_turn.started_at if this_turn is not None else record.updated_at
    text = t("votes.skip_ask", mine, name=seat.display_name, since=_since(bot.clock() - began, mine))
    view = discord.ui.View(timeout=None)
    view.add_item(SkipConfirmButton(record.id, game.state.turn, mine))
    await interaction.response.send_message(text, view=view, ephemeral=True)


async def admin_move(
    bot: Bot,
    interaction: discord.Interaction,
    *,
    kick: discord.abc.User | None,
    can_manage: bool,
    asked: tuple[int, int] | None = None,
) -> None:
    """``/cubist table kick`` and the confirmed skip: the creator or a Manage Channels member.
    ``asked``: the game and turn the skip was confirmed for; refused when that game is no
    longer in play (cancelled, or another one started since) or that turn is over."""
    if kick is not None and not isinstance(kick, discord.User | discord.Member):
        raise UserError(Message("votes.unknown_member"))  # Discord sent an id without its member (forged)
    if asked is None:
        record, game = await bot.service.channel_game(interaction.channel_id or 0)
    else:
        loaded = await bot.service.for_interaction(
            asked[0], interaction.channel_id, interaction.user.id, in_dm=interaction.guild_id is None
        )
        record, game = loaded.record, loaded.game
        if not in_play(record, game):
            raise UserError(Message("votes.earlier_game"))
    bot.service.check(record, game, Skip(), Entry.ADMIN, interaction.user.id, can_manage=can_manage)
    if asked is not None and asked[1] != game.state.turn:
        raise UserError(Message("votes.turn_over", turn=asked[1] + 1))
    lang = await _channel_language(bot, interaction, record)  # the headline is public
    admin = interaction.user.display_name
    if kick is None:
        away = record.seats[game.current_player]
        move: Skip | Remove = Skip()
        headline = t("votes.admin_skipped", lang, admin=admin, name=away.display_name)
    else:
        target = record.seat_of(kick.id)
        if target is None:
            raise UserError(Message("votes.not_playing", name=kick.display_name))
        if game.state.players[target.seat].removed:
            raise UserError(Message("votes.already_left", name=target.display_name))
        move = Remove(target.seat)
        headline = t("votes.admin_removed", lang, admin=admin, name=target.display_name)
    # The turn this was meant for: refused if it ended meanwhile (the player moved first).
    # ... and to the turn in play when the admin sent the command (it may have ended since).
    outcome = await bot.service.table_move(
        record.id, interaction.user.id, move, entry=Entry.ADMIN, turn=game.state.turn, can_manage=can_manage,
        headline=headline, sent_at=interaction.created_at.timestamp(),
    )  # fmt: skip
    await interaction.response.send_message(headline)
    await announce_table_move(bot, interaction, outcome, headline)


async def _channel_language(bot: Bot, interaction: discord.Interaction, record: GameRecord) -> str:
    """The language of the game's channel posts: its server's."""
    here = interaction.guild_id == record.guild_id
    return await guild_language(bot, record.guild_id, interaction.guild_locale if here else None)


async def announce_table_move(bot: Bot, interaction: discord.Interaction, outcome: MoveOutcome, headline: str) -> None:
    channel: discord.abc.Messageable | None = interaction.channel  # type: ignore[assignment]
    if outcome.record.channel_id != interaction.channel_id or channel is None:
        channel = bot.get_partial_messageable(outcome.record.channel_id, guild_id=outcome.record.guild_id)
    await deliver_turn(bot, channel, outcome, headline=headline)  # type: ignore[arg-type]
