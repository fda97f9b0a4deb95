"""Ratings for multiplayer results, by OpenSkill: pure maths, no I/O.

A player's skill is a belief ``Skill(mu, sigma)``: the estimate and its uncertainty.  One
game updates every seat at once from the game's ranks (1 = best, ties share a rank) with
Weng and Lin's Plackett-Luce model (``openskill.models.PlackettLuce``), a model made for
games of any number of players: beating three players says more than beating one, and a
seat that knows little about itself (a newcomer, large sigma) moves further than a regular.

The scale is today's: OpenSkill's default parameters (mu 25, sigma 25/3, beta 25/6, tau
25/300) times ``SCALE_FACTOR``, centred on ``START`` = 1500, so that between two settled
players a 400-point gap means 10:1 odds, as it did with Elo.  The number shown is ``mu``
(``Skill.rating``): a newcomer reads 1500 and the average of a server stays near 1500.

Elo ratings from before OpenSkill carry over (``carried``): the estimate is the Elo number,
the uncertainty what the model itself reaches after that many games.

Seats that share a rating identity (two computer players of the same level at one table)
do not play each other: each such seat is rated in the game without its twins, and the
identity's new skill adds up its seats' changes (``merged``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

START = 1500.0
ELO_SCALE = 400.0  # a 400-point gap between settled players means 10:1 odds
# OpenSkill's beta is 25/6; between two players of no uncertainty Plackett-Luce's odds are
# exp(gap / (sqrt(2) * beta)), Elo's are 10 ** (gap / 400).
SCALE_FACTOR = ELO_SCALE / math.log(10) / math.sqrt(2) / (25.0 / 6.0)
SIGMA = 25.0 / 3.0 * SCALE_FACTOR  # a newcomer's uncertainty (about 246)
BETA = 25.0 / 6.0 * SCALE_FACTOR
TAU = 25.0 / 300.0 * SCALE_FACTOR  # added to sigma before each game: ratings never freeze
# Simulated tables of 2 to 4 equal players: sigma after g games is close to
# SIGMA / sqrt(1 + g / 12) (within about 15% from 5 to 200 games).
CARRY_GAMES = 12.0

MODEL = PlackettLuce(mu=START, sigma=SIGMA, beta=BETA, tau=TAU, kappa=0.0001 * SCALE_FACTOR**2)


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        """The number shown: the estimate, on the Elo-like scale."""
        return self.mu


NEWCOMER = Skill(START, SIGMA)


def carried(elo: float, games: int) -> Skill:
    """The OpenSkill belief that continues an Elo rating earned over ``games`` rated games."""
    return Skill(float(elo), SIGMA / math.sqrt(1.0 + max(games, 0) / CARRY_GAMES))


def rate(
    skills: Sequence[Skill],
    ranks: Sequence[int],
    identities: Sequence[Hashable] | None = None,
) -> list[Skill]:
    """Each seat's skill after one game, from the skills before it and the ranks (1 = best,
    ties share a rank).  ``identities``: each seat is rated without the other seats of its
    identity (a seat with no one else to play keeps its skill)."""
    n = len(skills)
    if len(ranks) != n or (identities is not None and len(identities) != n):
        raise ValueError("skills, ranks and identities must have one entry per seat")
    ids = list(identities) if identities is not None else list(range(n))
    out = list(skills)
    done: dict[tuple[int, ...], dict[int, Skill]] = {}
    for i in range(n):
        table = tuple(j for j in range(n) if j == i or ids[j] != ids[i])
        if len(table) < 2:
            continue
        if table not in done:
            teams = [[MODEL.rating(skills[j].mu, skills[j].sigma)] for j in table]
            rated = MODEL.rate(teams, ranks=[float(ranks[j]) for j in table])
            done[table] = {j: Skill(team[0].mu, team[0].sigma) for j, team in zip(table, rated, strict=True)}
        out[i] = done[table][i]
    return out


def merged(before: Skill, seats_after: Sequence[Skill]) -> Skill:
    """One identity's skill after a game in which it held ``seats_after``'s seats: every
    seat's change of the estimate counts, the uncertainty is the smallest of them."""
    if not seats_after:
        return before
    mu = before.mu + sum(s.mu - before.mu for s in seats_after)
    return Skill(mu, min(s.sigma for s in seats_after))


def win_odds(a: Skill, b: Skill) -> float:
    """The chance that ``a`` finishes ahead of ``b`` in a two-player game, as the update sees
    it (Plackett-Luce: a logistic curve over the gap, wider by both uncertainties)."""
    c = math.sqrt(a.sigma**2 + b.sigma**2 + 2 * BETA**2)
    return 1.0 / (1.0 + math.exp((b.mu - a.mu) / c))
