"""The sentences drawn on the table's header, in plain words (no move notation).

A turn is told by the labels' narrator (the same words as the posts), from the engine's
record of the turn, so the header names the artist a player used, not the card that now sits
in its slot."""

from __future__ import annotations

from engine import Game

from .labels import Labels


def player_name(seat: int, names: list[str] | None) -> str:
    """The display name (whitespace tidied), or the seat's colour mark and number when there
    is none (pictures drawn without names: tests, the gallery)."""
    if names and seat < len(names) and names[seat] and str(names[seat]).strip():
        return " ".join(str(names[seat]).split())
    return f"p{seat + 1}"


def _names(game: Game, names: list[str] | None) -> list[str]:
    return [player_name(seat, names) for seat in range(game.num_players)]


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
        told = labels.tell(s.last_turn.plays, game.deck, _names(game, names))
        parts.append(labels.text("last_turn", who=player_name(s.last_turn.seat, names), moves=told))
    if s.this_turn.plays:
        parts.append(this_turn_line(game, names, labels))
    return "   ".join(parts) if parts else labels.text("first_turn")


def this_turn_line(game: Game, names: list[str] | None, labels: Labels) -> str:
    """This turn's moves so far in words ("This turn: ..."), or "" before the first."""
    plays = game.state.this_turn.plays
    return labels.text("this_turn", moves=labels.tell(plays, game.deck, _names(game, names))) if plays else ""
