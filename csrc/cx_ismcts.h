/* cx_ismcts.h -- determinized single-observer ISMCTS.
 *
 * A node is an information set of the searching seat. In Coexist every seat
 * knows the same things (all but the draw pile's order), so a node stands
 * for a public position. Each iteration deals a fresh determinization of the
 * unseen cards, walks the tree choosing for the seat to move (max^n over a
 * reward vector), and when a move reveals cards (the end-of-turn refill)
 * the node reached depends on what was revealed: one child per outcome, so
 * the tree never acts as if a future refill were known. */
#ifndef CX_ISMCTS_H
#define CX_ISMCTS_H

#include "cx_learned.h"

typedef struct {
    int32_t action;       /* the move */
    int32_t child;        /* first node reached by it (-1: none yet); other
                             outcomes chain through cx_node.next_outcome */
    uint32_t visits;      /* iterations that took this move */
    uint32_t avail;       /* iterations in which this move was legal */
    double reward;        /* sum of rewards of the seat that moved, each
                             discounted from this node's time; a double:
                             a float sum past 2^17 moves in steps of 1/64,
                             so every reward added is rounded by up to
                             1/128 and means drift after some 10^5 visits */
    float prior;          /* the cut-off's estimate for the seat that moved
                             right after the move, less its mean over the
                             node's moves; set at expansion when the
                             search has a prior weight (else 0) */
} cx_edge;

typedef struct {
    uint64_t reveal;      /* cards revealed on the way here (0: none) */
    uint64_t hash;        /* public hash of the position (tree reuse) */
    int32_t first_edge;   /* its moves: edges[first_edge .. +n_edges) */
    int32_t next_outcome; /* next node reached by the same edge, or -1 */
    uint32_t visits;      /* iterations that passed through it */
    uint16_t n_edges;     /* 0 until the node is first expanded */
    uint8_t player;       /* seat to move here */
    uint8_t terminal;     /* the game is over here */
} cx_node;

typedef struct {
    const cx_learned *learned; /* the cut-off's estimate: this model, or the
                                  hand-written one of cx_eval.c (NULL) */
    double c;             /* UCB exploration constant */
    int reward_kind;      /* CX_REWARD_* */
    float margin_weight;  /* share of the margin reward blended in */
    int policy;           /* CX_POLICY_* for rollouts */
    const float *policy_weights; /* CX_POLICY_FEATURES weights of the
                                    fitted policy (read by it alone) */
    int rollout_depth;    /* turns before cutting a rollout off (0: end) */
    float discount;       /* at each node, a reward k rounds later than the
                             end expected at that node counts discount^k
                             (1: no discount) */
    float prior;          /* virtual visits of each edge at the node's mean
                             plus the edge's prior (0: none, untried moves
                             first) */
    float widen;          /* a move that reveals cards keeps at most
                             ceil(widen * sqrt(its visits)) outcomes; past
                             that an iteration replays the least visited
                             one kept (0: every outcome its own child) */
} cx_search_params;

typedef struct {
    cx_node *nodes;
    cx_edge *edges;
    int n_nodes, cap_nodes;
    int n_edges, cap_edges;
    int root;
    int full;             /* the pool ran out: no node was added */
    cx_rng rng;
} cx_tree;

/* The largest node pool of one tree: 2^27 nodes take 4 GiB with their
 * edges, and the edge count (4 per node) stays inside an int. */
#define CX_MAX_TREE_NODES (1 << 27)

/* allocate a tree with room for max_nodes nodes, at most CX_MAX_TREE_NODES
 * (0 on failure) */
int cx_tree_init(cx_tree *t, int max_nodes, uint64_t seed);
void cx_tree_free(cx_tree *t);
void cx_tree_clear(cx_tree *t);

/* Keep the part of the tree below the node of position `obs`, if the tree
 * holds it (found by public hash); otherwise start afresh. Returns 1 when a
 * subtree was kept. */
int cx_tree_reuse(cx_tree *t, const cx_state *obs);

/* run iterations from `obs` (whose hidden order is ignored) until
 * `iterations` are done (if > 0), `deadline` (monotonic seconds, if > 0)
 * passes or `*stop` (if not NULL) is set by another thread, always at least
 * one; returns the iterations run */
long cx_search(cx_tree *t, const cx_state *obs, const cx_cardset *cs,
               const cx_search_params *params, long iterations,
               double deadline, const int *stop);

/* the most visited line from the root (after a reveal, its most visited
 * outcome); returns its length */
int cx_tree_principal_line(const cx_tree *t, cx_action *out, int max_len);

/* seconds on the monotonic clock */
double cx_now(void);

#endif
