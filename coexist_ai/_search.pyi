# Types of the compiled searches (coexist_ai/_search.pyx); checked against
# the built module by tests/test_typing.py (mypy's stubtest).
from typing import Any, TypedDict

from typing_extensions import Self, disjoint_base

import numpy as np

from coexist_ai._engine import Position
from coexist_ai.learn.model import Model

REWARDS: tuple[str, ...]
MAX_TREE_NODES: int
MAX_PRIOR: float
MAX_WIDEN: float
GREEDY_MAX_NODES: int
MAX_THREADS: int
POLICIES: tuple[str, ...]
LEARNED_FEATURES: int
LEARNED_MAX_HIDDEN: int
LEARNED_HEADS: int
POLICY_FEATURES: int
POLICY_KINDS: int

# (action, visits, iterations in which it was legal, mean reward)
_RootMove = tuple[int, int, int, float]

class _SearchResult(TypedDict):
    """What Searcher.search returns (a plain dict at run time)."""
    action: int
    value: float
    iterations: int
    seconds: float
    moves: list[_RootMove]
    principal_line: list[int]
    nodes: int
    edges: int
    bytes: int
    bytes_per_node: float
    pool_full: bool

@disjoint_base
class Searcher:
    def __new__(cls, c: float = 0.7, reward: str = "rank", margin_weight: float = 0.1,
                 policy: str = "light", rollout_depth: int = 0, discount: float = 1.0,
                 prior: float = 0.0, widen: float = 0.0,
                 threads: int = 1, max_nodes: int = 1_000_000, reuse: bool = True,
                 seed: int = 0, learned: Model | None = None,
                 policy_weights: Any = None) -> Self: ...
    @property
    def settings(self) -> dict[str, Any]: ...
    def request_stop(self) -> None: ...
    def clear_stop(self) -> None: ...
    def search(self, position: Position, iterations: int = 0,
               seconds: float = 0.0, visits: int = 0) -> _SearchResult: ...
    def _result(self, moves: list[_RootMove], done: int, elapsed: float) -> _SearchResult: ...

def greedy_choose(position: Position, max_nodes: int = 20000) -> tuple[int, int]: ...
def greedy_value(position: Position, seat: int) -> float: ...

# the learned evaluation (coexist_ai/_learned.pxi, csrc/cx_learned.c)
def learned_features(position: Position) -> np.ndarray: ...
def learned_predict(model: Model, features: np.ndarray) -> np.ndarray: ...
def cutoff_values(position: Position, model: Model | None = None, reward: str = "rank",
                  margin_weight: float = 0.1) -> list[float]: ...

# the fitted rollout policy (coexist_ai/_policy.pxi, csrc/cx_policy.c)
def policy_weights_array(weights: Any) -> np.ndarray: ...
def policy_features(position: Position) -> tuple[list[int], np.ndarray]: ...
