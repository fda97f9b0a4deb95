"""The built-in greedy player (the easy level): completes installations when it can,
otherwise builds toward the offered plans it can still complete, feeds the museum, and uses
the dice-giving artists.

It looks one action ahead only: a giver's value is the one a workroom can take, dice go
onto the artist card that can give a value a workroom waits for, dice on completed cards
are kept for the museum (a two-value die is switched when that lets the museum take it).
It uses only the engine's public API.

``nearest=True`` is the greedy level (``make_player("greedy")``): a workroom is worth the
dice its nearest card still lacks, so a die that trades a card two dice away for one five
away is not placed, and among placements it prefers the one that leaves the workroom able
to take more values (a room of 1s and 6s waits turns for the one value that fits). Without
it the player makes the choices it always made: the pictures, goldens and benchmarks are
positions played by it, and they should not move each time the level is tuned.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from ..cards import ArtistKind, Deck
from ..game import Game
from ..geometry import WORKROOM_SIZE, lies_within, neighbour_table, rotations
from ..moves import (
    Abandon,
    Complete,
    EndTurn,
    Move,
    Place,
    Release,
    Switch,
    ToArtist,
    ToMuseum,
    UseArtist,
)
from ..solver import completable

W = WORKROOM_SIZE
_GRID = 8  # plans are checked on a roomier grid so that shifts never fall off it
_START_CELL = 2 * W + 2  # c3: a new structure starts near the middle of the workroom
_GIVERS = (ArtistKind.MALEVICH, ArtistKind.BOCCIONI, ArtistKind.MARC, ArtistKind.ROZANOVA)

OPEN_WEIGHT = 0.03  # per value the workroom can take, against a die of progress (0.03-0.5) and a point (0.02)

PlanRot = tuple[tuple[tuple[int, int], int], ...]


@lru_cache(maxsize=8)
def _plans(deck: Deck) -> dict[int, tuple[dict[tuple[int, int], int], ...]]:
    return {c.id: tuple({(x, y): h for x, y, h in r} for r in rotations(c.cells)) for c in deck.installations}


def fits(cols: dict[int, tuple[int, int]], plan_rots: tuple[dict[tuple[int, int], int], ...]) -> bool:
    """Can the workroom still grow into this plan (footprint and heights inside it, values feasible)?"""
    if not cols:
        return True
    dice = [(c % W, c // W, v, h) for c, (v, h) in cols.items()]
    ax, ay = dice[0][0], dice[0][1]
    nb = neighbour_table(_GRID)
    for rot in plan_rots:
        for px, py in rot:
            dx, dy = px - ax, py - ay
            if not lies_within(rot, dx, dy):
                continue  # the plan would leave the workroom's grid where the dice stand
            if all(rot.get((x + dx, y + dy), 0) >= h for x, y, _v, h in dice):
                fixed = {(y + dy) * _GRID + (x + dx): v for x, y, v, _h in dice}
                cells = [y * _GRID + x for x, y in rot]
                if completable(cells, fixed, nb):
                    return True
    return False


def _openness(cols: dict[int, tuple[int, int]]) -> int:
    """How many values the workroom can still take somewhere (on a column of its own value,
    or beside dice that all differ from it by 1): a room built from 1s and 6s takes few."""
    if not cols:
        return 6
    nb = neighbour_table(W)
    values = {v for v, _h in cols.values()}
    for cell in set().union(*(nb[c] for c in cols)) - set(cols):
        around = {cols[n][0] for n in nb[cell] if n in cols}
        values.update(v for v in range(1, 7) if all(abs(v - a) == 1 for a in around))
    return len(values)


class GreedyPlayer:
    name = "greedy"

    def __init__(self, seed: int = 0, *, nearest: bool = False) -> None:
        self.rng = random.Random(seed)
        self.nearest = nearest
        self._kept: tuple[int, ...] = ()  # the dice this player stored at the end of its last turn

    # Scores a workroom: progress toward the best offered plan it can still become.
    def _fit(self, game: Game, cols: dict[int, tuple[int, int]]) -> float:
        if not cols:
            return 0.0
        plans = _plans(game.deck)
        dice = sum(h for _v, h in cols.values())
        best = -1.0
        for card in game.state.offer:
            if card is None:
                continue
            plan = game.deck.installation(card)
            if dice <= plan.dice and fits(cols, plans[card]):
                progress = 1 / (1 + plan.dice - dice) if self.nearest else dice / plan.dice
                best = max(best, progress + 0.02 * plan.points)
        return best

    def choose(self, game: Game) -> Move:
        moves = game.legal_moves()
        completes = [m for m in moves if isinstance(m, Complete)]
        if completes:
            return max(completes, key=lambda m: game.deck.installation(m.card).points)
        if game.is_abandoning():
            return Release()
        me = game.state.players[game.current_player]
        if not game.has_rolled():
            uses = [m for m in moves if isinstance(m, UseArtist)]
            if uses:
                return self._best_of(game, uses)
            abandons = [m for m in moves if isinstance(m, Abandon)]
            return min(abandons, key=lambda m: self._fit(game, me.workrooms[m.room]))
        museum = [m for m in moves if isinstance(m, ToMuseum)]
        if museum:
            return museum[0]
        switch = self._museum_switch(game, moves)
        if switch is not None:
            return switch
        use = self._choose_use(game, moves)
        if use is not None:
            return use
        for room in (0, 1):
            if me.workrooms[room] and self._fit(game, me.workrooms[room]) < 0:
                return Abandon(room)
        place = self._best_place(game, moves)
        if place is not None:
            return place
        artist = self._choose_artist(game, moves)
        if artist is not None:
            return artist
        return self._end(game, moves)

    def _choose_use(self, game: Game, moves: list[Move]) -> Move | None:
        uses = [m for m in moves if isinstance(m, UseArtist)]
        others: list[UseArtist] = []
        givers: list[UseArtist] = []
        for m in uses:
            card = game.artist_card(m.slot)
            (givers if card is not None and card.artist in _GIVERS else others).append(m)
        if givers:
            return self._best_of(game, givers)
        if not others:
            return None
        # The other artists (change a die, take back or move a workroom die) are used when the
        # position after the use is better: a better placement, a workroom that fits a plan
        # again, a card die that can now go to the museum.
        base = self._outlook(game)
        best: tuple[float, Move] | None = None
        for m in others:
            copy = game.clone()
            copy.apply(m)
            gain = self._outlook(copy) - base
            if gain > 0.01 and (best is None or gain > best[0]):
                best = (gain, m)
        return None if best is None else best[1]

    def _best_of(self, game: Game, uses: list[UseArtist]) -> UseArtist:
        """The artist use (of the first card offering several, e.g. Marc's six values) after
        which the position looks best: the die that a workroom can take."""
        slot = uses[0].slot
        options = [m for m in uses if m.slot == slot]
        if len(options) == 1:
            return options[0]
        best: tuple[float, UseArtist] | None = None
        for m in options:
            copy = game.clone()
            copy.apply(m)
            value = self._outlook(copy) if copy.has_rolled() else self._kept_outlook(copy)
            if best is None or value > best[0]:
                best = (value, m)
        assert best is not None
        return best[1]

    def _kept_outlook(self, game: Game) -> float:
        """Before the roll: how many storeroom values some workroom could take."""
        me = game.state.players[game.current_player]
        value = 0.0
        for v in set(me.storeroom):
            value += max((self._value_gain(game, cols, v) for cols in me.workrooms), default=0.0)
        return value

    def _value_gain(self, game: Game, cols: dict[int, tuple[int, int]], v: int) -> float:
        """The best progress one die of value ``v`` brings this workroom (0 when none)."""
        if not cols:
            return 0.0
        base = self._fit(game, cols)
        best = 0.0
        nb = neighbour_table(W)
        cells = set(cols).union(*(nb[c] for c in cols))
        for cell in cells:
            col = cols.get(cell)
            if col is not None and col[0] != v:
                continue  # a die stacks only on its own value
            if col is None and any(abs(cols[n][0] - v) != 1 for n in nb[cell] if n in cols):
                continue  # side by side, values differ by exactly 1
            new = dict(cols)
            new[cell] = (v, 1 if col is None else col[1] + 1)
            best = max(best, self._fit(game, new) - base)
        return best

    def _museum_switch(self, game: Game, moves: list[Move]) -> Move | None:
        """Turn a two-value bonus die to its other value when the museum then takes it."""
        for m in moves:
            if isinstance(m, Switch):
                copy = game.clone()
                copy.apply(m)
                if any(isinstance(x, ToMuseum) for x in copy.legal_moves()):
                    return m
        return None

    def _outlook(self, game: Game) -> float:
        """How promising the current player's position is, for comparing artist uses."""
        me = game.state.players[game.current_player]
        value = 0.0
        for cols in me.workrooms:
            f = self._fit(game, cols)
            value += f if f >= 0 else -0.5
        moves = game.legal_moves()
        if any(isinstance(m, ToMuseum) for m in moves):
            value += 0.5
        place = self._place_gain(game, moves)
        return value + max(0.0, place)

    def _best_place(self, game: Game, moves: list[Move]) -> Move | None:
        return self._best_placing(game, moves)[1]

    def _place_gain(self, game: Game, moves: list[Move]) -> float:
        return self._best_placing(game, moves)[0]

    def _best_placing(self, game: Game, moves: list[Move]) -> tuple[float, Move | None]:
        me = game.state.players[game.current_player]
        base = [self._fit(game, w) for w in me.workrooms]
        best: tuple[float, Move] | None = None
        seen: set[tuple[int, int, int]] = set()
        for m in moves:
            if not isinstance(m, Place):
                continue
            cols = me.workrooms[m.room]
            if not cols and m.cell != _START_CELL:
                continue
            value = m.die.value if m.die.kind == "s" else me.completed[m.die.card].dice[m.die.space]
            assert value is not None
            key = (m.room, m.cell, value)
            if key in seen and m.die.kind == "s":
                continue
            seen.add(key)
            new = dict(cols)
            col = new.get(m.cell)
            new[m.cell] = (value, 1 if col is None else col[1] + 1)
            gain = self._fit(game, new) - base[m.room]
            if self.nearest:
                gain += OPEN_WEIGHT * (_openness(new) - _openness(cols))
            if not cols and any(me.workrooms[1 - m.room]) and base[1 - m.room] >= 0:
                gain -= 0.05  # prefer finishing the structure already started
            if m.die.kind != "s":
                if self._fit(game, new) < 1:
                    continue  # card dice are kept for the museum, unless they finish a card now
                gain -= 0.1
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, m)
        return (0.0, None) if best is None else best

    def _choose_artist(self, game: Game, moves: list[Move]) -> Move | None:
        """Dice nothing else wants go onto an artist card: first one that can give a value a
        workroom is waiting for (bumping another player's dice if need be), then any other
        that gives dice, then any other kind whose action this player could use next turn.
        Dice on completed cards join them (they are no use there once the museum takes none)."""
        me = game.state.players[game.current_player]
        has_room_dice = any(me.workrooms)
        wanted = self._wanted(game)
        best: tuple[tuple[int, int], Move] | None = None
        for m in moves:
            if not isinstance(m, ToArtist):
                continue
            card = game.artist_card(m.slot)
            slot = game.state.artists[m.slot]
            if card is None:
                continue
            if card.artist == ArtistKind.MARC:
                gives = bool(wanted)
            elif card.artist == ArtistKind.MALEVICH:
                gives = card.value in wanted
            elif card.artist == ArtistKind.BOCCIONI:
                gives = bool(wanted.intersection(card.values or ()))
            else:
                gives = False
            if gives:
                rank = 3
            elif slot.owner is not None:
                continue  # bumping is worth it only for a die a workroom waits for
            elif card.artist in _GIVERS:
                rank = 2
            elif card.artist in (ArtistKind.GRIS, ArtistKind.PASCIN):
                rank = 1 if has_room_dice else -1
            else:
                rank = 1
            if rank < 0:
                continue
            key = (rank, -sum(d.kind != "s" for d in m.dice))  # storeroom dice first
            if best is None or key > best[0]:
                best = (key, m)
        return None if best is None else best[1]

    def _wanted(self, game: Game) -> set[int]:
        """The values a started workroom could take to grow toward a face-up card."""
        me = game.state.players[game.current_player]
        return {v for cols in me.workrooms if cols for v in range(1, 7) if self._value_gain(game, cols, v) > 0}

    def _end(self, game: Game, moves: list[Move]) -> Move:
        """Keep the two most common storeroom dice, but not the same pair that already sat in
        storage through the last turn unused (hoarding it only keeps dice out of the rolls)."""
        ends = [m for m in moves if isinstance(m, EndTurn)]
        room = Counter(game.state.players[game.current_player].storeroom)

        def key(m: EndTurn) -> tuple[bool, int, int, tuple[int, ...]]:
            stale = len(m.keep) == 2 and tuple(sorted(m.keep)) == self._kept
            return (not stale, len(m.keep), sum(room[v] for v in m.keep), m.keep)

        best = max(ends, key=key)
        self._kept = tuple(sorted(best.keep))
        return best
