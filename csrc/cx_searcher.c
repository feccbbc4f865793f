/* cx_searcher.c -- threads around cx_search, and the root merge. */
#include <pthread.h>
#include <string.h>
#include "cx_internal.h"
#include "cx_searcher.h"

typedef struct {
    cx_tree *tree;
    const cx_state *obs;
    const cx_cardset *cs;
    const cx_search_params *params;
    long iterations;
    double deadline;
    const int *stop;
    long done;
} job;

static void *run_job(void *arg) {
    job *j = arg;
    j->done = cx_search(j->tree, j->obs, j->cs, j->params, j->iterations,
                        j->deadline, j->stop);
    return NULL;
}

int cx_searcher_init(cx_searcher *s, const cx_search_params *params,
                     int threads, int max_nodes, int reuse, uint64_t seed) {
    memset(s, 0, sizeof *s);
    if (threads < 1 || threads > CX_MAX_THREADS) return 0;
    s->params = *params;
    s->threads = threads;
    s->reuse = reuse;
    s->seed = seed;
    for (int t = 0; t < threads; t++)
        if (max_nodes / threads < 2 ||
            !cx_tree_init(&s->trees[t], max_nodes / threads, seed)) {
            cx_searcher_free(s);
            return 0;
        }
    return 1;
}

void cx_searcher_free(cx_searcher *s) {
    for (int t = 0; t < s->threads; t++) cx_tree_free(&s->trees[t]);
    s->threads = 0;
}

/* visits of the root's moves (0 without a root or before its moves) */
static long root_visits(const cx_tree *tree) {
    if (tree->root < 0) return 0;
    const cx_node *root = &tree->nodes[tree->root];
    long sum = 0;
    for (int i = 0; i < root->n_edges; i++) sum += tree->edges[root->first_edge + i].visits;
    return sum;
}

/* Every decision reseeds each thread from (seed, thread, position, visits
 * kept), so a position is searched the same way whatever came before it,
 * and a second search of a position it holds already draws new samples. */
static void prepare_tree(cx_searcher *s, int t, const cx_state *obs) {
    cx_tree *tree = &s->trees[t];
    uint64_t mix = s->seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(t + 1));
    if (!s->reuse || !cx_tree_reuse(tree, obs)) cx_tree_clear(tree);
    uint64_t kept = (uint64_t)root_visits(tree);
    cx_rng_seed(&tree->rng, mix ^ cx_public_hash(obs) ^ (kept * 0xD6E8FEB86659FD93ULL));
}

/* Iterations still to run for a visit target, given what the trees kept:
 * 0 when every tree's root holds visits already and their sum meets it,
 * else at least one a thread (fewer would leave threads idle, and an idle
 * thread's tree is cleared, kept subtree and all). */
static long iterations_for_visits(const cx_searcher *s, long visits) {
    long kept = 0;
    int all_kept = 1;
    for (int t = 0; t < s->threads; t++) {
        kept += root_visits(&s->trees[t]);
        all_kept &= root_visits(&s->trees[t]) > 0;
    }
    if (kept >= visits && all_kept) return 0;
    return visits - kept > s->threads ? visits - kept : s->threads;
}

static void merge_roots(const cx_searcher *s, int active, cx_root_stat *out,
                        int *n_out) {
    const cx_tree *first = &s->trees[0];
    const cx_node *root = &first->nodes[first->root];
    *n_out = root->n_edges;
    for (int i = 0; i < root->n_edges; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].action = first->edges[root->first_edge + i].action;
    }
    for (int t = 0; t < active; t++) {
        const cx_tree *tree = &s->trees[t];
        const cx_node *r = &tree->nodes[tree->root];
        for (int i = 0; i < r->n_edges && i < *n_out; i++) {
            const cx_edge *e = &tree->edges[r->first_edge + i];
            out[i].visits += e->visits;
            out[i].avail += e->avail;
            out[i].reward += e->reward;
        }
    }
}

long cx_searcher_run(cx_searcher *s, const cx_state *obs, const cx_cardset *cs,
                     long iterations, double seconds, long visits,
                     cx_root_stat *out, int *n_out) {
    job jobs[CX_MAX_THREADS];
    pthread_t ids[CX_MAX_THREADS];
    int started[CX_MAX_THREADS] = {0};
    double deadline = seconds > 0 ? cx_now() + seconds : 0;
    long total = 0;
    for (int t = 0; t < s->threads; t++) prepare_tree(s, t, obs);
    if (visits > 0) {
        long needed = iterations_for_visits(s, visits);
        if (needed == 0) {              /* the kept trees answer */
            merge_roots(s, s->threads, out, n_out);
            return 0;
        }
        if (iterations <= 0 || needed < iterations) iterations = needed;
    }
    /* a budget smaller than the threads leaves the extra threads idle */
    int active = iterations > 0 && iterations < s->threads ? (int)iterations : s->threads;
    for (int t = active; t < s->threads; t++) cx_tree_clear(&s->trees[t]);
    for (int t = 0; t < active; t++) {
        long share = iterations / active + (t < iterations % active);
        jobs[t] = (job){&s->trees[t], obs, cs, &s->params,
                        iterations > 0 ? share : 0, deadline, &s->stop, 0};
    }
    for (int t = 1; t < active; t++)
        started[t] = pthread_create(&ids[t], NULL, run_job, &jobs[t]) == 0;
    run_job(&jobs[0]);
    for (int t = 1; t < active; t++) {
        if (started[t]) pthread_join(ids[t], NULL);
        else run_job(&jobs[t]);   /* no thread to be had: run it here */
    }
    for (int t = 0; t < active; t++) total += jobs[t].done;
    merge_roots(s, active, out, n_out);
    return total;
}

void cx_searcher_set_stop(cx_searcher *s, int stop) {
    __atomic_store_n(&s->stop, stop, __ATOMIC_RELAXED);
}

void cx_searcher_usage(const cx_searcher *s, long *nodes, long *edges,
                       long *bytes) {
    *nodes = *edges = 0;
    for (int t = 0; t < s->threads; t++) {
        *nodes += s->trees[t].n_nodes;
        *edges += s->trees[t].n_edges;
    }
    *bytes = *nodes * (long)sizeof(cx_node) + *edges * (long)sizeof(cx_edge);
}
