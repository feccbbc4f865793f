"""Ratings from game records: maximum-likelihood Elo over pairwise results.

Every game is decomposed into pairwise results between seats held by
different bots: the better place scores 1, the worse 0, a shared place 0.5.
Ratings are the Bradley-Terry maximum-likelihood fit of those results on the
Elo scale (400 log10 of the strength ratio), anchored so that one bot is 0.
Intervals come from a bootstrap over whole blocks (a deal played under every
seat rotation), because games of a block share their luck.
"""
import math
from collections import defaultdict

import numpy as np

ELO_PER_NEPER = 400 / math.log(10)


def pairwise_results(record, entrant_of_seat):
    """(i, j, score of i) for each pair of seats held by different bots."""
    ranks = record["ranks"]
    out = []
    for a in range(len(ranks)):
        for b in range(a + 1, len(ranks)):
            i, j = entrant_of_seat[a], entrant_of_seat[b]
            if i == j:
                continue
            score = 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
            out.append((i, j, score))
    return out


def score_matrices(results, n):
    """wins[i, j]: points i took from j; games[i, j]: their pairings."""
    wins, games = np.zeros((n, n)), np.zeros((n, n))
    for i, j, s in results:
        wins[i, j] += s
        wins[j, i] += 1 - s
        games[i, j] += 1
        games[j, i] += 1
    return wins, games


def fit_bradley_terry(wins, games, prior=0.0, iterations=10000, tol=1e-10):
    """Strengths by the minorize-maximize iteration; `prior` adds that many
    virtual drawn games to every pair that met (0: the pure MLE). Returns
    natural-log strengths, mean zero."""
    n = len(wins)
    met = games > 0
    w = wins + prior * 0.5 * met
    g = games + prior * met
    gamma = np.ones(n)
    total_wins = w.sum(axis=1)
    for _ in range(iterations):
        denom = (g / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1), gamma)
        new = np.maximum(new, 1e-300)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(gamma))) < tol:
            gamma = new
            break
        gamma = new
    return np.log(gamma)


def elo_ratings(wins, games, anchor=0, prior=0.0):
    """Elo ratings with bot `anchor` at 0."""
    log_strength = fit_bradley_terry(wins, games, prior)
    elo = log_strength * ELO_PER_NEPER
    return elo - elo[anchor]


def bootstrap(block_results, n, anchor, prior, samples=200, seed=0):
    """Ratings of `samples` resamplings of the blocks (rows: samples). A bot
    with no game in a resample (or, when the anchor is missing, every bot)
    gets NaN there: a rating it never earned must not enter its interval."""
    rng = np.random.default_rng(seed)
    blocks = list(block_results)
    out = np.full((samples, n), np.nan)
    for k in range(samples):
        picks = rng.integers(0, len(blocks), len(blocks))
        results = [r for b in picks for r in blocks[b]]
        wins, games = score_matrices(results, n)
        present = games.sum(axis=1) > 0
        if present[anchor]:
            out[k, present] = elo_ratings(wins, games, anchor, prior)[present]
    return out


def rating_table(block_results, names, anchor=0, prior=1.0, samples=200, seed=0):
    """Per bot: rating, 95% interval, score share and pairings; plus the
    likelihood-of-superiority matrix (share of bootstrap samples in which
    the row bot rates above the column bot)."""
    n = len(names)
    results = [r for block in block_results.values() for r in block]
    wins, games = score_matrices(results, n)
    elo = elo_ratings(wins, games, anchor, prior)
    boot = bootstrap(block_results.values(), n, anchor, prior, samples, seed)
    low, high = _nan_percentiles(boot)
    los = likelihood_of_superiority(boot)
    rows = []
    for i, name in enumerate(names):
        played = games[i].sum()
        rows.append({"bot": name, "elo": float(elo[i]), "low": float(low[i]),
                     "high": float(high[i]), "pairings": int(played),
                     "score": float(wins[i].sum() / played) if played else float("nan")})
    return rows, los


def _nan_percentiles(boot):
    """2.5 and 97.5 percentiles per bot, over the resamples that rated it."""
    low, high = np.full(boot.shape[1], np.nan), np.full(boot.shape[1], np.nan)
    for i in range(boot.shape[1]):
        rated = boot[:, i][~np.isnan(boot[:, i])]
        if len(rated):
            low[i], high[i] = np.percentile(rated, [2.5, 97.5])
    return low, high


def likelihood_of_superiority(boot, tie=1e-6):
    """Share of the resamples rating both bots in which the row bot is above
    (equal ratings, within rounding, count half)."""
    n = boot.shape[1]
    los = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            both = ~np.isnan(boot[:, i]) & ~np.isnan(boot[:, j])
            if i != j and both.any():
                diff = boot[both, i] - boot[both, j]
                los[i, j] = (diff > tie).mean() + 0.5 * (np.abs(diff) <= tie).mean()
    return los


def seat_advantage(records_with_entrants):
    """Mean pairwise score of each seat against the others, over all games."""
    points, counts = defaultdict(float), defaultdict(int)
    for record, _ in records_with_entrants:
        ranks = record["ranks"]
        for a in range(len(ranks)):
            for b in range(len(ranks)):
                if a != b:
                    points[a] += 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
                    counts[a] += 1
    return {seat: points[seat] / counts[seat] for seat in sorted(counts)}


def score_to_elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def elo_to_score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


# Two pseudo-blocks of the variance of a 2-game block between equal bots
# (0.125) regularize the variance: a run of identical blocks at the start
# would otherwise look certain and stop the test after a handful of games.
PRIOR_BLOCKS = 2
PRIOR_VARIANCE = 0.125


def sprt_llr(block_scores, elo0, elo1):
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0) from block scores
    (each the mean score of one bot over a block), by the normal
    approximation to the generalized SPRT."""
    x = np.asarray(block_scores, dtype=float)
    if len(x) < 2:
        return 0.0
    squares = ((x - x.mean()) ** 2).sum()
    var = (squares + PRIOR_BLOCKS * PRIOR_VARIANCE) / (len(x) + PRIOR_BLOCKS)
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return float(len(x) * (s1 - s0) * (2 * x.mean() - s0 - s1) / (2 * var))


def sprt_bounds(alpha, beta):
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
