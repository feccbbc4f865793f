"""The games of one SPSA iteration, and what they say.

Each iteration plays `deals` fresh deals. Without an opponent (2 players)
theta+ plays theta- in both seat orders of each deal; with one, theta+ and
theta- each take every seat of the deal in turn, the opponent in the
others, with the same bot seeds, so that theta+ and theta- meet the very
same games but for themselves. Every seed derives from the run's seed and
the game's place: a game is the same whichever process plays it, and
whenever.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from coexist_ai.schedule import derive_seed

PLUS, MINUS, OPPONENT = "theta+", "theta-", "opponent"


@dataclass(frozen=True)
class TuneGame:
    index: int          # the record's "game": its place in the whole run
    iteration: int
    deal: int
    rotation: int       # the seat of theta+ (duel) or of the tuned bot
    roles: tuple[str, ...]   # PLUS, MINUS or OPPONENT per seat
    deal_seed: int
    bot_seeds: tuple[int, ...]


class Plan:
    def __init__(self, players: int, against: str | None, deals: int, seed: int) -> None:
        self.players, self.against, self.deals, self.seed = players, against, deals, seed
        self.seatings = self._seatings()

    def _seatings(self) -> list[tuple[int, tuple[str, ...]]]:
        """(rotation, roles) of one deal's games, in order."""
        if self.against is None:
            return [(0, (PLUS, MINUS)), (1, (MINUS, PLUS))]
        return [(seat, tuple(side if s == seat else OPPONENT for s in range(self.players)))
                for side in (PLUS, MINUS) for seat in range(self.players)]

    @property
    def per_iteration(self) -> int:
        return self.deals * len(self.seatings)

    def games(self, k: int) -> list[TuneGame]:
        return [self.game(k * self.per_iteration + j) for j in range(self.per_iteration)]

    def game(self, index: int) -> TuneGame:
        k, j = divmod(index, self.per_iteration)
        deal, s = divmod(j, len(self.seatings))
        rotation, roles = self.seatings[s]
        # theta+ and theta- at one seat of one deal get the same seeds
        seeds = tuple(derive_seed(self.seed, "tune-bot", k, deal, rotation, seat)
                      for seat in range(self.players))
        return TuneGame(index, k, deal, rotation, roles,
                        derive_seed(self.seed, "tune-deal", k, deal), seeds)

    def specs(self, game: TuneGame, plus: str, minus: str) -> list[str]:
        by_role = {PLUS: plus, MINUS: minus}
        if self.against is not None:
            by_role[OPPONENT] = self.against
        return [by_role[role] for role in game.roles]


def seat_scores(ranks: Sequence[int]) -> list[float]:
    """Each seat's share of the other seats it beat (a shared place half)."""
    n = len(ranks)
    return [sum(1.0 if ranks[p] < ranks[q] else 0.5 if ranks[p] == ranks[q] else 0.0
                for q in range(n) if q != p) / (n - 1) for p in range(n)]


def iteration_result(games: Sequence[TuneGame],
                     ranks_of: Callable[[TuneGame], Sequence[int]]) -> float:
    """theta+'s mean score minus theta-'s over an iteration's games, in
    [-1, 1]; `ranks_of(game)`: the ranks its record gives."""
    sums, seats = {PLUS: 0.0, MINUS: 0.0}, {PLUS: 0, MINUS: 0}
    for game in games:
        for role, score in zip(game.roles, seat_scores(ranks_of(game))):
            if role in sums:
                sums[role] += score
                seats[role] += 1
    return sums[PLUS] / seats[PLUS] - sums[MINUS] / seats[MINUS]
