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
    """The display name (whitespace tidied), or the seat's colour mark and number when there
    is none (pictures drawn without names: tests, the gallery)."""
    if names and seat < len(names) and names[seat] and str(names[seat]).strip():
        return " ".join(str(names[seat]).split())
    return f"p{seat + 1}"


def move_words(text: str, labels: Labels, game: Game | None = None, names: list[str] | None = None) -> str:
    """One move in plain words, e.g. "placed a 4 in workroom 1"; with ``game`` the artists and
    installations by name ("used Malevich", "completed Horizon Line No. 4"), with ``names``
    the players by name."""
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
        return labels.text("move.artist", count=len(m.dice), artist=_artist(m.slot, labels, game))
    if isinstance(m, UseArtist):
        return labels.text("move.use", artist=_artist(m.slot, labels, game))
    if isinstance(m, Complete):
        name = labels.installation(game.deck.installation(m.card)) if game is not None else f"#{m.card}"
        return labels.text("move.complete", name=name)
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
        return labels.text("move.remove", name=player_name(m.seat, names))
    return text  # pragma: no cover - every move kind is listed above


def _artist(slot: int, labels: Labels, game: Game | None) -> str:
    """The artist in ``slot`` by name (the row as it is now: a row cleared since shows its new card)."""
    card = game.artist_card(slot) if game is not None and 0 <= slot < 4 else None
    return labels.artist_short(card) if card is not None else str(slot + 1)


def _phrases(moves: list[str], labels: Labels, game: Game | None = None, names: list[str] | None = None) -> str:
    # "undo" takes back the move before it: show what stayed, not the back and forth.
    kept: list[str] = []
    for text in moves:
        if text.strip().lower() == "undo":
            if kept:
                kept.pop()
            continue
        kept.append(text)
    words = [move_words(t, labels, game, names) for t in kept]
    return labels.text("sep").join(words) if kept else labels.text("nothing")


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
        told = _phrases(list(moves), labels, game, names)
        parts.append(labels.text("last_turn", who=player_name(seat, names), moves=told))
    if s.turn_moves:
        parts.append(this_turn_line(game, names, labels))
    return "   ".join(parts) if parts else labels.text("first_turn")


def this_turn_line(game: Game, names: list[str] | None, labels: Labels) -> str:
    """This turn's moves so far in words ("This turn: ..."), or "" before the first."""
    moves = game.state.turn_moves
    return labels.text("this_turn", moves=_phrases(list(moves), labels, game, names)) if moves else ""
