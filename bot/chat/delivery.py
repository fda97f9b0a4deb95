"""The Discord side of the outbox (``bot/jobs/outbox.py``): a turn's channel post, sent by
the interaction or computer player that ended the turn, or by the poller (subscribed to
``TURN_POST_DUE``), exactly once.

An interaction's answer carries no nonce, so a claim for a post that may become one names the
interaction; whoever takes over such a claim first asks Discord for that interaction's answer
(``@original``) and, if it is the turn post, only marks the row done.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging

import aiohttp
import discord

from bot.chat.base import Bot
from bot.chat.board_link import board_link
from bot.chat.buttons import game_buttons, rematch_view
from bot.chat.language import guild_language
from bot.chat.lost_channel import find_home
from bot.chat.replies import (
    AnswerUnconfirmed,
    build_in_time,
    channel_lost,
    clip,
    next_player_ping,
    png_file,
    post_as_response,
    whose_turn,
)
from bot.chat.table_posts import after_table_post
from bot.i18n import join, t
from bot.i18n.pictures import render_labels
from bot.jobs.outbox import ANSWER, nonce
from bot.pictures.chart import score_chart
from bot.pictures.replay import replay_gif
from bot.service.game import MoveOutcome, TurnPost
from bot.store import GameRecord, Job
from bot.words.story import turn_headline
from bot.words.texts import scores_lines, tie_break_text
from engine import Game

log = logging.getLogger(__name__)


def answer_ref(interaction: discord.Interaction) -> str:
    return f"{interaction.application_id}:{interaction.token}"


def answer_owner(bot: Bot, interaction: discord.Interaction) -> str:
    """The claim of a post that may become ``interaction``'s answer: an answer carries no
    nonce, so a worker taking over after a crash first looks whether it was posted."""
    return f"{bot.outbox.owner}{ANSWER}{answer_ref(interaction)}"


async def posted_as_answer(bot: Bot, row: Job) -> int | None:
    """The id of the turn post a sender sent as its interaction's answer, if Discord has it;
    None when it has not.  Raises AnswerUnconfirmed while Discord will not say (429, 5xx,
    timeouts): the row is tried again later, never posted blind."""
    ref = row.answer or (row.claimed_by.split(ANSWER, 1)[1] if row.claimed_by and ANSWER in row.claimed_by else None)
    if ref is None:
        return None
    app, _, token = ref.partition(":")
    try:
        webhook = discord.Webhook.partial(int(app), token, client=bot)
        message = await webhook.fetch_message("@original")  # type: ignore[arg-type]  # Discord's alias
    except (discord.NotFound, ValueError):
        return None  # never answered with a message
    except discord.HTTPException as e:
        if e.status == 401:  # the token's 15 minutes are over: nobody can tell any more
            log.warning("outbox row %s: its interaction expired before its answer could be read", row.id)
            return None
        raise AnswerUnconfirmed(row.id) from e
    except (TimeoutError, aiohttp.ClientError) as e:
        raise AnswerUnconfirmed(row.id) from e
    marks = {f"cubist:{row.game_id}:play", f"cubist:{row.game_id}:b:rematch"}
    ids = {getattr(c, "custom_id", None) for r in message.components for c in getattr(r, "children", [])}
    if marks & ids and not message.flags.ephemeral:
        log.info("outbox row %s was posted as its interaction's answer; not again", row.id)
        await bot.service.queries.remember_table_post(row.game_id, message.id, row.version or 0)
        return message.id
    return None


async def send_turn_row(bot: Bot, record: GameRecord, game: Game, row: Job) -> int:
    """The poller's turn post (``TURN_POST_DUE``): unless it went out as an answer already."""
    answered = await posted_as_answer(bot, row)
    if answered is not None:
        return answered
    channel = bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
    message = await post_in_place(bot, channel, TurnPost.from_payload(record, game, row.payload), nonce=nonce(row.id))
    return message.id


async def post_turn(
    bot: Bot,
    channel: discord.abc.Messageable,
    post: TurnPost,
    *,
    interaction: discord.Interaction | None = None,
    nonce: str | None = None,
) -> discord.Message:
    """The channel post after every turn: table picture, what was done, who is next (with
    the replay GIF at the end of the game).  Then the next player gets their DM.  With
    ``interaction`` (the one that ended the turn, in the game's channel) the post is its
    public answer, which costs no request under Discord's global limit."""
    record, game = post.record, post.game

    async def build() -> tuple[str, list[discord.File], discord.ui.View]:
        lang = await guild_language(bot, record.guild_id)
        names = [s.display_name for s in record.seats]
        lines = [post.headline or turn_headline(post.seat, post.turn, game.deck, names, lang)]
        if post.powers_to is not None:
            lines.append(t("table.powers_passed", lang, name=post.powers_to))
        if post.finished:
            lines.append(t("table.over_headline", lang))
            lines += scores_lines(game, names, lang)
            tie = tie_break_text(game, names, lang)
            if tie:
                lines.append(tie)
            winners = join([f"**{names[w]}**" for w in game.winners()], lang)
            lines.append(t("table.museum_named", lang, names=winners))
            view: discord.ui.View = rematch_view(record.id, lang, board_link(bot, record.id, lang))
        else:
            lines.append(whose_turn(record, game, lang))
            view = game_buttons(record.id, lang, board_link(bot, record.id, lang))
        pictures = await bot.pictures.table_files(record.id, record.version, game, names, lang)
        files = [png_file(png, name) for png, name in pictures]
        if post.finished:
            try:
                gif = await asyncio.to_thread(replay_gif, game, names, render_labels(lang))
                files.append(discord.File(io.BytesIO(gif), filename="replay.gif"))
                lines.append(t("table.replay", lang))
            except Exception:  # the result matters more than the animation
                log.exception("replay GIF of game %s failed", record.id)
            try:  # the score-over-time chart (bot/stats/words.py)
                files.append(png_file(await asyncio.to_thread(score_chart, game, names, lang), "scores.png"))
                lines.append(t("stats.chart_attached", lang))
            except Exception:  # as for the GIF: the result matters more than the chart
                log.exception("score chart of game %s failed", record.id)
        return clip("\n".join(lines)), files, view

    content, files, view, carried = await build_in_time(interaction, build())
    mentions = next_player_ping(record, game)
    try:
        message = (
            await post_as_response(interaction, content, files, view, mentions) if carried and interaction else None
        )
    except AnswerUnconfirmed:  # maybe posted: not again; the next player's turn goes on
        await after_table_post(bot, record, game, None)
        raise
    answered = interaction if message is not None else None
    if message is None:
        if nonce is not None:  # an outbox row's: sent once however often tried
            message = await channel.send(content, files=files, view=view, allowed_mentions=mentions, nonce=nonce)
        else:
            message = await channel.send(content, files=files, view=view, allowed_mentions=mentions)
    await after_table_post(bot, record, game, message, answered)
    return message


async def post_in_place(
    bot: Bot,
    channel: discord.abc.Messageable,
    post: TurnPost,
    *,
    nonce: str | None = None,
    interaction: discord.Interaction | None = None,
) -> discord.Message:
    """``post_turn``; where the game's thread refused it (deleted, archived, locked), once more
    where the game goes on (bot/chat/lost_channel.py)."""
    try:
        return await post_turn(bot, channel, post, nonce=nonce, interaction=interaction)
    except discord.HTTPException as e:
        if not channel_lost(e):
            raise
        home = await find_home(bot, post.record, e)
        if home is None:
            raise
    moved = dataclasses.replace(post, record=dataclasses.replace(home, version=post.record.version))
    channel = bot.get_partial_messageable(moved.record.channel_id, guild_id=moved.record.guild_id)
    return await post_turn(bot, channel, moved, nonce=nonce)


async def deliver_turn(
    bot: Bot,
    channel: discord.abc.Messageable,
    outcome: MoveOutcome,
    *,
    headline: str | None = None,
    interaction: discord.Interaction | None = None,
) -> discord.Message | None:
    """The turn's channel post, from the interaction or computer player that ended the turn:
    claimed from the outbox and posted here, or left to the worker when it has it already.
    Raises what the post raised, after releasing the row to the worker (AnswerUnconfirmed:
    the post may be the interaction's answer; the worker asks Discord before it posts)."""
    row = outcome.turn_post
    post = outcome.post(headline)
    if row is None:  # no outbox row (the service runs without one)
        return await post_in_place(bot, channel, post, interaction=interaction)
    owner = answer_owner(bot, interaction) if interaction is not None else None
    ref = answer_ref(interaction) if interaction is not None else None
    job = await bot.outbox.claim(row, owner, ref)
    if job is None:
        return None  # sent already, or being sent by the poller
    try:
        # With ``interaction`` the post may be its answer (bot/chat/replies.py post_as_response).
        message = await post_in_place(bot, channel, post, nonce=nonce(row), interaction=interaction)
    except BaseException:
        await bot.outbox.release(row, owner)
        raise
    await bot.outbox.done(job, message.id, owner)
    return message
