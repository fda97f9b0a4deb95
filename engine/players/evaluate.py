"""Position evaluation for the strong player, from what a player can see.

Everything here reads only public information: workrooms, completed cards, the museum,
the artist row, the face-up installation offer, scores.  Hidden things (deck order, the
generator state) are never looked at.

The value of a position for a seat is its score plus an estimate of what its workrooms,
card dice, artist dice and storage are worth, each discounted by how many turns it would
take to cash in against how many turns the game probably has left.

The discount is steep (``GAMMA``) because the game is a race: it ends as soon as someone
holds five installations, so a quick small card usually beats a slow big one, and a die
placed now beats a die kept in storage.  Values that a slot accepts few of (a die that
must match a column exactly) are priced as the rare rolls they are (``COST_1``).  The
constants were tuned by seat-rotated matches against the greedy player.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..cards import ArtistKind, Deck
from ..game import Game
from ..geometry import WORKROOM_SIZE, lies_within, neighbour_table, rotations
from ..rules import museum as museum_rules
from ..solver import completable
from ..state import INSTALLATIONS_TO_END

W = WORKROOM_SIZE
_GRID = 8  # plans are matched on a roomier grid so that shifts never fall off it
_NB = neighbour_table(_GRID)
_NEAR = {v: frozenset(w for w in (v - 1, v + 1) if 1 <= w <= 6) for v in range(1, 7)}

DICE_PER_TURN = 2.4  # two rolled dice plus a share of storage and artist dice
GAMMA = 0.65  # value kept per turn of waiting: the race to five cards rewards speed
CARD_DIE = 1.55  # a bonus die on a completed card: most become 2 museum points
CARD_DIE_EARLY, CARD_DIE_SLOPE = 0.3, 0.35  # its share of that with few turns left
BONUS_DIE = 1.5  # what each bonus space of a card is worth when completing it
LATE = 0.12  # factor for a plan that probably cannot be finished before the end
EMPTY_ROOM = 0.6  # an empty room is only a possibility
SHARED = 0.5  # share of the faster plan's turns the slower plan of the other room waits
# On a table that has been still for a while (nobody's score changed), the strong player
# hurries: waiting costs more per turn, so the nearest completion wins over a
# bigger card further off, and the second workroom waits for the whole of the first plan
# (dice go where they finish something).  Spreading dice over both rooms on a still table
# (the opposite) made the stretches longer.
HURRY_GAMMA = 0.5
HURRY_SHARED = 1.0
CARD_TURNS = 3.0  # turns a player needs per completion (the game's clock)
CARD_OFFSET = 1.0
LAST_TURN = 3.0  # points a player is expected to gain in a last turn (equal_turns)
# Dice drawn, on average, to fill a slot that accepts one / two of the six values (less
# than 6 and 3: other slots and storage use the misses).
COST_1 = 3.0
COST_2 = 1.6

RoomKey = tuple[tuple[int, int, int], ...]  # sorted (cell, value, height)


@dataclass(frozen=True, slots=True)
class Fit:
    """How a workroom can still become an installation card."""

    remaining: int  # dice still to add
    cost: float  # expected random dice needed (harder-to-get values cost more)
    useful: frozenset[int]  # die values that can go in right now toward the plan


def room_key(cols: dict[int, tuple[int, int]]) -> RoomKey:
    return tuple(sorted((c, v, h) for c, (v, h) in cols.items()))


# Caches keyed by id(deck): hashing a pydantic Deck costs tens of microseconds.  They are
# kept small: huge caches make each full pass of Python's cyclic collector take hundreds
# of milliseconds, which showed up as the slowest turns.
_ROTS: dict[int, dict[int, tuple[dict[tuple[int, int], int], ...]]] = {}
_FITS: dict[int, dict[tuple[RoomKey, int], Fit | None]] = {}
_FIT_CACHE_LIMIT = 20_000


def _plan_rots(deck: Deck) -> dict[int, tuple[dict[tuple[int, int], int], ...]]:
    rots = _ROTS.get(id(deck))
    if rots is None:
        rots = {c.id: tuple({(x, y): h for x, y, h in r} for r in rotations(c.cells)) for c in deck.installations}
        _ROTS[id(deck)] = rots
    return rots


def _die_cost(k: int) -> float:
    """Expected dice to draw for a slot that accepts k of the six values (dampened)."""
    return 1.0 if k >= 3 else COST_2 if k == 2 else COST_1


def fit(key: RoomKey, card: int, deck: Deck) -> Fit | None:
    """The cheapest way for the workroom ``key`` to grow into ``card`` (None: impossible)."""
    cache = _FITS.setdefault(id(deck), {})
    k = (key, card)
    if k in cache:
        return cache[k]
    if len(cache) > _FIT_CACHE_LIMIT:
        cache.clear()
    out = cache[k] = _fit(key, card, deck)
    return out


def _fit(key: RoomKey, card: int, deck: Deck) -> Fit | None:
    plan = deck.installation(card)
    rots = _plan_rots(deck)[card]
    if not key:
        cost = 0.0
        for _x, _y, h in plan.cells:
            cost += 1.2 + (h - 1) * _die_cost(1)
        return Fit(plan.dice, cost - 0.2, frozenset(range(1, 7)))
    dice = [(c % W, c // W, v, h) for c, v, h in key]
    have = sum(d[3] for d in dice)
    if have > plan.dice:
        return None
    ax, ay = dice[0][0], dice[0][1]
    best: float | None = None
    useful: set[int] = set()
    for rot in rots:
        for px, py in rot:
            dx, dy = px - ax, py - ay
            # The plan must lie inside the workroom's grid where the dice already stand: a
            # structure built against an edge cannot grow past it (a 2-player game at seed
            # 151089 stood still for 53 rounds, the leader waiting for a die whose cell was
            # off the grid).
            if not lies_within(rot, dx, dy):
                continue
            placed: dict[tuple[int, int], tuple[int, int]] = {}
            ok = True
            for x, y, v, h in dice:
                target = rot.get((x + dx, y + dy), 0)
                if target < h:
                    ok = False
                    break
                placed[(x + dx, y + dy)] = (v, h)
            if not ok:
                continue
            fixed = {y * _GRID + x: v for (x, y), (v, _h) in placed.items()}
            if not completable([y * _GRID + x for x, y in rot], fixed, _NB):
                continue
            cost = 0.0
            here: set[int] = set()
            for (x, y), height in rot.items():
                col = placed.get((x, y))
                if col is not None:
                    missing = height - col[1]
                    if missing:
                        cost += missing * _die_cost(1)
                        here.add(col[0])
                    continue
                dom: frozenset[int] | None = None
                for n in _NB[y * _GRID + x]:
                    near = fixed.get(n)
                    if near is not None:
                        dom = _NEAR[near] if dom is None else dom & _NEAR[near]
                k = 3 if dom is None else len(dom)
                cost += _die_cost(k) + (height - 1) * _die_cost(1)
                if dom is not None:
                    here |= dom
            useful |= here
            if best is None or cost < best:
                best = cost
    if best is None:
        return None
    return Fit(plan.dice - have, best, frozenset(useful))


# Value of one's own dice lying on an artist card, by kind (what the action is worth).
# Rozanova is a Marc that also costs an opponent a stored die; Pascin and Gris repair a
# workroom that no offered card fits any more (the alternative is abandoning it), and the
# 3-dice La Fresnaye cards turn a die two steps.  Three equal dice are rare, so the 3-dice
# kinds compete for them: with one of them clearly above the others, that one takes nearly
# every triple and the others go unused.  They are kept close, and the strong player
# discounts a card whose action has nothing to work on yet, so which one a triple goes to
# depends on the position.  Rozanova is valued as Pascin: games are short, so the storage
# spaces hold little to take, and valued lower its cards go unused.
_ARTIST_VALUE = {
    ArtistKind.MARC: 1.05,
    ArtistKind.BOCCIONI: 0.7,
    ArtistKind.MALEVICH: 0.6,
    ArtistKind.POPOVA: 0.55,
    ArtistKind.LA_FRESNAYE: 0.6,
    ArtistKind.ROZANOVA: 1.2,
    ArtistKind.PASCIN: 1.2,
    ArtistKind.GRIS: 0.6,
}
ARTIST_LATE = 0.25  # share of an artist card's value kept per turn left (none at the end)
# A 3-dice card of a kind that also comes with 2 dice does the same thing for a die more:
# its dice must be worth that much more, or three equal dice always go elsewhere.
THIRD_DIE = 1.8


def triple_targets(game: Game, seat: int, horizon: float) -> dict[int, tuple[float, ArtistKind]]:
    """Per die value: the best 3-dice artist card that three such dice could take next
    turn (free, or holding an opponent's lower or equal dice), valued one turn later, and
    its kind."""
    out: dict[int, tuple[float, ArtistKind]] = {}
    for a in game.state.artists:
        if a.card is None or a.owner == seat:
            continue
        card = game.deck.artist(a.card)
        if card.dice != 3:
            continue
        value = artist_value(card.artist, horizon - 1, card.dice)
        for v in range(a.value if a.owner is not None else 1, 7):  # bumping takes equal or higher dice
            if v not in out or value > out[v][0]:
                out[v] = (value, card.artist)
    return out


def card_die_value(horizon: float) -> float:
    """A bonus die on a completed card, with about ``horizon`` turns left: near the end it is
    worth little unless it moves now (to the museum, a workroom or an artist card)."""
    return CARD_DIE * min(1.0, CARD_DIE_EARLY + CARD_DIE_SLOPE * horizon)


def artist_value(kind: ArtistKind, horizon: float = 99.0, dice: int = 2) -> float:
    """Dice of one's own on a card of this kind (``dice`` of them), with about ``horizon``
    turns left: an action is worth something only while there are turns to profit from it,
    so near the end the player uses its cards (or bumps with them) instead of sitting on them."""
    more = THIRD_DIE if dice > 2 and kind is ArtistKind.LA_FRESNAYE else 1.0
    return _ARTIST_VALUE[kind] * more * min(1.0, ARTIST_LATE * (1.0 + horizon))


def museum_room(game: Game) -> int:
    """Dice the museum still takes."""
    museum = game.state.museum
    return sum(max(0, h - (len(museum[c].owners) if c in museum else 0)) for c, h in game.museum_heights().items())


def turns_left(game: Game) -> float:
    """Rough number of turns each player still gets (the game's clock)."""
    s = game.state
    most = max(len(p.completed) for p in s.players)
    by_cards = CARD_TURNS * (INSTALLATIONS_TO_END - most) - CARD_OFFSET
    players = max(1, len(game.active_players()))
    by_museum = museum_room(game) / (0.8 * players)
    clock = min(by_cards, by_museum)
    if not _museum_can_end(game):
        # Neither ending comes before someone completes an installation (a fifth card, or
        # the card dice the museum still needs): the clock is never shorter than the fastest
        # completion in sight.  Without this floor, an offer of 6- and 7-dice cards next to
        # a museum a die short made every plan look too late to finish, and the players
        # bumped each other on the artist cards for rounds on end.
        end = _next_end_turns(game)
        clock = max(clock, by_cards if end is None else end)
    if most == INSTALLATIONS_TO_END - 1:
        # A rival a die or two from a fifth card ends the game sooner than the card clock
        # says; the earlier seats of a round (who never learn which turn is their last under
        # equal_turns) then cash in now, or the last seat of three wins more than its share.
        clock = min(clock, _last_card_turns(game))
    return max(0.5, clock)


LAST_TURN_FLOOR = 2.0  # a later seat with no completion in reach still gains this much
LAST_TURN_READY = 2.0  # ... and a finished workroom's card, this much more (its bonus dice)


def last_turn_gain(game: Game, seat: int) -> float:
    """What ``seat`` can be expected to gain at most in one last turn, as the position shows
    it (equal_turns: the seats after the one that ends the game).  Measured at the end of
    500 three-player all-strong games: a seat two dice or more short of every
    offered card scored in 14% of those turns, 4 points at most; one die short of a card,
    in 38%, up to 12; a finished workroom, in 79%; a die the museum takes is 2
    points almost surely.  With a flat 3 points for every later seat, the earlier seats
    of a round ended games on a 3-point lead against a player one die from a 6-point card
    and waited on the same lead when nobody could answer, so the last seat, which ends a
    game knowing the result, won more than its share."""
    ready = seat_ready_dice(game, seat, museum_takes(game))
    near = LAST_TURN_FLOOR
    offer = [c for c in game.state.offer if c is not None]
    for room in game.state.players[seat].workrooms:
        if not room:
            continue
        key = room_key(room)
        for c in offer:
            f = fit(key, c, game.deck)
            if f is None or f.remaining > 1:
                continue
            points = float(game.deck.installation(c).points)
            near = max(near, points + (LAST_TURN_READY if f.remaining == 0 else 0.0))
    return 2.0 * min(ready, museum_room(game)) + near


def _wins_by_ending(game: Game, seat: int, gain: float, scores: list[int]) -> bool:
    """Would ``seat`` be ahead if the game ended once it gained ``gain`` points now?  Under
    equal_turns the seats after it in the round still play a last turn (``LAST_TURN``
    points each).  A player who would lose does not end the game (a fifth card, the
    museum's last die): counting its finished workroom as the end made both players of a
    4-4 endgame wait for an end that never came, the one ahead building nothing."""
    order = game.turn_order()
    later = set(order[order.index(seat) + 1 :]) if game.options.equal_turns and seat in order else set()
    others = [scores[o] + (LAST_TURN if o in later else 0.0) for o in game.active_players() if o != seat]
    return not others or scores[seat] + gain > max(others)


def _museum_can_end(game: Game) -> bool:
    """The card dice the museum can take now fill it, and one of their owners would win by
    placing the last one."""
    room = museum_room(game)
    takes = museum_takes(game)
    ready = {seat: seat_ready_dice(game, seat, takes) for seat in game.active_players()}
    if sum(ready.values()) < room:
        return False
    scores = game.scores()
    return any(n and _wins_by_ending(game, seat, 2.0 * min(n, room), scores) for seat, n in ready.items())


def _ends_and_loses(game: Game, seat: int, card: int, scores: list[int]) -> bool:
    """Completing ``card`` would be ``seat``'s fifth installation and leave it behind (its
    bonus dice counted as going to the museum when the museum takes them now)."""
    if len(game.state.players[seat].completed) < INSTALLATIONS_TO_END - 1:
        return False
    plan = game.deck.installation(card)
    takes = museum_takes(game)
    to_museum = min(museum_room(game), sum(1 for space in plan.bonus if any(v in takes for v in space)))
    return not _wins_by_ending(game, seat, plan.points + 2.0 * to_museum, scores)


_TAKES: dict[tuple[object, ...], frozenset[int]] = {}


def museum_takes(game: Game) -> frozenset[int]:
    """The die values the museum can take now (some legal cell)."""
    key = (
        id(game.deck),
        game.state.museum_card,
        tuple(sorted((c, col.value, len(col.owners)) for c, col in game.state.museum.items())),
    )
    got = _TAKES.get(key)
    if got is None:
        if len(_TAKES) > 2_000:
            _TAKES.clear()
        cols = museum_rules.columns(game)
        got = _TAKES[key] = frozenset(v for v in range(1, 7) if museum_rules.cells_for(game, v, cols))
    return got


def ready_museum_dice(game: Game) -> int:
    """Dice on completed cards (any active player) that the museum could take now."""
    takes = museum_takes(game)
    return sum(seat_ready_dice(game, seat, takes) for seat in game.active_players())


def seat_ready_dice(game: Game, seat: int, takes: frozenset[int]) -> int:
    """Dice on ``seat``'s completed cards of a value in ``takes`` (what the museum takes now)."""
    return sum(1 for c in game.state.players[seat].completed for v in c.dice if v is not None and v in takes)


def _next_end_turns(game: Game) -> float | None:
    """Turns the fastest completion that can bring the end still needs (None: none in
    sight): a card whose bonus dice the museum can take, or a fifth installation that
    leaves its player ahead.  Other completions end nothing: counting them, a player who
    held a finished workroom kept the clock at its shortest, so taking the card made the
    clock longer and its rival's plans worth more, and it held the room for rounds."""
    offer = [c for c in game.state.offer if c is not None]
    takes = museum_takes(game)
    scores = game.scores()
    best = 99.0
    for seat in game.active_players():
        fifth = len(game.state.players[seat].completed) >= INSTALLATIONS_TO_END - 1
        for room in game.state.players[seat].workrooms:
            key = room_key(room)
            for c in offer:
                f = fit(key, c, game.deck)
                if f is None or f.cost / DICE_PER_TURN >= best:
                    continue
                if fifth:
                    if _ends_and_loses(game, seat, c, scores):
                        continue
                elif not any(v in takes for space in game.deck.installation(c).bonus for v in space):
                    continue
                best = f.cost / DICE_PER_TURN
    return best if best < 99.0 else None


def _last_card_turns(game: Game) -> float:
    """Turns the player closest to a fifth installation still needs for it (from the
    workrooms and the face-up offer, as everyone sees them): the game ends then."""
    offer = [c for c in game.state.offer if c is not None]
    scores = game.scores()
    best = 99.0
    for seat in game.active_players():
        p = game.state.players[seat]
        if len(p.completed) < INSTALLATIONS_TO_END - 1:
            continue
        for room in p.workrooms:
            key = room_key(room)
            for c in offer:
                f = fit(key, c, game.deck)
                if f is not None and not _ends_and_loses(game, seat, c, scores):
                    best = min(best, f.cost / DICE_PER_TURN)
    return best


@dataclass(frozen=True, slots=True)
class Plan:
    """A workroom's best target: card, value now, turns to finish."""

    card: int | None
    value: float
    turns: float


_NO_PLAN = Plan(None, 0.0, 99.0)


def plan_value(fitted: Fit, points: float, horizon: float, risk: float, gamma: float = GAMMA) -> tuple[float, float]:
    turns = fitted.cost / DICE_PER_TURN
    v = points * gamma**turns * (1.0 - risk)
    if turns > horizon + 0.5:
        v *= LATE
    return v, turns


def card_worth(game: Game, card: int, room_left: int, after: float = 99.0) -> float:
    """The card and its bonus dice, taken with about ``after`` turns left: a bonus die is
    worth no more than a die on a completed card is then.  Valued at ``BONUS_DIE`` whatever
    the clock, a finished workroom was worth more than its card near the end, and players
    held one for rounds instead of taking the card."""
    plan = game.deck.installation(card)
    die = min(BONUS_DIE, card_die_value(after))
    bonus = min(len(plan.bonus), room_left) * die + max(0, len(plan.bonus) - room_left) * 0.4
    return plan.points + bonus


# rooms_value is asked about the same workrooms thousands of times per search.
_ROOMS: dict[tuple[object, ...], tuple[float, tuple[Plan, Plan]]] = {}
_ROOMS_LIMIT = 20_000


def rooms_value(
    game: Game,
    seat: int,
    offer: Iterable[int],
    horizon: float,
    risks: dict[int, float] | None = None,
    room_left: int = 99,
    hurry: bool = False,
) -> tuple[float, list[Plan]]:
    """Best joint value of a seat's two workrooms aimed at different offered cards
    (``hurry``: valued as on a still table, see ``HURRY_GAMMA``)."""
    deck = game.deck
    rooms = game.state.players[seat].workrooms
    cards = tuple(offer)
    keys = tuple(room_key(cols) for cols in rooms)
    # The value is computed from the rounded inputs that key the cache, so that it never
    # depends on what was asked before (decisions stay deterministic for a seed).
    horizon = round(horizon, 3)
    room_left = min(room_left, 3)  # no card has more than two bonus spaces
    risk_key = tuple(round(risks.get(c, 0.0), 3) for c in cards) if risks else None
    ck = (id(deck), keys, cards, horizon, room_left, risk_key, hurry)
    got = _ROOMS.get(ck)
    if got is None:
        if len(_ROOMS) > _ROOMS_LIMIT:
            _ROOMS.clear()
        rounded = dict(zip(cards, risk_key, strict=True)) if risk_key else None
        got = _ROOMS[ck] = _rooms_value(game, keys, cards, horizon, rounded, room_left, hurry)
    return got[0], list(got[1])


def _rooms_value(
    game: Game,
    keys: tuple[RoomKey, ...],
    cards: tuple[int, ...],
    horizon: float,
    risks: dict[int, float] | None,
    room_left: int,
    hurry: bool,
) -> tuple[float, tuple[Plan, Plan]]:
    deck = game.deck
    gamma, shared = (HURRY_GAMMA, HURRY_SHARED) if hurry else (GAMMA, SHARED)
    options: list[list[Plan]] = []
    for key in keys:
        opts: list[Plan] = [_NO_PLAN]
        for c in cards:
            f = fit(key, c, deck)
            if f is None:
                continue
            # A finished workroom is worth no more than its card taken now.
            after = horizon if f.remaining == 0 else 99.0
            v, t = plan_value(f, card_worth(game, c, room_left, after), horizon, (risks or {}).get(c, 0.0), gamma)
            if not key:
                v *= EMPTY_ROOM
            opts.append(Plan(c, v, t))
        options.append(opts)
    best = (-1.0, (_NO_PLAN, _NO_PLAN))
    for a in options[0]:
        for b in options[1]:
            if a.card is not None and a.card == b.card:
                continue
            total = a.value + b.value
            if a.card is not None and b.card is not None:
                # The dice go to one room or the other: the slower plan waits for a share of
                # the faster one's turns.  Valuing both as if each got every die made the
                # players spread their dice over two slow plans and complete nothing for
                # rounds at the start of a game.
                first, second = (a, b) if a.turns <= b.turns else (b, a)
                total = first.value + second.value * gamma ** (shared * first.turns)
            if total > best[0]:
                best = (total, (a, b))
    return best


def useful_values(game: Game, seat: int, plans: list[Plan]) -> set[int]:
    out: set[int] = set()
    for room, plan in zip(game.state.players[seat].workrooms, plans, strict=True):
        if plan.card is None:
            continue
        f = fit(room_key(room), plan.card, game.deck)
        if f is not None:
            out |= f.useful
    return out
