"""What a player reads when the service refuses (``bot.service.refusals``): one table from
each refusal to its catalogue message, whose placeholders its facts fill.  Discord's
answers and the web board both put refusals into words through ``said``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.i18n import Message
from bot.i18n.rules import error_message
from bot.service.refusals import Refusal, Refused, UserError
from engine.rule_texts import RuleError

WORDS: dict[Refusal, str] = {
    Refusal.NO_GAME: "table.no_game",
    Refusal.NO_GAME_HERE_BUT_THREADS: "table.no_game_threads",
    Refusal.NOT_STARTED: "table.not_started",
    Refusal.NO_SUCH_GAME: "errors.no_such_game",
    Refusal.WRONG_CHANNEL: "errors.wrong_channel",
    Refusal.GAME_GONE: "table.gone",
    Refusal.GAME_DAMAGED: "table.corrupt",
    Refusal.PANEL_GAME_OVER: "panel.over",
    Refusal.NOT_IN_THIS_GAME: "table.you_are_not_playing",
    Refusal.NOT_IN_PLAY_ANY_MORE: "table.not_in_play_any_more",
    Refusal.NOT_PLAYING: "table.not_playing",
    Refusal.CANCELLED: "table.cancelled_no_moves",
    Refusal.OVER: "table.over",
    Refusal.NOT_IN_PLAY: "table.not_in_play",
    Refusal.STATS_DM_OWN_ONLY: "stats.dm_own",
    Refusal.LEADERBOARD_IN_DM: "stats.leaderboard_dm",
    Refusal.COMPUTERS_LEAVE_NO_SEAT: "lobby.computers_no_seat",
    Refusal.BAD_LEVEL: "lobby.bad_level",
    Refusal.DM_SOLO_ONLY: "lobby.dm_solo_only",
    Refusal.TOO_MANY_GAMES: "lobby.too_many_games",
    Refusal.COOLDOWN: "lobby.cooldown",
    Refusal.BUSY_LOBBY: "lobby.busy_lobby",
    Refusal.BUSY_PLAY: "lobby.busy_play",
    Refusal.ALREADY_STARTED_WATCH: "lobby.already_started_watch",
    Refusal.ALREADY_JOINED: "lobby.already_joined",
    Refusal.FULL: "lobby.full",
    Refusal.JOIN_CHANGED: "lobby.cannot_join",
    Refusal.CANNOT_LEAVE: "lobby.cannot_leave",
    Refusal.NOT_IN_LOBBY: "lobby.not_in_lobby",
    Refusal.CREATOR_LEAVE: "lobby.creator_leave",
    Refusal.ALREADY_STARTED: "lobby.already_started",
    Refusal.CREATOR_STARTS: "lobby.creator_starts",
    Refusal.TWO_PLAYERS: "lobby.two_players",
    Refusal.CANCEL_DENIED: "table.cancel_denied",
    Refusal.ALREADY_OVER: "table.already_over",
    Refusal.REMATCH_NOT_FINISHED: "lobby.rematch_not_finished",
    Refusal.REMATCH_PLAYERS_ONLY: "lobby.rematch_players",
    Refusal.REMATCH_ALONE: "lobby.rematch_alone",
    Refusal.REMATCH_CAP: "lobby.rematch_cap",
    Refusal.NOT_A_MOVE: "turn.not_a_move",
    Refusal.NOTHING_TO_UNDO: "turn.nothing_to_undo",
    Refusal.CANNOT_BE_DONE: "turn.cannot_be_done",
    Refusal.ILLEGAL: "turn.illegal_why",
    Refusal.STALE: "turn.stale",
    Refusal.STALE_CHOICE: "turn.stale_choosing",
    Refusal.CANNOT_SAVE: "errors.cannot_save",
    Refusal.NOT_YOUR_TURN: "turn.not_your_turn",
    Refusal.NOT_A_TURN_MOVE: "turn.not_a_turn_move",
    Refusal.ADMINS_ONLY: "votes.admins_only",
    Refusal.TABLE_MOVE: "votes.table_move",
    Refusal.VOTE_VOID: "votes.void_meanwhile",
    Refusal.ALREADY_COMPUTER: "votes.already_computer",
    Refusal.TOO_LATE: "votes.too_late",
    Refusal.TURN_OVER: "votes.turn_over",
    Refusal.BAD_VOTE: "votes.bad_choice",
    Refusal.VOTE_ENDED: "votes.vote_void",
    Refusal.VOTERS_ONLY: "votes.players_only",
    Refusal.OWN_TURN: "votes.own_turn",
    Refusal.VOTER_LEFT: "votes.left",
    Refusal.CLOCK_RUNNING: "votes.clock_running",
    Refusal.NO_OPEN_GAME: "settings.no_open_game",
    Refusal.BAD_PICTURES: "settings.bad_pictures",
}

LISTED = 8  # legal moves named in a refusal; autocomplete lists the rest


def possible(legal: Sequence[str]) -> Message:
    """What is allowed instead of a refused move."""
    if not legal:
        return Message("turn.no_move")
    shown = ", ".join(f"`{m}`" for m in legal[:LISTED])
    more: Message | str = Message("turn.more", count=len(legal) - LISTED) if len(legal) > LISTED else ""
    return Message("turn.possible", moves=shown, more=more)


# The facts that are not said as they are: their words, under the message's own names.
SHAPES: dict[Refusal, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    Refusal.NO_GAME_HERE_BUT_THREADS: lambda f: {"threads": ", ".join(f"<#{thread}>" for thread in f["threads"])},
    Refusal.BAD_LEVEL: lambda f: {"level": f["level"], "levels": ", ".join(f["levels"])},
    Refusal.JOIN_CHANGED: lambda _f: {"reason": Message("lobby.join_changed")},
    Refusal.ILLEGAL: lambda f: {"move": f["move"], "reason": f["reason"], "hint": possible(f["legal"])},
}


def refusal_message(refusal: Refusal, facts: Mapping[str, Any]) -> Message:
    """A refusal in words, not yet in a language: its message with the facts filled in (the
    engine's own refusals said in words too)."""
    shape = SHAPES.get(refusal)
    params = shape(facts) if shape is not None else dict(facts)
    said_params = {
        name: error_message(value) if isinstance(value, RuleError) else value for name, value in params.items()
    }
    return Message(WORDS[refusal], **said_params)


def said(error: UserError) -> Message | str:
    """What to answer ``error`` with: a refusal's words, or what the Discord side raised (a
    ``Message`` or text it chose itself)."""
    if isinstance(error, Refused):
        return refusal_message(error.refusal, error.facts)
    return error.args[0] if error.args else str(error)
