"""The master player: legal, deterministic for a seed, bounded by its world count, and a
search that can overrule the strong player's first choice.

Small budgets throughout (the same code paths at a fraction of the time); strength and
speed are measured by ``python -m benchmarks ai``.
"""

from __future__ import annotations

import pickle

from engine import Game
from engine.players import MasterPlayer, StrongPlayer, make_player
from engine.players.master import contenders


def _small(seed: int) -> MasterPlayer:
    return MasterPlayer(seed, candidates=3, worlds=2, rollout_budget=40, turn_rollouts=6)


def _play(game: Game, seats: dict[int, MasterPlayer | StrongPlayer], turns: int) -> None:
    while not game.is_over and game.state.turn < turns:
        move = seats[game.current_player].choose(game)
        assert move in game.legal_moves(), move
        game.apply(move)


def test_master_is_a_level() -> None:
    assert isinstance(make_player("master", 3), MasterPlayer)
    assert isinstance(make_player(" Master ", 3), MasterPlayer)


def test_master_plays_legal_moves_and_is_deterministic_for_a_seed() -> None:
    logs = []
    for _ in range(2):
        game = Game.new(2, 11)
        _play(game, {0: _small(5), 1: StrongPlayer(6, budget=80, turn_budget=120)}, turns=8)
        assert game.check_invariants() == []
        logs.append(game.log)
    assert logs[0] == logs[1]


def test_a_game_with_a_master_finishes() -> None:
    game = Game.new(3, 4)
    fast = MasterPlayer(1, beam=5, budget=500, candidates=2, worlds=1, rollout_budget=30, turn_rollouts=2)
    _play(game, {0: fast, 1: StrongPlayer(2, budget=60, turn_budget=90), 2: StrongPlayer(3, budget=60)}, turns=400)
    assert game.is_over and game.winners()
    assert game.check_invariants() == []


def test_worlds_played_in_a_turn_stay_within_the_budget() -> None:
    game = Game.new(2, 21)
    master = _small(2)
    strong = StrongPlayer(3, budget=80, turn_budget=120)
    most = 0
    while game.state.turn < 10:
        player = master if game.current_player == 0 else strong
        move = player.choose(game)
        if player is master:
            (seat, turn), played = master._rollouts
            assert (seat, turn) == (0, game.state.turn)
            most = max(most, played)
        game.apply(move)
    assert 0 < most <= master.turn_rollouts


def test_the_worlds_go_to_the_plans_still_in_contention() -> None:
    # One world each at first, then the better half meets twice as many more until two
    # plans have met three: four plans 4 + 2 * 2 worlds, three 3 + 2 * 2, two 2 * 3.
    game = Game.new(2, 8)
    strong = StrongPlayer(9, budget=80, turn_budget=120)
    played = set()
    while game.state.turn < 12:
        if game.current_player == 0:
            master = MasterPlayer(4, candidates=4, worlds=1, duel_worlds=3, rollout_budget=20, turn_rollouts=100)
            master.plan_turn(game)
            played.add(master._rollouts[1])
        _play(game, {0: StrongPlayer(4), 1: strong}, turns=game.state.turn + 1)
    assert played <= {0, 6, 7, 8} and 8 in played, played


def test_the_worlds_can_overrule_the_strong_players_first_choice() -> None:
    # Same seed, same search: where master's plan differs from strong's, it was the worlds.
    differ = 0
    game = Game.new(2, 8)
    strong = StrongPlayer(9, budget=80, turn_budget=120)
    while game.state.turn < 16:
        if game.current_player == 0:
            plain = StrongPlayer(4).plan_turn(game)
            weighed = MasterPlayer(4, candidates=3, worlds=2, rollout_budget=40, duel_worlds=4).plan_turn(game)
            differ += plain != weighed
        _play(game, {0: StrongPlayer(4), 1: strong}, turns=game.state.turn + 1)
    assert differ > 0


def test_a_master_pickled_mid_turn_plays_on_as_before() -> None:
    # The bot sends the player to a worker process and back with its plan.
    game = Game.new(2, 13)
    a, b = _small(7), _small(7)
    for _ in range(12):
        if game.is_over:
            break
        move = a.choose(game)
        b = pickle.loads(pickle.dumps(b))
        assert b.choose(game) == move
        game.apply(move)


def test_the_master_searches_wider_in_two_player_games_only() -> None:
    """Two players: strong's beam kept 30 wide over 20,000 positions; three or four: strong's
    own 5 and 500 (the wider search cost more than the 2-s turn there)."""
    master = MasterPlayer(1, candidates=2, worlds=1, rollout_budget=30, turn_rollouts=2)
    strong = StrongPlayer(1)
    for players, sizes in (
        (2, (30, 20000, 28000)),
        (3, (strong.beam, strong.budget, strong.turn_budget)),
        (2, (30, 20000, 28000)),
    ):
        master.plan_turn(Game.new(players, 1))
        assert (master.beam, master.budget, master.turn_budget) == sizes, players


def test_the_worlds_weigh_different_plans_not_one_plan_twice() -> None:
    # The first turn: the best plan's structure fits either empty workroom, one value twice.
    game = Game.new(2, 11)
    strong = StrongPlayer(1, beam=15, budget=6000, turn_budget=8400)
    strong.keep_ends = True
    strong.plan_turn(game)
    ranked = strong.ranked_plans(32)
    assert ranked[0].value == ranked[1].value and ranked[0].moves != ranked[1].moves
    kept = contenders(ranked, 4)
    values = [plan.value for plan in kept]
    assert kept[0] == ranked[0] and len(kept) == 4
    assert values == sorted(set(values), reverse=True)
    # each is the first plan of its value in strong's order
    assert all(plan == next(p for p in ranked if p.value == plan.value) for plan in kept)
