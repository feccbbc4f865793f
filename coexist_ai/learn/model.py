"""The learned evaluation's model: its weights, its file, and a numpy forward
pass (the reference of csrc/cx_learned.c's cx_learned_predict).

A model file is a numpy .npz archive (no pickles) holding the arrays of
`Model` and a JSON `meta` string (how it was trained). Every file is checked
when it is read: the format tag, the feature names the search computes, the
shapes, finite weights and positive scales. A file that fails any check is
refused with one ModelFileError naming the file and what was wrong.

The package ships two models, each trained by the command in its `meta`
(README, "Learned evaluation"): `coexist_ai/data/learned-eval.npz`, named
`default`, trained on the default card set, and the first model,
`learned-eval-v1.npz`, named `v1`, trained on reconstructed-v1 (kept so
that its games replay and the default's training does again).
"""
import json
import zipfile
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from coexist_ai import _search
from coexist_ai.errors import CoexistError
from coexist_ai.learn.features import FEATURE_NAMES
from coexist_ai.learn.files import read_once

FORMAT = "coexist-learned-eval-1"
HEADS = ("win", "rank", "margin")   # the reward kinds, as csrc/cx_eval.h orders them
SHIPPED = "default"                 # the name of the default model in the package
NAMED = {SHIPPED: "learned-eval.npz", "v1": "learned-eval-v1.npz"}   # files in data/
WEIGHTS = ("shift", "scale", "w1", "b1", "w2", "b2")


class ModelFileError(CoexistError):
    """A model file that cannot be read or fails a check."""


@dataclass
class Model:
    """x' = (x - shift) / scale; h = relu(w1 x' + b1) (h = x' when hidden is
    0); outputs = sigmoid(w2 h + b2), one per HEADS."""
    shift: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[0])

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The outputs for rows of features, shape (rows, len(HEADS))."""
        return forward(self, np.asarray(x, dtype=np.float32))[-1]


def forward(model: Model, x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """The normalised input, the hidden layer (None if linear) and the
    outputs: what training needs to take gradients."""
    z0 = (x - model.shift) / model.scale
    h = np.maximum(z0 @ model.w1.T + model.b1, 0.0) if model.hidden else None
    top = z0 if h is None else h
    return z0, h, 1.0 / (1.0 + np.exp(-(top @ model.w2.T + model.b2)))


def save_model(model: Model, path: str | Path) -> None:
    """Write a model file (checked first: a model that could not be read
    back is never written)."""
    check_model(model, str(path))
    arrays: dict[str, Any] = {k: np.asarray(getattr(model, k), dtype=np.float32)
                              for k in WEIGHTS}
    arrays.update(format=np.array(FORMAT), features=np.array(FEATURE_NAMES),
                  meta=np.array(json.dumps(model.meta, sort_keys=True)))
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def load_model(path: str | Path) -> Model:
    """Read and check a model file; ModelFileError if it is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            contents = {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise ModelFileError(f"model file {str(path)!r}: no such file") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise ModelFileError(f"model file {str(path)!r}: not a .npz model file "
                             f"({type(e).__name__}: {e})") from None
    return _model_from(contents, str(path))


def _model_from(contents: dict[str, np.ndarray], where: str) -> Model:
    missing = [k for k in ("format", "features", "meta") + WEIGHTS if k not in contents]
    if missing:
        raise ModelFileError(f"model file {where!r}: missing {', '.join(missing)}")
    if contents["format"].shape != () or str(contents["format"]) != FORMAT:
        raise ModelFileError(f"model file {where!r}: format {contents['format']!s:.40}, "
                             f"expected {FORMAT}")
    if tuple(str(n) for n in np.atleast_1d(contents["features"])) != FEATURE_NAMES:
        raise ModelFileError(f"model file {where!r}: its features are not the "
                             f"{len(FEATURE_NAMES)} this version computes "
                             "(train it again with `coexist-ai train`)")
    try:
        meta = json.loads(str(contents["meta"]))
    except ValueError:
        raise ModelFileError(f"model file {where!r}: meta is not JSON") from None
    if contents["meta"].shape != () or not isinstance(meta, dict):
        raise ModelFileError(f"model file {where!r}: meta is not a JSON object")
    model = Model(**{k: contents[k] for k in WEIGHTS}, meta=meta)
    check_model(model, where)
    return model


def check_model(model: Model, where: str) -> None:
    """Raise ModelFileError unless the weights have the shapes the search
    reads, numeric finite values and positive scales."""
    for key in WEIGHTS:
        value = getattr(model, key)
        if not isinstance(value, np.ndarray) or value.dtype.kind not in "fiu":
            raise ModelFileError(f"model file {where!r}: {key} is not an array of numbers")
    n, hidden = len(FEATURE_NAMES), model.w1.shape[0] if model.w1.ndim == 2 else -1
    shapes = {"shift": (n,), "scale": (n,), "w1": (hidden, n), "b1": (hidden,),
              "w2": (len(HEADS), hidden or n), "b2": (len(HEADS),)}
    if not 0 <= hidden <= _search.LEARNED_MAX_HIDDEN:
        raise ModelFileError(f"model file {where!r}: w1 of shape {model.w1.shape}: "
                             f"expected (hidden, {n}) with 0 to "
                             f"{_search.LEARNED_MAX_HIDDEN} hidden units")
    for key, shape in shapes.items():
        if getattr(model, key).shape != shape:
            raise ModelFileError(f"model file {where!r}: {key} has shape "
                                 f"{getattr(model, key).shape}, expected {shape}")
        with np.errstate(over="ignore"):   # too big for a float32: inf, refused
            finite = np.all(np.isfinite(getattr(model, key).astype(np.float32)))
        if not finite:
            raise ModelFileError(f"model file {where!r}: {key} holds a value that "
                                 "is not a finite float32")
    if not np.all(model.scale > 0):
        raise ModelFileError(f"model file {where!r}: scale must be > 0 everywhere")


def shipped_path(name: str = SHIPPED) -> Path:
    """The path of a model that ships in the package (NAMED)."""
    return Path(str(resources.files("coexist_ai") / "data" / NAMED[name]))


def model_path(name: str) -> Path:
    """The file of the model a bot spec names: one of NAMED or a path."""
    return shipped_path(name) if name in NAMED else Path(name)


def resolve_model(name: str) -> Model:
    """The model a bot spec names: one of NAMED or a file path (read once
    per path and modification time)."""
    return read_once(model_path(name), load_model, ModelFileError(
        f"model file {name!r}: no such file (expected {' or '.join(map(repr, NAMED))} "
        "or the path of a .npz from `coexist-ai train`)"))
