"""The master player: the strong player's best few plans, each played forward in sampled
worlds, and the one that does best on average is played.

The strong player values the position its plan reaches with a static estimate.  The
master plays each of the strong player's top ``candidates`` plans forward: in each of
``worlds`` sampled worlds (the hidden parts, the decks' order and the dice still to be
rolled, drawn again from the master's own generator: no peeking) the plan is played, the
opponents play their turns with a cheaper strong player, and the master's position is then
valued at the start of its next turn, with its next roll known (the best plan a cheaper
strong player finds for it).  Every plan meets the same worlds, so the comparison is fair
and a few worlds suffice; a game that ends inside a world is valued exactly.

Decisions are deterministic for a seed and bounded without a clock: the worlds are drawn
from a generator seeded by the seed and the position, and a turn plays at most
``turn_rollouts`` worlds.  A plan far ahead of the others (``clear_margin``) is played
without looking further.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..game import Game
from ..moves import EndTurn, Move
from .strong import StrongPlayer, _Context, _final_value, _Node, evaluate, still_rounds

# Actions a rollout may take in one turn before it is cut short (no real turn takes as many).
_ROLLOUT_ACTIONS = 60


@dataclass(frozen=True, slots=True)
class _Plan:
    moves: tuple[Move, ...]
    draws: tuple[bool, ...]
    value: float  # the strong player's estimate


def _plan_of(node: _Node) -> _Plan:
    moves, draws = list(node.moves), list(node.draws)
    if node.can_end:
        moves.append(EndTurn(node.keep))
        draws.append(True)
    return _Plan(tuple(moves), tuple(draws), node.value)


class MasterPlayer(StrongPlayer):
    """Strong's top plans, weighed by playing them forward in sampled worlds."""

    name = "master"

    def __init__(
        self,
        seed: int = 0,
        candidates: int = 4,
        worlds: int = 4,
        rollout_budget: int = 120,
        turn_rollouts: int = 24,
        clear_margin: float = 2.0,
    ) -> None:
        super().__init__(seed)
        self.keep_ends = True
        self.candidates = candidates
        self.worlds = worlds
        # Positions the cheaper strong players of a rollout value per plan (strong: 500).
        self.rollout_budget = rollout_budget
        # Worlds played per turn, every plan of every search counted: the time limit.
        self.turn_rollouts = turn_rollouts
        self.clear_margin = clear_margin
        self._rollouts: tuple[tuple[int, int], int] = ((-1, -1), 0)  # ((seat, turn), worlds played)

    def _beam_search(self, game: Game, budget: int | None) -> tuple[list[Move], list[bool]]:
        # Runs inside ``_search``, with the cyclic collector paused for the rollouts too.
        moves, draws = super()._beam_search(game, budget)
        if game.is_over or not self._ends:
            return moves, draws
        plans = self._distinct_plans()
        self._ends = []  # copies of the game, no longer needed (and not to be pickled)
        this_turn = (game.current_player, game.state.turn)
        used = self._rollouts[1] if self._rollouts[0] == this_turn else 0
        worlds = min(self.worlds, (self.turn_rollouts - used) // max(1, len(plans)))
        if len(plans) < 2 or worlds < 1 or plans[0].value - plans[1].value > self.clear_margin:
            return moves, draws
        self._rollouts = (this_turn, used + worlds * len(plans))
        seeds = [self._world_seed(game, w) for w in range(worlds)]
        best, best_value = plans[0], float("-inf")
        for plan in plans:
            value = sum(self._rollout(game, plan, s) for s in seeds) / len(seeds)
            if value > best_value:
                best, best_value = plan, value
        return list(best.moves), list(best.draws)

    def _distinct_plans(self) -> list[_Plan]:
        """The best ``candidates`` plans of the last search that end in different positions."""
        out: list[_Plan] = []
        seen: set[tuple[object, ...]] = set()
        for node in sorted(self._ends, key=lambda n: n.value, reverse=True):
            key = (self._key(node.game), node.keep)
            if key in seen:
                continue
            seen.add(key)
            out.append(_plan_of(node))
            if len(out) >= self.candidates:
                break
        return out

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

    def _rollout(self, game: Game, plan: _Plan, seed: int) -> float:
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
            return _final_value(g, me)
        leaf = players[me]
        leaf.keep_ends = True
        leaf._search(g, self.rollout_budget)
        if leaf._ends:
            return max(n.value for n in leaf._ends)
        return evaluate(g, _Context(g, me, still_rounds(g)), frozenset())[0]

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
