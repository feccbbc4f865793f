# _learned.pxi -- the learned evaluation of csrc/cx_learned.c for Python
# (included by _search.pyx): its features, its outputs, and the reward a
# search scores at a cut-off. Models are read and checked by
# coexist_ai.learn.model; this file only copies a checked one into C.
import numpy as np
from libc.string cimport memset

LEARNED_FEATURES = CX_LEARNED_FEATURES
LEARNED_MAX_HIDDEN = CX_LEARNED_MAX_HIDDEN
LEARNED_HEADS = CX_LEARNED_HEADS


cdef cx_learned *_pack_model(model) except NULL:
    """A C copy of a model's weights (malloc'd: the caller frees it)."""
    cdef int hidden = model.hidden, width = model.hidden or CX_LEARNED_FEATURES
    if not 0 <= hidden <= CX_LEARNED_MAX_HIDDEN:
        raise ValueError(f"a model with {hidden} hidden units: at most "
                         f"{CX_LEARNED_MAX_HIDDEN}")
    shapes = {"shift": (CX_LEARNED_FEATURES,), "scale": (CX_LEARNED_FEATURES,),
              "w1": (hidden, CX_LEARNED_FEATURES), "b1": (hidden,),
              "w2": (CX_LEARNED_HEADS, width), "b2": (CX_LEARNED_HEADS,)}
    arrays = {name: np.ascontiguousarray(getattr(model, name), dtype=np.float32)
              for name in shapes}
    for key, shape in shapes.items():
        if arrays[key].shape != shape:
            raise ValueError(f"model {key}: shape {arrays[key].shape}, expected {shape}")
    cdef cx_learned *m = <cx_learned *>malloc(sizeof(cx_learned))
    if m == NULL:
        raise MemoryError("no memory for a learned model")
    memset(m, 0, sizeof(cx_learned))
    m.hidden = hidden
    cdef int f, j, k
    for f in range(CX_LEARNED_FEATURES):
        m.shift[f], m.scale[f] = arrays["shift"][f], arrays["scale"][f]
    for j in range(hidden):
        m.b1[j] = arrays["b1"][j]
        for f in range(CX_LEARNED_FEATURES):
            m.w1[j][f] = arrays["w1"][j, f]
    for k in range(CX_LEARNED_HEADS):
        m.b2[k] = arrays["b2"][k]
        for j in range(width):
            m.w2[k][j] = arrays["w2"][k, j]
    return m


def learned_features(Position position not None):
    """The model's inputs for every seat of a position: an array of shape
    (players, LEARNED_FEATURES), float32. They read only public facts (the
    draw pile's size, never its order)."""
    cdef float out[CX_MAX_PLAYERS * CX_LEARNED_FEATURES]
    cx_learned_features(&position.s, position.cset(), out)
    n = position.s.n_players * CX_LEARNED_FEATURES
    return np.array([out[i] for i in range(n)], dtype=np.float32).reshape(
        position.s.n_players, CX_LEARNED_FEATURES)


def learned_predict(model, features):
    """The compiled model's outputs (win, rank, margin) for each row of
    `features` (shape (rows, LEARNED_FEATURES)); shape (rows, 3)."""
    x = np.ascontiguousarray(features, dtype=np.float32)
    if x.ndim != 2 or x.shape[1] != CX_LEARNED_FEATURES:
        raise ValueError(f"features of shape {x.shape}: expected (rows, {CX_LEARNED_FEATURES})")
    cdef cx_learned *m = _pack_model(model)
    cdef float heads[CX_LEARNED_HEADS]
    cdef float[:, ::1] view = x
    out = np.empty((x.shape[0], CX_LEARNED_HEADS), dtype=np.float32)
    try:
        for row in range(x.shape[0]):
            cx_learned_predict(m, &view[row, 0], heads)
            out[row] = [heads[k] for k in range(CX_LEARNED_HEADS)]
    finally:
        free(m)
    return out


def cutoff_values(Position position not None, model=None, str reward="rank",
                  double margin_weight=0.1):
    """The reward vector a search scores at this position: the learned
    model's estimate (`model`) or the hand-written one (None) at a cut-off,
    the exact result once the game is over."""
    if reward not in REWARDS:
        raise ValueError(f"reward {reward!r}: expected one of {REWARDS}")
    cdef cx_learned *m = _pack_model(model) if model is not None else NULL
    cdef float out[CX_MAX_PLAYERS]
    cx_cutoff_reward(m, &position.s, position.cset(), REWARDS.index(reward),
                     margin_weight, out)
    free(m)
    return [out[p] for p in range(position.s.n_players)]
