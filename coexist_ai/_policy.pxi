# _policy.pxi -- the fitted rollout policy of csrc/cx_policy.c for Python
# (included by _search.pyx): the features of a position's legal moves, as
# coexist_ai.learn.policy fits them, and the check of a weight vector.
POLICY_FEATURES = CX_POLICY_FEATURES
POLICY_KINDS = CX_POLICY_KINDS


def policy_weights_array(weights):
    """`weights` as a float32 array of POLICY_FEATURES finite numbers (a
    ValueError says what is wrong)."""
    if weights is None:
        raise ValueError("policy=fitted needs its weights")
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (CX_POLICY_FEATURES,):
        raise ValueError(f"policy weights: shape {w.shape}, expected "
                         f"({CX_POLICY_FEATURES},)")
    if not np.all(np.isfinite(w)):
        raise ValueError("policy weights: every weight must be a finite number")
    return w.astype(np.float32)


def policy_features(Position position not None):
    """The legal moves of `position` and their features for the fitted
    policy: (list of actions, float32 array of shape (moves,
    POLICY_FEATURES)). They read only public facts."""
    cdef const cx_cardset *cs = position.cset()
    cdef cx_action buf[CX_MAX_ACTIONS]
    cdef float f[CX_POLICY_FEATURES]
    cdef cx_move_context ctx
    if cx_is_over(&position.s) or position.s.phase == CX_PH_REFILL:
        return [], np.zeros((0, CX_POLICY_FEATURES), dtype=np.float32)
    cdef int n = cx_legal_actions(&position.s, cs, buf), i, k
    out = np.zeros((n, CX_POLICY_FEATURES), dtype=np.float32)
    cx_move_context_of(&position.s, cs, &ctx)
    for i in range(n):
        cx_move_features(&position.s, cs, &ctx, buf[i], f)
        for k in range(CX_POLICY_FEATURES):
            out[i, k] = f[k]
    return [buf[i] for i in range(n)], out
