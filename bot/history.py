"""What happened in a game, turn by turn, read from its move log (the source of truth).

The engine replays the log; these functions only group the moves by turn and word them.
Pure functions: callers run them off the event loop (replaying is CPU work).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Game
from engine.moves import Remove

from .i18n import t
from .texts import MARKS, describe, turn_summary


@dataclass(frozen=True)
class TurnEntry:
    """One finished turn (or a table action outside a turn, e.g. removing another player)."""

    turn: int  # 0-based turn number
    seat: int  # whose turn it was (for a removal outside the turn: the removed seat)
    moves: tuple[str, ...]  # the turn's moves as they stood at its end (undone ones dropped)
    table: bool = False  # a removal that did not end the turn in play


def replay_turns(game: Game) -> tuple[list[TurnEntry], list[Game]]:
    """The finished turns of ``game`` and the game as it stood after each of them (the first
    element of the second list is the starting position)."""
    g = Game.new(game.num_players, game.seed, game.options, game.deck)
    entries: list[TurnEntry] = []
    frames = [g.clone()]
    for move in game.log:
        turn, over = g.state.turn, g.is_over
        g.apply(move)
        ended = g.state.turn != turn or (g.is_over and not over)
        if isinstance(move, Remove):
            entries.append(TurnEntry(turn, move.seat, (str(move),), table=True))
        elif ended and g.state.last_turn is not None:
            seat, moves = g.state.last_turn
            entries.append(TurnEntry(turn, seat, tuple(moves)))
        if ended:
            frames.append(g.clone())
    return entries, frames


def turns_of(game: Game) -> list[TurnEntry]:
    return replay_turns(game)[0]


def since_last_turn(entries: list[TurnEntry], seat: int) -> list[TurnEntry]:
    """The entries after ``seat``'s last finished turn (all of them if it has not played yet)."""
    last = max((i for i, e in enumerate(entries) if e.seat == seat and not e.table), default=-1)
    return entries[last + 1 :]


def entry_line(entry: TurnEntry, names: list[str], game: Game | None, locale: str) -> str:
    who = f"{MARKS[entry.seat]} **{names[entry.seat]}**"
    if entry.table:
        return t("history.removed", locale, turn=entry.turn + 1, who=who)
    summary = turn_summary(list(entry.moves), None, locale, names)
    return t("history.turn", locale, turn=entry.turn + 1, who=who, summary=summary)


def recap_lines(game: Game, seat: int, names: list[str], locale: str) -> list[str]:
    """What the others did since ``seat``'s last turn, and the turn in progress."""
    entries = since_last_turn(turns_of(game), seat)
    lines = [entry_line(e, names, game, locale) for e in entries if e.seat != seat or e.table]
    if not game.is_over and game.state.turn_moves and game.current_player != seat:
        now = turn_summary(list(game.state.turn_moves), None, locale, names)
        current = game.current_player
        lines.append(t("history.now", locale, mark=MARKS[current], name=names[current], summary=now))
    return lines


def move_line(ply: int, seat: int, move: str, names: list[str], locale: str) -> str:
    what = describe(move, None, locale)
    return t("history.move", locale, ply=ply, mark=MARKS[seat], name=names[seat], what=what, move=move)


def seats_of_moves(game: Game) -> list[int]:
    """For each move of the log, whose turn it was when it was played."""
    g = Game.new(game.num_players, game.seed, game.options, game.deck)
    seats = []
    for move in game.log:
        seats.append(g.current_player)
        g.apply(move)
    return seats
