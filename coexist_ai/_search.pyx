# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled searches behind Python: the determinized ISMCTS
(csrc/cx_ismcts.c, cx_searcher.c) and the heuristic turn search
(csrc/cx_greedy.c). Neither ever reads the real draw-pile order: every
position is hidden first, whatever was passed in."""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from coexist_ai._engine cimport (Position, cx_state, cx_cardset, cx_action,
                                 cx_hide_deck, cx_is_over, cx_legal_actions,
                                 CX_MAX_ACTIONS,
                                 CX_PH_REFILL, _seed64)

REWARDS = ("win", "rank", "margin")
MAX_TREE_NODES = CX_MAX_TREE_NODES
# virtual visits of a prior: past this a move's own results never count
# (and an infinite weight turns every UCB value into NaN: no move chosen)
MAX_PRIOR = 1e6
# widen's cap: a thousand outcomes per root of a move's visits keeps them all
MAX_WIDEN = 1e3
GREEDY_MAX_NODES = CX_GREEDY_MAX_NODES
MAX_THREADS = CX_MAX_THREADS
POLICIES = ("random", "light", "fitted")
cdef enum:
    PRINCIPAL_LINE = 64         # moves of the principal line reported


cdef class Searcher:
    """Root-parallel determinized ISMCTS over a pool of at most `max_nodes`
    nodes. Searching never reads the real draw-pile order: the position is
    hidden first, whatever was passed in."""

    def __cinit__(self, double c=0.7, str reward="rank", double margin_weight=0.1,
                  str policy="light", int rollout_depth=0, double discount=1.0,
                  double prior=0.0, double widen=0.0, int threads=1,
                  int max_nodes=1_000_000, bint reuse=True, seed=0, learned=None,
                  policy_weights=None):
        cdef cx_search_params p
        # learned: a checked model (coexist_ai.learn.model) for the cut-off
        self.model = _pack_model(learned) if learned is not None else NULL
        p.learned = self.model
        if reward not in REWARDS or policy not in POLICIES:
            raise ValueError(f"reward {reward!r} / policy {policy!r}: expected "
                             f"one of {REWARDS} / {POLICIES}")
        p.c, p.reward_kind, p.margin_weight = c, REWARDS.index(reward), margin_weight
        p.policy, p.rollout_depth = POLICIES.index(policy), rollout_depth
        # policy=fitted's weights, copied into the searcher (the other
        # policies read none)
        p.policy_weights = NULL
        if policy == "fitted":
            checked = policy_weights_array(policy_weights)
            for k in range(CX_POLICY_FEATURES):
                self.policy_weights[k] = checked[k]
            p.policy_weights = self.policy_weights
        if not 0 < discount <= 1:
            raise ValueError(f"discount {discount}: expected a number in (0, 1]")
        p.discount = discount
        if not 0 <= prior <= MAX_PRIOR:
            raise ValueError(f"prior {prior}: expected a number from 0 to {MAX_PRIOR:g}")
        p.prior = prior
        if not 0 <= widen <= MAX_WIDEN:
            raise ValueError(f"widen {widen}: expected a number from 0 to {MAX_WIDEN:g}")
        p.widen = widen
        if not 1 <= threads <= CX_MAX_THREADS or not 2 * threads <= max_nodes <= MAX_TREE_NODES:
            raise ValueError(f"threads {threads} / max_nodes {max_nodes}: threads in "
                             f"1..{CX_MAX_THREADS} and 2 to {MAX_TREE_NODES} nodes "
                             "per thread")
        if not cx_searcher_init(&self.s, &p, threads, max_nodes, reuse, _seed64(seed)):
            raise MemoryError(f"cannot set up {threads} search threads "
                              f"with {max_nodes} nodes")
        self.settings = dict(c=c, reward=reward, margin_weight=margin_weight,
                             policy=policy, rollout_depth=rollout_depth,
                             discount=discount, prior=prior, widen=widen,
                             threads=threads, max_nodes=max_nodes, reuse=reuse,
                             seed=seed)

    def __dealloc__(self):
        cx_searcher_free(&self.s)
        free(self.model)

    def request_stop(self):
        """End a search running in another thread after the iteration each
        thread is in (at least one is always done); later searches also end
        at once until `clear_stop()`. Safe to call while `search` runs: it
        only sets a flag the threads read."""
        cx_searcher_set_stop(&self.s, 1)

    def clear_stop(self):
        cx_searcher_set_stop(&self.s, 0)

    def search(self, Position position not None, long iterations=0,
               double seconds=0.0, long visits=0):
        """Search `position` for `iterations`, `seconds` or until the root
        holds `visits` (kept ones count: 0 new iterations when a kept
        subtree holds them), whichever ends first; returns a dict with the
        chosen action, the iterations run, root statistics, the principal
        line and memory use."""
        if iterations <= 0 and seconds <= 0 and visits <= 0:
            raise ValueError("a search needs iterations, seconds or visits > 0")
        cdef const cx_cardset *cs = position.cset()
        if cx_is_over(&position.s):
            raise ValueError("the game is over: there is nothing to search")
        cdef cx_state hidden
        _hidden_copy(position, &hidden)
        cdef cx_root_stat *stats = <cx_root_stat *>malloc(sizeof(cx_root_stat) * CX_MAX_ACTIONS)
        cdef int n = 0
        cdef long done
        cdef double start = cx_now(), elapsed
        try:
            with nogil:
                done = cx_searcher_run(&self.s, &hidden, cs, iterations,
                                       seconds, visits, stats, &n)
            elapsed = cx_now() - start
            moves = [(stats[i].action, stats[i].visits, stats[i].avail,
                      stats[i].reward / stats[i].visits if stats[i].visits else 0.0)
                     for i in range(n)]
        finally:
            free(stats)
        if not moves:   # the root always gets its moves (cx_ismcts.c)
            raise RuntimeError("the search returned no move: an engine bug")
        return self._result(moves, done, elapsed)

    def _result(self, moves, long done, double elapsed):
        best = max(moves, key=lambda m: (m[1], m[3]))
        cdef cx_action line[PRINCIPAL_LINE]
        cdef int k = cx_tree_principal_line(&self.s.trees[0], line, PRINCIPAL_LINE)
        cdef long nodes, edges, used
        cx_searcher_usage(&self.s, &nodes, &edges, &used)
        return {"action": best[0], "value": best[3], "iterations": done,
                "seconds": elapsed, "moves": moves,
                "principal_line": [line[i] for i in range(k)],
                "nodes": nodes, "edges": edges, "bytes": used,
                "bytes_per_node": (<double>used) / nodes if nodes else 0.0,
                "pool_full": any(self.s.trees[t].full for t in range(self.s.threads))}


cdef int _hidden_copy(Position position, cx_state *hidden) except -1:
    """The position to search: the draw pile's order erased, and explicit
    chance turned off (a search deals its own refills); a chance node itself
    is not a decision of any seat."""
    if position.s.phase == CX_PH_REFILL:
        raise ValueError("a chance node (a refill being revealed) is no seat's "
                         "decision: there is nothing to search")
    memcpy(hidden, &position.s, sizeof(cx_state))
    cx_hide_deck(hidden)
    hidden.explicit_chance = 0
    return 0


def greedy_choose(Position position not None, int max_nodes=20000):
    """The heuristic bot's move (csrc/cx_greedy.c) and the positions it
    searched (at most `max_nodes`, 1..GREEDY_MAX_NODES). The position is
    hidden first: the draw pile's order is never read."""
    cdef const cx_cardset *cs = position.cset()
    if not 1 <= max_nodes <= CX_GREEDY_MAX_NODES:
        raise ValueError(f"max_nodes {max_nodes}: expected 1..{CX_GREEDY_MAX_NODES}")
    if cx_is_over(&position.s):
        raise ValueError("the game is over: there is no move to choose")
    cdef cx_state hidden
    _hidden_copy(position, &hidden)
    cdef int searched = 0
    cdef cx_action action
    with nogil:
        action = cx_greedy_choose(&hidden, cs, max_nodes, &searched)
    return action, searched


def greedy_value(Position position not None, int seat):
    """The heuristic bot's evaluation of a position for `seat`."""
    cdef const cx_cardset *cs = position.cset()
    return cx_greedy_value(&position.s, cs, position._seat(seat))


include "_learned.pxi"
include "_policy.pxi"
