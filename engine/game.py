"""The game: set-up, legal moves, applying moves, undo, end and scores.

``Game`` follows OpenSpiel's ``State`` and python-chess's ``Board``: ``legal_moves()``,
``apply(move)`` (raises ``IllegalMove`` and leaves the game untouched), ``is_over``,
``scores()``, ``clone()``, and JSON through ``engine.saved``.  Randomness comes only from
the generator stored in the state, so a game is its seed, options and move list.

Checking a move (``_check``) and listing moves (``legal_moves``) are written separately
for speed; the property tests hold them to agreeing exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations

from . import rng as rand
from .cards import ArtistCard, ArtistKind, Deck, default_deck
from .errors import IllegalMove
from .geometry import MUSEUM_SIZE, WORKROOM_SIZE, cell_name, neighbour_table, normalize, rotations, shape_of
from .moves import (
    CARD,
    POOL,
    STOREROOM,
    Abandon,
    Complete,
    DieRef,
    EndTurn,
    Move,
    MoveSyntaxError,
    Place,
    Release,
    Remove,
    Skip,
    Switch,
    ToArtist,
    ToMuseum,
    Undo,
    UseArtist,
    parse_move,
)
from .rule_texts import RuleText, listed
from .solver import completable
from .state import (
    ARTIST_SLOTS,
    CORNERSTONE,
    DICE_PER_PLAYER,
    INSTALLATIONS_TO_END,
    OFFER_SLOTS,
    STORAGE_SLOTS,
    ArtistSlot,
    Completed,
    GameOptions,
    GameState,
    MuseumColumn,
    PlayerState,
)
from .step import Outcome, Step, Termination
from .structure import legal_cells, placement_problem, put, removable_tops, split_problem, take_top

MIN_PLAYERS, MAX_PLAYERS = 2, 4


class _Tables:
    """Lookups derived once per deck: plan shapes, museum plans as cell -> height."""

    def __init__(self, deck: Deck) -> None:
        self.shapes = {c.id: frozenset(rotations(c.cells)) for c in deck.installations}
        self.fixed_values = {
            c.id: c.values for c in deck.installations if c.values and any(v is not None for v in c.values)
        }
        self.museum_heights = {m.id: {y * MUSEUM_SIZE + x: h for x, y, h in m.cells} for m in deck.museums}
        self.cornerstone = {m.id: m.cornerstone[1] * MUSEUM_SIZE + m.cornerstone[0] for m in deck.museums}


@lru_cache(maxsize=8)
def _tables(deck: Deck) -> _Tables:
    return _Tables(deck)


class Game:
    """A game of Cubist for 2-4 players (seats 0..n-1; shown as p1..p4)."""

    __slots__ = (
        "_checkpoint",
        "_legal",
        "_since",
        "_tables",
        "_turn_finished",
        "deck",
        "log",
        "num_players",
        "options",
        "seed",
        "state",
    )

    def __init__(self) -> None:  # use Game.new / Game.replay / engine.saved.load_game
        self.deck: Deck
        self.state: GameState
        self.seed: int
        self.num_players: int
        self.options: GameOptions
        self.log: list[Move]
        self._checkpoint: GameState
        self._since: list[Move]
        self._legal: list[Move] | None
        self._tables: _Tables
        self._turn_finished = False  # set by _finish_turn while apply runs (Step.turn_ended)

    # --- construction -----------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: int,
        seed: int,
        options: GameOptions | None = None,
        deck: Deck | None = None,
    ) -> Game:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Cubist is for 2 to 4 players, not {players}")
        deck = deck or default_deck()
        options = options or GameOptions()
        r = rand.seed_state(seed)
        museums = deck.museums_for(players)
        r, i = rand.below(r, len(museums))
        museum_card = museums[i]
        r, corner_roll = rand.below(r, 6)
        inst = [c.id for c in deck.installations]
        r = rand.shuffle(r, inst)
        arts = [c.id for c in deck.artists]
        r = rand.shuffle(r, arts)
        r, first = rand.below(r, players)
        corner = museum_card.cornerstone[1] * MUSEUM_SIZE + museum_card.cornerstone[0]
        state = GameState(
            options=options,
            museum_card=museum_card.id,
            museum={corner: MuseumColumn(corner_roll + 1, [CORNERSTONE])},
            artists=[ArtistSlot(a) for a in arts[:ARTIST_SLOTS]],
            artist_deck=arts[ARTIST_SLOTS:],
            offer=list(inst[:OFFER_SLOTS]),
            installation_deck=inst[OFFER_SLOTS:],
            players=[PlayerState() for _ in range(players)],
            current=first,
            rng=r,
            first=first,
        )
        g = cls._from_parts(deck, state, seed, players, options, [], None, [])
        g._begin_turn()
        g._checkpoint = g.state.clone()
        return g

    @classmethod
    def _from_parts(
        cls,
        deck: Deck,
        state: GameState,
        seed: int,
        players: int,
        options: GameOptions,
        log: list[Move],
        checkpoint: GameState | None,
        since: list[Move],
        tables: _Tables | None = None,
    ) -> Game:
        g = cls.__new__(cls)
        g.deck = deck
        g._tables = tables if tables is not None else _tables(deck)
        g.state = state
        g.seed = seed
        g.num_players = players
        g.options = options
        g.log = log
        g._checkpoint = checkpoint if checkpoint is not None else state.clone()
        g._since = since
        g._legal = None
        return g

    @classmethod
    def replay(
        cls,
        players: int,
        seed: int,
        moves: Iterable[Move | str],
        options: GameOptions | None = None,
        deck: Deck | None = None,
    ) -> Game:
        """The game reached by applying ``moves`` to a new game (a game is its move list)."""
        g = cls.new(players, seed, options, deck)
        for m in moves:
            g.apply(m)
        return g

    def clone(self) -> Game:
        return Game._from_parts(
            self.deck,
            self.state.clone(),
            self.seed,
            self.num_players,
            self.options,
            list(self.log),
            self._checkpoint.clone(),
            list(self._since),
            self._tables,  # hashing the pydantic deck for the cache costs more than the copy
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self.state == other.state
            and self.seed == other.seed
            and self.num_players == other.num_players
            and self.options == other.options
            and self.log == other.log
            and self._checkpoint == other._checkpoint
            and self._since == other._since
        )

    __hash__ = None  # type: ignore[assignment]

    # --- predicates and read-outs -------------------------------------------------------

    @property
    def current_player(self) -> int:
        return self.state.current

    @property
    def is_over(self) -> bool:
        return self.state.over

    def has_rolled(self) -> bool:
        return self.state.rolled

    def is_abandoning(self) -> bool:
        return bool(self.state.pool)

    def can_undo(self) -> bool:
        return bool(self._since) and not self.state.over

    def undo_depth(self) -> int:
        """How many of this turn's actions can still be undone, one by one."""
        return len(self._since) if not self.state.over else 0

    def undo_point(self) -> Game:
        """The game as it was at the earliest point the current player may undo back to."""
        g = self.clone()
        g.state = self._checkpoint.clone()
        g._since = []
        g._legal = None
        return g

    def active_players(self) -> list[int]:
        return [i for i, p in enumerate(self.state.players) if not p.removed]

    def museum_dice(self, seat: int) -> int:
        return self.state.museum_dice(seat)

    def score(self, seat: int) -> int:
        p = self.state.players[seat]
        return sum(self.deck.installation(c.card).points for c in p.completed) + 2 * self.state.museum_dice(seat)

    def scores(self) -> list[int]:
        return [self.score(i) for i in range(self.num_players)]

    def winners(self) -> list[int]:
        """Seats sharing the victory: most points, then most museum dice; removed players cannot win."""
        active = self.active_players()
        if len(active) <= 1:
            return active
        best = max((self.score(i), self.museum_dice(i)) for i in active)
        return [i for i in active if (self.score(i), self.museum_dice(i)) == best]

    def ranks(self) -> list[int]:
        """Per seat: 1 + the seats strictly ahead (points, then museum dice); ties share a rank,
        removed players rank after everyone still playing."""
        keys = [(not p.removed, self.score(i), self.museum_dice(i)) for i, p in enumerate(self.state.players)]
        return [1 + sum(o > k for o in keys) for k in keys]

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it is in play)."""
        if not self.state.over:
            return None
        if len(self.active_players()) <= 1:
            how = Termination.LAST_PLAYER
        else:
            five = any(len(p.completed) >= INSTALLATIONS_TO_END for p in self.state.players)
            full = self.is_museum_complete()
            how = Termination.BOTH if five and full else Termination.MUSEUM if full else Termination.INSTALLATIONS
        return Outcome(how, tuple(self.winners()), tuple(self.ranks()), tuple(self.scores()))

    def museum_heights(self) -> dict[int, int]:
        return self._tables.museum_heights[self.state.museum_card]

    def is_museum_complete(self) -> bool:
        heights = self.museum_heights()
        museum = self.state.museum
        return all(c in museum and len(museum[c].owners) >= h for c, h in heights.items())

    def artist_card(self, slot: int) -> ArtistCard | None:
        card = self.state.artists[slot].card
        return None if card is None else self.deck.artist(card)

    # --- legal moves ---------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move the current player may make now (table moves excluded)."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def is_legal(self, move: Move | str) -> bool:
        try:
            m = parse_move(move) if isinstance(move, str) else move
        except MoveSyntaxError:
            return False
        if isinstance(m, Skip | Remove):
            try:
                self._check_table(m)
            except IllegalMove:
                return False
            return True
        return m in self.legal_moves()

    def _generate(self) -> list[Move]:
        s = self.state
        if s.over:
            return []
        out: list[Move] = []
        if s.pool:
            out.extend(self._gen_artist_placements())
            out.append(Release())
        elif not s.rolled:
            out.extend(self._gen_completions())
            out.extend(self._gen_abandons())
            out.extend(self._gen_uses())
        else:
            out.extend(self._gen_places())
            out.extend(self._gen_museum())
            out.extend(self._gen_artist_placements())
            out.extend(self._gen_uses())
            out.extend(self._gen_completions())
            out.extend(self._gen_abandons())
            out.extend(self._gen_switches())
            out.extend(self._gen_ends())
        if self._since:
            out.append(Undo())
        return out

    def _me(self) -> PlayerState:
        return self.state.players[self.state.current]

    def _card_dice(self) -> list[tuple[DieRef, int]]:
        return [
            (DieRef.on_card(ci, si), v)
            for ci, c in enumerate(self._me().completed)
            for si, v in enumerate(c.dice)
            if v is not None
        ]

    def _gen_places(self) -> list[Move]:
        me = self._me()
        sources: list[tuple[DieRef, int]] = [(DieRef.storeroom(v), v) for v in sorted(set(me.storeroom))]
        sources += self._card_dice()
        out: list[Move] = []
        cells_for: dict[tuple[int, int], list[int]] = {}
        for die, v in sources:
            for room in (0, 1):
                key = (room, v)
                if key not in cells_for:
                    cells_for[key] = legal_cells(me.workrooms[room], v, WORKROOM_SIZE)
                out.extend(Place(die, room, c) for c in cells_for[key])
        return out

    def _museum_columns(self) -> dict[int, tuple[int, int]]:
        return {c: (col.value, len(col.owners)) for c, col in self.state.museum.items()}

    def _museum_cells(self, value: int, columns: dict[int, tuple[int, int]]) -> list[int]:
        heights = self.museum_heights()
        out = []
        for c in legal_cells(columns, value, MUSEUM_SIZE):
            target = heights.get(c)
            if target is None:
                continue
            col = columns.get(c)
            if col is not None:
                if col[1] < target:
                    out.append(c)  # stacking keeps values, so completability is unchanged
            elif self._museum_completable(columns, c, value):
                out.append(c)
        return out

    def _museum_completable(self, columns: dict[int, tuple[int, int]], cell: int, value: int) -> bool:
        fixed = {c: v for c, (v, _h) in columns.items()}
        fixed[cell] = value
        return completable(list(self.museum_heights()), fixed, neighbour_table(MUSEUM_SIZE))

    def _gen_museum(self) -> list[Move]:
        dice = self._card_dice()
        if not dice:
            return []
        columns = self._museum_columns()
        cells_for: dict[int, list[int]] = {}
        out: list[Move] = []
        for die, v in dice:
            if v not in cells_for:
                cells_for[v] = self._museum_cells(v, columns)
            out.extend(ToMuseum(die, c) for c in cells_for[v])
        return out

    def _gen_artist_placements(self) -> list[Move]:
        s = self.state
        me = self._me()
        stock = Counter(me.storeroom) if s.rolled else Counter()
        pool = Counter(s.pool)
        card_dice = self._card_dice()
        out: list[Move] = []
        for slot, a in enumerate(s.artists):
            if a.card is None or a.owner == s.current:
                continue
            n = self.deck.artist(a.card).dice
            for v in range(max(1, a.value), 7):
                refs = [d for d, dv in card_dice if dv == v]
                for k_card in range(min(n, len(refs)) + 1):
                    for chosen in combinations(refs, k_card):
                        rest = n - k_card
                        for k_pool in range(min(rest, pool[v]) + 1):
                            k_store = rest - k_pool
                            if k_store > stock[v]:
                                continue
                            if s.pool and k_pool == 0:
                                continue
                            dice = (DieRef.storeroom(v),) * k_store + (DieRef.pool(v),) * k_pool + chosen
                            out.append(ToArtist(slot, dice))
        return out

    def _gen_uses(self) -> list[Move]:
        s = self.state
        out: list[Move] = []
        for slot, a in enumerate(s.artists):
            if a.card is None or a.owner != s.current or a.placed_turn >= s.turn:
                continue
            out.extend(self._use_options(slot, self.deck.artist(a.card)))
        return out

    def _use_options(self, slot: int, card: ArtistCard) -> list[UseArtist]:
        s = self.state
        me = self._me()
        kind = card.artist
        if kind is ArtistKind.MALEVICH:
            return [UseArtist(slot)]
        if kind is ArtistKind.BOCCIONI:
            assert card.values is not None
            return [UseArtist(slot, die=DieRef.storeroom(v)) for v in sorted(card.values)]
        if kind is ArtistKind.MARC:
            return [UseArtist(slot, die=DieRef.storeroom(v)) for v in range(1, 7)]
        if kind in (ArtistKind.POPOVA, ArtistKind.LA_FRESNAYE):
            assert card.delta is not None
            out = [
                UseArtist(slot, die=DieRef.storeroom(v)) for v in sorted(set(me.storeroom)) if 1 <= v + card.delta <= 6
            ]
            out += [UseArtist(slot, die=d) for d, v in self._card_dice() if 1 <= v + card.delta <= 6]
            return out
        if kind is ArtistKind.GRIS:
            return [
                UseArtist(slot, source=(room, c))
                for room in (0, 1)
                for c in removable_tops(me.workrooms[room], WORKROOM_SIZE)
            ]
        if kind is ArtistKind.PASCIN:
            out = []
            for room in (0, 1):
                for c in removable_tops(me.workrooms[room], WORKROOM_SIZE):
                    for to_room, to_cell in self._pascin_targets(room, c):
                        out.append(UseArtist(slot, source=(room, c), target=(to_room, to_cell)))
            return out
        if kind is ArtistKind.ROZANOVA:
            return [
                UseArtist(slot, die=DieRef.storeroom(v), seat=seat)
                for seat, p in enumerate(s.players)
                if seat != s.current and not p.removed
                for v in sorted(set(p.storage))
            ]
        raise AssertionError(kind)

    def _pascin_targets(self, room: int, cell: int) -> list[tuple[int, int]]:
        me = self._me()
        after = dict(me.workrooms[room])
        value = take_top(after, cell)
        out = []
        for to_room in (0, 1):
            cols = after if to_room == room else me.workrooms[to_room]
            for c in legal_cells(cols, value, WORKROOM_SIZE):
                if (to_room, c) != (room, cell):
                    out.append((to_room, c))
        return out

    def _matches(self, room: int, card: int) -> bool:
        cols = self._me().workrooms[room]
        if not cols:
            return False
        if shape_of(cols, WORKROOM_SIZE) not in self._tables.shapes[card]:
            return False
        fixed = self._tables.fixed_values.get(card)
        return fixed is None or self._fixed_values_match(cols, card)

    def _fixed_values_match(self, cols: dict[int, tuple[int, int]], card: int) -> bool:
        plan = self.deck.installation(card)
        assert plan.values is not None
        pts = [(x, y, h, v or 0) for (x, y, h), v in zip(plan.cells, plan.values, strict=True)]
        mine = normalize((c % WORKROOM_SIZE, c // WORKROOM_SIZE, h) for c, (_v, h) in cols.items())
        values = {}
        xs = [c % WORKROOM_SIZE for c in cols]
        ys = [c // WORKROOM_SIZE for c in cols]
        for c, (v, _h) in cols.items():
            values[(c % WORKROOM_SIZE - min(xs), c // WORKROOM_SIZE - min(ys))] = v
        for _ in range(4):
            mx = min(p[0] for p in pts)
            my = min(p[1] for p in pts)
            norm = [(x - mx, y - my, h, v) for x, y, h, v in pts]
            if frozenset((x, y, h) for x, y, h, _v in norm) == mine and all(
                v == 0 or values.get((x, y)) == v for x, y, _h, v in norm
            ):
                return True
            pts = [(-y, x, h, v) for x, y, h, v in pts]
        return False

    def _gen_completions(self) -> list[Move]:
        out: list[Move] = []
        for room in (0, 1):
            if not self._me().workrooms[room]:
                continue
            for card in self.state.offer:
                if card is not None and self._matches(room, card):
                    out.append(Complete(room, card))
        return out

    def _gen_abandons(self) -> list[Move]:
        return [Abandon(room) for room in (0, 1) if self._me().workrooms[room]]

    def _gen_switches(self) -> list[Move]:
        out: list[Move] = []
        for ci, c in enumerate(self._me().completed):
            spaces = self.deck.installation(c.card).bonus
            for si, v in enumerate(c.dice):
                if v is not None and len(spaces[si]) == 2 and v in spaces[si]:
                    out.append(Switch(DieRef.on_card(ci, si)))
        return out

    def _gen_ends(self) -> list[Move]:
        values = sorted(set(self._me().storeroom), reverse=True)
        counts = Counter(self._me().storeroom)
        out: list[Move] = [EndTurn(())]
        out += [EndTurn((v,)) for v in values]
        for i, a in enumerate(values):
            if counts[a] >= 2:
                out.append(EndTurn((a, a)))
            out += [EndTurn((a, b)) for b in values[i + 1 :]]
        return out

    # --- applying ------------------------------------------------------------------------

    def apply(self, move: Move | str) -> Step:
        """Apply a move (or its text) and say what it did.  Raises IllegalMove (or
        MoveSyntaxError, also a ValueError) and leaves the game unchanged when the move is not
        allowed now."""
        m = parse_move(move) if isinstance(move, str) else move
        s = self.state
        seat, turn, was_over, roll = s.current, s.turn, s.over, s.last_roll
        self._turn_finished = False
        self._apply(m)
        s = self.state  # undo replaces the state
        ended = self._turn_finished or (s.over and not was_over)
        return Step(
            seat,
            m,
            turn,
            ended,
            tuple(s.last_turn[1]) if self._turn_finished and s.last_turn is not None else (),
            tuple(s.last_roll) if s.last_roll is not roll and not isinstance(m, Undo) else (),
            s.current,
            self.outcome() if s.over and not was_over else None,
        )

    def _apply(self, m: Move) -> None:
        if isinstance(m, Undo):
            self._undo()
        elif isinstance(m, Skip | Remove):
            self._check_table(m)
            self._apply_table(m)
        else:
            self._check(m)
            self.state.turn_moves.append(str(m))
            drew = self._do(m)
            ended = isinstance(m, EndTurn)
            # An abandon is one action: the short-supply roll waits until its dice are placed.
            if not self.state.rolled and not ended and not self.state.pool:
                drew = self._try_roll() or drew
            if drew or ended:
                self._checkpoint = self.state.clone()
                self._since = []
            else:
                self._since.append(m)
        self.log.append(m)
        self._legal = None

    def _undo(self) -> None:
        if self.state.over:
            raise IllegalMove(RuleText("game_over_undo"))
        if not self._since:
            raise IllegalMove(RuleText("nothing_to_undo"))
        keep = self._since[:-1]
        self.state = self._checkpoint.clone()
        self._since = []
        for m in keep:  # no randomness after a checkpoint, so replaying is exact
            self.state.turn_moves.append(str(m))
            self._do(m)
            if not self.state.rolled and not self.state.pool:
                self._try_roll()
            self._since.append(m)

    # --- checks (raise IllegalMove; never mutate) ----------------------------------------

    def _check(self, m: Move) -> None:
        s = self.state
        if s.over:
            raise IllegalMove(RuleText("game_over"), m)
        if s.pool and not isinstance(m, ToArtist | Release):
            raise IllegalMove(RuleText("pool_first", value=s.pool[0]), m)
        if not s.rolled and not s.pool and not isinstance(m, Complete | Abandon | UseArtist):
            raise IllegalMove(RuleText("cannot_roll", supply=self._me().supply), m)
        if isinstance(m, Place):
            self._check_place(m)
        elif isinstance(m, ToMuseum):
            self._check_museum(m)
        elif isinstance(m, ToArtist):
            self._check_artist(m)
        elif isinstance(m, UseArtist):
            self._check_use(m)
        elif isinstance(m, Complete):
            self._check_complete(m)
        elif isinstance(m, Abandon):
            self._check_room(m.room)
            if not self._me().workrooms[m.room]:
                raise IllegalMove(RuleText("abandon_empty", room=f"w{m.room + 1}"), m)
        elif isinstance(m, Release):
            if not s.pool:
                raise IllegalMove(RuleText("no_pool"), m)
        elif isinstance(m, Switch):
            self._check_switch(m)
        elif isinstance(m, EndTurn):
            self._check_end(m)
        else:  # pragma: no cover - every Move type is handled above
            raise IllegalMove(RuleText("unknown_move", move=repr(m)), m)

    def _check_room(self, room: int) -> None:
        if room not in (0, 1):
            raise IllegalMove(RuleText("no_workroom", room=f"w{room + 1}"))

    def _check_cell(self, cell: int, size: int) -> None:
        if not 0 <= cell < size * size:
            raise IllegalMove(RuleText("off_grid", cell=cell))

    def _storeroom_text(self) -> str | RuleText:
        return listed([str(v) for v in self._me().storeroom])

    def _die_value(self, die: DieRef, *, allow_pool: bool = False) -> int:
        """The value of a die the current player refers to, or IllegalMove if there is none."""
        me = self._me()
        if die.kind == STOREROOM:
            if die.value not in me.storeroom:
                raise IllegalMove(RuleText("no_storeroom_die", value=die.value, storeroom=self._storeroom_text()))
            return die.value
        if die.kind == POOL:
            if not allow_pool:
                raise IllegalMove(RuleText("pool_die_not_here", die=str(die)))
            if die.value not in self.state.pool:
                pool = ", ".join(f"x{v}" for v in self.state.pool) or RuleText("none")
                raise IllegalMove(RuleText("no_pool_die", value=die.value, pool=pool))
            return die.value
        if die.kind == CARD:
            if not 0 <= die.card < len(me.completed):
                raise IllegalMove(RuleText("no_completed_card", die=str(die), count=len(me.completed)))
            dice = me.completed[die.card].dice
            if not 0 <= die.space < len(dice) or dice[die.space] is None:
                raise IllegalMove(RuleText("no_card_die", die=str(die), space=die.space + 1, card=die.card + 1))
            value = dice[die.space]
            assert value is not None
            return value
        raise IllegalMove(RuleText("unknown_die", die=str(die)))

    def _check_place(self, m: Place) -> None:
        self._check_room(m.room)
        self._check_cell(m.cell, WORKROOM_SIZE)
        v = self._die_value(m.die)
        problem = placement_problem(self._me().workrooms[m.room], m.cell, v, WORKROOM_SIZE)
        if problem:
            raise IllegalMove(RuleText("in_workroom", room=f"w{m.room + 1}", problem=problem), m)

    def _check_museum(self, m: ToMuseum) -> None:
        if m.die.kind != CARD:
            raise IllegalMove(RuleText("museum_from_storeroom"), m)
        self._check_cell(m.cell, MUSEUM_SIZE)
        v = self._die_value(m.die)
        name = cell_name(m.cell, MUSEUM_SIZE)
        target = self.museum_heights().get(m.cell)
        if target is None:
            raise IllegalMove(RuleText("outside_museum", cell=name), m)
        columns = self._museum_columns()
        col = columns.get(m.cell)
        if col is not None and col[1] >= target:
            raise IllegalMove(RuleText("museum_full_column", cell=name, height=target), m)
        problem = placement_problem(columns, m.cell, v, MUSEUM_SIZE)
        if problem:
            raise IllegalMove(RuleText("in_museum", problem=problem), m)
        if col is None and not self._museum_completable(columns, m.cell, v):
            raise IllegalMove(RuleText("museum_impossible", value=v, cell=name), m)

    def _artist_at(self, m: ToArtist | UseArtist) -> tuple[ArtistSlot, ArtistCard]:
        """The slot a move names and its card, or IllegalMove."""
        if not 0 <= m.slot < ARTIST_SLOTS:
            raise IllegalMove(RuleText("no_artist_slot", slot=m.slot + 1), m)
        a = self.state.artists[m.slot]
        if a.card is None:
            raise IllegalMove(RuleText("empty_artist_slot", slot=m.slot + 1), m)
        return a, self.deck.artist(a.card)

    def _check_artist(self, m: ToArtist) -> None:
        s = self.state
        a, card = self._artist_at(m)
        if len(m.dice) != card.dice:
            raise IllegalMove(RuleText("artist_dice_count", artist=card.artist, dice=card.dice, count=len(m.dice)), m)
        if s.pool and not any(d.kind == POOL for d in m.dice):
            raise IllegalMove(RuleText("pool_to_artist"), m)
        if not s.rolled and any(d.kind == STOREROOM for d in m.dice):
            raise IllegalMove(RuleText("storeroom_before_roll"), m)
        values = {self._die_value(d, allow_pool=True) for d in m.dice}
        if len(values) != 1:
            raise IllegalMove(RuleText("artist_same_value", values=str(sorted(values))), m)
        (v,) = values
        me = self._me()
        need_store = Counter(d.value for d in m.dice if d.kind == STOREROOM)
        need_pool = Counter(d.value for d in m.dice if d.kind == POOL)
        have = Counter(me.storeroom)
        for val, n in need_store.items():
            if have[val] < n:
                raise IllegalMove(RuleText("storeroom_too_few", have=have[val], value=val, count=n), m)
        have_pool = Counter(s.pool)
        for val, n in need_pool.items():
            if have_pool[val] < n:
                raise IllegalMove(RuleText("pool_too_few", have=have_pool[val], value=val, count=n), m)
        cards = [d for d in m.dice if d.kind == CARD]
        if len(set(cards)) != len(cards):
            raise IllegalMove(RuleText("card_die_twice"), m)
        if a.owner == s.current:
            raise IllegalMove(RuleText("own_dice", artist=card.artist), m)
        if a.owner is not None and v < a.value:
            raise IllegalMove(
                RuleText("bump_lower", value=v, other=a.value, seat=f"p{a.owner + 1}", artist=card.artist), m
            )

    def _check_use(self, m: UseArtist) -> None:
        s = self.state
        a, card = self._artist_at(m)
        if a.owner != s.current:
            raise IllegalMove(RuleText("no_dice_on_artist", artist=card.artist, slot=m.slot + 1), m)
        if a.placed_turn >= s.turn:
            raise IllegalMove(RuleText("placed_this_turn", artist=card.artist), m)
        if m not in self._use_options(m.slot, card):
            raise IllegalMove(self._use_problem(m, card), m)

    def _use_problem(self, m: UseArtist, card: ArtistCard) -> RuleText:
        """Explain why a use of an artist is not possible (the move is known to be illegal)."""
        kind, name, slot = card.artist, card.artist, m.slot + 1
        me = self._me()
        if kind is ArtistKind.MALEVICH:
            return RuleText("use_malevich", artist=name, slot=slot)
        if kind is ArtistKind.BOCCIONI:
            assert card.values is not None
            a, b = card.values
            return RuleText("use_boccioni", artist=name, a=a, b=b, slot=slot)
        if kind is ArtistKind.MARC:
            return RuleText("use_marc", artist=name, slot=slot)
        if kind in (ArtistKind.POPOVA, ArtistKind.LA_FRESNAYE):
            assert card.delta is not None
            if m.die is None or m.source or m.target or m.seat is not None:
                return RuleText("use_change", artist=name, delta=f"{card.delta:+d}", slot=slot)
            try:
                v = self._die_value(m.die)
            except IllegalMove as e:
                return e.rule
            return RuleText("use_change_range", artist=name, value=v, result=v + card.delta)
        if kind in (ArtistKind.GRIS, ArtistKind.PASCIN):
            usage = f"'use {slot} w1 c3'" if kind is ArtistKind.GRIS else f"'use {slot} w1 c3 w2 d4'"
            if (
                m.source is None
                or m.die is not None
                or m.seat is not None
                or ((m.target is None) != (kind is ArtistKind.GRIS))
            ):
                return RuleText("use_write", artist=name, usage=usage)
            room, cell = m.source
            if room not in (0, 1) or not 0 <= cell < WORKROOM_SIZE**2:
                return RuleText("use_write_cells", artist=name, usage=usage)
            problem = split_problem(me.workrooms[room], cell, WORKROOM_SIZE)
            if problem:
                return RuleText("use_in_workroom", artist=name, room=f"w{room + 1}", problem=problem)
            if kind is ArtistKind.GRIS or m.target is None:
                return RuleText("use_write", artist=name, usage=usage)
            to_room, to_cell = m.target
            if to_room not in (0, 1) or not 0 <= to_cell < WORKROOM_SIZE**2:
                return RuleText("use_write_cells", artist=name, usage=usage)
            if (to_room, to_cell) == (room, cell):
                return RuleText("use_same_place", artist=name)
            after = dict(me.workrooms[room])
            value = take_top(after, cell)
            cols = after if to_room == room else me.workrooms[to_room]
            problem = placement_problem(cols, to_cell, value, WORKROOM_SIZE)
            return RuleText("use_in_workroom", artist=name, room=f"w{to_room + 1}", problem=problem)
        if kind is ArtistKind.ROZANOVA:
            if m.seat is None or m.die is None or m.die.kind != STOREROOM:
                return RuleText("use_rozanova", artist=name, slot=slot)
            seat = f"p{m.seat + 1}"
            if not 0 <= m.seat < self.num_players or m.seat == self.state.current:
                return RuleText("use_not_opponent", artist=name, seat=seat)
            if self.state.players[m.seat].removed:
                return RuleText("use_left", artist=name, seat=seat)
            storage = listed([str(v) for v in self.state.players[m.seat].storage])
            return RuleText("use_no_storage_die", artist=name, seat=seat, value=m.die.value, storage=storage)
        return RuleText("use_other", artist=name)

    def _check_complete(self, m: Complete) -> None:
        self._check_room(m.room)
        s = self.state
        if m.card not in s.offer:
            offer = ", ".join(f"#{c}" for c in s.offer if c is not None) or RuleText("none")
            raise IllegalMove(RuleText("not_on_offer", card=m.card, offer=offer), m)
        cols = self._me().workrooms[m.room]
        if not cols:
            raise IllegalMove(RuleText("workroom_empty", room=f"w{m.room + 1}"), m)
        if not self._matches(m.room, m.card):
            plan = self.deck.installation(m.card)
            have = sum(h for _v, h in cols.values())
            raise IllegalMove(
                RuleText("no_match", room=f"w{m.room + 1}", have=have, card=m.card, name=plan.name, dice=plan.dice), m
            )

    def _check_switch(self, m: Switch) -> None:
        v = self._die_value(m.die)
        me = self._me()
        spaces = self.deck.installation(me.completed[m.die.card].card).bonus[m.die.space]
        if len(spaces) != 2:
            raise IllegalMove(RuleText("single_value", die=str(m.die)), m)
        if v not in spaces:
            raise IllegalMove(RuleText("not_printed", die=str(m.die), value=v, a=spaces[0], b=spaces[1]), m)

    def _check_end(self, m: EndTurn) -> None:
        if len(m.keep) > STORAGE_SLOTS:
            raise IllegalMove(RuleText("storage_max", max=STORAGE_SLOTS), m)
        have = Counter(self._me().storeroom)
        for v, n in Counter(m.keep).items():
            if not 1 <= v <= 6 or have[v] < n:
                raise IllegalMove(RuleText("keep_from_storeroom", storeroom=self._storeroom_text()), m)

    def _check_table(self, m: Skip | Remove) -> None:
        if self.state.over:
            raise IllegalMove(RuleText("game_over"), m)
        if isinstance(m, Remove):
            if not 0 <= m.seat < self.num_players:
                raise IllegalMove(RuleText("no_player", seat=f"p{m.seat + 1}"), m)
            if self.state.players[m.seat].removed:
                raise IllegalMove(RuleText("player_left", seat=f"p{m.seat + 1}"), m)

    # --- effects (the move has been checked) -------------------------------------------

    def _take(self, die: DieRef) -> int:
        """Remove a die from where the current player has it; returns its value."""
        me = self._me()
        if die.kind == STOREROOM:
            me.storeroom.remove(die.value)
            return die.value
        if die.kind == POOL:
            self.state.pool.remove(die.value)
            return die.value
        c = me.completed[die.card]
        v = c.dice[die.space]
        assert v is not None
        c.dice[die.space] = None
        return v

    def _do(self, m: Move) -> bool:
        """Carry out a checked move.  Returns True when a card was drawn or dice rolled."""
        s = self.state
        me = self._me()
        if isinstance(m, Place):
            v = self._take(m.die)
            put(me.workrooms[m.room], m.cell, v)
        elif isinstance(m, ToMuseum):
            v = self._take(m.die)
            col = s.museum.get(m.cell)
            if col is None:
                s.museum[m.cell] = MuseumColumn(v, [s.current])
            else:
                col.owners.append(s.current)
        elif isinstance(m, ToArtist):
            return self._do_artist(m)
        elif isinstance(m, UseArtist):
            return self._do_use(m)
        elif isinstance(m, Complete):
            return self._do_complete(m)
        elif isinstance(m, Abandon):
            room = me.workrooms[m.room]
            s.pool = sorted(v for v, h in room.values() for _ in range(h))
            room.clear()
            if not self._gen_artist_placements():
                self._release()
        elif isinstance(m, Release):
            self._release()
        elif isinstance(m, Switch):
            c = me.completed[m.die.card]
            a, b = self.deck.installation(c.card).bonus[m.die.space]
            c.dice[m.die.space] = b if c.dice[m.die.space] == a else a
        elif isinstance(m, EndTurn):
            self._end_turn(list(m.keep))
            return True
        return False

    def _release(self) -> None:
        self._me().supply += len(self.state.pool)
        self.state.pool = []

    def _do_artist(self, m: ToArtist) -> bool:
        s = self.state
        values = [self._take(d) for d in m.dice]
        a = s.artists[m.slot]
        was_empty = a.owner is None
        if not was_empty:
            assert a.owner is not None
            s.players[a.owner].supply += a.count
        a.owner, a.value, a.count, a.placed_turn = s.current, values[0], len(values), s.turn
        cleared = (
            was_empty
            and s.options.clear_full_artist_row
            and all(x.owner is not None for x in s.artists if x.card is not None)
        )
        if cleared:
            for x in s.artists:
                if x.owner is not None:
                    s.players[x.owner].supply += x.count
                x.clear()
                if x.card is not None:
                    s.artist_deck.append(x.card)
                x.card = None
            for x in s.artists:
                x.card = s.artist_deck.pop(0) if s.artist_deck else None
        # Dice still waiting from an abandon may go onto the row as it is now (after a clear:
        # the new cards); only when no card can take them do they go back to the supply.
        if s.pool and not self._gen_artist_placements():
            self._release()
        return cleared

    def _do_use(self, m: UseArtist) -> bool:
        s = self.state
        me = self._me()
        a = s.artists[m.slot]
        assert a.card is not None
        card = self.deck.artist(a.card)
        me.supply += a.count
        a.clear()
        kind = card.artist
        if kind is ArtistKind.MALEVICH:
            assert card.value is not None
            self._from_supply(card.value)
        elif kind in (ArtistKind.BOCCIONI, ArtistKind.MARC):
            assert m.die is not None
            self._from_supply(m.die.value)
        elif kind in (ArtistKind.POPOVA, ArtistKind.LA_FRESNAYE):
            assert m.die is not None and card.delta is not None
            if m.die.kind == STOREROOM:
                me.storeroom.remove(m.die.value)
                me.storeroom.append(m.die.value + card.delta)
                me.storeroom.sort()
            else:
                c = me.completed[m.die.card]
                v = c.dice[m.die.space]
                assert v is not None
                c.dice[m.die.space] = v + card.delta
        elif kind is ArtistKind.GRIS:
            assert m.source is not None
            take_top(me.workrooms[m.source[0]], m.source[1])
            me.supply += 1
        elif kind is ArtistKind.PASCIN:
            assert m.source is not None and m.target is not None
            v = take_top(me.workrooms[m.source[0]], m.source[1])
            put(me.workrooms[m.target[0]], m.target[1], v)
        elif kind is ArtistKind.ROZANOVA:
            assert m.seat is not None and m.die is not None
            victim = s.players[m.seat]
            victim.storage.remove(m.die.value)
            victim.supply += 1
            self._from_supply(m.die.value)
        s.artist_deck.append(a.card)
        a.card = s.artist_deck.pop(0)
        return True

    def _from_supply(self, value: int) -> None:
        me = self._me()
        me.supply -= 1
        me.storeroom.append(value)
        me.storeroom.sort()

    def _do_complete(self, m: Complete) -> bool:
        s = self.state
        me = self._me()
        room = me.workrooms[m.room]
        me.supply += sum(h for _v, h in room.values())
        room.clear()
        plan = self.deck.installation(m.card)
        dice: list[int | None] = []
        for space in plan.bonus:
            if me.supply > 0:
                me.supply -= 1
                dice.append(space[0])
            else:
                dice.append(None)
        me.completed.append(Completed(m.card, dice))
        slot = s.offer.index(m.card)
        if s.installation_deck:
            s.offer[slot] = s.installation_deck.pop(0)
            return True
        s.offer[slot] = None
        return False

    # --- turns -------------------------------------------------------------------------

    def _begin_turn(self) -> None:
        s = self.state
        me = self._me()
        me.storeroom = sorted(me.storeroom + me.storage)  # storage dice count as storeroom dice
        me.storage = []
        s.rolled = False
        s.last_roll = []
        self._try_roll()

    def _try_roll(self) -> bool:
        """Roll when the supply allows, or when no action could return dice to it."""
        s = self.state
        me = self._me()
        if me.supply < 2 and (self._gen_completions() or self._gen_abandons() or self._gen_uses()):
            return False
        n = min(2, me.supply)
        roll = []
        for _ in range(n):
            s.rng, r = rand.below(s.rng, 6)
            roll.append(r + 1)
        me.supply -= n
        me.storeroom = sorted(me.storeroom + roll)
        s.last_roll = roll
        s.rolled = True
        return n > 0

    def _end_turn(self, keep: list[int]) -> None:
        me = self._me()
        me.supply += len(me.storeroom) - len(keep)
        me.storage = sorted(keep)
        me.storeroom = []
        self._finish_turn()

    def _finish_turn(self) -> None:
        s = self.state
        self._turn_finished = True  # read by apply's Step
        s.last_turn = (s.current, s.turn_moves)
        s.turn_moves = []
        if any(len(p.completed) >= INSTALLATIONS_TO_END for p in s.players) or self.is_museum_complete():
            if not s.options.equal_turns:
                s.over = True
                return
            s.final_round = True
        if s.final_round and self._round_done():
            s.over = True
            return
        self._next_player()

    def _next_seat(self) -> int:
        s = self.state
        for step in range(1, self.num_players + 1):
            seat = (s.current + step) % self.num_players
            if not s.players[seat].removed:
                return seat
        return s.current

    def _round_done(self) -> bool:
        """Would the next turn start a new round (the turn order wraps past the first seat)?"""
        s = self.state
        n = self.num_players
        return (self._next_seat() - s.first) % n <= (s.current - s.first) % n

    def seats_after_in_round(self) -> list[int]:
        """Active seats still to play in this round after the current one (rounds start at
        the first seat): under equal_turns, who plays on once the end has been reached."""
        s = self.state
        n = self.num_players
        mine = (s.current - s.first) % n
        return [i for i in self.active_players() if (i - s.first) % n > mine]

    def is_final_round(self) -> bool:
        """equal_turns: the end was triggered and the round is being played out."""
        return self.state.final_round and not self.state.over

    def _next_player(self) -> None:
        s = self.state
        s.current = self._next_seat()
        s.turn += 1
        self._begin_turn()

    def _apply_table(self, m: Skip | Remove) -> None:
        s = self.state
        if isinstance(m, Skip):
            self._release()
            s.turn_moves.append(str(m))
            keep = sorted(self._me().storeroom, reverse=True)[:STORAGE_SLOTS]
            self._end_turn(keep)
        else:
            self._remove(m.seat)
        self._checkpoint = s.clone()
        self._since = []

    def _remove(self, seat: int) -> None:
        s = self.state
        p = s.players[seat]
        if seat == s.current:
            self._release()
        p.supply += len(p.storeroom) + len(p.storage) + p.workroom_dice() + p.card_dice()
        p.storeroom, p.storage = [], []
        for w in p.workrooms:
            w.clear()
        for c in p.completed:
            c.dice = [None] * len(c.dice)
        for a in s.artists:
            if a.owner == seat:
                p.supply += a.count
                a.clear()
        p.removed = True
        if len(self.active_players()) <= 1:
            s.over = True
            return
        if seat == s.current:
            s.turn_moves.append(f"remove p{seat + 1}")
            self._finish_turn()

    # --- invariants (used by tests and self-play) -------------------------------------

    def check_invariants(self) -> list[str]:
        """Broken invariants, as readable strings (empty when all hold)."""
        problems = []
        s = self.state
        for seat in range(self.num_players):
            n = s.dice_owned(seat)
            if n != DICE_PER_PLAYER:
                problems.append(f"p{seat + 1} owns {n} dice, not {DICE_PER_PLAYER}")
            p = s.players[seat]
            if p.supply < 0:
                problems.append(f"p{seat + 1} has a negative supply")
            if seat != s.current and p.storeroom and not s.over:
                problems.append(f"p{seat + 1} has dice in the storeroom outside their turn")
            if len(p.storage) > STORAGE_SLOTS:
                problems.append(f"p{seat + 1} has {len(p.storage)} dice in storage")
        return problems
