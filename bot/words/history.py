"""What happened in a game, turn by turn, read from its move log (the source of truth).

The engine replays the log; these functions only group the moves by turn and word them.
Pure functions: callers run them off the event loop (replaying is CPU work).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import t
from bot.words.story import play_words, turn_words
from bot.words.texts import MARKS
from engine import Game, Played
from engine.history import replay, start_of
from engine.moves import Remove, Undo


@dataclass(frozen=True)
class TurnEntry:
    """One finished turn (or a table action outside a turn, e.g. removing another player)."""

    turn: int  # 0-based turn number
    seat: int  # whose turn it was (for a removal outside the turn: the removed seat)
    moves: tuple[Played, ...]  # the turn's moves as they stood at its end (undone ones dropped)
    table: bool = False  # a removal that did not end the turn in play


def replay_turns(game: Game) -> tuple[list[TurnEntry], list[Game]]:
    """The finished turns of ``game`` and the game as it stood after each of them (the first
    element of the second list is the starting position)."""
    entries: list[TurnEntry] = []
    frames = [start_of(game)]
    for step, g in replay(game):
        if isinstance(step.move, Remove):
            entries.append(TurnEntry(step.turn, step.move.seat, (Played(step.move),), table=True))
        elif step.record is not None and step.record.plays:
            entries.append(TurnEntry(step.turn, step.seat, step.record.plays))
        if step.turn_ended:
            frames.append(g.clone())
    return entries, frames


def turns_of(game: Game) -> list[TurnEntry]:
    return replay_turns(game)[0]


def since_last_turn(entries: list[TurnEntry], seat: int) -> list[TurnEntry]:
    """The entries after ``seat``'s last finished turn (all of them if it has not played yet)."""
    last = max((i for i, e in enumerate(entries) if e.seat == seat and not e.table), default=-1)
    return entries[last + 1 :]


def entry_line(entry: TurnEntry, names: list[str], game: Game, locale: str) -> str:
    who = f"{MARKS[entry.seat]} **{names[entry.seat]}**"
    if entry.table:
        return t("history.removed", locale, turn=entry.turn + 1, who=who)
    summary = turn_words(entry.moves, game.deck, locale, names)
    return t("history.turn", locale, turn=entry.turn + 1, who=who, summary=summary)


def recap_lines(game: Game, seat: int, names: list[str], locale: str) -> list[str]:
    """What the others did since ``seat``'s last turn, and the turn in progress."""
    entries = since_last_turn(turns_of(game), seat)
    lines = [entry_line(e, names, game, locale) for e in entries if e.seat != seat or e.table]
    if not game.is_over and game.state.this_turn.plays and game.current_player != seat:
        now = turn_words(game.state.this_turn.plays, game.deck, locale, names)
        current = game.current_player
        lines.append(t("history.now", locale, mark=MARKS[current], name=names[current], summary=now))
    return lines


@dataclass(frozen=True)
class LoggedMove:
    """One move of the log: whose turn it was and what it resolved to (None: an undo)."""

    seat: int
    played: Played | None


def move_line(ply: int, logged: LoggedMove, move: str, names: list[str], game: Game, locale: str) -> str:
    """A move of ``/cubist look history``: its words, then its notation (``move``, as stored)."""
    played = logged.played if logged.played is not None else Played(Undo())
    what = play_words(played, game.deck, locale, names)
    seat = logged.seat
    return t("history.move", locale, ply=ply, mark=MARKS[seat], name=names[seat], what=what, move=move)


def logged_moves(game: Game) -> list[LoggedMove]:
    """For each move of the log, whose turn it was when it was played and its record."""
    return [LoggedMove(step.seat, step.played) for step, _g in replay(game)]
