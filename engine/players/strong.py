"""The strong player: plans its whole turn with a beam search over the turn's actions.

Each candidate sequence of actions (placements, artist placements and uses, completions,
museum moves, abandons) is played out on a copy of the game and the position reached is
valued by ``evaluate``: score plus what workrooms, card dice, artist dice and storage
promise, minus the same for the opponents, with the end of the game valued exactly.

No peeking: the copy's hidden parts (installation and artist deck order, the generator)
are re-shuffled from the player's own generator before searching, cards drawn during the
plan are treated as unknown (no move uses them, the valuation ignores them), and a plan
stops at the roll.  ``choose`` follows the plan and plans again after anything new
appears (a card drawn, the roll) or when the game is not where the plan expected.

Time is bounded without a clock, so decisions stay deterministic for a seed: a plan values
at most ``budget`` positions beyond the first move's (every first move is always weighed)
and a whole turn, replans included, about ``turn_budget``.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..cards import ArtistCard, ArtistKind
from ..game import Game
from ..geometry import WORKROOM_SIZE
from ..moves import (
    CARD,
    POOL,
    Abandon,
    Complete,
    EndTurn,
    Move,
    Place,
    Skip,
    ToArtist,
    ToMuseum,
    Undo,
    UseArtist,
)
from ..state import INSTALLATIONS_TO_END, STORAGE_SLOTS
from . import evaluate as ev
from .greedy import GreedyPlayer
from .reasons import Reason, reasons

_START_CELL = 2 * WORKROOM_SIZE + 2  # c3: where a new structure starts (position never matters)
WIN = 1000.0
KEEP_USEFUL = 0.2  # a stored die that fits a plan (placing it now is usually better)
KEEP_OTHER = 0.05
STORAGE = 0.1
HELD = 0.15  # share of an artist card's value kept by own dice that could be used now
# A pair kept in storage becomes three of a kind when either of next turn's two dice
# matches (11 rolls in 36), for a 3-dice card in the row; otherwise it still fits a
# 2-dice card.  Worth this share of the 3-dice card: lower and the 3-dice cards go unused,
# higher and the 2-dice cards do.
PAIR = 0.45
BUMP_RISK = 0.6  # share of an artist card's value lost when an opponent can bump the dice off
NOTHING_TO_DO = 0.5  # an artist card whose action has nothing to work on yet
# A die of an abandoned workroom sent back to the supply is a placement (a roll) lost: an
# abandon must gain more than that, or rooms that still fit a face-up card are given up.
THROWN_DIE = 0.25
# A table that has been still (nobody's score changed) for a while: the player pushes to
# break it, as a person would.  After ``ENABLE_AFTER`` rounds of stillness, own dice on an
# artist card whose action can bring the one die a workroom still needs for its card
# (Malevich or Boccioni of that value, Marc, Popova or La Fresnaye on a die the player holds,
# Rozanova on an opponent's stored die of that value) are worth ``ENABLE`` of the card's
# points: the search sees one turn only, so it seldom puts a pair there to use next turn.
# Only on still tables: valued in every game, Marc and Popova take the dice the Rozanova
# cards need.
ENABLE = 0.25
ENABLE_AFTER = 2.0
# After ``STILL_AFTER`` rounds, the points scored this turn (a completion, a card die moved
# to the museum) count ``TEMPO`` more per round of stillness from there on, so that scoring
# now beats waiting for a bigger score later.  (Alone it changed little: in a still game the
# player seldom has points it could score in its turn; the artist cards above are what
# brings the missing die.)
STILL_AFTER = 3.0
TEMPO = 0.25
# After ``HURRY_AFTER`` rounds its own workrooms are valued in a hurry (``ev.HURRY_GAMMA``):
# the nearest completion first, one room at a time.  Not for a player a card from the end:
# there the hurry makes 4-4 endgames longer, the one ahead neglecting its second workroom.
HURRY_AFTER = 2.0
# A player ahead with a fifth card to go wins by any completion: its own dice on an artist
# card that can bring the one die its workroom still needs are worth ``ENABLE_CLOSE`` of that
# card's points at once (no stillness needed), and Popova and La Fresnaye count whatever
# die they would change (one comes within a turn or two).  In the longest 4-4 endgames the
# one ahead waited up to seven turns for one value, with such a card free in the row.
ENABLE_CLOSE = 0.5


@dataclass(slots=True)
class _Node:
    game: Game
    moves: list[Move]
    value: float = 0.0
    keep: tuple[int, ...] = ()
    can_end: bool = False
    stop: bool = False  # new information appeared (the roll): the plan ends here
    forbidden: frozenset[int] = frozenset()  # artist slots holding a card drawn during the plan
    draws: list[bool] = field(default_factory=list)  # per move: did it draw a card / roll
    thrown: int = 0  # dice of abandoned workrooms sent back to the supply during the plan


@dataclass(frozen=True, slots=True)
class Plan:
    """A whole-turn plan a search found: its moves, whether each brings new information (a
    card drawn, the roll: the plan is made again after it) and the search's value of it."""

    moves: tuple[Move, ...]
    draws: tuple[bool, ...]
    value: float


class _Context:
    """What stays fixed during one search: who plans, what was visible at the start."""

    def __init__(self, game: Game, seat: int, still: float = 0.0) -> None:
        self.seat = seat
        self.base = game.score(seat)  # the score before the plan: what it scores this turn
        self.still = still  # rounds in a row without a score change, up to this turn
        # Its own workrooms valued in a hurry (``ev.HURRY_GAMMA``), except with a fifth card
        # to go: that card ends the game, and any completion will do.
        done = len(game.state.players[seat].completed)
        self.hurry = still >= HURRY_AFTER and done < INSTALLATIONS_TO_END - 1
        others = [game.score(o) for o in game.active_players() if o != seat]
        self.closing = done == INSTALLATIONS_TO_END - 1 and bool(others) and game.score(seat) > max(others)
        self.tempo = TEMPO * (still - STILL_AFTER + 1.0) if still >= STILL_AFTER else 0.0
        self.visible_offer = frozenset(c for c in game.state.offer if c is not None)
        self.opponents = [o for o in game.active_players() if o != seat]
        self._opp_cache: dict[tuple[object, ...], float] = {}
        self._risk_cache: dict[tuple[object, ...], dict[int, float]] = {}

    def offer(self, game: Game) -> list[int]:
        return [c for c in game.state.offer if c is not None and c in self.visible_offer]

    def risks(self, game: Game, offer: list[int], horizon: float) -> dict[int, float]:
        """Chance that an opponent completes each offered card before we do."""
        key = (tuple(offer), round(horizon, 1))
        got = self._risk_cache.get(key)
        if got is not None:
            return got
        out: dict[int, float] = {}
        for c in offer:
            keep = 1.0
            for o in self.opponents:
                best = 99.0
                for cols in game.state.players[o].workrooms:
                    if not cols:
                        continue
                    f = ev.fit(ev.room_key(cols), c, game.deck)
                    if f is not None:
                        best = min(best, f.cost / ev.DICE_PER_TURN)
                p = 0.5 if best <= 1.0 else 0.3 if best <= 2.0 else 0.12 if best <= 3.5 else 0.0
                keep *= 1.0 - p
            out[c] = 1.0 - keep
        self._risk_cache[key] = out
        return out

    def opponent_rooms(self, game: Game, seat: int, offer: list[int], horizon: float, room_left: int) -> float:
        key = (seat, tuple(offer), round(horizon, 1), min(room_left, 4))
        got = self._opp_cache.get(key)
        if got is None:
            got = self._opp_cache[key] = ev.rooms_value(game, seat, offer, horizon, None, room_left)[0]
        return got


def _artists_value(game: Game, seat: int, forbidden: frozenset[int], horizon: float = 99.0) -> float:
    total = 0.0
    for slot, a in enumerate(game.state.artists):
        if a.owner != seat or a.card is None or slot in forbidden:
            continue
        # Low dice are easier to bump off before they can be used.
        card = game.deck.artist(a.card)
        value = ev.artist_value(card.artist, horizon, card.dice) * (0.7 + 0.05 * a.value)
        value *= _prospect(game, seat, card.artist)
        if seat == game.current_player:
            # The opponents play before this player can use the card: dice they are likely to
            # bump off are worth less (2 players each bumping the other off the same card,
            # turn after turn, make long stretches in which nobody scores).
            value *= 1.0 - BUMP_RISK * _bump_chance(game, seat, a.value, a.count)
        if seat == game.current_player and a.placed_turn < game.state.turn:
            # Usable now: dice kept waiting on a card are worth less than its action, so
            # the player uses its cards (every kind) instead of sitting on them.
            value *= HELD
        total += value
    return total


_BUMP: dict[tuple[tuple[int, ...], int, int], float] = {}


def _bump_chance(game: Game, seat: int, value: int, count: int) -> float:
    """Chance that some opponent can bump ``count`` dice of ``value`` in its next turn: its
    stored dice (public) and two rolled dice hold ``count`` equal dice of ``value`` or more."""
    keep = 1.0
    for o in game.active_players():
        if o == seat:
            continue
        stored = tuple(sorted(game.state.players[o].storage))
        key = (stored, value, count)
        p = _BUMP.get(key)
        if p is None:
            hits = 0
            for r1 in range(1, 7):
                for r2 in range(1, 7):
                    dice = [*stored, r1, r2]
                    hits += any(dice.count(w) >= count for w in range(value, 7))
            p = _BUMP[key] = hits / 36
        keep *= 1.0 - p
    return 1.0 - keep


def _gives(card: ArtistCard, needed: set[int], have: list[int], stored: set[int]) -> bool:
    """Can this card's action bring a die of one of the ``needed`` values (``have``: the dice
    a Popova or La Fresnaye could change, ``stored``: the opponents' stored values a Rozanova
    copies)?"""
    kind = card.artist
    if kind is ArtistKind.ROZANOVA:
        return bool(stored & needed)
    if kind is ArtistKind.MARC:
        return True
    if kind is ArtistKind.MALEVICH:
        return card.value in needed
    if kind is ArtistKind.BOCCIONI:
        return card.values is not None and bool(set(card.values) & needed)
    if kind in (ArtistKind.POPOVA, ArtistKind.LA_FRESNAYE):
        return card.delta is not None and any(v + card.delta in needed for v in have)
    return False


_ANY_DIE = list(range(1, 7))


def _enabling(
    game: Game,
    seat: int,
    offer: list[int],
    horizon: float,
    room_left: int,
    forbidden: frozenset[int],
    closing: bool = False,
) -> float:
    """What the player's own artist cards add by bringing the die its nearly finished plan
    (one die to go) waits for: ``ENABLE`` of that card's points for the best card
    (``closing``: ``ENABLE_CLOSE``, and any die may be the one changed)."""
    s = game.state
    mine = [
        (a, game.deck.artist(a.card))
        for slot, a in enumerate(s.artists)
        if a.owner == seat and a.card is not None and slot not in forbidden
    ]
    if not mine:
        return 0.0
    p = s.players[seat]
    _v, plans = ev.rooms_value(game, seat, offer, horizon, None, room_left)
    needed: set[int] = set()
    points = 0
    for room, plan in zip(p.workrooms, plans, strict=True):
        if plan.card is None:
            continue
        f = ev.fit(ev.room_key(room), plan.card, game.deck)
        if f is None or f.remaining != 1:
            continue
        needed |= f.useful
        points = max(points, game.deck.installation(plan.card).points)
    if not needed:
        return 0.0
    have = [*p.storeroom, *(v for c in p.completed for v in c.dice if v is not None)]
    stored = {v for i, o in enumerate(s.players) if i != seat and not o.removed for v in o.storage}
    best = 0.0
    for a, card in mine:
        if not _gives(card, needed, _ANY_DIE if closing else have, stored):
            continue
        value = (ENABLE_CLOSE if closing else ENABLE) * points
        if seat == game.current_player:
            value *= 1.0 - BUMP_RISK * _bump_chance(game, seat, a.value, a.count)
            if a.placed_turn < s.turn:
                value *= HELD
        best = max(best, value)
    return best


def _prospect(game: Game, seat: int, kind: ArtistKind) -> float:
    """Whether the card's action will have something to work on, as far as the position
    shows now: Rozanova needs an opponent's stored die, Pascin a workroom die that can move."""
    s = game.state
    if kind is ArtistKind.ROZANOVA:
        stored = any(p.storage for i, p in enumerate(s.players) if i != seat and not p.removed)
        return 1.0 if stored else NOTHING_TO_DO
    if kind is ArtistKind.PASCIN:
        return 1.0 if sum(len(w) for w in s.players[seat].workrooms) >= 2 else NOTHING_TO_DO
    return 1.0


def _seat_value(game: Game, seat: int, ctx: _Context, offer: list[int], horizon: float, room_left: int) -> float:
    p = game.state.players[seat]
    value = float(game.score(seat))
    if seat == ctx.seat:
        risks = ctx.risks(game, offer, horizon)
        value += ev.rooms_value(game, seat, offer, horizon, risks, room_left, ctx.hurry)[0]
    else:
        value += ctx.opponent_rooms(game, seat, offer, horizon, room_left)
    # A die on a card is worth museum points only if there are turns left to move it there.
    card_die = ev.card_die_value(horizon) if room_left > 0 else 0.3
    value += min(p.card_dice(), room_left + 1) * card_die
    value += _artists_value(game, seat, frozenset(), horizon)
    value += STORAGE * len(p.storage)
    if p.supply < 4:
        value -= 0.4 * (4 - p.supply)
    return value


def final_value(game: Game, seat: int) -> float:
    """The game ends after this turn (or has ended): win, share or lose, plus the margin as a
    tie-break.  Under equal_turns the seats after ours in the round still play a last turn each; they
    are counted as gaining what their position lets them (``ev.last_turn_gain``)."""
    scores = game.scores()
    later = set(game.seats_after_in_round()) if game.options.equal_turns else set()
    if later:
        others = max(
            scores[o] + (ev.last_turn_gain(game, o) if o in later else 0.0) for o in game.active_players() if o != seat
        )
        margin = scores[seat] - others
        return (WIN if margin > 0 else WIN / 2 if margin == 0 else -WIN) + margin
    others = max(scores[o] for o in game.active_players() if o != seat)
    winners = game.winners()
    margin = scores[seat] - others
    if winners == [seat]:
        return WIN + margin
    if seat in winners:
        return WIN / 2 + margin
    return -WIN + margin


def position_value(game: Game, seat: int) -> float:
    """The static estimate of ``game`` for ``seat``, as if its turn ended now."""
    return evaluate(game, _Context(game, seat, still_rounds(game)), frozenset())[0]


def evaluate(game: Game, ctx: _Context, forbidden: frozenset[int]) -> tuple[float, tuple[int, ...]]:
    """Value of ending the turn now (for ``ctx.seat``) and the dice to keep in storage."""
    s = game.state
    seat = ctx.seat
    if any(len(p.completed) >= INSTALLATIONS_TO_END for p in s.players) or game.is_museum_complete():
        return final_value(game, seat), _keep_any(game)
    horizon = ev.turns_left(game)
    room_left = ev.museum_room(game)
    offer = ctx.offer(game)
    mine = _seat_value(game, seat, ctx, offer, horizon, room_left)
    mine -= _artists_value(game, seat, frozenset(), horizon) - _artists_value(game, seat, forbidden, horizon)
    if ctx.closing:  # any completion wins: the artist cards that bring the missing die
        mine += _enabling(game, seat, offer, horizon, room_left, forbidden, closing=True)
    elif ctx.still >= ENABLE_AFTER:  # a still table: the same, valued less
        mine += _enabling(game, seat, offer, horizon, room_left, forbidden)
    opps = [_seat_value(game, o, ctx, offer, horizon, room_left) for o in ctx.opponents]
    value = mine - (0.6 * max(opps) + 0.4 * sum(opps) / len(opps)) if opps else mine
    value += ctx.tempo * (game.score(seat) - ctx.base)  # a still table: points scored now count more
    # Being close to the end when ahead is good: the clock then works for us.
    keep_value, keep = _keep(game, ctx, offer, horizon, room_left)
    return value + keep_value, keep


def _keep_any(game: Game) -> tuple[int, ...]:
    return tuple(sorted(game.state.players[game.current_player].storeroom, reverse=True)[:STORAGE_SLOTS])


def _keep(game: Game, ctx: _Context, offer: list[int], horizon: float, room_left: int) -> tuple[float, tuple[int, ...]]:
    store = game.state.players[ctx.seat].storeroom
    if not store:
        return 0.0, ()
    _v, plans = ev.rooms_value(game, ctx.seat, offer, horizon, None, room_left)
    useful = ev.useful_values(game, ctx.seat, plans)

    def worth(v: int) -> float:
        return KEEP_USEFUL if v in useful else KEEP_OTHER

    ranked = sorted(store, key=lambda v: (v in useful, v), reverse=True)[:STORAGE_SLOTS]
    best = (sum(worth(v) for v in ranked), tuple(ranked))
    # Three equal dice are rare, so the 3-dice cards were seldom taken (two players
    # especially): a pair kept toward one of them may be worth more than two loose dice.
    pairs = {v for v in store if store.count(v) >= 2}
    if not pairs:  # the usual case: the row need not be looked at (evaluate runs per node)
        return best
    triples = ev.triple_targets(game, ctx.seat, horizon)
    for v in pairs & triples.keys():
        value = 2 * worth(v) + PAIR * triples[v][0]
        if value > best[0]:
            best = (value, (v, v))
    return best


def still_rounds(game: Game) -> float:
    """Rounds in a row, up to now, in which nobody's score changed (read from the log: a
    score changes only by a completion or a die moved to the museum); 0 once this turn scored."""
    still = 0
    turn: list[bool] = []  # per action of the turn under way: did it score?
    for m in game.log:
        if isinstance(m, Undo):
            if turn:
                turn.pop()
        elif isinstance(m, EndTurn | Skip):
            still = 0 if any(turn) else still + 1
            turn = []
        else:
            turn.append(isinstance(m, Complete | ToMuseum))
    if any(turn):
        return 0.0
    return still / max(1, len(game.active_players()))


def _die_value(game: Game, move: Place | ToMuseum) -> int:
    d = move.die
    if d.kind == CARD:
        v = game.state.players[game.current_player].completed[d.card].dice[d.space]
        assert v is not None
        return v
    return d.value


class StrongPlayer:
    """Plans the whole turn (beam search over actions, valued by ``evaluate``)."""

    name = "strong"

    def __init__(
        self, seed: int = 0, beam: int = 5, depth: int = 12, budget: int = 500, turn_budget: int = 700
    ) -> None:
        self.seed = seed
        self.beam = beam
        self.depth = depth
        # Positions valued per plan and per turn (replans included): deterministic stand-ins
        # for a time limit.
        self.budget = budget
        self.turn_budget = turn_budget
        self._spent: tuple[tuple[int, int], int] = ((-1, -1), 0)  # ((seat, turn), positions valued)
        self._plan: list[Move] = []
        self._draws: list[bool] = []
        self._at: tuple[int, int, int] | None = None  # (seat, turn, log length) where _plan[0] applies
        self._fallback = GreedyPlayer(seed)
        self._last_spent = 0
        # With ``keep_ends``, every place the last search could stop at (end the turn, or
        # reach the roll), with its value: the master player weighs the best few further.
        # Off by default: they hold hundreds of copies of the game.
        self.keep_ends = False
        self._ends: list[_Node] = []

    # --- public API -------------------------------------------------------------------

    def plan_turn(self, game: Game) -> list[Move]:
        """The rest of this turn as moves that apply in order (ending with ``end`` when the
        turn can end; a turn still waiting for its roll is planned up to the roll)."""
        return list(self._search(game)[0])

    def choose(self, game: Game) -> Move:
        if self._at is not None and self._plan:
            seat, turn, at = self._at
            if (seat, turn, at) == (game.current_player, game.state.turn, len(game.log)) and (
                self._plan[0] in game.legal_moves()
            ):
                return self._next(game)
        this_turn = (game.current_player, game.state.turn)
        used = self._spent[1] if self._spent[0] == this_turn else 0
        budget = max(self.budget // 5, min(self.budget, self.turn_budget - used))
        moves, draws = self._search(game, budget)
        self._spent = (this_turn, used + self._last_spent)
        self._plan, self._draws = moves, draws
        self._at = (game.current_player, game.state.turn, len(game.log))
        if not self._plan or self._plan[0] not in game.legal_moves():
            self._plan = []
            return self._fallback.choose(game)
        return self._next(game)

    def explain(self, game: Game) -> list[Reason]:
        """Why the plan is good, its main action first (for hints; none once the game is over)."""
        if game.is_over:
            return []
        return reasons(game, self.plan_turn(game))

    def ranked_plans(self, limit: int) -> list[Plan]:
        """The best ``limit`` plans of the last search (with ``keep_ends``) that end in
        different positions, best first."""
        out: list[Plan] = []
        seen: set[tuple[object, ...]] = set()
        for node in sorted(self._ends, key=lambda n: n.value, reverse=True):
            key = (self._key(node.game), node.keep)
            if key in seen:
                continue
            seen.add(key)
            moves, draws = list(node.moves), list(node.draws)
            if node.can_end:
                moves.append(EndTurn(node.keep))
                draws.append(True)
            out.append(Plan(tuple(moves), tuple(draws), node.value))
            if len(out) >= limit:
                break
        return out

    # --- internals --------------------------------------------------------------------

    def _next(self, game: Game) -> Move:
        move = self._plan.pop(0)
        drew = self._draws.pop(0)
        if drew or isinstance(move, EndTurn):
            self._plan, self._draws, self._at = [], [], None  # something new: plan again next time
        else:
            self._at = (game.current_player, game.state.turn, len(game.log) + 1)
        return move

    def _hidden_shuffled(self, game: Game) -> Game:
        """A copy whose hidden parts are re-drawn from our own generator (no peeking)."""
        rng = random.Random(f"{self.seed}:{game.current_player}:{game.state.turn}:{len(game.log)}")
        g = game.clone()
        rng.shuffle(g.state.installation_deck)
        rng.shuffle(g.state.artist_deck)
        g.state.rng = rng.getrandbits(64)
        return g

    def _search(self, game: Game, budget: int | None = None) -> tuple[list[Move], list[bool]]:
        # The search makes thousands of short-lived objects that refcounting frees; the
        # cyclic collector's passes over them (and over the caches) cost a third of the
        # time, so it pauses during a search (changes no decision).
        enabled = gc.isenabled()
        gc.disable()
        try:
            return self._beam_search(game, budget)
        finally:
            if enabled:
                gc.enable()

    def _beam_search(self, game: Game, budget: int | None) -> tuple[list[Move], list[bool]]:
        budget = self.budget if budget is None else budget
        self._last_spent = 0
        self._ends = []
        if game.is_over:
            return [], []
        root_game = self._hidden_shuffled(game)
        ctx = _Context(root_game, game.current_player, still_rounds(game))
        root = _Node(root_game, [])
        self._value(root, ctx)
        best: _Node | None = root if root.can_end else None
        ends = self._ends = [root] if root.can_end and self.keep_ends else []
        beam = [root]
        seen: set[tuple[object, ...]] = {self._key(root_game)}
        spent = 0
        for level in range(self.depth):
            children: list[_Node] = []
            for node in beam:
                for child in self._expand(node, seen, ctx.visible_offer):
                    self._value(child, ctx)
                    spent += 1
                    children.append(child)
                    if child.can_end or child.stop:
                        if self.keep_ends:
                            ends.append(child)
                        if best is None or child.value > best.value:
                            best = child
                    # The first level is always seen whole (every first move is weighed);
                    # deeper ones stop at the budget, which bounds the time.
                    if level and spent >= budget:
                        break
                if spent >= budget:
                    break
            if not children or spent >= budget:
                break
            children.sort(key=lambda n: n.value, reverse=True)
            beam = [c for c in children if not c.stop][: self.beam]
            if not beam:
                break
        self._last_spent = spent
        if best is None:
            return [], []
        moves = list(best.moves)
        draws = list(best.draws)
        if best.can_end:
            moves.append(EndTurn(best.keep))
            draws.append(True)
        return moves, draws

    def _value(self, node: _Node, ctx: _Context) -> None:
        g = node.game
        node.can_end = g.has_rolled() and not g.is_abandoning() and not node.stop
        value, keep = evaluate(g, ctx, node.forbidden)
        value -= THROWN_DIE * node.thrown
        if node.can_end or node.stop:
            node.value, node.keep = value, keep
        else:
            node.value = value - 0.01  # mid-abandon: still valued, never a place to stop
        if node.stop:
            node.keep = ()

    @staticmethod
    def _key(g: Game) -> tuple[object, ...]:
        s = g.state
        me = s.players[s.current]
        return (
            tuple(ev.room_key(w) for w in me.workrooms),
            tuple(me.storeroom),
            tuple(tuple(c.dice) for c in me.completed),
            tuple(sorted((c, col.value, len(col.owners)) for c, col in s.museum.items())),
            tuple((a.card, a.owner, a.value, a.count) for a in s.artists),
            tuple(s.offer),
            tuple(s.pool),
            s.rolled,
        )

    def _candidates(self, node: _Node, visible: frozenset[int]) -> list[Move]:
        """The moves worth trying from ``node``; a completion only of a card ``visible`` when
        the search began (one the plan's own draws bring is unknown until it is drawn)."""
        g = node.game
        me = g.state.players[g.current_player]
        out: list[Move] = []
        seen: set[tuple[object, ...]] = set()
        for m in g.legal_moves():
            if isinstance(m, Undo | EndTurn):
                continue
            if isinstance(m, Place):
                if not me.workrooms[m.room] and m.cell != _START_CELL:
                    continue
                k: tuple[object, ...] = ("p", m.room, m.cell, _die_value(g, m))
            elif isinstance(m, ToMuseum):
                k = ("m", m.cell, _die_value(g, m))
            elif isinstance(m, ToArtist):
                if m.slot in node.forbidden:
                    continue
                # Which card dice go makes no difference to the plan, only how many.
                card_dice = sum(d.kind == CARD for d in m.dice)
                k = ("a", m.slot, tuple(d for d in m.dice if d.kind != CARD), card_dice)
            elif isinstance(m, UseArtist):
                if m.slot in node.forbidden:
                    continue
                k = ("u", m)
            elif isinstance(m, Complete):
                if m.card not in visible:
                    continue
                k = ("c", m)
            else:  # Abandon, Release, Switch
                k = ("o", m)
            if k in seen:
                continue
            seen.add(k)
            out.append(m)
        return out

    def _expand(self, node: _Node, seen: set[tuple[object, ...]], visible: frozenset[int]) -> Iterator[_Node]:
        """The positions one action away (lazily: the caller may stop at its budget)."""
        g = node.game
        for m in self._candidates(node, visible):
            thrown = node.thrown
            if isinstance(m, Abandon):
                thrown += sum(h for _v, h in g.state.players[g.current_player].workrooms[m.room].values())
            elif isinstance(m, ToArtist):
                thrown -= sum(d.kind == POOL for d in m.dice)
            c = g.clone()
            before_artists = [a.card for a in c.state.artists]
            before_offer = list(c.state.offer)
            rolled = c.has_rolled()
            c.apply(m)
            key = self._key(c)
            if key in seen:
                continue
            seen.add(key)
            changed = frozenset(i for i, a in enumerate(c.state.artists) if a.card != before_artists[i])
            drew = bool(changed) or c.state.offer != before_offer
            stop = not rolled and c.has_rolled()
            yield _Node(
                c,
                [*node.moves, m],
                forbidden=node.forbidden | changed,
                stop=stop,
                draws=[*node.draws, drew or stop],
                thrown=thrown,
            )
