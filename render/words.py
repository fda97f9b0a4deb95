"""The sentences drawn on the table's header, in plain words (no move notation).

A turn is told by the labels' narrator (the same words as the posts), from the engine's
record of the turn, so the header names the artist a player used, not the card that now sits
in its slot."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Game, Played
from engine.moves import Complete, EndTurn, Place, ToArtist, ToMuseum, UseArtist

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


def brief_line(game: Game, names: list[str] | None, labels: Labels) -> str:
    """The last turn in fewer words, for a header too narrow for ``last_turn_line``: each
    die's value and where it went, grouped by place ("5, 5 and 6 in workroom 2; 6 in the
    museum"), then what else happened (installations completed, artists used, dice kept)."""
    s = game.state
    parts = []
    if s.last_turn is not None:
        told = brief_moves(s.last_turn.plays, game, names, labels)
        parts.append(labels.text("brief_turn", who=player_name(s.last_turn.seat, names), moves=told))
    if s.this_turn.plays:
        parts.append(labels.text("this_turn", moves=brief_moves(s.this_turn.plays, game, names, labels)))
    return "   ".join(parts) if parts else labels.text("first_turn")


def brief_moves(plays: Sequence[Played], game: Game, names: list[str] | None, labels: Labels) -> str:
    deck = game.deck
    placed: dict[tuple[str, int | str], list[int]] = {}  # ("room", n) / ("museum", 0) / ("artist", name): values
    completed: list[str] = []
    used: list[str] = []
    kept: list[int] = []
    others: list[str] = []
    for p in plays:
        m = p.move
        if isinstance(m, Place):
            value = p.value if p.value is not None else m.die.value
            placed.setdefault(("room", m.room + 1), []).append(value)
        elif isinstance(m, ToMuseum):
            placed.setdefault(("museum", 0), []).append(p.value if p.value is not None else m.die.value)
        elif isinstance(m, ToArtist) and p.artist is not None and p.value is not None:
            where = ("artist", labels.artist_short(deck.artist(p.artist)))
            placed.setdefault(where, []).extend([p.value] * len(m.dice))
        elif isinstance(m, UseArtist) and p.artist is not None:
            used.append(labels.artist_short(deck.artist(p.artist)))
            took = p.to if p.to is not None else p.value
            if m.target is not None and took is not None:  # the die it took or moved went there
                placed.setdefault(("room", m.target[0] + 1), []).append(took)
        elif isinstance(m, Complete):
            completed.append(labels.installation(deck.installation(p.installation or m.card)))
        elif isinstance(m, EndTurn) and m.keep:
            kept.extend(m.keep)
        elif not isinstance(m, EndTurn):
            others.append(labels.tell([p], deck, _names(game, names)))
    phrases = []
    for (kind, place), values in placed.items():
        told = _joined([str(v) for v in values], labels)
        if kind == "room":
            phrases.append(labels.text("brief_room", dice=told, room=place))
        elif kind == "museum":
            phrases.append(labels.text("brief_museum", dice=told))
        else:
            phrases.append(labels.text("brief_artist", dice=told, artist=place))
    if completed:
        phrases.append(labels.text("brief_completed", names=_joined(completed, labels)))
    if used:
        phrases.append(labels.text("brief_used", artists=_joined(list(dict.fromkeys(used)), labels)))
    phrases += others
    if kept:
        phrases.append(labels.text("brief_kept", dice=_joined([str(v) for v in kept], labels)))
    return labels.text("brief_sep").join(phrases) if phrases else labels.text("nothing")


def _joined(items: list[str], labels: Labels) -> str:
    """ "5, 5 and 6" """
    if len(items) < 2:
        return "".join(items)
    return labels.text("sep").join(items[:-1]) + labels.text("and") + items[-1]
