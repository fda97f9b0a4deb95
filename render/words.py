"""The sentences drawn on the table's header, in plain words (no move notation)."""

from __future__ import annotations

from engine import (
    Abandon,
    Complete,
    EndTurn,
    Game,
    MoveSyntaxError,
    Place,
    Release,
    Switch,
    ToArtist,
    ToMuseum,
    Undo,
    UseArtist,
    parse_move,
)
from engine.moves import Remove, Skip

from .labels import Labels


def player_name(seat: int, names: list[str] | None) -> str:
    """The display name (whitespace tidied), or "p2" when there is none."""
    if names and seat < len(names) and names[seat] and str(names[seat]).strip():
        return " ".join(str(names[seat]).split())
    return f"p{seat + 1}"


def move_words(text: str, labels: Labels) -> str:
    """One move in plain words, e.g. "placed a 4 in workroom 1"."""
    try:
        m = parse_move(text)
    except MoveSyntaxError:
        return text
    if isinstance(m, Place):
        if m.die.kind in ("s", "x"):
            return labels.text("move.place", value=m.die.value, room=m.room + 1)
        return labels.text("move.place_card", room=m.room + 1)
    if isinstance(m, ToMuseum):
        return labels.text("move.museum")
    if isinstance(m, ToArtist):
        return labels.text("move.artist", count=len(m.dice), slot=m.slot + 1)
    if isinstance(m, UseArtist):
        return labels.text("move.use", slot=m.slot + 1)
    if isinstance(m, Complete):
        return labels.text("move.complete", card=m.card)
    if isinstance(m, Abandon):
        return labels.text("move.abandon", room=m.room + 1)
    if isinstance(m, Release):
        return labels.text("move.release")
    if isinstance(m, Switch):
        return labels.text("move.switch")
    if isinstance(m, EndTurn):
        return labels.text("move.end")
    if isinstance(m, Undo):
        return labels.text("move.undo")
    if isinstance(m, Skip):
        return labels.text("move.skip")
    if isinstance(m, Remove):
        return labels.text("move.remove", seat=m.seat + 1)
    return text  # pragma: no cover - every move kind is listed above


def _phrases(moves: list[str], labels: Labels) -> str:
    # "undo" takes back the move before it: show what stayed, not the back and forth.
    kept: list[str] = []
    for text in moves:
        if text.strip().lower() == "undo":
            if kept:
                kept.pop()
            continue
        kept.append(text)
    return labels.text("sep").join(move_words(t, labels) for t in kept) if kept else labels.text("nothing")


def status_line(game: Game, names: list[str] | None, labels: Labels) -> str:
    s = game.state
    if s.over:
        win = game.winners()
        who = labels.text("and").join(player_name(w, names) for w in win)
        pts = game.score(win[0]) if win else 0
        return labels.count("game_over", max(len(win), 1), who=who, points=pts)  # the verb agrees with the winners
    return labels.text("next", who=player_name(s.current, names))


def last_turn_line(game: Game, names: list[str] | None, labels: Labels) -> str:
    s = game.state
    parts = []
    if s.last_turn is not None:
        seat, moves = s.last_turn
        parts.append(labels.text("last_turn", who=player_name(seat, names), moves=_phrases(list(moves), labels)))
    if s.turn_moves:
        parts.append(labels.text("this_turn", moves=_phrases(list(s.turn_moves), labels)))
    return "   ".join(parts) if parts else labels.text("first_turn")
