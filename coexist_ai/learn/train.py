"""Training of the learned evaluation with numpy: a linear model or one
hidden layer of rectified units, sigmoid outputs fitted to the soft labels
(win share, rank share, margin reward) by cross-entropy, Adam on shuffled
minibatches with a small weight decay.

Every random choice (the held-out games, the initial weights, the order of
the minibatches) flows from the seed, so the same positions and seed train
the same model, bit for bit, on one machine. Positions are held out by
game, not by row: the positions of one game share its result, and a model
scored on rows of games it was trained on would look better than it is.
"""
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from coexist_ai.learn.model import HEADS, Model, forward

EPS = 1e-6   # probabilities are clipped this far from 0 and 1 in the loss


@dataclass(frozen=True)
class TrainSettings:
    hidden: int = 0            # hidden units, 0: linear
    epochs: int = 10
    batch: int = 256
    learning_rate: float = 3e-3
    weight_decay: float = 1e-4
    held_out: float = 0.15     # share of the games held out
    seed: int = 1


def split_games(games: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    """A boolean mask of the rows whose game is held out."""
    ids = np.unique(games)
    held = rng.permutation(ids)[:max(1, int(round(share * len(ids))))]
    return np.isin(games, held)


def cross_entropy(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Mean cross-entropy of predictions p against soft labels y, by head."""
    p = np.clip(p, EPS, 1 - EPS)
    return np.asarray(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean(axis=0))


def brier(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Mean squared error of the predictions, by head."""
    return np.asarray(((p - y) ** 2).mean(axis=0))


def init_model(x: np.ndarray, hidden: int, rng: np.random.Generator) -> Model:
    """Weights scaled for the normalised inputs (He for the hidden layer)."""
    n = x.shape[1]
    shift, scale = x.mean(axis=0), x.std(axis=0)
    scale = np.where(scale > 1e-6, scale, 1.0)   # a constant feature stays 0
    width = hidden or n
    w1 = rng.normal(0, np.sqrt(2.0 / n), (hidden, n)) if hidden else np.zeros((0, n))
    return Model(shift=shift, scale=scale, w1=w1, b1=np.zeros(hidden),
                 w2=rng.normal(0, np.sqrt(1.0 / width), (len(HEADS), width)),
                 b2=np.zeros(len(HEADS)))


def gradients(model: Model, x: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """The loss gradients of the trainable weights on one minibatch."""
    z0, h, p = forward(model, x)
    d_out = (p - y) / (len(x) * len(HEADS))   # sigmoid + cross-entropy
    top = z0 if h is None else h
    grads = {"w2": d_out.T @ top, "b2": d_out.sum(axis=0)}
    if h is not None:
        d_h = (d_out @ model.w2) * (h > 0)
        grads.update(w1=d_h.T @ z0, b1=d_h.sum(axis=0))
    return grads


class Adam:
    def __init__(self, names: list[str], model: Model, rate: float, beta1: float = 0.9,
                 beta2: float = 0.999) -> None:
        self.rate, self.b1, self.b2, self.t = rate, beta1, beta2, 0
        self.m = {k: np.zeros_like(getattr(model, k)) for k in names}
        self.v = {k: np.zeros_like(getattr(model, k)) for k in names}

    def step(self, model: Model, grads: dict[str, np.ndarray], decay: float) -> None:
        self.t += 1
        for k, g in grads.items():
            w = getattr(model, k)
            if k.startswith("w"):
                g = g + decay * w
            self.m[k] = self.b1 * self.m[k] + (1 - self.b1) * g
            self.v[k] = self.b2 * self.v[k] + (1 - self.b2) * g * g
            m_hat = self.m[k] / (1 - self.b1 ** self.t)
            v_hat = self.v[k] / (1 - self.b2 ** self.t)
            setattr(model, k, w - self.rate * m_hat / (np.sqrt(v_hat) + 1e-8))


def train(data: dict[str, np.ndarray], settings: TrainSettings,
          progress: Callable[[int, dict[str, float]], Any] | None = None
          ) -> tuple[Model, dict[str, Any]]:
    """Fit a model to self-play positions (selfplay.generate's arrays);
    returns (model, report) where the report holds the held-out losses of
    the model and of the hand-written evaluation, by head."""
    rng = np.random.default_rng(settings.seed)
    held = split_games(data["game"], settings.held_out, rng)
    x, y = data["x"][~held].astype(np.float64), data["y"][~held].astype(np.float64)
    model = init_model(x, settings.hidden, rng)
    names = ["w2", "b2"] + (["w1", "b1"] if settings.hidden else [])
    adam = Adam(names, model, settings.learning_rate)
    for epoch in range(settings.epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), settings.batch):
            rows = order[start:start + settings.batch]
            adam.step(model, gradients(model, x[rows], y[rows]), settings.weight_decay)
        if progress:
            progress(epoch, _losses(model, data, held))
    report = evaluate(model, data, held)
    report.update(train_rows=int((~held).sum()), held_out_rows=int(held.sum()),
                  held_out_games=int(len(np.unique(data["game"][held]))))
    return _as_float32(model), report


def _losses(model: Model, data: dict[str, np.ndarray], held: np.ndarray) -> dict[str, float]:
    return {"train": float(cross_entropy(model.predict(data["x"][~held]),
                                         data["y"][~held]).mean()),
            "held_out": float(cross_entropy(model.predict(data["x"][held]),
                                            data["y"][held]).mean())}


def evaluate(model: Model, data: dict[str, np.ndarray], mask: np.ndarray) -> dict[str, Any]:
    """Cross-entropy, Brier score and winner accuracy of the model and of the
    hand-written evaluation on the rows of `mask`, by head."""
    y, hand = data["y"][mask], data["hand"][mask]
    learned = model.predict(data["x"][mask])
    report: dict[str, Any] = {}
    for name, p in (("learned", learned), ("hand", hand)):
        report[name] = {"cross_entropy": dict(zip(HEADS, cross_entropy(p, y).tolist())),
                        "brier": dict(zip(HEADS, brier(p, y).tolist())),
                        "winner_accuracy": winner_accuracy(p[:, 1], data, mask)}
    return report


def winner_accuracy(rank_estimate: np.ndarray, data: dict[str, np.ndarray],
                    mask: np.ndarray) -> float:
    """Share of held-out positions whose seat with the best estimate of the
    rank share is a winner of the game (positions with a shared first place
    among the best estimates count half)."""
    wins = data["y"][mask][:, 0] > 0
    game, players = data["game"][mask], data["players"][mask]
    hits, total, row = 0.0, 0, 0
    while row < len(game):
        n = int(players[row])
        block = rank_estimate[row:row + n]
        best = np.flatnonzero(block == block.max())
        hits += wins[row + best].mean()
        total += 1
        row += n
    return float(hits / total) if total else 0.0


def _as_float32(model: Model) -> Model:
    for k in ("shift", "scale", "w1", "b1", "w2", "b2"):
        setattr(model, k, np.asarray(getattr(model, k), dtype=np.float32))
    return model
