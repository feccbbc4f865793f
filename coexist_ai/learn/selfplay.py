"""Positions for training: self-play games by a bot, each position where a
turn starts (where a search's rollouts are cut off) labelled with how the
game ended for every seat.

One row per seat and position: the features of the learned evaluation
(csrc/cx_learned.c), the labels (the seat's final win share, rank share and
margin reward, as csrc/cx_eval.c scores a finished game) and the estimate
of the hand-written evaluation at that position (to compare the two on the
same rows). Game g is dealt and played from seeds derived from (seed, g)
only, so the positions do not depend on --jobs or on the order games end.
"""
import json
import math
import zipfile
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from coexist_ai import _engine, _search
from coexist_ai.backends import execute
from coexist_ai.bots.spec import make_bot
from coexist_ai.learn.model import HEADS

MARGIN_SCALE = 10.0   # csrc/cx_eval.c: score points per unit of tanh
# one game's rows: features, labels, hand estimates
_Rows = tuple[np.ndarray, np.ndarray, np.ndarray]


def game_seeds(seed: int, game: int) -> tuple[int, int]:
    """The deal seed and the bots' seed of game `game`."""
    deal, bots = np.random.SeedSequence([seed, game]).generate_state(2, dtype=np.uint64)
    return int(deal >> np.uint64(1)), int(bots >> np.uint64(1))


def final_labels(state: Any) -> list[tuple[float, float, float]]:
    """Every seat's (win share, rank share, margin reward) at the end."""
    scores, ranks = state.scores(), state.ranks()
    n, winners = len(scores), ranks.count(1)
    rows = []
    for p in range(n):
        others = [q for q in range(n) if q != p]
        rank = sum(1.0 if ranks[p] < ranks[q] else 0.5 if ranks[p] == ranks[q] else 0.0
                   for q in others) / (n - 1)
        margin = scores[p] - max(scores[q] for q in others)
        rows.append((1.0 / winners if ranks[p] == 1 else 0.0, rank,
                     0.5 + 0.5 * math.tanh(margin / MARGIN_SCALE)))
    return rows


def hand_estimates(state: Any) -> list[tuple[float, ...]]:
    """The hand-written evaluation's estimate of each head, every seat."""
    per_head = [_search.cutoff_values(state, None, reward=head, margin_weight=0.0)
                for head in HEADS]
    return list(zip(*per_head))


def play_game(card_set: Any, players: int, bot_spec: str, seed: int,
              game: int) -> _Rows | None:
    """One self-play game: (features, labels, hand estimates) of its turn
    starts, one row per seat, or None if it ended by the round safeguard
    (its result says nothing about the positions)."""
    deal_seed, bot_seed = game_seeds(seed, game)
    state = _engine.State.new(card_set, players=players, seed=deal_seed)
    bots = [make_bot(bot_spec, seed=bot_seed + p) for p in range(players)]
    for p, bot in enumerate(bots):
        bot.new_game(p, players)
    features: list[np.ndarray] = []
    hand: list[tuple[float, ...]] = []
    turn_start = True
    while not state.is_over():
        if turn_start:
            features.append(_search.learned_features(state))
            hand.extend(hand_estimates(state))
        seat = state.current_player
        state.apply(bots[seat].choose(state.observation(seat)))
        turn_start = state.is_over() or state.current_player != seat
    if not state.end_triggered or not features:
        return None
    labels = final_labels(state) * len(features)
    return np.concatenate(features), np.array(labels), np.array(hand)


def _play_numbered(card_set: Any, counts: tuple[int, ...], bot_spec: str, seed: int,
                   game: int) -> tuple[int, _Rows | None]:
    return game, play_game(card_set, counts[game % len(counts)], bot_spec, seed, game)


def generate(card_set: Any, games: int, counts: Sequence[int], bot_spec: str, seed: int,
             jobs: int = 1, progress: Callable[[int], Any] | None = None) -> dict[str, np.ndarray]:
    """Positions of `games` self-play games (game g at counts[g % len]
    players): a dict of arrays x, y (labels), hand, game, players."""
    tasks = ((card_set, tuple(counts), bot_spec, seed, g) for g in range(games))
    parts: list[tuple[int, _Rows | None]] = []
    for part in execute(_play_numbered, tasks, jobs):
        parts.append(part)
        if progress:
            progress(1)
    return _stack(sorted(parts, key=lambda part: part[0]), counts)


def _stack(parts: list[tuple[int, _Rows | None]], counts: Sequence[int]) -> dict[str, np.ndarray]:
    kept = [(g, r) for g, r in parts if r is not None]
    if not kept:
        raise ValueError("no game of the self-play ended normally")
    rows = [len(r[0]) for _, r in kept]
    return {"x": np.concatenate([r[0] for _, r in kept]).astype(np.float32),
            "y": np.concatenate([r[1] for _, r in kept]).astype(np.float32),
            "hand": np.concatenate([r[2] for _, r in kept]).astype(np.float32),
            "game": np.repeat([g for g, _ in kept], rows).astype(np.int64),
            "players": np.repeat([counts[g % len(counts)] for g, _ in kept], rows)
                         .astype(np.int64)}


ARRAYS = ("x", "y", "hand", "game", "players")


def save_positions(data: dict[str, np.ndarray], settings: dict[str, Any], path: str) -> None:
    """Write positions with the settings that made them (a JSON string)."""
    with open(path, "wb") as f:
        arrays: dict[str, Any] = {k: data[k] for k in ARRAYS}
        np.savez(f, settings=np.array(json.dumps(settings, sort_keys=True)), **arrays)


def load_positions(path: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """(arrays, settings) of a positions file; ValueError if it is not one."""
    try:
        with np.load(path, allow_pickle=False) as f:
            data = {k: f[k] for k in f.files}
        settings = json.loads(str(data.pop("settings")))
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"not a positions file ({type(e).__name__}: {e})") from None
    rows = {len(data.get(k, ())) for k in ARRAYS}
    if set(data) != set(ARRAYS) or len(rows) != 1 or not isinstance(settings, dict):
        raise ValueError(f"not a positions file (expected arrays {', '.join(ARRAYS)} "
                         "of one length and a settings object)")
    return data, settings
