"""Why a planned turn is good, as structured reasons: a key and named values, no words.
Front ends say them in the reader's language by key (the bot's catalogues hold a
``hint.<key>`` message whose placeholders are the values); card values are ids (``card``,
``artist``) so that names can be shown in the reader's language.  ``str()`` is for
developers: ``complete(card=7, name='Tower', points=9, room='w1')``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import ArtistKind
from ..game import Game
from ..moves import Abandon, Complete, EndTurn, Move, Place, Switch, ToArtist, ToMuseum, UseArtist
from . import evaluate as ev


@dataclass(frozen=True)
class Reason:
    key: str
    values: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, key: str, **values: Any) -> Reason:
        return cls(key, tuple(values.items()))

    def params(self) -> dict[str, Any]:
        return dict(self.values)

    def __str__(self) -> str:
        return f"{self.key}({', '.join(f'{k}={_shown(v)}' for k, v in self.values)})"


def _shown(value: object) -> str:
    if isinstance(value, Reason):
        return str(value)
    if isinstance(value, ArtistKind):
        return repr(str(value))
    return repr(value)


def reasons(game: Game, moves: list[Move]) -> list[Reason]:
    """The reasons for a planned turn, most important action first."""
    if not moves:
        return [Reason.of("nothing")]
    completes = [m for m in moves if isinstance(m, Complete)]
    museum = [m for m in moves if isinstance(m, ToMuseum)]
    places = [m for m in moves if isinstance(m, Place)]
    uses = [m for m in moves if isinstance(m, UseArtist)]
    artists = [m for m in moves if isinstance(m, ToArtist)]
    out: list[Reason] = []
    if completes:
        m = completes[0]
        plan = game.deck.installation(m.card)
        out.append(Reason.of("complete", card=m.card, name=plan.name, points=plan.points, room=m.room + 1))
    if museum:
        out.append(Reason.of("museum", count=len(museum), points=2 * len(museum)))
    if places and not completes:
        rooms = sorted({m.room for m in places})
        target = _target(game, moves, rooms)
        shown = Reason.of("one_room", room=rooms[0] + 1) if len(rooms) == 1 else Reason.of("both_rooms")
        out.append(Reason.of("build", rooms=shown, count=len(places), target=target or ""))
    if uses and not out:
        card = game.artist_card(uses[0].slot)
        out.append(Reason.of("use_artist", artist=card.artist if card else "?"))
    if artists and not out:
        put = artists[0]
        card = game.artist_card(put.slot)
        owner = game.state.artists[put.slot].owner
        bump = Reason.of("bump", seat=owner + 1) if owner is not None else ""
        out.append(Reason.of("to_artist", count=len(put.dice), artist=card.artist if card else "?", bump=bump))
    if any(isinstance(m, Abandon) for m in moves) and not completes:
        out.append(Reason.of("abandon"))
    ending = _ending(game, moves)
    if ending is not None and out:
        out.append(ending)
    if out:
        return out
    if ending is not None:  # only the end is left (the last card was taken earlier this turn)
        return [ending]
    end = moves[-1]
    if isinstance(end, EndTurn) and end.keep:
        return [_keeping(game, moves, end.keep)]
    if any(isinstance(m, Switch) for m in moves):
        return [Reason.of("tidy")]
    return [Reason.of("nothing")]


def _keeping(game: Game, moves: list[Move], keep: tuple[int, ...]) -> Reason:
    """'keeps two 5s in storage: with a third 5 next turn, all three go on Franz Marc' when the pair
    aims at a 3-dice artist card; otherwise the dice kept."""
    if len(keep) == 2 and keep[0] == keep[1]:
        g = _played(game, moves[:-1])
        target = ev.triple_targets(g, game.current_player, ev.turns_left(g)).get(keep[0])
        if target is not None:
            return Reason.of("keep_pair", value=keep[0], artist=target[1])
    return Reason.of("keep", dice=" + ".join(map(str, keep)))


def _played(game: Game, moves: list[Move]) -> Game:
    """A copy of ``game`` after the plan's moves (stopping at anything that no longer applies)."""
    g = game.clone()
    for m in moves:
        try:
            g.apply(m)
        except ValueError:
            break
    return g


def _ending(game: Game, moves: list[Move]) -> Reason | None:
    """'this ends the game: you win 31-25' when the planned turn ends the game."""
    if not moves or not isinstance(moves[-1], EndTurn):
        return None
    g = _played(game, moves)
    if not g.is_over:
        return None
    seat = game.current_player
    scores = g.scores()
    best = max(scores[o] for o in g.active_players() if o != seat)
    key = "ends_win" if g.winners() == [seat] else "ends_shared" if seat in g.winners() else "ends_lose"
    return Reason.of(key, mine=scores[seat], best=best)


def _target(game: Game, moves: list[Move], rooms: list[int]) -> Reason | None:
    """' toward #7 'Broken Arch' (3 points, 2 dice to go)' for the first built room."""
    g = _played(game, [m for m in moves if not isinstance(m, EndTurn)])
    seat = game.current_player
    offer = [c for c in game.state.offer if c is not None]
    _v, plans = ev.rooms_value(g, seat, offer, ev.turns_left(g), None, ev.museum_room(g))
    for r in rooms:
        card = plans[r].card
        if card is None:
            continue
        f = ev.fit(ev.room_key(g.state.players[seat].workrooms[r]), card, g.deck)
        if f is None:
            continue
        plan = g.deck.installation(card)
        return Reason.of("toward", card=card, name=plan.name, points=plan.points, count=f.remaining)
    return None
