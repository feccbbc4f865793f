"""Ratings from pairwise results: maximum-likelihood Elo with a prior.

Every game is decomposed into pairwise results between seats held by
different bots: the better place scores 1, the worse 0, a shared place 0.5.
Ratings are the Bradley-Terry fit of those results on the Elo scale (400
log10 of the strength ratio), with a prior of one virtual drawn game per
pair of bots that met (BayesElo's prior, which keeps a perfect score
finite), anchored so that one bot is 0. The fit is Newton's method, run on
many score matrices at once, so a bootstrap of thousands of resamples
costs little.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]
Bools = NDArray[np.bool_]
PairResult = tuple[int, int, float]    # (entrant i, entrant j, score of i)

ELO_PER_NEPER = 400 / math.log(10)
PRIOR = 1.0          # virtual drawn games per pair that met
MAX_STEP = 1.0       # nepers a Newton step may move a rating (far starts)
NEWTON_STEPS = 100


def pairwise_results(record: Mapping[str, Any],
                     entrant_of_seat: Sequence[int]) -> list[PairResult]:
    """(i, j, score of i) for each pair of seats held by different bots."""
    ranks = record["ranks"]
    out: list[PairResult] = []
    for a in range(len(ranks)):
        for b in range(a + 1, len(ranks)):
            i, j = entrant_of_seat[a], entrant_of_seat[b]
            if i == j:
                continue
            score = 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
            out.append((i, j, score))
    return out


def score_matrices(results: Iterable[PairResult], n: int) -> tuple[Floats, Floats]:
    """wins[i, j]: points i took from j; games[i, j]: their pairings."""
    wins, games = np.zeros((n, n)), np.zeros((n, n))
    for i, j, s in results:
        wins[i, j] += s
        wins[j, i] += 1 - s
        games[i, j] += 1
        games[j, i] += 1
    return wins, games


def reachable(edges: Bools, start: int) -> Bools:
    """Bots reachable from bot `start` along `edges` (boolean, (..., n, n))."""
    n = edges.shape[-1]
    seen = np.zeros(edges.shape[:-1], bool)
    seen[..., start] = True
    for _ in range(n - 1):
        seen = seen | (seen[..., :, None] & edges).any(axis=-2)
    return seen


def fit(wins: Floats, games: Floats, anchor: int, prior: float = PRIOR) -> Floats:
    """Elo ratings with bot `anchor` at 0, from one score matrix (n, n) or
    many (k, n, n). A bot without games, or not linked to the anchor by
    games, has no rating: NaN."""
    single = wins.ndim == 2
    if single:
        wins, games = wins[None], games[None]
    met = games > 0
    wins, games = wins + 0.5 * prior * met, games + prior * met
    k, n = wins.shape[:2]
    rated = reachable(met, anchor) & (games.sum(axis=2) > 0)
    free = rated.copy()
    free[:, anchor] = False
    both = free[:, :, None] & free[:, None, :]
    theta = np.zeros((k, n))
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(theta[:, None, :] - theta[:, :, None]))
        gradient = np.where(free, wins.sum(axis=2) - (games * p).sum(axis=2), 0)
        weight = games * p * (1 - p)
        information = np.where(both, np.eye(n) * weight.sum(axis=2)[:, :, None] - weight, 0)
        information += np.eye(n) * (~free)[:, :, None]
        step = np.linalg.solve(information, gradient[:, :, None])[:, :, 0]
        largest = np.abs(step).max(axis=1, keepdims=True)
        step *= np.minimum(1, MAX_STEP / np.maximum(largest, 1e-300))
        theta += step
        if largest.max() < 1e-10:
            break
    elo = np.where(rated, theta * ELO_PER_NEPER, np.nan)
    return elo[0] if single else elo


def unit_matrices(units: Sequence[Iterable[PairResult]], n: int) -> tuple[Floats, Floats]:
    """Score matrices of each unit (a list of pairwise results): (u, n, n)."""
    wins, games = np.zeros((len(units), n, n)), np.zeros((len(units), n, n))
    for u, results in enumerate(units):
        wins[u], games[u] = score_matrices(results, n)
    return wins, games


PICKS = 1 << 21     # resample counts held at once (16 MiB as floats)


def bootstrap(unit_wins: Floats, unit_games: Floats, anchor: int, samples: int, seed: int,
              prior: float = PRIOR, chunk: int = 2000) -> Floats:
    """Ratings of `samples` resamplings of the units (rows: samples), made
    `chunk` at a time, fewer when there are many units, to bound the memory
    of the resample counts (the draws do not depend on the chunks: the
    generator makes the same rows one after another whatever their
    number)."""
    rng = np.random.default_rng(seed)
    units, n = unit_wins.shape[0], unit_wins.shape[1]
    if units == 0:      # no pairwise result (a bot that only met itself): nothing rates
        return np.full((samples, n), np.nan)
    chunk = max(1, min(chunk, PICKS // max(1, units)))
    flat_wins, flat_games = unit_wins.reshape(units, n * n), unit_games.reshape(units, n * n)
    out: list[Floats] = []
    for start in range(0, samples, chunk):
        size = min(chunk, samples - start)
        picks = rng.multinomial(units, np.full(units, 1 / units), size=size).astype(float)
        out.append(fit((picks @ flat_wins).reshape(size, n, n),
                       (picks @ flat_games).reshape(size, n, n), anchor, prior))
    return np.concatenate(out)


def percentile_interval(boot: Floats, level: float = 0.95
                        ) -> tuple[Floats, Floats, Floats, Floats]:
    """Lower and upper percentiles per bot over the resamples that rate it,
    and the Monte-Carlo standard error of each (half the spread of the
    order statistics one binomial standard deviation either side)."""
    tail = (1 - level) / 2
    n = boot.shape[1]
    out = np.full((4, n), np.nan)
    for i in range(n):
        rated = np.sort(boot[:, i][~np.isnan(boot[:, i])])
        if len(rated) < 2:
            continue
        for k, q in enumerate((tail, 1 - tail)):
            at = q * (len(rated) - 1)
            spread = math.sqrt(len(rated) * q * (1 - q))
            lo, hi = max(0, int(at - spread)), min(len(rated) - 1, int(math.ceil(at + spread)))
            out[k, i] = np.interp(at, np.arange(len(rated)), rated)
            out[2 + k, i] = (rated[hi] - rated[lo]) / 2
    return out[0], out[1], out[2], out[3]


def likelihood_of_superiority(boot: Floats, tie: float = 1e-6) -> Floats:
    """Share of the resamples rating both bots in which the row bot is above
    (equal ratings, within rounding, count half); NaN where none rates both."""
    n = boot.shape[1]
    los = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(n):
            both = ~np.isnan(boot[:, i]) & ~np.isnan(boot[:, j])
            if i != j and both.any():
                diff = boot[both, i] - boot[both, j]
                los[i, j] = (diff > tie).mean() + 0.5 * (np.abs(diff) <= tie).mean()
    return los


def finite_with(wins: Floats) -> Bools:
    """finite[i, j]: the maximum-likelihood difference of bots i and j is
    finite, i.e. each took points from the other, directly or through
    others (they share a strongly connected class of "took points from")."""
    took = wins > 0
    reach: Bools = np.array([reachable(took, i) for i in range(len(wins))])
    return np.logical_and(reach, reach.T)


def perfect_score_bound(games_all_won: int, level: float = 0.95) -> float:
    """Lower bound of the Elo difference of a bot that won every pairing of
    each of `games_all_won` games against another: if each game is won
    whole with probability at most the pairwise expectation s, all of them
    are with at most s^n, so s >= (tail)^(1/n) at the one-sided level."""
    tail = (1 - level) / 2
    return score_to_elo(tail ** (1 / games_all_won))


def score_to_elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def elo_to_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))
