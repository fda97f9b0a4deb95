"""Which dice changed in the last turn and in the current one (to outline them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Complete, Game, Place, Played, ToArtist, ToMuseum, UseArtist


@dataclass(frozen=True, slots=True)
class Highlights:
    workroom: frozenset[tuple[int, int, int]] = field(default_factory=frozenset)  # (seat, room, cell)
    museum: frozenset[int] = field(default_factory=frozenset)  # museum cells
    artists: frozenset[int] = field(default_factory=frozenset)  # artist slots
    completed: frozenset[tuple[int, int]] = field(default_factory=frozenset)  # (seat, index)


def recent_turns(game: Game) -> list[tuple[int, tuple[Played, ...]]]:
    """The last turn and this one so far: (seat, the moves' records)."""
    s = game.state
    turns = [] if s.last_turn is None else [(s.last_turn.seat, s.last_turn.plays)]
    if s.this_turn.plays:
        turns.append((s.current, s.this_turn.plays))
    return turns


def highlights(game: Game) -> Highlights:
    """Dice placed or moved in the previous turn and so far in this turn (still there)."""
    s = game.state
    turns = recent_turns(game)
    work: set[tuple[int, int, int]] = set()
    museum: set[int] = set()
    artists: set[int] = set()
    completed: set[tuple[int, int]] = set()
    for seat, moves in turns:
        if not 0 <= seat < len(s.players):
            continue
        player = s.players[seat]
        for played in moves:
            m = played.move
            if isinstance(m, Place):
                work.add((seat, m.room, m.cell))
            elif isinstance(m, UseArtist) and m.target is not None:
                work.add((seat, m.target[0], m.target[1]))
            elif isinstance(m, ToMuseum):
                museum.add(m.cell)
            elif isinstance(m, ToArtist):
                artists.add(m.slot)
            elif isinstance(m, Complete):
                for i, c in enumerate(player.completed):
                    if c.card == m.card:
                        completed.add((seat, i))
    # Keep only what is still on the table.
    work = {
        (seat, room, cell) for seat, room, cell in work if 0 <= room < 2 and cell in s.players[seat].workrooms[room]
    }
    museum = {c for c in museum if c in s.museum}
    artists = {
        i
        for i in artists
        if 0 <= i < len(s.artists) and s.artists[i].count and s.artists[i].owner in {t[0] for t in turns}
    }
    return Highlights(frozenset(work), frozenset(museum), frozenset(artists), frozenset(completed))
