"""Elo ratings for multiplayer results: pure maths, no I/O.

A game of n seats counts as every pair of seats playing one match: the better rank wins the
pair, equal ranks draw.  Each pair moves both ratings by the usual Elo step with
``K / (n - 1)``, so a seat's total change is bounded by K however many opponents it had,
and a two-player game is exactly classic Elo.  Every pair gives one seat what it takes from
the other, so the changes of a game add up to zero.

Seats that share a rating identity (two computer players of the same level at one table)
do not play each other: such pairs are skipped, which keeps the sum at zero.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

START = 1500.0
K = 32.0
SCALE = 400.0  # a 400-point gap means 10:1 expected odds


def expected(rating: float, opponent: float) -> float:
    """The expected score (0..1) of ``rating`` against ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / SCALE))


def pair_score(rank: int, opponent_rank: int) -> float:
    """1 for a better (lower) rank, 0.5 for a tie, 0 for a worse one."""
    return 1.0 if rank < opponent_rank else 0.5 if rank == opponent_rank else 0.0


def deltas(
    ratings: Sequence[float],
    ranks: Sequence[int],
    identities: Sequence[Hashable] | None = None,
    *,
    k: float = K,
) -> list[float]:
    """Each seat's rating change from one game, from the ratings before it and the ranks
    (1 = best, ties share a rank).  ``identities``: seats with equal identities skip their
    pair.  Seats are rated against everyone else at the table at once, using the ratings
    from before the game."""
    n = len(ratings)
    if len(ranks) != n or (identities is not None and len(identities) != n):
        raise ValueError("ratings, ranks and identities must have one entry per seat")
    if n < 2:
        return [0.0] * n
    step = k / (n - 1)
    out = [0.0] * n
    for i in range(n):
        for j in range(i + 1, n):
            if identities is not None and identities[i] == identities[j]:
                continue
            change = step * (pair_score(ranks[i], ranks[j]) - expected(ratings[i], ratings[j]))
            out[i] += change
            out[j] -= change  # j's score and expectation are 1 minus i's
    return out
