"""The sequential probability ratio test of a duel, on complete blocks.

A block is one deal played under every seat rotation; its outcome is the
mean pairwise score of the first bot over the block's games (in a 2-player
duel: 0, 1/4, 1/2, 3/4 or 1, the pentanomial outcomes of a game pair). The
games of a block share their deal's luck, so the block is the independent
unit, and the test only ever looks at complete blocks.

The test is the generalized SPRT that fishtest runs on game pairs: for each
hypothesis (the expected score s0 of elo0, s1 of elo1) the distribution of
block outcomes closest to the observed one among those with that mean (its
maximum-likelihood estimate under the constraint) is found, and the
log-likelihood ratio of the observed blocks under the two is compared with
Wald's bounds log(beta / (1 - alpha)) and log((1 - beta) / alpha). Outcomes
never seen yet at the ends of the scale (a loss or a win of the whole block)
get a pseudo-count of 1e-3, as fishtest regularizes, so that both means are
reachable from the first block on; outcomes in between that were never seen
count for nothing, so the LLR is the same whatever grid of possible
outcomes it is given.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]

PSEUDO_COUNT = 1e-3
SOLVER_STEPS = 100


def expected_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper): accept H0 at or below lower, H1 at or above upper."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def categories(block_scores: Sequence[float]) -> tuple[Floats, Floats]:
    """Outcome values (always including 0 and 1) and the count of each."""
    seen, tally = np.unique(np.round(np.asarray(block_scores, float), 9),
                            return_counts=True)
    values, counts = list(seen), list(tally.astype(float))
    for end in (0.0, 1.0):
        if end not in values:
            values.append(end)
            counts.append(0.0)
    order = np.argsort(values)
    return np.asarray(values, float)[order], np.asarray(counts, float)[order]


def llr(block_scores: Sequence[float], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0) given the
    outcomes of the complete blocks so far (0 before the first)."""
    if len(block_scores) == 0:
        return 0.0
    values, counts = categories(block_scores)
    return float(llr_counts(values, counts[None, :], elo0, elo1)[0])


def llr_counts(values: Floats, counts: Floats, elo0: float, elo1: float) -> Floats:
    """The LLR of many runs at once: `counts` has one row per run, one
    column per outcome value."""
    ends = (values == 0) | (values == 1)
    counts = np.where(ends[None, :] & (counts == 0), PSEUDO_COUNT, counts)
    total = counts.sum(axis=1, keepdims=True)
    pdf = counts / total
    log_ratio = (_log_tilt(values, pdf, expected_score(elo0))
                 - _log_tilt(values, pdf, expected_score(elo1)))
    out: Floats = total[:, 0] * (pdf * log_ratio).sum(axis=1)
    return out


def _log_tilt(values: Floats, pdf: Floats, mean: float) -> Floats:
    """log(1 + lambda * (value - mean)) for the lambda that makes
    pdf / (1 + lambda * (value - mean)) the closest distribution (in the
    likelihood of the observed outcomes) whose mean is `mean`. Lambda is the
    root of a decreasing function on an open interval: Newton's method,
    falling back to bisection whenever a step would leave the bracket, for
    every run at once."""
    d = values[None, :] - mean
    pole_lo, pole_hi = -1 / d.max(), -1 / d.min()
    lo, hi = np.full(len(pdf), pole_lo), np.full(len(pdf), pole_hi)
    lam = np.zeros(len(pdf))
    for _ in range(SOLVER_STEPS):
        ratio = d / (1 + lam[:, None] * d)
        f = (pdf * ratio).sum(axis=1)
        lo, hi = np.where(f > 0, lam, lo), np.where(f > 0, hi, lam)
        slope = -(pdf * ratio ** 2).sum(axis=1)
        step = lam - f / np.where(slope < 0, slope, -1.0)
        usable = (step >= lo) & (step <= hi) & (step > pole_lo) & (step < pole_hi)
        step = np.where(usable, step, (lo + hi) / 2)
        if np.abs(step - lam).max() < 1e-14:
            break
        lam = step
    return np.log1p(lam[:, None] * d)


class Sprt:
    """The test's parameters and its state after the last complete block."""

    def __init__(self, elo0: float, elo1: float, alpha: float, beta: float) -> None:
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.lower, self.upper = bounds(alpha, beta)
        self.llr, self.blocks, self.games = 0.0, 0, 0

    def update(self, block_scores: Sequence[float], games: int) -> str | None:
        """The LLR of these complete blocks (played in `games` games)."""
        if len(block_scores) != self.blocks:
            self.llr = llr(block_scores, self.elo0, self.elo1)
            self.blocks, self.games = len(block_scores), games
        return self.verdict

    @property
    def verdict(self) -> str | None:
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None

    def short(self) -> str:
        """For the live line: LLR and its bounds."""
        return f"LLR {self.llr:+.2f} ({self.lower:+.2f},{self.upper:+.2f})"

    def summary(self) -> str:
        head = (f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} "
                f"beta={self.beta:g}: LLR {self.llr:+.2f}, bounds ({self.lower:+.2f}, "
                f"{self.upper:+.2f}), {self.games} games in {self.blocks} complete deals")
        if self.verdict == "H1":
            return head + f": H1 accepted (elo >= {self.elo1:g} rather than {self.elo0:g})"
        if self.verdict == "H0":
            return head + f": H0 accepted (elo <= {self.elo0:g} rather than {self.elo1:g})"
        return head + ": no decision yet"
