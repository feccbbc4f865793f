# _search.pxd -- the C interface of the search (csrc/cx_ismcts.c,
# cx_searcher.c, cx_greedy.c), for Cython. It works on the engine's state
# and card set (coexist_ai/_engine.pxd).
from libc.stdint cimport uint64_t
from coexist_ai._engine cimport cx_action, cx_state, cx_cardset, CX_MAX_PLAYERS

cdef extern from "cx_learned.h" nogil:
    enum:
        CX_LEARNED_FEATURES     # inputs of the model, per seat
        CX_LEARNED_MAX_HIDDEN   # hidden units at most
        CX_LEARNED_HEADS        # outputs: win, rank, margin
        CX_LEARNED_MAX_IN       # the widest layer feeding the outputs
    ctypedef struct cx_learned:
        int hidden              # hidden units, 0: a linear model
        float shift[CX_LEARNED_FEATURES]   # subtracted from each feature
        float scale[CX_LEARNED_FEATURES]   # then divided by
        float w1[CX_LEARNED_MAX_HIDDEN][CX_LEARNED_FEATURES]
        float b1[CX_LEARNED_MAX_HIDDEN]
        float w2[CX_LEARNED_HEADS][CX_LEARNED_MAX_IN]
        float b2[CX_LEARNED_HEADS]
    void cx_learned_features(const cx_state *s, const cx_cardset *cs, float *out)
    void cx_learned_predict(const cx_learned *m, const float *x, float *heads)
    void cx_cutoff_reward(const cx_learned *m, const cx_state *s,
                          const cx_cardset *cs, int kind, float margin_weight,
                          float *out)

cdef extern from "cx_policy.h" nogil:
    enum:
        CX_POLICY_FEATURES      # features of one move
        CX_POLICY_KINDS         # of them, one-hots of the move's kind
    ctypedef struct cx_move_context:
        int ready
    void cx_move_context_of(const cx_state *s, const cx_cardset *cs,
                            cx_move_context *ctx)
    void cx_move_features(const cx_state *s, const cx_cardset *cs,
                          const cx_move_context *ctx, cx_action a, float *f)

cdef extern from "cx_searcher.h" nogil:
    enum:
        CX_MAX_THREADS          # search threads at most
    ctypedef struct cx_search_params:
        const cx_learned *learned  # the cut-off's model, NULL: hand-written
        double c                # UCB exploration constant
        int reward_kind         # CX_REWARD_*: win, rank, margin
        float margin_weight     # share of the margin reward blended in
        int policy              # CX_POLICY_*: random, light, fitted
        const float *policy_weights  # the fitted policy's weights
        int rollout_depth       # turns before a rollout is cut off (0: end)
        float discount          # at each node, a reward k rounds later than its
                                # expected end counts discount^k (1: no discount)
        float prior             # virtual visits at each new edge's prior value
        float widen             # outcomes kept per revealing move: widen * sqrt(visits)
    ctypedef struct cx_tree:
        int n_nodes             # nodes in use
        int n_edges             # edges in use
        int root                # the root node (-1: empty)
        int full                # the pool ran out during the last search
    ctypedef struct cx_root_stat:
        int action              # a move of the root
        unsigned int visits     # iterations that took it, over all threads
        unsigned int avail      # iterations in which it was legal
        double reward           # summed rewards of the seat to move
    ctypedef struct cx_searcher:
        int threads             # trees in use (one per thread)
        cx_tree trees[CX_MAX_THREADS]
    int cx_searcher_init(cx_searcher *s, const cx_search_params *params,
                         int threads, int max_nodes, int reuse, uint64_t seed)
    void cx_searcher_free(cx_searcher *s)
    long cx_searcher_run(cx_searcher *s, const cx_state *obs, const cx_cardset *cs,
                         long iterations, double seconds, long visits,
                         cx_root_stat *out, int *n_out)
    void cx_searcher_set_stop(cx_searcher *s, int stop)
    void cx_searcher_usage(const cx_searcher *s, long *nodes, long *edges,
                           long *bytes)
    int cx_tree_principal_line(const cx_tree *t, cx_action *out, int max_len)
    double cx_now()
    int CX_MAX_TREE_NODES       # the largest node pool of one tree
    size_t CX_NODE_BYTES "sizeof(cx_node)"
    size_t CX_EDGE_BYTES "sizeof(cx_edge)"

cdef extern from "cx_greedy.h" nogil:
    int CX_GREEDY_MAX_NODES     # the largest budget of the turn search
    float cx_greedy_value(const cx_state *s, const cx_cardset *cs, int seat)
    cx_action cx_greedy_choose(const cx_state *s, const cx_cardset *cs,
                               int max_nodes, int *searched)


cdef class Searcher:
    """Root-parallel determinized ISMCTS (one tree per thread)."""
    cdef cx_searcher s          # the trees and their settings
    cdef cx_learned *model      # eval=learned: the model's weights, else NULL
    cdef float policy_weights[CX_POLICY_FEATURES]  # policy=fitted's weights
    cdef readonly dict settings # the constructor's arguments
