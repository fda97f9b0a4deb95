"""``/cubist hint`` with buttons: "Play this" plays the suggested turn step by step through
the normal service path (all but the end, so every step stays undoable and ending the turn
remains the player's confirmed choice) and "Show me" draws the studio as it would be.

The suggestion comes from the master player when it answers within the bot's
``hint_seconds`` (it thinks in a process of its own, ``bot.turn.thinker``), else from the
strong player, and its words say which.  It is remembered in memory per (game, version,
player), so the buttons play exactly what was shown; after a restart or a move they say so
instead.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass

import discord

from bot.chat.buttons import view_of
from bot.chat.language import user_language
from bot.chat.load import host, load
from bot.chat.replies import answer, in_time, png_file, send_error
from bot.i18n import Message, t
from bot.refusal_words import said
from bot.service.gate import Entry
from bot.service.refusals import StaleChoice, UserError
from bot.turn import faces
from bot.turn.computer import advise
from bot.turn.panel import in_place, show
from bot.turn.thinker import thinker
from engine import Game
from engine.moves import EndTurn, Move
from engine.players.reasons import Reason

KEPT = 256
_plans: OrderedDict[tuple[int, int, int], list[Move]] = OrderedDict()


@dataclass(frozen=True)
class Suggestion:
    moves: list[Move]
    reasons: list[Reason]
    level: str  # the computer level that made it: "master" or "strong"


async def suggest(game: Game, seed: int, seconds: float) -> Suggestion:
    """The master's suggestion for the player in turn if it comes within ``seconds``, else
    the strong player's (a fraction of a second)."""
    if seconds > 0:
        got = await thinker.advise(game, seed, seconds)
        if got is not None:
            return Suggestion(got[0], got[1], "master")
    moves, why = await asyncio.to_thread(advise, game, seed)
    return Suggestion(moves, why, "strong")


def remember(game_id: int, version: int, user_id: int, moves: list[Move]) -> None:
    _plans[(game_id, version, user_id)] = moves
    while len(_plans) > KEPT:
        _plans.popitem(last=False)


def hint_view(game_id: int, version: int, locale: str) -> discord.ui.View:
    return view_of(faces.hint_play_button(game_id, version, locale), faces.hint_show_button(game_id, version, locale))


def _steps(moves: list[Move]) -> list[Move]:
    """The moves "Play this" plays: all but the end of the turn."""
    return [m for m in moves if not isinstance(m, EndTurn)]


async def _plan(interaction: discord.Interaction, game_id: int, version: int):
    moves = _plans.get((game_id, version, interaction.user.id))
    loaded = await load(interaction, game_id)  # a hint's buttons act only where the game is, or in a DM
    if loaded is None:
        return None
    bot, record, game = host(interaction), loaded.record, loaded.game
    if moves is None or record.version != version:
        await send_error(interaction, Message("hints.stale"))
        return None
    return bot, record, game, moves


async def play_this(interaction: discord.Interaction, game_id: int, version: int) -> None:
    found = await _plan(interaction, game_id, version)
    if found is None:
        return
    bot, _record, _game, moves = found
    lang = user_language(interaction)

    async def play_all():
        # Each step pinned to the version it follows: a second press plays nothing.
        for i, move in enumerate(_steps(moves)):
            await bot.service.play_in(game_id, interaction.user.id, move, entry=Entry.HINT, version=version + i)

    try:
        await in_time(interaction, play_all(), edit=in_place(interaction))
    except StaleChoice:  # pressed twice: the first press played it
        await send_error(interaction, Message("hints.stale"))
        return
    except UserError as e:
        await send_error(interaction, said(e))
        return
    record, game = await bot.service.queries.game(game_id)
    note = t("hints.played", lang, count=len(_steps(moves)))
    await show(interaction, bot, record, game, record.seats[game.current_player].seat, note)


async def show_me(interaction: discord.Interaction, game_id: int, version: int) -> None:
    found = await _plan(interaction, game_id, version)
    if found is None:
        return
    bot, record, game, moves = found
    lang = user_language(interaction)
    after: Game = game.clone()
    for move in _steps(moves):
        after.apply(move)
    names = [s.display_name for s in record.seats]
    # A version of its own for the picture cache (negative: never a stored version).
    style = await bot.service.picture_style(interaction.user.id)
    drawing = bot.pictures.studio(record.id, -1 - record.version, after, names, game.current_player, lang, style=style)
    png = await in_time(interaction, drawing, edit=False)
    text = t("hints.shown", lang)
    await answer(interaction, text, files=[png_file(png, "hint.png")])
