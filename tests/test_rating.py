"""The Elo maths for multiplayer games (bot/rating.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rating import START, K, deltas, expected, pair_score


def test_two_equal_players_the_winner_gains_half_k() -> None:
    assert deltas([START, START], [1, 2]) == [pytest.approx(K / 2), pytest.approx(-K / 2)]


def test_expected_score_is_symmetric_and_a_400_gap_is_ten_to_one() -> None:
    assert expected(1500, 1500) == 0.5
    assert expected(1900, 1500) == pytest.approx(10 / 11)
    assert expected(1900, 1500) + expected(1500, 1900) == pytest.approx(1)


def test_a_tie_between_equals_changes_nothing_and_an_upset_pays_more() -> None:
    assert deltas([START, START, START], [1, 1, 3]) == pytest.approx([K / 4, K / 4, -K / 2])
    assert deltas([1500, 1500], [1, 1]) == [0, 0]
    favourite_wins = deltas([1700, 1500], [1, 2])[0]
    underdog_wins = deltas([1700, 1500], [2, 1])[1]
    assert 0 < favourite_wins < K / 2 < underdog_wins < K


def test_tied_players_with_different_ratings_split_towards_each_other() -> None:
    strong, weak = deltas([1700, 1300], [1, 1])
    assert strong < 0 < weak and strong == pytest.approx(-weak)


def test_four_players_in_order() -> None:
    d = deltas([START] * 4, [1, 2, 3, 4])
    # First beats three, second beats two and loses one, ...: K/3 * (wins - 1.5).
    assert d == pytest.approx([K / 2, K / 6, -K / 6, -K / 2])


def test_same_identity_seats_do_not_play_each_other() -> None:
    d = deltas([START] * 3, [1, 2, 3], ["u1", "ai", "ai"])
    assert d == pytest.approx([K / 2, -K / 4, -K / 4])
    assert deltas([START] * 2, [1, 2], ["ai", "ai"]) == [0, 0]


def test_pair_score_and_bad_input() -> None:
    assert (pair_score(1, 2), pair_score(2, 2), pair_score(3, 2)) == (1, 0.5, 0)
    assert deltas([START], [1]) == [0.0]
    with pytest.raises(ValueError):
        deltas([START, START], [1])


@given(st.lists(st.tuples(st.floats(800, 2400), st.integers(1, 4), st.sampled_from("abcd")), min_size=2, max_size=4))
def test_changes_sum_to_zero_and_stay_within_k(seats: list[tuple[float, int, str]]) -> None:
    ratings, ranks, ids = zip(*seats, strict=True)
    d = deltas(ratings, ranks, ids)
    assert sum(d) == pytest.approx(0, abs=1e-9)
    assert all(abs(x) <= K + 1e-9 for x in d)
    best = min(ranks)
    # A lone winner never loses rating against distinct opponents.
    if ranks.count(best) == 1 and len(set(ids)) == len(ids):
        assert d[ranks.index(best)] > 0
