"""The OpenSkill ratings for multiplayer games (bot/store/rating.py)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.store.rating import NEWCOMER, SIGMA, START, Skill, carried, merged, rate, win_odds


def _moves(before: list[Skill], after: list[Skill]) -> list[float]:
    return [a.rating - b.rating for a, b in zip(after, before, strict=True)]


def test_a_newcomer_starts_at_1500_and_a_400_gap_is_ten_to_one_between_settled_players() -> None:
    assert NEWCOMER.rating == START == 1500
    assert win_odds(Skill(1900, 0.0), Skill(1500, 0.0)) == pytest.approx(10 / 11)
    assert win_odds(Skill(1500, 80.0), Skill(1500, 80.0)) == pytest.approx(0.5)
    # Uncertainty flattens the odds: two newcomers 400 apart are less sure than settled players.
    assert 0.5 < win_odds(Skill(1900, SIGMA), Skill(1500, SIGMA)) < 10 / 11


def test_two_newcomers_the_winner_gains_what_the_loser_loses() -> None:
    after = rate([NEWCOMER, NEWCOMER], [1, 2])
    up, down = _moves([NEWCOMER] * 2, after)
    assert up > 0 > down and up == pytest.approx(-down)
    assert all(a.sigma < SIGMA for a in after)  # one game taught the model something


@pytest.mark.parametrize("players", [3, 4])
def test_a_multiplayer_game_in_order_moves_every_seat_by_its_place(players: int) -> None:
    before = [NEWCOMER] * players
    d = _moves(before, rate(before, list(range(1, players + 1))))
    assert d[0] > 0 > d[-1]  # the winner up, the last down
    assert d == sorted(d, reverse=True) and len(set(d)) == players  # every place is worth less than the one above
    # Beating three players says more than beating one.
    assert d[0] > _moves([NEWCOMER] * 2, rate([NEWCOMER] * 2, [1, 2]))[0]


def test_ties_share_their_change() -> None:
    before = [NEWCOMER] * 4
    d = _moves(before, rate(before, [1, 2, 2, 4]))
    assert d[1] == pytest.approx(d[2]) and d[0] > d[1] > d[3]
    assert _moves(before[:2], rate(before[:2], [1, 1])) == pytest.approx([0, 0])
    everybody = rate(before, [1, 1, 1, 1])
    assert [a.rating for a in everybody] == pytest.approx([START] * 4)


def test_tied_players_with_different_ratings_move_towards_each_other() -> None:
    strong, weak = _moves([Skill(1700, 100), Skill(1300, 100)], rate([Skill(1700, 100), Skill(1300, 100)], [1, 1]))
    assert strong < 0 < weak and strong == pytest.approx(-weak)


def test_an_upset_pays_more_than_the_expected_result() -> None:
    favourite, underdog = Skill(1700, 100), Skill(1500, 100)
    favourite_wins = _moves([favourite, underdog], rate([favourite, underdog], [1, 2]))[0]
    underdog_wins = _moves([favourite, underdog], rate([favourite, underdog], [2, 1]))[1]
    assert 0 < favourite_wins < underdog_wins


def test_a_regular_moves_less_than_a_newcomer() -> None:
    regular = Skill(START, 60.0)
    d_new = _moves([NEWCOMER, NEWCOMER], rate([NEWCOMER, NEWCOMER], [1, 2]))[0]
    d_reg = _moves([regular, regular], rate([regular, regular], [1, 2]))[0]
    assert 0 < d_reg < d_new / 4


def test_an_elo_rating_carries_over_as_the_estimate() -> None:
    veteran = carried(1720.0, 120)
    assert veteran.rating == 1720.0  # shown as before
    assert carried(1450.0, 0) == Skill(1450.0, SIGMA)  # no games: a newcomer's uncertainty
    assert veteran.sigma == pytest.approx(SIGMA / math.sqrt(11))
    assert carried(1500, 10).sigma > carried(1500, 100).sigma  # more games, more certain
    # The veteran keeps their lead over a newcomer after losing to them once, and moves less.
    after = rate([veteran, NEWCOMER], [2, 1])
    lost, won = _moves([veteran, NEWCOMER], after)
    assert -lost < won and after[0].rating > after[1].rating


def test_same_identity_seats_do_not_play_each_other() -> None:
    # A person between two seats of one computer level.
    before = [NEWCOMER] * 3
    after = rate(before, [1, 2, 3], ["u1", "ai", "ai"])
    # Each computer seat is rated against the person alone: both lost that one game.
    alone = rate([NEWCOMER, NEWCOMER], [1, 2])
    assert after[1] == after[2] == alone[1]
    assert after[0].rating > START
    ai = merged(NEWCOMER, [after[1], after[2]])
    assert ai.rating == pytest.approx(START + 2 * (alone[1].rating - START))
    assert ai.sigma == alone[1].sigma
    # Only one identity at the table: nobody to play, nothing moves.
    assert rate([NEWCOMER] * 2, [1, 2], ["ai", "ai"]) == [NEWCOMER, NEWCOMER]
    assert merged(NEWCOMER, []) == NEWCOMER


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        rate([NEWCOMER, NEWCOMER], [1])
    with pytest.raises(ValueError):
        rate([NEWCOMER, NEWCOMER], [1, 2], ["a"])
    assert rate([NEWCOMER], [1]) == [NEWCOMER]


@given(st.lists(st.tuples(st.floats(800, 2400), st.floats(30, SIGMA), st.integers(1, 4)), min_size=2, max_size=4))
def test_a_lone_winner_never_loses_and_a_lone_last_never_gains(seats: list[tuple[float, float, int]]) -> None:
    before = [Skill(mu, sigma) for mu, sigma, _rank in seats]
    ranks = [rank for _mu, _sigma, rank in seats]
    after = rate(before, ranks)
    d = _moves(before, after)
    assert all(math.isfinite(x) and abs(x) < 4 * SIGMA for x in d)
    assert all(0 < a.sigma <= b.sigma + 3 for a, b in zip(after, before, strict=True))  # tau adds a little
    best, worst = min(ranks), max(ranks)
    if best != worst and ranks.count(best) == 1:
        assert d[ranks.index(best)] > 0
    if best != worst and ranks.count(worst) == 1:
        assert d[ranks.index(worst)] < 0
