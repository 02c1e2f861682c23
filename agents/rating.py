"""Elo ratings fitted to a whole evaluation at once, so they do not depend on the order the games were played.

The model is Luce's choice model on the Elo scale: an entry of rating ``R_e`` wins a game at a table of entries
``T`` with probability

    P(e wins) = 10 ** (R_e / 400) / sum(10 ** (R_t / 400) for t in T),

which heads-up is Elo's own formula, ``1 / (1 + 10 ** ((R_b - R_a) / 400))``: 100 points between two entries mean
the higher one wins 64% of their games. The ratings are the maximum-likelihood fit to who won every game (a win
shared by ``k`` seats counts ``1/k`` to each), all games together, with one virtual game whose win all entries
share (a weak prior that keeps the fit finite when an entry never wins), centred so that the entries' ratings
average 0. The fit depends only on the games, never on their order. Since it is fitted to the wins, an entry that
wins more than another at the same tables rates higher; it does not look at second places (the margin column
measures the scores).

The 95% interval of each rating is ``R +- 1.96 SE`` with the cluster-robust (sandwich) standard error over deals:
the games of one deal share its tiles, so the deals are the independent units (as for the win-rate interval,
``agents.evaluate``). Where that is smaller than the model's own standard error (the inverse Fisher information,
as if every game were independent), the latter is used: deals that all came out alike (every deal split evenly,
say) show no spread, which would otherwise give an interval of width 0. With a single deal the interval is left
out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

ELO = 400 / math.log(10)
"""Elo points per natural-log unit of strength."""
Z95 = 1.959963984540054
DESCRIPTION = ("Elo: Luce's choice model fitted by maximum likelihood to who won every game (a shared win split), "
               "all games at once, entries averaging 0; 95% CI over deals")


@dataclass(frozen=True)
class Rating:
    """An entry's Elo rating and its 95% interval (None with a single deal)."""

    elo: float
    ci95: tuple[float, float] | None


@dataclass(frozen=True)
class Game:
    """One game for the fit: the ``entries`` at the table and the share of the win each took (summing to 1)."""

    entries: tuple[int, ...]
    shares: tuple[float, ...]


def fit(deals: Sequence[Sequence[Game]], entries: int) -> list[Rating]:
    """The ratings of the module docstring, from every deal's games."""
    prior = Game(tuple(range(entries)), (1.0 / entries,) * entries)
    games = _pool([g for deal in deals for g in deal] + [prior], entries)
    theta = np.zeros(entries)
    for _ in range(200):  # Newton's method on the concave log-likelihood; a handful of steps in practice
        gradient, hessian = _derivatives(theta, games, entries)
        # The likelihood is flat along adding a constant to every strength: solve in the zero-sum subspace.
        step = np.linalg.lstsq(hessian + np.ones((entries, entries)) / entries, gradient, rcond=None)[0]
        step *= min(1.0, 1.0 / max(float(np.max(np.abs(step))), 1e-300))  # at most 1 (174 Elo) a step: no overshoot
        theta = theta + step
        theta -= theta.mean()
        if np.max(np.abs(step)) < 1e-12:
            break
    if len(deals) < 2:
        return [Rating(float(ELO * t), None) for t in theta]
    _, hessian = _derivatives(theta, games, entries)
    scores = np.array([_derivatives(theta, _pool(deal, entries), entries)[0] for deal in deals])  # per deal, per entry
    meat = scores.T @ scores * len(deals) / (len(deals) - 1)  # small-sample correction of the cluster-robust estimate
    # The pseudo-inverse, in the zero-sum gauge the ratings are given in. For a matrix whose null space is the
    # constant vectors this is exact; np.linalg.pinv would invert the rounding error of the zero eigenvalue.
    flat = np.ones((entries, entries)) / entries
    bread = np.linalg.inv(hessian + flat) - flat
    robust = np.clip(np.diag(bread @ meat @ bread), 0.0, None)
    se = np.sqrt(np.maximum(robust, np.diag(bread)))  # the model's own variance as a floor: see the docstring
    return [Rating(float(ELO * t), (float(ELO * (t - Z95 * s)), float(ELO * (t + Z95 * s)))) for t, s in zip(theta, se)]


def _pool(games: Sequence[Game], entries: int) -> list[tuple[np.ndarray, np.ndarray, int, np.ndarray]]:
    """Games with the same entries at the table, pooled (the model's odds depend only on who sits there): the
    entries at the table, how many seats each holds, the number of games and each entry's summed share of the
    wins. An entry in two seats (copies of one bot at a table) wins the table with the chance of its seats together."""
    pools: dict[tuple[int, ...], list] = {}
    for game in games:
        key = tuple(sorted(game.entries))
        pool = pools.setdefault(key, [0, np.zeros(entries)])
        pool[0] += 1
        np.add.at(pool[1], list(game.entries), game.shares)
    out = []
    for key, (count, shares) in pools.items():
        at, seats = np.unique(np.array(key), return_counts=True)
        out.append((at, seats.astype(float), count, shares[at]))
    return out


def _derivatives(theta: np.ndarray, pools: Sequence[tuple[np.ndarray, np.ndarray, int, np.ndarray]],
                 entries: int) -> tuple[np.ndarray, np.ndarray]:
    """The log-likelihood's gradient over the pooled games and its negated Hessian (positive semi-definite)."""
    gradient = np.zeros(entries)
    hessian = np.zeros((entries, entries))
    for at, seats, count, shares in pools:
        p = seats * np.exp(theta[at] - theta[at].max())
        p /= p.sum()
        gradient[at] += shares - count * p
        block = -count * np.outer(p, p)
        np.fill_diagonal(block, 0.0)
        np.fill_diagonal(block, -block.sum(axis=1))  # p_i (1 - p_i), written so that every row sums to 0 exactly
        hessian[np.ix_(at, at)] += block
    return gradient, hessian
