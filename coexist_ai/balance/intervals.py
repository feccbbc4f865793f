"""95% intervals and tests for the balance figures, in closed form (the
same games always give the same report).

- A share (a specialty's or a seat's wins, an end reason): Wilson's score
  interval, and the score test against the fair share. Shared first places
  count as fractions of a win, which only makes the test conservative.
- Several shares tested at once (the specialties of a player count):
  Holm's step-down correction, so that a fair set is flagged with at most
  a 5% chance per player count, not 5% per specialty.
- A difference between two groups of seats of the same games (the seats
  that released a card against those that did not): the seats of one game
  are not independent (one seat's win is the others' loss), so the game is
  the unit: a ratio estimator with its linearized, cluster-robust variance.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054      # the normal quantile of a two-sided 95% interval
ALPHA = 0.05
MIN_GROUP = 10               # seats per group below which a difference is not claimed


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a share; (nan, nan) without trials."""
    if n <= 0:
        return math.nan, math.nan
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # the share is inside by construction; min/max keep it so through rounding
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def score_test(successes: float, n: float, p0: float) -> float:
    """Two-sided p-value of the score test that the share is p0."""
    if n <= 0 or not 0 < p0 < 1:
        return math.nan
    z = (successes - n * p0) / math.sqrt(n * p0 * (1 - p0))
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> list[bool]:
    """Which hypotheses Holm's procedure rejects at family-wise level alpha
    (a nan p-value is never rejected and does not count as a test)."""
    tested = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    rejected = [False] * len(p_values)
    for rank, (p, i) in enumerate(tested):
        if p > alpha / (len(tested) - rank):
            break
        rejected[i] = True
    return rejected


@dataclass(frozen=True)
class Difference:
    """Group 1's mean minus group 0's, with its 95% interval."""
    mean1: float
    mean0: float
    n1: int
    n0: int
    low: float
    high: float

    @property
    def value(self) -> float:
        return self.mean1 - self.mean0

    @property
    def significant(self) -> bool:
        return self.low > 0 or self.high < 0


def clustered_difference(y1: np.ndarray, n1: np.ndarray, y0: np.ndarray,
                         n0: np.ndarray, z: float = Z95) -> Difference:
    """Per game g: y1[g] summed over its n1[g] seats of group 1, y0[g] over
    its n0[g] seats of group 0. The means are ratio estimators; the
    variance of their difference is the linearized one with games as
    clusters. With fewer than MIN_GROUP seats in a group the interval is
    nan."""
    total1, total0 = float(n1.sum()), float(n0.sum())
    mean1 = float(y1.sum()) / total1 if total1 else math.nan
    mean0 = float(y0.sum()) / total0 if total0 else math.nan
    games = len(y1)
    if min(total1, total0) < MIN_GROUP or games < 2:
        return Difference(mean1, mean0, int(total1), int(total0), math.nan, math.nan)
    u = (y1 - mean1 * n1) / total1 - (y0 - mean0 * n0) / total0
    half = z * math.sqrt(games / (games - 1) * float(np.dot(u, u)))
    return Difference(mean1, mean0, int(total1), int(total0),
                      mean1 - mean0 - half, mean1 - mean0 + half)


def mean_interval(values: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal 95% interval."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    if n < 2:
        return mean, math.nan, math.nan
    half = z * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half
