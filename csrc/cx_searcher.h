/* cx_searcher.h -- root-parallel ISMCTS: one tree per thread, each with its
 * own seed, merged at the root. With an iteration budget the result depends
 * only on the seed, the position and the trees kept from earlier searches,
 * never on thread timing. */
#ifndef CX_SEARCHER_H
#define CX_SEARCHER_H

#include "cx_ismcts.h"

#define CX_MAX_THREADS 64

typedef struct {
    int32_t action;
    uint32_t visits;      /* summed over the threads' trees */
    uint32_t avail;
    double reward;        /* summed rewards of the seat to move */
} cx_root_stat;

typedef struct {
    cx_search_params params;
    int threads;
    int reuse;            /* keep the subtree of the new position */
    uint64_t seed;
    int stop;             /* set from another thread: end the search now */
    cx_tree trees[CX_MAX_THREADS];
} cx_searcher;

int cx_searcher_init(cx_searcher *s, const cx_search_params *params,
                     int threads, int max_nodes, int reuse, uint64_t seed);
void cx_searcher_free(cx_searcher *s);

/* Search `obs` for `iterations` in all (if > 0), `seconds` (if > 0) or
 * until the roots hold `visits` in all (if > 0), whichever ends first;
 * visits kept from earlier searches count, so a kept subtree that holds
 * them already is answered from with no new iteration. Writes the merged
 * root moves into `out` (room for CX_MAX_ACTIONS) and their number into
 * *n_out; returns the iterations run. */
long cx_searcher_run(cx_searcher *s, const cx_state *obs, const cx_cardset *cs,
                     long iterations, double seconds, long visits,
                     cx_root_stat *out, int *n_out);

/* Ask a running search (from another thread) to end after the iteration
 * each thread is in, with at least one done; it stays set, and every later
 * search ends at once, until it is cleared with stop = 0. */
void cx_searcher_set_stop(cx_searcher *s, int stop);

/* nodes and edges in use over all trees, and bytes they take */
void cx_searcher_usage(const cx_searcher *s, long *nodes, long *edges,
                       long *bytes);

#endif
