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
        return _who_won(game, names, labels, "game_over")
    return labels.text("next", who=player_name(s.current, names))


def winner_line(game: Game, names: list[str] | None, labels: Labels) -> str:
    """Who won, without "Game over" ("Ada wins with 28 pts"): for a picture whose whose-turn
    line has no room for more."""
    return _who_won(game, names, labels, "winner_title")


def _who_won(game: Game, names: list[str] | None, labels: Labels, key: str) -> str:
    win = game.winners()
    who = labels.text("and").join(player_name(w, names) for w in win)
    pts = game.score(win[0]) if win else 0
    return labels.count(key, max(len(win), 1), who=who, points=pts)  # the verb agrees with the winners


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
    die's value and where it went, the dice placed one after another grouped by place ("5,
    5 and 6 in workroom 2; 6 in the museum"), and what else happened in between, in order
    (installations completed, artists used, dice kept)."""
    s = game.state
    parts = []
    if s.last_turn is not None:
        told = brief_moves(s.last_turn.plays, game, names, labels)
        parts.append(labels.text("brief_turn", who=player_name(s.last_turn.seat, names), moves=told))
    if s.this_turn.plays:
        parts.append(labels.text("this_turn", moves=brief_moves(s.this_turn.plays, game, names, labels)))
    return "   ".join(parts) if parts else labels.text("first_turn")


Where = tuple[str, int | str]  # ("room", 2), ("museum", 0), ("artist", "Malevich")


def brief_moves(plays: Sequence[Played], game: Game, names: list[str] | None, labels: Labels) -> str:
    deck = game.deck
    told: list[str | tuple[Where, list[int]]] = []  # phrases, and dice placed (told once grouped)
    run: dict[Where, list[int]] = {}  # this run of placements' dice by place (any other move ends it)

    def put(place: Where, values: list[int]) -> None:
        if place not in run:
            run[place] = []
            told.append((place, run[place]))
        run[place].extend(values)

    for p in plays:
        m = p.move
        if isinstance(m, Place):
            put(("room", m.room + 1), [p.value if p.value is not None else m.die.value])
        elif isinstance(m, ToMuseum):
            put(("museum", 0), [p.value if p.value is not None else m.die.value])
        elif isinstance(m, ToArtist) and p.artist is not None and p.value is not None:
            put(("artist", labels.artist_short(deck.artist(p.artist))), [p.value] * len(m.dice))
        elif isinstance(m, UseArtist) and p.artist is not None:
            run = {}
            told.append(labels.text("brief_used", artists=labels.artist_short(deck.artist(p.artist))))
            took = p.to if p.to is not None else p.value
            if m.target is not None and took is not None:  # the die it took or moved went there
                put(("room", m.target[0] + 1), [took])
        elif isinstance(m, Complete):
            run = {}
            name = labels.installation(deck.installation(p.installation or m.card))
            told.append(labels.text("brief_completed", names=name))
        elif isinstance(m, EndTurn):
            if m.keep:
                told.append(labels.text("brief_kept", dice=_joined([str(v) for v in m.keep], labels)))
        else:
            run = {}
            told.append(labels.tell([p], deck, _names(game, names)))
    return labels.text("brief_sep").join(_placed(item, labels) for item in told) if told else labels.text("nothing")


def _placed(item: str | tuple[Where, list[int]], labels: Labels) -> str:
    if isinstance(item, str):
        return item
    (kind, place), values = item
    dice = _joined([str(v) for v in values], labels)
    if kind == "room":
        return labels.text("brief_room", dice=dice, room=place)
    if kind == "museum":
        return labels.text("brief_museum", dice=dice)
    return labels.text("brief_artist", dice=dice, artist=place)


def _joined(items: list[str], labels: Labels) -> str:
    """ "5, 5 and 6" """
    if len(items) < 2:
        return "".join(items)
    return labels.text("sep").join(items[:-1]) + labels.text("and") + items[-1]
