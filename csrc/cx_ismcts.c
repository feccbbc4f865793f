/* cx_ismcts.c -- the search loop of cx_ismcts.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cx_internal.h"
#include "cx_ismcts.h"

#define MAX_PATH 4096
#define EDGES_PER_NODE 4   /* edge pool size relative to the node pool (about
                              2 edges are used per node in practice) */

double cx_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cx_tree_init(cx_tree *t, int max_nodes, uint64_t seed) {
    memset(t, 0, sizeof *t);
    if (max_nodes > CX_MAX_TREE_NODES) return 0;
    t->cap_nodes = max_nodes < 2 ? 2 : max_nodes;   /* a root and a child */
    /* room for the widest root, whatever the node cap: a search always
     * has every legal move of its root to choose from */
    t->cap_edges = t->cap_nodes * EDGES_PER_NODE;
    if (t->cap_edges < CX_MAX_ACTIONS) t->cap_edges = CX_MAX_ACTIONS;
    t->nodes = malloc(sizeof(cx_node) * (size_t)t->cap_nodes);
    t->edges = malloc(sizeof(cx_edge) * (size_t)t->cap_edges);
    cx_rng_seed(&t->rng, seed);
    t->root = -1;
    if (!t->nodes || !t->edges) { cx_tree_free(t); return 0; }
    return 1;
}

void cx_tree_free(cx_tree *t) {
    free(t->nodes);
    free(t->edges);
    t->nodes = NULL;
    t->edges = NULL;
}

void cx_tree_clear(cx_tree *t) {
    t->n_nodes = t->n_edges = 0;
    t->root = -1;
    t->full = 0;
}

static int new_node(cx_tree *t, const cx_state *s, uint64_t reveal) {
    if (t->n_nodes >= t->cap_nodes) { t->full = 1; return -1; }
    int id = t->n_nodes++;
    cx_node *nd = &t->nodes[id];
    nd->reveal = reveal;
    nd->hash = cx_public_hash(s);
    nd->first_edge = -1;
    nd->next_outcome = -1;
    nd->visits = 0;
    nd->n_edges = 0;
    nd->player = s->current;
    nd->terminal = (uint8_t)cx_is_over(s);
    return id;
}

/* give a node one edge per legal move (all moves are known at once: they
 * depend only on the public position) */
static int expand(cx_tree *t, int node, const cx_action *moves, int n) {
    if (t->n_edges + n > t->cap_edges) { t->full = 1; return 0; }
    cx_node *nd = &t->nodes[node];
    nd->first_edge = t->n_edges;
    nd->n_edges = (uint16_t)n;
    for (int i = 0; i < n; i++) {
        cx_edge *e = &t->edges[t->n_edges++];
        e->action = moves[i];
        e->child = -1;
        e->visits = e->avail = 0;
        e->reward = 0.0;
        e->prior = 0.0f;
    }
    return 1;
}

/* The prior of each move of a node just expanded: the cut-off's estimate
 * (learned or hand-written) for the seat to move, of the position right
 * after the move in the determinization `d`, less its mean over the
 * node's moves. It costs one evaluation per move, once per node. */
static void set_priors(cx_tree *t, int node, const cx_state *d,
                       const cx_cardset *cs, const cx_search_params *prm) {
    cx_node *nd = &t->nodes[node];
    float reward[CX_MAX_PLAYERS], mean = 0.0f;
    for (int i = 0; i < nd->n_edges; i++) {
        cx_edge *e = &t->edges[nd->first_edge + i];
        cx_state after = *d;
        cx_apply(&after, cs, e->action);
        cx_cutoff_reward(prm->learned, &after, cs, prm->reward_kind,
                         prm->margin_weight, reward);
        e->prior = reward[nd->player];
        mean += e->prior / nd->n_edges;
    }
    for (int i = 0; i < nd->n_edges; i++) t->edges[nd->first_edge + i].prior -= mean;
}

/* UCB with `prior` virtual visits at each edge's prior value: a new node
 * plays its best-looking move first and an edge's own results take over
 * as they come, so the search need not try every move of every node once
 * before it can prefer one. The evaluation right after a move and the
 * results of rollouts from it are on different scales (a rollout runs
 * `rollout_depth` turns on), so the priors are taken relative to their
 * mean over the node's moves (set_priors) and added to the node's mean
 * result so far: the virtual visits order the moves without pulling
 * every mean of the node up or down. */
static int select_with_prior(cx_edge *e, int n, const uint8_t *legal, double c,
                             double prior) {
    int best = -1;
    double best_value = -1e300, sum = 0.0, seen_all = 0.0;
    for (int i = 0; i < n; i++)
        if (legal[i]) { sum += e[i].reward; seen_all += e[i].visits; }
    double base = seen_all > 0 ? sum / seen_all : 0.5;
    for (int i = 0; i < n; i++) {
        if (!legal[i]) continue;
        e[i].avail++;
        double seen = e[i].visits + prior;
        double mean = (e[i].reward + prior * (base + e[i].prior)) / seen;
        double value = mean + c * sqrt(log((double)e[i].avail) / seen);
        if (value > best_value) { best_value = value; best = i; }
    }
    return best;
}

/* Count availability and pick a move: an untried one at random, else the
 * best by UCB over availability counts (with a prior weight: UCB over
 * virtual visits, select_with_prior). `legal` marks the edges whose move
 * is legal in this determinization. */
static int select_edge(cx_tree *t, int node, const uint8_t *legal, double c,
                       double prior) {
    cx_node *nd = &t->nodes[node];
    cx_edge *e = &t->edges[nd->first_edge];
    int untried = 0, best = -1;
    double best_value = -1e300;
    if (prior > 0) return select_with_prior(e, nd->n_edges, legal, c, prior);
    for (int i = 0; i < nd->n_edges; i++) {
        if (!legal[i]) continue;
        e[i].avail++;
        if (e[i].visits == 0) {
            untried++;
            if (cx_rng_below(&t->rng, (uint32_t)untried) == 0) best = i;
        }
    }
    if (untried) return best;
    for (int i = 0; i < nd->n_edges; i++) {
        if (!legal[i]) continue;
        double mean = e[i].reward / e[i].visits;
        double value = mean + c * sqrt(log((double)e[i].avail) / e[i].visits);
        if (value > best_value) { best_value = value; best = i; }
    }
    return best;
}

/* Mark which edges of a node are legal in this determinization. In Coexist
 * the legal moves depend on the public position only, so they are always
 * the node's edges, in the same order; the general case is kept so that
 * availability counts stay right if that ever changes. A legal move the
 * node has no edge for is not searched. */
static int mark_legal(const cx_tree *t, int node, const cx_action *moves, int n,
                      uint8_t *legal) {
    const cx_node *nd = &t->nodes[node];
    const cx_edge *e = &t->edges[nd->first_edge];
    int same = n == nd->n_edges;
    for (int i = 0; same && i < n; i++) same = moves[i] == e[i].action;
    if (same) { memset(legal, 1, (size_t)n); return n; }
    int found = 0;
    for (int i = 0; i < nd->n_edges; i++) {
        legal[i] = 0;
        for (int j = 0; j < n && !legal[i]; j++) legal[i] = moves[j] == e[i].action;
        found += legal[i];
    }
    return found;
}

/* the cards a move revealed, packed (the refill appends to the Mission) */
static uint64_t reveal_key(const cx_state *s, int revealed) {
    uint64_t key = 0;
    for (int i = s->n_mission - revealed; i < s->n_mission; i++)
        key = (key << 8) | (uint64_t)(s->mission[i] + 1);
    return key;
}

static int find_outcome(const cx_tree *t, int first, uint64_t reveal) {
    for (int id = first; id >= 0; id = t->nodes[id].next_outcome)
        if (t->nodes[id].reveal == reveal) return id;
    return -1;
}

/* ---- progressive widening of chance outcomes ----------------------------
 *
 * A refill of one card has some 40-70 outcomes, of two cards thousands, and
 * each outcome is a child of its own: without a bound every iteration that
 * crosses a turn's end makes a new node, and the tree never grows past the
 * searcher's own turn. With `widen`, a revealing move keeps at most
 * ceil(widen * sqrt(visits)) outcomes; past that, an iteration that drew a
 * new one is dealt the least visited outcome kept instead, so the kept
 * outcomes (each first drawn from the true distribution, all of one move's
 * reveals equally likely) gather enough visits for the opponents' replies
 * to be searched. The determinization is rewritten so the game goes on
 * consistently: the kept cards come onto the Mission and the cards drawn
 * go back into the hidden pile, whose order stays uniform. */

static int outcome_count(const cx_tree *t, int first) {
    int n = 0;
    for (int id = first; id >= 0; id = t->nodes[id].next_outcome) n++;
    return n;
}

static int least_visited_outcome(const cx_tree *t, int first) {
    int best = first;
    for (int id = first; id >= 0; id = t->nodes[id].next_outcome)
        if (t->nodes[id].visits < t->nodes[best].visits) best = id;
    return best;
}

/* where `card` is among the cards revealed from mission index `from` on,
 * or in the hidden pile (returned as CX_MISSION_SIZE + its deck index);
 * -1 if neither */
static int find_card(const cx_state *d, int from, int card) {
    for (int m = from; m < d->n_mission; m++)
        if (d->mission[m] == card) return m;
    for (int k = d->deck_pos; k < d->deck_len; k++)
        if (d->deck[k] == card) return CX_MISSION_SIZE + k;
    return -1;
}

/* Deal the outcome `reveal` (packed as reveal_key packs) in place of the
 * `revealed` cards `d` just revealed. Returns 0, leaving `d` as it was,
 * when an outcome card is not to be had (a different number of cards, or
 * one seen already). */
static int deal_outcome(cx_state *d, uint64_t reveal, int revealed) {
    int first = d->n_mission - revealed, target[CX_MISSION_SIZE];
    for (int j = revealed - 1; j >= 0; j--, reveal >>= 8) {
        target[j] = (int)(reveal & 0xff) - 1;
        if (target[j] < 0 || find_card(d, first, target[j]) < 0) return 0;
    }
    if (reveal) return 0;
    for (int j = 0; j < revealed; j++) {
        int m = first + j, at = find_card(d, m, target[j]);
        uint8_t shown = d->mission[m];
        if (at == m) continue;
        if (at < CX_MISSION_SIZE) {
            d->mission[at] = shown;              /* both revealed: swap */
        } else {
            d->deck[at - CX_MISSION_SIZE] = shown;   /* back into the pile */
            d->loc[shown] = CX_LOC_DECK;
            d->loc[target[j]] = CX_LOC_MISSION;
        }
        d->mission[m] = (uint8_t)target[j];
    }
    return 1;
}

/* With widening on and the move's outcomes at their bound, replace a new
 * outcome drawn into `d` by the least visited kept one. */
static void widen_outcomes(const cx_tree *t, int ei, cx_state *d, int revealed,
                           float widen) {
    const cx_edge *e = &t->edges[ei];
    if (widen <= 0 || !revealed || revealed > CX_MISSION_SIZE || e->child < 0)
        return;
    if (find_outcome(t, e->child, reveal_key(d, revealed)) >= 0) return;
    double bound = ceil((double)widen * sqrt((double)e->visits + 1.0));
    if (outcome_count(t, e->child) < bound) return;
    deal_outcome(d, t->nodes[least_visited_outcome(t, e->child)].reveal, revealed);
}

/* follow edge `ei` of `node` after its move was applied to `d`; returns the
 * child (creating it if new: *created = 1) or -1 when the pool is full */
static int child_after(cx_tree *t, int ei, const cx_state *d, int revealed,
                       int *created) {
    cx_edge *e = &t->edges[ei];
    uint64_t reveal = revealed ? reveal_key(d, revealed) : 0;
    int child = find_outcome(t, e->child, reveal);
    *created = 0;
    if (child >= 0) return child;
    child = new_node(t, d, reveal);
    if (child < 0) return -1;
    t->nodes[child].next_outcome = e->child;
    t->edges[ei].child = child;
    *created = 1;
    return child;
}

/* The round the game can be expected to end in: at the end of this one
 * once the end is triggered, else when the draw pile runs out, taking one
 * card a turn (the other trigger, a 5th release, can only come sooner).
 * It depends on the public position only, so every node has one. */
static float expected_end(const cx_state *s) {
    float left = s->end_triggered || cx_is_over(s) ? 0.0f
               : (float)(s->deck_len - s->deck_pos) / (float)s->n_players;
    return (float)s->rounds + left;
}

/* What a search holds constant while it backs rewards up. */
typedef struct {
    const cx_search_params *prm;
    double log_discount;  /* ln(discount): discount^k = exp(k ln discount) */
} run_consts;

static run_consts make_consts(const cx_search_params *prm) {
    run_consts rc = {prm, prm->discount < 1.0f ? log((double)prm->discount) : 0.0};
    return rc;
}

/* A good result sooner is worth more than the same result later. Without
 * this a seat sure of winning finds every move equally good, and one whose
 * lead is safe while nothing happens marks time until the round safeguard:
 * each turn "wait, then play on" looks as good as "play on now".
 *
 * Each node measures the delay from its own time: a result whose
 * position expects the end k rounds after the end expected at the node
 * counts discount^k there. So a node's statistics mean the same whichever
 * root the search started from (a subtree kept from an earlier search
 * holds what a fresh search of it would). The delay is counted at the
 * evaluated position, so a rollout cut off before the end still tells a
 * game moving on from one marking time; it is negative for a line that
 * moves on faster than one card a turn (not capped: only differences
 * between moves matter). A game ended by the safeguard is worth 0 to every
 * seat however far off it is: no seat may play for it.
 *
 * The discount pulls every reward toward 0, so every seat, one behind
 * too, prefers the lines that move on. Pulled toward the neutral reward
 * instead (a draw), a seat behind preferred the lines that end later.
 * Against the discount before this one (toward 0, from the search root),
 * 200 games at 1,000 iterations a decision: toward a draw from each node
 * 29.5% (-150 Elo [-195, -109]), toward a draw from the root 38.8% (-79
 * [-120, -40]), no discount 33.5% (-118 [-172, -70]), toward 0 from each
 * node (this one) 48.0% (-14 [-50, +24]). */
static void backup(cx_tree *t, const int *path_node, const int *path_edge,
                   const float *path_end, int depth, int reached,
                   const cx_state *leaf, const float *reward,
                   const run_consts *rc) {
    int discounted = rc->log_discount != 0.0 && !cx_ended_by_safeguard(leaf);
    float leaf_end = expected_end(leaf), factor_end = leaf_end;
    double factor = 1.0;
    for (int k = depth - 1; k >= 0; k--) {
        if (discounted && path_end[k] != factor_end) {
            /* constant within a turn: recomputed at turn boundaries only */
            factor_end = path_end[k];
            factor = exp((double)(leaf_end - factor_end) * rc->log_discount);
        }
        cx_node *nd = &t->nodes[path_node[k]];
        cx_edge *e = &t->edges[path_edge[k]];
        double r = reward[nd->player];
        e->visits++;
        e->reward += r * factor;
        nd->visits++;
    }
    if (reached >= 0) t->nodes[reached].visits++;
}

static void iterate(cx_tree *t, const cx_state *obs, const cx_cardset *cs,
                    const run_consts *rc) {
    int path_node[MAX_PATH], path_edge[MAX_PATH];
    float path_end[MAX_PATH];
    cx_action moves[CX_MAX_ACTIONS];
    uint8_t legal[CX_MAX_ACTIONS];
    const cx_search_params *prm = rc->prm;
    cx_state d = *obs;
    int depth = 0, node = t->root, reached = -1;
    cx_determinize(&d, &t->rng);
    while (!cx_is_over(&d) && depth < MAX_PATH) {
        int n = cx_legal_actions(&d, cs, moves);
        if (t->nodes[node].n_edges == 0) {
            if (!expand(t, node, moves, n)) break;
            if (prm->prior > 0) set_priors(t, node, &d, cs, prm);
        }
        if (!mark_legal(t, node, moves, n, legal)) break;
        int i = select_edge(t, node, legal, prm->c, prm->prior);
        int ei = t->nodes[node].first_edge + i;
        int dealt_before = d.deck_pos;
        path_node[depth] = node;
        path_edge[depth] = ei;
        path_end[depth++] = expected_end(&d);
        cx_apply(&d, cs, t->edges[ei].action);
        int revealed = d.deck_pos - dealt_before;
        widen_outcomes(t, ei, &d, revealed, prm->widen);
        int created, child = child_after(t, ei, &d, revealed, &created);
        if (child < 0) break;
        node = child;
        if (created) break;
    }
    /* the node the walk stopped in, if it is not on the path already */
    if (depth == 0 || node != path_node[depth - 1]) reached = node;
    float reward[CX_MAX_PLAYERS];
    cx_rollout(&d, cs, prm->policy, prm->policy_weights, prm->rollout_depth, &t->rng);
    cx_cutoff_reward(prm->learned, &d, cs, prm->reward_kind, prm->margin_weight, reward);
    backup(t, path_node, path_edge, path_end, depth, reached, &d, reward, rc);
}

/* A root with its moves: a kept root that the full pool left unexpanded is
 * dropped for a fresh tree, where the widest move list always fits. A new
 * root's priors come from a determinization of its own. */
static void ensure_root(cx_tree *t, const cx_state *obs, const cx_cardset *cs,
                        const cx_search_params *prm) {
    cx_action moves[CX_MAX_ACTIONS];
    int n = cx_legal_actions(obs, cs, moves);
    if (t->root >= 0 && t->nodes[t->root].n_edges > 0) return;
    if (t->root < 0 || !expand(t, t->root, moves, n)) {
        cx_tree_clear(t);
        t->root = new_node(t, obs, 0);
        expand(t, t->root, moves, n);
    }
    if (prm->prior > 0) {
        cx_state d = *obs;
        cx_determinize(&d, &t->rng);
        set_priors(t, t->root, &d, cs, prm);
    }
}

static int stop_requested(const int *stop) {
    return stop && __atomic_load_n(stop, __ATOMIC_RELAXED);
}

long cx_search(cx_tree *t, const cx_state *obs, const cx_cardset *cs,
               const cx_search_params *params, long iterations,
               double deadline, const int *stop) {
    long done = 0;
    /* Search on a private copy of the tree header: the headers of the
     * threads' trees sit side by side in cx_searcher, and the generator and
     * pool counters written every iteration would otherwise share cache
     * lines between threads (false sharing). */
    cx_tree local = *t;
    run_consts rc = make_consts(params);
    ensure_root(&local, obs, cs, params);
    while (done == 0 || ((iterations <= 0 || done < iterations) &&
                         (deadline <= 0 || cx_now() < deadline) &&
                         !stop_requested(stop))) {
        iterate(&local, obs, cs, &rc);
        done++;
    }
    *t = local;
    return done;
}

/* ---- tree reuse --------------------------------------------------------- */

/* copy the subtree under `from` of `src` into the empty tree `dst` */
static void copy_subtree(const cx_tree *src, cx_tree *dst, int from) {
    int *stack = malloc(sizeof(int) * 2 * (size_t)src->n_nodes + 2);
    int top = 0;
    dst->nodes[0] = src->nodes[from];
    dst->nodes[0].next_outcome = -1;
    dst->n_nodes = 1;
    stack[top++] = from;
    stack[top++] = 0;
    while (top) {
        int to = stack[--top], old = stack[--top];
        cx_node *nd = &dst->nodes[to];
        const cx_node *on = &src->nodes[old];
        if (on->n_edges == 0) continue;
        nd->first_edge = dst->n_edges;
        for (int i = 0; i < on->n_edges; i++) {
            cx_edge e = src->edges[on->first_edge + i];
            int prev = -1, old_child = e.child;
            e.child = -1;
            dst->edges[dst->n_edges] = e;
            for (int c = old_child; c >= 0; c = src->nodes[c].next_outcome) {
                int id = dst->n_nodes++;
                dst->nodes[id] = src->nodes[c];
                dst->nodes[id].next_outcome = -1;
                if (prev < 0) dst->edges[dst->n_edges].child = id;
                else dst->nodes[prev].next_outcome = id;
                prev = id;
                stack[top++] = c;
                stack[top++] = id;
            }
            dst->n_edges++;
        }
    }
    free(stack);
}

int cx_tree_reuse(cx_tree *t, const cx_state *obs) {
    uint64_t hash = cx_public_hash(obs);
    int found = -1;
    if (t->root < 0) return 0;
    for (int id = 0; id < t->n_nodes && found < 0; id++)
        if (t->nodes[id].hash == hash && t->nodes[id].player == obs->current)
            found = id;
    if (found < 0) { cx_tree_clear(t); return 0; }
    if (found == t->root) return 1;
    cx_tree fresh = *t;
    fresh.nodes = malloc(sizeof(cx_node) * (size_t)t->cap_nodes);
    fresh.edges = malloc(sizeof(cx_edge) * (size_t)t->cap_edges);
    if (!fresh.nodes || !fresh.edges) {
        free(fresh.nodes); free(fresh.edges);
        cx_tree_clear(t);
        return 0;
    }
    fresh.n_nodes = fresh.n_edges = 0;
    copy_subtree(t, &fresh, found);
    fresh.root = 0;
    fresh.full = 0;
    cx_tree_free(t);
    *t = fresh;
    return 1;
}

/* the outcome of a reveal that the most iterations reached */
static int most_visited_outcome(const cx_tree *t, int first) {
    int best = first;
    for (int id = first; id >= 0; id = t->nodes[id].next_outcome)
        if (t->nodes[id].visits > t->nodes[best].visits) best = id;
    return best;
}

int cx_tree_principal_line(const cx_tree *t, cx_action *out, int max_len) {
    int n = 0, node = t->root;
    while (node >= 0 && n < max_len) {
        const cx_node *nd = &t->nodes[node];
        int best = -1;
        for (int i = 0; i < nd->n_edges; i++) {
            const cx_edge *e = &t->edges[nd->first_edge + i];
            if (e->visits && (best < 0 || e->visits > t->edges[best].visits))
                best = nd->first_edge + i;
        }
        if (best < 0) break;
        out[n++] = t->edges[best].action;
        node = most_visited_outcome(t, t->edges[best].child);
    }
    return n;
}
