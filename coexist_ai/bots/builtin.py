"""The built-in bots: random, greedy (heuristic) and ISMCTS."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from coexist_ai import _search
from coexist_ai._engine import Observation
from coexist_ai.bots.base import Bot
from coexist_ai.bots.turnbudget import TurnBudget

if TYPE_CHECKING:
    from coexist_ai.learn.model import Model

# `rollout_depth=-1` cuts a rollout off after this many rounds, so a rollout
# sees as far ahead at every player count: at 1 s a move and 4 players, 16
# turns beat 8 (README, "Stronger at equal time"), where at 2 players 8
# turns were best.
ROLLOUT_ROUNDS = 4


def rollout_turns(depth: int, num_players: int) -> int:
    """The rollout cut-off in turns: `depth`, or with -1 ROLLOUT_ROUNDS
    rounds of `num_players` turns."""
    return ROLLOUT_ROUNDS * num_players if depth < 0 else depth


class RandomBot(Bot):
    """Uniform over the legal moves, from its own seeded generator."""

    name = "random"

    def __init__(self, spec: str, params: dict[str, Any]) -> None:
        super().__init__(spec, params)
        self.rng = random.Random(params["seed"])

    def choose(self, observation: Observation) -> int:
        return self.rng.choice(observation.legal_actions())


class GreedyBot(Bot):
    """The best end of its own turn by a hand-written evaluation
    (csrc/cx_greedy.c). Deterministic: its seed changes nothing."""

    name = "greedy"

    def choose(self, observation: Observation) -> int:
        action, searched = _search.greedy_choose(observation, self.params["max_nodes"])
        self.info = {"searched": searched}
        return action


class IsmctsBot(Bot):
    """Determinized ISMCTS, compiled, run without the GIL."""

    name = "ismcts"

    def __init__(self, spec: str, params: dict[str, Any]) -> None:
        super().__init__(spec, params)
        self.num_players = 2
        self.searcher = self._make_searcher()
        self.turn_budget = self._make_turn_budget()

    def _make_searcher(self) -> _search.Searcher:
        p = self.params
        return _search.Searcher(c=p["c"], reward=p["reward"],
                              margin_weight=p["margin_weight"], policy=p["policy"],
                              rollout_depth=rollout_turns(p["rollout_depth"],
                                                          self.num_players),
                              discount=p["discount"], prior=p["prior"],
                              widen=p["widen"],
                              threads=p["threads"],
                              max_nodes=p["max_nodes"], reuse=p["reuse"],
                              seed=p["seed"], learned=_learned_model(p),
                              policy_weights=_policy_weights(p))

    def _make_turn_budget(self) -> TurnBudget | None:
        p = self.params
        if not (p.get("turn_time") or p.get("turn_iterations")):
            return None
        return TurnBudget(p["turn_time"], p["turn_iterations"])

    def new_game(self, seat: int, num_players: int) -> None:
        self.num_players = num_players
        self.searcher = self._make_searcher()
        self.turn_budget = self._make_turn_budget()

    def stop(self) -> None:
        self.searcher.request_stop()

    def clear_stop(self) -> None:
        self.searcher.clear_stop()

    def choose(self, observation: Observation) -> int:
        legal = observation.legal_actions()
        if len(legal) == 1:
            self.info = {"iterations": 0, "forced": True}
            return legal[0]
        if observation.num_players != self.num_players:
            self.new_game(observation.current_player, observation.num_players)
        p = self.params
        if self.turn_budget is not None:
            result = self.turn_budget.search(self.searcher, observation,
                                             p["iterations"], p["time"])
        else:
            result = self.searcher.search(observation, iterations=p["iterations"],
                                          seconds=p["time"])
        # the discount lets a fast line's mean reward pass 1 a little; what
        # the bot reports is the expected result, 0 (last) to 1 (first)
        self.info = dict(result, value=min(1.0, max(0.0, result["value"])))
        return result["action"]


def _policy_weights(params: dict[str, Any]) -> Any:
    """The fitted rollout policy's weights, or None for the other policies."""
    if params.get("policy") != "fitted":
        return None
    from coexist_ai.learn.policy import resolve_policy
    return resolve_policy(params["policy_model"])


def _learned_model(params: dict[str, Any]) -> Model | None:
    """The model of an ismcts bot's cut-off, or None for the hand-written one."""
    if params.get("eval", "hand") == "hand":
        return None
    from coexist_ai.learn.model import resolve_model
    return resolve_model(params["model"])
