"""The master player: the strong player's best few plans, found by a wider search than
strong's own, each played forward in sampled worlds, and the one that does best on average
is played.

In two-player games its plans come from strong's beam search kept six times as wide
(``beam`` 30 partial plans at each step, not 5) and allowed forty times as many positions
(``budget`` 20,000, not 500): strong's static value then sees plans that its own narrow beam
drops early (alone, that search wins 59.8% of 300 two-player games against strong).  With
three or four players it keeps strong's width: there a wider search took a turn's CPU past
two seconds at p95 (2.46 s at 15 plans and 6,000 positions).

The strong player values the position its plan reaches with a static estimate.  The
master plays each of the search's top ``candidates`` plans of different values (two plans of
one value are nearly always one plan: the same structure in the other empty workroom, the
same die on another museum cell) forward in sampled worlds (the hidden parts, the decks'
order and the dice still to be rolled, drawn again from the master's own generator: no
peeking): the plan is played, the opponents play their turns
with a cheaper strong player, and the master's position is then valued at the start of its
next turn, with its next roll known (the best plan a cheaper strong player finds for it).
A game that ends inside a world is valued exactly.

The dice's noise is of the order of the differences between strong's top plans, so the
worlds go where the choice is still open (successive halving): every plan meets
``worlds`` worlds, the better half meets twice as many more, and so on until two are left
that have met ``duel_worlds`` each.  Plans still in contention always meet the same
worlds, so they are compared on the same dice.

Decisions are deterministic for a seed and bounded without a clock: the worlds are drawn
from a generator seeded by the seed and the position, and a turn plays at most
``turn_rollouts`` worlds.  A plan far ahead of the others (``clear_margin``) is played
without looking further.
"""

from __future__ import annotations

import random

from ..game import Game
from ..moves import EndTurn, Move
from .strong import Plan, StrongPlayer, final_value, position_value

# Actions a rollout may take in one turn before it is cut short (no real turn takes as many).
_ROLLOUT_ACTIONS = 60
# Plans looked through per contender kept (the twins of a plan come right after it) and the
# difference below which two plans' values are one value.
_TWINS = 8
_SAME_VALUE = 1e-9


def contenders(ranked: list[Plan], count: int) -> list[Plan]:
    """The first ``count`` plans of ``ranked`` (best first) of different values.  A search's
    top plans are mostly one plan several times over (a new structure in either empty
    workroom, a die on any free museum cell: one value), and worlds spent on those compare a
    plan with itself while the real alternatives (not to score yet, to keep a die) go
    unweighed."""
    out: list[Plan] = []
    for plan in ranked:
        if all(abs(plan.value - other.value) > _SAME_VALUE for other in out):
            out.append(plan)
            if len(out) == count:
                break
    return out


class MasterPlayer(StrongPlayer):
    """Strong's top plans, weighed by playing them forward in sampled worlds."""

    name = "master"

    def __init__(
        self,
        seed: int = 0,
        beam: int = 30,
        budget: int = 20000,
        candidates: int = 4,
        worlds: int = 4,
        rollout_budget: int = 120,
        duel_worlds: int = 12,
        turn_rollouts: int = 24,
        clear_margin: float = 2.0,
    ) -> None:
        super().__init__(seed)
        # the search's width, budget and turn budget by the number of players (else strong's)
        self._sizes = {2: (beam, budget, budget * 7 // 5)}
        self._narrow = (self.beam, self.budget, self.turn_budget)
        self.keep_ends = True
        self.candidates = candidates
        self.worlds = worlds  # the first round's, per plan
        self.duel_worlds = duel_worlds
        # Positions the cheaper strong players of a rollout value per plan (strong: 500).
        self.rollout_budget = rollout_budget
        # Worlds played per turn, every plan of every search counted: the time limit.
        self.turn_rollouts = turn_rollouts
        self.clear_margin = clear_margin
        self._rollouts: tuple[tuple[int, int], int] = ((-1, -1), 0)  # ((seat, turn), worlds played)

    def plan_turn(self, game: Game) -> list[Move]:
        self._size_for(game)
        return super().plan_turn(game)

    def choose(self, game: Game) -> Move:
        self._size_for(game)
        return super().choose(game)

    def _size_for(self, game: Game) -> None:
        self.beam, self.budget, self.turn_budget = self._sizes.get(game.num_players, self._narrow)

    def _beam_search(self, game: Game, budget: int | None) -> tuple[list[Move], list[bool]]:
        # Runs inside ``_search``, with the cyclic collector paused for the rollouts too.
        moves, draws = super()._beam_search(game, budget)
        if game.is_over or not self._ends:
            return moves, draws
        plans = contenders(self.ranked_plans(self.candidates * _TWINS), self.candidates)
        self._ends = []  # copies of the game, no longer needed (and not to be pickled)
        this_turn = (game.current_player, game.state.turn)
        used = self._rollouts[1] if self._rollouts[0] == this_turn else 0
        worlds = min(self.worlds, (self.turn_rollouts - used) // max(1, len(plans)))
        if len(plans) < 2 or worlds < 1 or plans[0].value - plans[1].value > self.clear_margin:
            return moves, draws
        best, used = self._halving(game, plans, worlds, used)
        self._rollouts = (this_turn, used)
        return list(best.moves), list(best.draws)

    def _halving(self, game: Game, plans: list[Plan], worlds: int, used: int) -> tuple[Plan, int]:
        """Successive halving: the plans still in contention meet the same new worlds, then
        the worse half is dropped and the rest meet twice as many more, until two are left
        that have met ``duel_worlds`` worlds, or the turn's budget is spent.  The dice's noise
        is of the order of the differences between strong's top plans: the worlds go where
        the choice is still open.  ``used``: worlds this turn played before; returns the plan
        and the worlds played, those included."""
        alive = list(range(len(plans)))
        totals = [0.0] * len(plans)
        played = 0  # worlds met by each plan still in contention
        while True:
            seeds = [self._world_seed(game, w) for w in range(played, played + worlds)]
            for i in alive:
                totals[i] += sum(self._rollout(game, plans[i], s) for s in seeds)
            used += worlds * len(alive)
            played += worlds
            alive.sort(key=lambda i: (-totals[i], i))  # ties: strong's order
            if len(alive) == 1 or (len(alive) == 2 and played >= self.duel_worlds):
                break
            if len(alive) > 2:
                alive, worlds = alive[: (len(alive) + 1) // 2], worlds * 2
            worlds = min(worlds, max(1, self.duel_worlds - played), (self.turn_rollouts - used) // len(alive))
            if worlds < 1:
                break
        return plans[alive[0]], used

    def _world_seed(self, game: Game, world: int) -> int:
        key = f"master:{self.seed}:{game.current_player}:{game.state.turn}:{len(game.log)}:{world}"
        return random.Random(key).getrandbits(64)

    def _world(self, game: Game, seed: int) -> Game:
        """A copy of ``game`` whose hidden parts are drawn again from ``seed``."""
        rng = random.Random(seed)
        g = game.clone()
        rng.shuffle(g.state.installation_deck)
        rng.shuffle(g.state.artist_deck)
        g.state.rng = rng.getrandbits(64)
        return g

    def _rollout(self, game: Game, plan: Plan, seed: int) -> float:
        """The master's value of ``plan`` in the world drawn from ``seed``: the plan played,
        then the opponents' turns, valued at the start of the master's next turn."""
        me = game.current_player
        g = self._world(game, seed)
        turn = g.state.turn
        for m in plan.moves:
            if g.is_over or g.state.turn != turn or not g.is_legal(m):
                break
            g.apply(m)
        players = {
            seat: StrongPlayer(seed + seat, budget=self.rollout_budget, turn_budget=self.rollout_budget * 3 // 2)
            for seat in range(g.num_players)
        }
        # The rest of this turn (a plan that stopped at the roll), then everyone else's.
        while not g.is_over and (g.state.turn == turn or g.current_player != me):
            self._play_turn(g, players[g.current_player])
        if g.is_over:
            return final_value(g, me)
        leaf = players[me]
        leaf.keep_ends = True
        leaf.plan_turn(g)
        best = leaf.ranked_plans(1)
        return best[0].value if best else position_value(g, me)

    @staticmethod
    def _play_turn(g: Game, player: StrongPlayer) -> None:
        turn = g.state.turn
        for _ in range(_ROLLOUT_ACTIONS):
            if g.is_over or g.state.turn != turn:
                return
            g.apply(player.choose(g))
        # A turn that never ends (it cannot happen in a real game): end it as cheaply as possible.
        ends = [m for m in g.legal_moves() if isinstance(m, EndTurn)]
        g.apply(ends[0] if ends else g.legal_moves()[0])
