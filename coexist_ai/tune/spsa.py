"""SPSA, as fishtest tunes chess engines: every iteration moves all the
parameters at once, by a random sign each, plays theta+ against theta-
(or each against a fixed opponent) and steps theta along the result.

The gains follow Spall's schedule with fishtest's parametrisation, per
parameter:

    c_k = c_end * (N / (k + 1)) ** 0.101         the perturbation; c_end at the end
    a_k = a_end * ((A + N) / (A + k + 1)) ** 0.602,  A = N / 10
    a_end = rate * c_end ** 2

    theta_i <- clamp(theta_i + a_k * result * flip_i / (2 * c_k))

`result` is the score of theta+ minus that of theta- over the iteration's
games, in [-1, 1]; so at the end a step moves a parameter by at most
rate * c_end / 2. c_end (the `step` of a parameter) is how far a
parameter must move to make a difference a match can see; by default a
twentieth of its range. The default rate is RATE_SCALE / sqrt(N): a
simulated match (tests/spsa_gains.py, docs/tuning.md) lost the least Elo
at about 200 / N for N = 300 and 400-800 / N for N = 3,000, whatever the
objective's curvature; a longer run can afford steps summing further.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from coexist_ai.schedule import derive_seed

ALPHA, GAMMA = 0.602, 0.101     # Spall's asymptotically efficient exponents
A_SHARE = 0.1                   # A = this share of the iterations (fishtest, Spall)
STEPS_IN_RANGE = 20             # default c_end: a twentieth of the range
RATE_SCALE = 12.0               # default rate: RATE_SCALE / sqrt(iterations)


@dataclass(frozen=True)
class Dimension:
    """One tuned parameter: its range, whether it is a whole number, its
    final perturbation (`step`, c_end) and where it starts."""
    name: str
    integer: bool
    low: float
    high: float
    step: float
    start: float

    def clamp(self, value: float) -> float:
        return min(self.high, max(self.low, value))

    def value(self, theta: float) -> float | int:
        """What a bot is given for `theta`: clamped, and rounded (half up)
        for a whole-number parameter."""
        value = self.clamp(theta)
        return int(math.floor(value + 0.5)) if self.integer else value


def default_step(low: float, high: float, integer: bool) -> float:
    step = (high - low) / STEPS_IN_RANGE
    return max(1.0, step) if integer else step


def default_rate(iterations: int) -> float:
    return RATE_SCALE / math.sqrt(iterations)


class Spsa:
    """The schedule and the update; holds no state but its settings, so a
    run is replayed from its results alone."""

    def __init__(self, dimensions: Sequence[Dimension], iterations: int, seed: int,
                 rate: float | None = None) -> None:
        self.dimensions, self.iterations, self.seed = list(dimensions), iterations, seed
        self.rate = default_rate(iterations) if rate is None else rate
        self.big_a = A_SHARE * iterations

    def start(self) -> list[float]:
        return [d.start for d in self.dimensions]

    def c(self, k: int, d: Dimension) -> float:
        return d.step * math.pow(self.iterations / (k + 1), GAMMA)

    def a(self, k: int, d: Dimension) -> float:
        a_end = self.rate * d.step ** 2
        return a_end * math.pow((self.big_a + self.iterations) / (self.big_a + k + 1), ALPHA)

    def flips(self, k: int) -> list[int]:
        """The sign of each parameter's perturbation at iteration k (from
        the seed and k alone)."""
        rng = random.Random(derive_seed(self.seed, "spsa-flip", k))
        return [rng.choice((-1, 1)) for _ in self.dimensions]

    def perturbed(self, theta: Sequence[float],
                  k: int) -> tuple[list[float | int], list[float | int]]:
        """(theta+, theta-) as the bots get them: clamped, whole numbers rounded."""
        flips = self.flips(k)
        plus = [d.value(t + self.c(k, d) * f) for d, t, f in zip(self.dimensions, theta, flips)]
        minus = [d.value(t - self.c(k, d) * f) for d, t, f in zip(self.dimensions, theta, flips)]
        return plus, minus

    def update(self, theta: Sequence[float], k: int, result: float) -> list[float]:
        """theta after iteration k, whose games scored `result` (theta+
        minus theta-, in [-1, 1])."""
        return [d.clamp(t + self.a(k, d) * result * f / (2 * self.c(k, d)))
                for d, t, f in zip(self.dimensions, theta, self.flips(k))]
