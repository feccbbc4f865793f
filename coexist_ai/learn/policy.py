"""The fitted rollout policy (`ismcts:policy=fitted`): its features, its
weight file, and its fit to the moves of recorded games.

A rollout picks each move with probability proportional to exp(w . f),
f the move's features (csrc/cx_policy.c, read here through
`_search.policy_features`). The weights are fitted by maximum likelihood
to the moves the recorded players chose, a conditional logit over each
decision's legal moves, with numpy alone.

A weight file is JSON: the format tag, the feature names in the order the
search reads them, the weights, and how they were fitted (`meta`). Every
file is checked when it is read; one that fails a check is refused with a
PolicyFileError naming the file and what was wrong.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from coexist_ai import _search
from coexist_ai.errors import CoexistError
from coexist_ai.learn.files import read_once

FORMAT = "coexist-rollout-policy-1"
SHIPPED_POLICY = "default"
SHIPPED_FILE = "policy-default.json"
# files in data/: the default, fitted to games on the default card set, and
# the policy fitted on reconstructed-v2 (kept so that games played with it
# when v2 was the default replay)
NAMED = {SHIPPED_POLICY: SHIPPED_FILE, "v2": "policy-v2.json"}

# csrc/cx_policy.c's features, in order: one-hots of the move's kind, then
# facts about the card or colour the move acts on
KIND_NAMES = ("pass", "end", "center", "train_start", "apply", "skip", "recruit",
              "house", "protect", "assign", "move", "unassign", "release", "train",
              "discard_token", "discard_animal")
POLICY_FEATURE_NAMES = tuple(f"kind_{k}" for k in KIND_NAMES) + (
    "house_value", "house_covered", "house_own_fauna", "house_needs_s",
    "release_value", "release_forest_by_forest", "release_effect",
    "protect_air_by_air", "protect_air_by_other", "protect_s", "protect_gain",
    "protect_value", "assign_ready", "assign_s", "assign_value", "assign_left",
    "recruit_short", "recruit_full", "train_gain_short", "train_loss_needed",
    "discard_short", "discard_animal_value", "end_ready", "center_ready",
    "move_ready", "protect_track", "room", "late_house", "late_recruit")


class PolicyFileError(CoexistError):
    """A policy weight file that cannot be read or fails a check."""


def policy_path(name: str) -> Path:
    """The file a bot spec's `policy_model` names: one of NAMED or a path."""
    if name in NAMED:
        return Path(str(resources.files("coexist_ai") / "data" / NAMED[name]))
    return Path(name)


def resolve_policy(name: str) -> np.ndarray:
    """The weights a bot spec names (read once per path and modification time)."""
    return read_once(policy_path(name), _weights_of, PolicyFileError(
        f"policy file {name!r}: no such file (expected {' or '.join(map(repr, NAMED))} or the "
        "path of a .json from `coexist-ai fit-policy`)"))


def _weights_of(path: str) -> np.ndarray:
    return load_policy(path)[0]


def load_policy(path: str | Path) -> tuple[np.ndarray, dict[str, Any]]:
    """A checked weight file: (weights, meta)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise PolicyFileError(f"policy file {str(path)!r}: cannot be read as JSON ({e})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PolicyFileError(f"policy file {str(path)!r}: not a {FORMAT} file")
    if data.get("features") != list(POLICY_FEATURE_NAMES):
        raise PolicyFileError(f"policy file {str(path)!r}: its features are not the "
                              f"{len(POLICY_FEATURE_NAMES)} this search computes "
                              "(fit it again with `coexist-ai fit-policy`)")
    try:
        weights = _search.policy_weights_array(data.get("weights"))
    except (ValueError, TypeError) as e:
        raise PolicyFileError(f"policy file {str(path)!r}: {e}") from None
    return weights, data.get("meta", {})


def save_policy(weights: np.ndarray, meta: dict[str, Any], path: str | Path) -> None:
    data = {"format": FORMAT, "features": list(POLICY_FEATURE_NAMES),
            "weights": [round(float(w), 5) for w in weights], "meta": meta}
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


# ---- the data: every decision of recorded games ---------------------------

def record_decisions(records: Iterable[tuple[Any, dict[str, Any]]],
                     progress: Callable[[], None] = lambda: None) -> dict[str, np.ndarray]:
    """The decisions with two or more legal moves of recorded games, given
    as (card set, record) pairs: `x` the features of every legal move (rows
    of all decisions, concatenated), `start` each decision's first row,
    `chosen` the row of the move played, `game` the game's index."""
    from coexist_ai.play.gamefile import apply_recorded, initial_state
    rows, starts, chosen, games = [], [], [], []
    n_rows = 0
    for index, (card_set, record) in enumerate(records):
        state = initial_state(record, card_set)
        for number, entry in enumerate(record.get("moves", []), 1):
            actions, features = _search.policy_features(state)
            if len(actions) > 1:
                played = state.parse_move(str(entry[1]))
                starts.append(n_rows)
                chosen.append(n_rows + actions.index(played))
                games.append(index)
                rows.append(features)
                n_rows += len(actions)
            apply_recorded(state, entry, number)
        progress()
    return {"x": np.concatenate(rows) if rows else np.zeros((0, len(POLICY_FEATURE_NAMES)),
                                                           dtype=np.float32),
            "start": np.array(starts, dtype=np.int64),
            "chosen": np.array(chosen, dtype=np.int64),
            "game": np.array(games, dtype=np.int64)}


# ---- the fit ---------------------------------------------------------------

def _decisions_of(data: dict[str, np.ndarray], keep: np.ndarray) -> dict[str, np.ndarray]:
    """The decisions `keep` (a boolean mask over them), rows renumbered."""
    ends = np.append(data["start"][1:], len(data["x"]))
    starts, stops = data["start"][keep], ends[keep]
    lengths = stops - starts
    rows = np.concatenate([np.arange(a, b) for a, b in zip(starts, stops)]) \
        if len(starts) else np.zeros(0, dtype=np.int64)
    new_start = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    return {"x": data["x"][rows].astype(np.float64), "start": new_start,
            "chosen": new_start + (data["chosen"][keep] - starts)}


def _decision_of_rows(d: dict[str, np.ndarray]) -> np.ndarray:
    """The decision each row (a legal move) belongs to."""
    lengths = np.diff(np.append(d["start"], len(d["x"])))
    return np.repeat(np.arange(len(d["start"])), lengths)


def log_likelihood(w: np.ndarray, d: dict[str, np.ndarray]) -> tuple[float, np.ndarray]:
    """Mean log-probability of the chosen moves, and its gradient in w."""
    z = d["x"] @ w
    top = np.maximum.reduceat(z, d["start"])
    group = _decision_of_rows(d)
    e = np.exp(z - top[group])
    total = np.add.reduceat(e, d["start"])
    p = e / total[group]
    ll = (z[d["chosen"]] - top - np.log(total)).mean()
    grad = (d["x"][d["chosen"]].sum(0) - p @ d["x"]) / len(d["start"])
    return float(ll), grad


def top_choice_rate(w: np.ndarray, d: dict[str, np.ndarray]) -> float:
    """Share of decisions where the most likely move is the one played
    (moves tied for most likely share the decision)."""
    z = d["x"] @ w
    top = np.maximum.reduceat(z, d["start"])
    group = _decision_of_rows(d)
    tied = np.add.reduceat((z >= top[group]).astype(np.float64), d["start"])
    return float(np.mean((z[d["chosen"]] >= top) / tied))


def fit(data: dict[str, np.ndarray], seed: int, held_out: float = 0.2,
        steps: int = 300, l2: float = 1e-3,
        progress: Callable[[int, float], None] = lambda step, ll: None
        ) -> tuple[np.ndarray, dict[str, Any]]:
    """Weights by Adam on the mean log-likelihood less l2 * |w|^2, over the
    games not held out (a seeded share of whole games); the report compares
    them with uniform picks on the held-out decisions."""
    rng = np.random.default_rng(seed)
    games = np.unique(data["game"])
    held = rng.choice(games, int(round(held_out * len(games))), replace=False)
    test_mask = np.isin(data["game"], held)
    train, test = _decisions_of(data, ~test_mask), _decisions_of(data, test_mask)
    if not len(train["start"]):
        raise ValueError("no decision left to fit: give more games or hold fewer out")
    w = np.zeros(data["x"].shape[1])
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, steps + 1):
        ll, grad = log_likelihood(w, train)
        grad = grad - 2 * l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad ** 2
        w += 0.05 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        progress(step, ll)
    report: dict[str, Any] = {"train_decisions": len(train["start"]), "held_out_decisions": len(test["start"]),
              "held_out_games": len(held)}
    for name, weights in (("uniform", np.zeros_like(w)), ("fitted", w)):
        scored = test if len(test["start"]) else train
        report[name] = {"log_likelihood": log_likelihood(weights, scored)[0],
                        "top_choice": top_choice_rate(weights, scored)}
    return w, report
