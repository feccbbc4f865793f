"""Search budgets per turn for the ISMCTS bot (`turn_time`, `turn_iterations`).

A turn of Coexist is several decisions (an option, then each recruit,
assignment, release..., then `end`), so a budget per decision makes a
person wait for every one of them: at `time=1`, 4.4-5.3 s a turn on average
and 17-27 s on the longest turn (README, "Bots"). A turn budget bounds the whole turn and
spends it where the decisions are:

- Every decision aims at a root holding SHARE of what is left of the turn's
  budget, in visits, and searches only for the visits its kept subtree
  lacks. The first decision's tree covers the rest of the turn (the bot's
  own moves; no card is revealed before the turn ends), so a later
  decision that tree explored well is answered from it with no new
  iteration, and one it barely saw gets the budget.
- When the principal line shows no later choice of the bot's own in the
  turn, the decision spends all that is left: nothing else needs it.
- Every searched root holds at least MIN_VISITS visits (a tenth of the
  turn's budget if that is less), so a decision that comes after the
  budget is spent is still informed; a turn can overrun its budget by at
  most that many iterations a decision (well under a millisecond).

A time budget counts the seconds the bot took (its whole `choose`); its
visit targets convert seconds to iterations at the rate the bot's searches
have run so far in the game. Per-decision budgets (`iterations`, `time`,
the protocol's move `time`) still cap each decision.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from coexist_ai._engine import Observation
    from coexist_ai._search import Searcher, _SearchResult

Limit = TypeVar("Limit", int, float)

SHARE = 0.6
MIN_VISITS = 64


class TurnBudget:
    """What is left of the current turn's budget of one seat, and how much
    of it the next decision may spend."""

    def __init__(self, seconds: float = 0.0, iterations: int = 0) -> None:
        self.seconds, self.iterations = seconds, iterations
        self.turn: tuple[int, int] | None = None
        self.spent_seconds, self.spent_iterations = 0.0, 0
        self.timed_iterations, self.timed_seconds = 0, 0.0

    def search(self, searcher: Searcher, observation: Observation, iterations: int = 0,
               seconds: float = 0.0) -> _SearchResult:
        """Search one decision of `observation`'s turn within the turn's
        budget and the per-decision caps (`iterations`, `seconds`; 0: no
        cap); returns the searcher's result, with the iterations and
        seconds of all its searches."""
        start = time.perf_counter()
        turn = (observation.rounds, observation.current_player)
        if turn != self.turn:
            self.turn, self.spent_seconds, self.spent_iterations = turn, 0.0, 0
        visits, share_seconds = self._share(SHARE)
        result = self._run(searcher, observation, iterations,
                           _smaller(share_seconds or None, seconds or None) or 0.0, visits)
        if not has_choice_ahead(observation, result["action"], result["principal_line"]):
            result = self._spend_the_rest(searcher, observation, result, iterations, seconds)
        self.spent_seconds += time.perf_counter() - start
        return result

    def _spend_the_rest(self, searcher: Searcher, observation: Observation,
                        result: _SearchResult, iterations: int,
                        seconds: float) -> _SearchResult:
        """Search on with all that is left of the turn and of the caps."""
        left_iterations = _smaller(
            self.iterations - self.spent_iterations if self.iterations else None,
            iterations - result["iterations"] if iterations else None)
        left_seconds = _smaller(
            self.seconds - self.spent_seconds - result["seconds"] if self.seconds else None,
            seconds - result["seconds"] if seconds else None)
        if any(left is not None and left <= 0 for left in (left_iterations, left_seconds)):
            return result
        more = self._run(searcher, observation, left_iterations or 0, left_seconds or 0.0, 0)
        more["iterations"] += result["iterations"]
        more["seconds"] += result["seconds"]
        return more

    def _run(self, searcher: Searcher, observation: Observation, iterations: int,
             seconds: float, visits: int) -> _SearchResult:
        result = searcher.search(observation, iterations=iterations, seconds=seconds,
                                 visits=visits)
        self.spent_iterations += result["iterations"]
        self.timed_iterations += result["iterations"]
        self.timed_seconds += result["seconds"]
        return result

    def _share(self, share: float) -> tuple[int, float]:
        """(root visits, seconds) that `share` of what is left allows, at
        least the floor (0: no limit of that kind)."""
        visits, seconds = 0, 0.0
        if self.iterations:
            left = max(0, self.iterations - self.spent_iterations)
            visits = max(int(share * left), floor_visits(self.iterations))
        if self.seconds:
            seconds = share * max(0.0, self.seconds - self.spent_seconds)
            rate = self.rate()
            if rate and not self.iterations:
                least = floor_visits(self.seconds * rate)
                visits = max(int(seconds * rate), least)
                seconds = max(seconds, 2 * least / rate)
            seconds = max(seconds, 1e-6)   # 0 would mean no time limit
        return visits, seconds

    def rate(self) -> float | None:
        """Iterations per second of this bot's searches so far (None
        before it has timed enough of them)."""
        if self.timed_seconds < 0.001:
            return None
        return self.timed_iterations / self.timed_seconds


def floor_visits(budget_visits: float) -> int:
    """The fewest root visits a decision gets: MIN_VISITS, or a tenth of a
    smaller turn budget (at least 1)."""
    return max(1, min(MIN_VISITS, int(budget_visits) // 10))


def _smaller(a: Limit | None, b: Limit | None) -> Limit | None:
    """The smaller of two limits, None meaning none."""
    return b if a is None else a if b is None else min(a, b)


def has_choice_ahead(observation: Observation, action: int, line: Sequence[int]) -> bool:
    """Whether playing `action`, then the principal line after it, gives
    the seat to move another decision with more than one legal move before
    its turn ends. The line is the first thread's; when it starts with
    another move than `action`, only the position after `action` is read."""
    seat = observation.current_player
    state = observation.determinize(0)   # any order: the walk stops at the refill
    rest = list(line[1:]) if line and line[0] == action else []
    for move in [action] + rest:
        if not state.is_legal(move):
            return True        # the line and the position disagree: assume so
        state.apply(move)
        if state.is_over() or state.current_player != seat:
            return False
        if len(state.legal_actions()) > 1:
            return True
    return True                # the line ends inside the turn: more may come
