"""The game: set-up, legal moves, applying moves, undo, end and scores.

``Game`` follows OpenSpiel's ``State`` and python-chess's ``Board``: ``legal_moves()``,
``apply(move)`` (raises ``IllegalMove`` and leaves the game untouched), ``is_over``,
``scores()``, ``clone()``, and JSON through ``engine.saved``.  Randomness comes only from
the generator stored in the state, so a game is its seed, options and move list.

Checking a move (``_check``) and listing moves (``legal_moves``) are written separately
for speed; the property tests hold them to agreeing exactly.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations

from . import rng as rand
from .cards import ArtistCard, ArtistKind, Deck, default_deck
from .errors import IllegalMove, PositionError
from .geometry import MUSEUM_SIZE, WORKROOM_SIZE, normalize, rotations, shape_of
from .moves import (
    CARD,
    POOL,
    STOREROOM,
    Abandon,
    Complete,
    DieRef,
    EndTurn,
    Move,
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
from .record import Played, TurnRecord
from .rule_texts import RuleText, listed
from .rules import museum, workroom
from .rules.artists import ARTIST_RULES
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
from .structure import put

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
        moves: Iterable[Move],
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

    def legal_moves(self, *, fresh: bool = False) -> list[Move]:
        """Every move the current player may make now (table moves excluded).  They are
        worked out once per position; ``fresh`` works them out again (benchmarks)."""
        if self._legal is None or fresh:
            self._legal = self._generate()
        return list(self._legal)

    def is_legal(self, m: Move) -> bool:
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
            out.extend(workroom.place_moves(self))
            out.extend(museum.museum_moves(self))
            out.extend(self._gen_artist_placements())
            out.extend(self._gen_uses())
            out.extend(self._gen_completions())
            out.extend(self._gen_abandons())
            out.extend(self._gen_switches())
            out.extend(self._gen_ends())
        if self._since:
            out.append(Undo())
        return out

    # --- what the rule objects (engine/rules/) use: the current player's side of the state ---

    def mover(self) -> PlayerState:
        """The state of the player whose turn it is (rules read and change it through this)."""
        return self.state.players[self.state.current]

    def card_dice(self) -> list[tuple[DieRef, int]]:
        """The current player's dice on their completed installation cards, with their values."""
        return [
            (DieRef.on_card(ci, si), v)
            for ci, c in enumerate(self.mover().completed)
            for si, v in enumerate(c.dice)
            if v is not None
        ]

    def _gen_artist_placements(self) -> list[Move]:
        s = self.state
        me = self.mover()
        stock = Counter(me.storeroom) if s.rolled else Counter()
        pool = Counter(s.pool)
        card_dice = self.card_dice()
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
        return ARTIST_RULES[card.artist].options(self, slot, card)

    def _matches(self, room: int, card: int) -> bool:
        cols = self.mover().workrooms[room]
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
            if not self.mover().workrooms[room]:
                continue
            for card in self.state.offer:
                if card is not None and self._matches(room, card):
                    out.append(Complete(room, card))
        return out

    def _gen_abandons(self) -> list[Move]:
        return [Abandon(room) for room in (0, 1) if self.mover().workrooms[room]]

    def _gen_switches(self) -> list[Move]:
        out: list[Move] = []
        for ci, c in enumerate(self.mover().completed):
            spaces = self.deck.installation(c.card).bonus
            for si, v in enumerate(c.dice):
                if v is not None and len(spaces[si]) == 2 and v in spaces[si]:
                    out.append(Switch(DieRef.on_card(ci, si)))
        return out

    def _gen_ends(self) -> list[Move]:
        values = sorted(set(self.mover().storeroom), reverse=True)
        counts = Counter(self.mover().storeroom)
        out: list[Move] = [EndTurn(())]
        out += [EndTurn((v,)) for v in values]
        for i, a in enumerate(values):
            if counts[a] >= 2:
                out.append(EndTurn((a, a)))
            out += [EndTurn((a, b)) for b in values[i + 1 :]]
        return out

    # --- applying ------------------------------------------------------------------------

    def apply_text(self, text: str) -> Step:
        """Apply a move written in notation (``place 4 w1 c3``; engine/NOTATION.md), as
        python-chess's ``push_san``.  Raises MoveSyntaxError when the text is not a move, and
        whatever ``apply`` raises; the game is unchanged either way."""
        return self.apply(parse_move(text))

    def apply(self, m: Move) -> Step:
        """Apply a move and say what it did.  Raises IllegalMove (a ValueError) and leaves
        the game unchanged when the move is not allowed now."""
        s = self.state
        seat, turn, was_over, roll = s.current, s.turn, s.over, s.last_roll
        self._turn_finished = False
        self._apply(m)
        s = self.state  # undo replaces the state
        ended = self._turn_finished or (s.over and not was_over)
        return Step(
            seat,
            m,
            self._played(m),
            turn,
            ended,
            s.last_turn if self._turn_finished else None,
            tuple(s.last_roll) if s.last_roll is not roll and not isinstance(m, Undo) else (),
            s.current,
            self.outcome() if s.over and not was_over else None,
        )

    def _played(self, m: Move) -> Played | None:
        """The record of the move just applied (a removal outside the turn has none of its own)."""
        if isinstance(m, Undo):
            return None
        s = self.state
        turn = s.last_turn if self._turn_finished else s.this_turn
        if turn is not None and turn.plays and turn.plays[-1].move == m:
            return turn.plays[-1]
        return Played(m)

    def _apply(self, m: Move) -> None:
        if isinstance(m, Undo):
            self._undo()
        elif isinstance(m, Skip | Remove):
            self._check_table(m)
            self._apply_table(m)
        else:
            self._check(m)
            drew = self._play(m)
            if drew or isinstance(m, EndTurn):
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
            self._play(m)
            self._since.append(m)

    def _play(self, m: Move) -> bool:
        """Record and carry out a checked move, then roll when the turn's roll was waiting
        for it.  Returns True when a card was drawn or dice rolled."""
        s = self.state
        s.this_turn = s.this_turn.add(self._resolve(m))
        drew = self._do(m)
        if isinstance(m, EndTurn):
            return drew
        # An abandon is one action: the short-supply roll waits until its dice are placed.
        if not s.rolled and not s.pool and self._try_roll():
            turn = s.this_turn
            last = dataclasses.replace(turn.plays[-1], rolled=tuple(s.last_roll))
            s.this_turn = TurnRecord(turn.seat, turn.turn, turn.rolled, (*turn.plays[:-1], last))
            drew = True
        return drew

    def _resolve(self, m: Move) -> Played:
        """What a checked move is about to do, read from the position before it: the values
        and cards it names, which the position after may no longer show."""
        s = self.state
        me = self.mover()
        if isinstance(m, Place | ToMuseum):
            bonus = (me.completed[m.die.card].card,) if m.die.kind == CARD else ()
            return Played(m, value=self.die_value(m.die), bonus=bonus)
        if isinstance(m, ToArtist):
            a = s.artists[m.slot]
            bumped = None if a.owner is None else (a.owner, a.count, a.value)
            value = self.die_value(m.dice[0], allow_pool=True)
            cards = tuple(me.completed[d.card].card for d in m.dice if d.kind == CARD)
            return Played(m, value=value, artist=a.card, bumped=bumped, bonus=cards)
        if isinstance(m, UseArtist):
            return self._resolve_use(m)
        if isinstance(m, Complete):
            return Played(m, installation=m.card)
        if isinstance(m, Switch):
            c = me.completed[m.die.card]
            one, other = self.deck.installation(c.card).bonus[m.die.space]
            v = c.dice[m.die.space]
            return Played(m, value=v, to=other if v == one else one, bonus=(c.card,))
        return Played(m)

    def _resolve_use(self, m: UseArtist) -> Played:
        card = self.artist_card(m.slot)
        assert card is not None
        me = self.mover()
        kind = card.artist
        if kind == ArtistKind.MALEVICH:
            return Played(m, value=card.value, artist=card.id)
        if kind in (ArtistKind.POPOVA, ArtistKind.LA_FRESNAYE):
            assert m.die is not None and card.delta is not None
            v = self.die_value(m.die)
            bonus = (me.completed[m.die.card].card,) if m.die.kind == CARD else ()
            return Played(m, value=v, to=v + card.delta, artist=card.id, bonus=bonus)
        if m.source is not None:  # Gris, Pascin: the top die of a column
            return Played(m, value=me.workrooms[m.source[0]][m.source[1]][0], artist=card.id)
        return Played(m, value=None if m.die is None else m.die.value, artist=card.id)  # Boccioni, Marc, Rozanova

    # --- checks (raise IllegalMove; never mutate) ----------------------------------------

    def _check(self, m: Move) -> None:
        s = self.state
        if s.over:
            raise IllegalMove(RuleText("game_over"), m)
        if s.pool and not isinstance(m, ToArtist | Release):
            raise IllegalMove(RuleText("pool_first", value=s.pool[0]), m)
        if not s.rolled and not s.pool and not isinstance(m, Complete | Abandon | UseArtist):
            raise IllegalMove(RuleText("cannot_roll", supply=self.mover().supply), m)
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
            workroom.check_room(m.room)
            if not self.mover().workrooms[m.room]:
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

    def _storeroom_text(self) -> str | RuleText:
        return listed([str(v) for v in self.mover().storeroom])

    def die_value(self, die: DieRef, *, allow_pool: bool = False) -> int:
        """The value of a die the current player refers to, or IllegalMove if there is none."""
        me = self.mover()
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
        workroom.check_place(self, m)

    def _check_museum(self, m: ToMuseum) -> None:
        museum.check_museum(self, m)

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
        values = {self.die_value(d, allow_pool=True) for d in m.dice}
        if len(values) != 1:
            raise IllegalMove(RuleText("artist_same_value", values=str(sorted(values))), m)
        (v,) = values
        me = self.mover()
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
        return ARTIST_RULES[card.artist].problem(self, m, card)

    def _check_complete(self, m: Complete) -> None:
        workroom.check_room(m.room)
        s = self.state
        if m.card not in s.offer:
            offer = ", ".join(f"#{c}" for c in s.offer if c is not None) or RuleText("none")
            raise IllegalMove(RuleText("not_on_offer", card=m.card, offer=offer), m)
        cols = self.mover().workrooms[m.room]
        if not cols:
            raise IllegalMove(RuleText("workroom_empty", room=f"w{m.room + 1}"), m)
        if not self._matches(m.room, m.card):
            plan = self.deck.installation(m.card)
            have = sum(h for _v, h in cols.values())
            raise IllegalMove(
                RuleText("no_match", room=f"w{m.room + 1}", have=have, card=m.card, name=plan.name, dice=plan.dice), m
            )

    def _check_switch(self, m: Switch) -> None:
        v = self.die_value(m.die)
        me = self.mover()
        spaces = self.deck.installation(me.completed[m.die.card].card).bonus[m.die.space]
        if len(spaces) != 2:
            raise IllegalMove(RuleText("single_value", die=str(m.die)), m)
        if v not in spaces:
            raise IllegalMove(RuleText("not_printed", die=str(m.die), value=v, a=spaces[0], b=spaces[1]), m)

    def _check_end(self, m: EndTurn) -> None:
        if len(m.keep) > STORAGE_SLOTS:
            raise IllegalMove(RuleText("storage_max", max=STORAGE_SLOTS), m)
        have = Counter(self.mover().storeroom)
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
        me = self.mover()
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
        me = self.mover()
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
        self.mover().supply += len(self.state.pool)
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
        me = self.mover()
        a = s.artists[m.slot]
        assert a.card is not None
        card = self.deck.artist(a.card)
        me.supply += a.count
        a.clear()
        ARTIST_RULES[card.artist].apply(self, m, card)
        s.artist_deck.append(a.card)
        a.card = s.artist_deck.pop(0)
        return True

    def take_from_supply(self, value: int) -> None:
        """A die of ``value`` from the current player's supply into their storeroom (artists)."""
        me = self.mover()
        me.supply -= 1
        me.storeroom.append(value)
        me.storeroom.sort()

    def _do_complete(self, m: Complete) -> bool:
        s = self.state
        me = self.mover()
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
        me = self.mover()
        me.storeroom = sorted(me.storeroom + me.storage)  # storage dice count as storeroom dice
        me.storage = []
        s.rolled = False
        s.last_roll = []
        self._try_roll()
        s.this_turn = TurnRecord(s.current, s.turn, tuple(s.last_roll))

    def _try_roll(self) -> bool:
        """Roll when the supply allows, or when no action could return dice to it."""
        s = self.state
        me = self.mover()
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
        me = self.mover()
        me.supply += len(me.storeroom) - len(keep)
        me.storage = sorted(keep)
        me.storeroom = []
        self._finish_turn()

    def _finish_turn(self) -> None:
        s = self.state
        self._turn_finished = True  # read by apply's Step
        s.last_turn = s.this_turn
        s.this_turn = TurnRecord(s.current, s.turn)
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

    def turn_order(self) -> list[int]:
        """The active seats in the order they play a round, from the first player (drawn
        at set-up, not necessarily seat 0)."""
        s = self.state
        n = self.num_players
        return [i for i in ((s.first + k) % n for k in range(n)) if not s.players[i].removed]

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
            s.this_turn = s.this_turn.add(Played(m))
            keep = sorted(self.mover().storeroom, reverse=True)[:STORAGE_SLOTS]
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
            s.this_turn = s.this_turn.add(Played(Remove(seat)))
            self._finish_turn()

    # --- invariants (used by tests and self-play) -------------------------------------

    def set_position(self) -> None:
        """Makes the state as edited in place (``game.state``: studios, storage, museum,
        artist row, supplies, whose turn...) this game's position, the start of a turn: no
        undo history, legal moves worked out afresh.  For tests and tools that build
        positions (load a saved game with ``engine.saved.load_game``).  Raises
        ``PositionError`` naming the first broken invariant (say a player owning 21 dice)."""
        problems = self.check_invariants()
        if problems:
            raise PositionError(f"not a position of this game: {'; '.join(problems)}")
        self._checkpoint = self.state.clone()
        self._since = []
        self._legal = None

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
