/* cx_greedy.c -- depth-first search over the moves of one turn. */
#include <stdlib.h>
#include <string.h>
#include "cx_internal.h"
#include "cx_greedy.h"

/* A small preference for turns that draw cards: when nothing else
 * differs, taking from the Mission keeps the game moving instead of letting
 * two cautious bots pass turns until the round safeguard. */
#define PROGRESS_PER_CARD 0.2f

/* A game still going after OVERDUE_FROM rounds (most end by round 20) is
 * stuck: typically every board is full, the Mission shows only animals,
 * and each way out (protecting an animal to free a space) costs points
 * that a one-turn horizon never sees repaid. From then on every card drawn
 * (the draw pile running out ends the game) and, half as much, every free
 * space (where the next card drawn goes) counts for more each round, until
 * leaving the deadlock is worth its price and the game goes on to a real
 * end instead of the round safeguard. Housing a card must gain on balance,
 * hence the half. */
#define FREE_SPACE_URGENCY 0.5f
#define OVERDUE_FROM 20
#define OVERDUE_PER_ROUND 0.25f

static float urgency(const cx_state *s) {
    return s->rounds > OVERDUE_FROM ? OVERDUE_PER_ROUND * (float)(s->rounds - OVERDUE_FROM)
                                    : 0.0f;
}

float cx_greedy_value(const cx_state *s, const cx_cardset *cs, int seat) {
    float scores[CX_MAX_PLAYERS], best_other = -1e9f;
    cx_estimate_scores(s, cs, scores);
    for (int q = 0; q < s->n_players; q++)
        if (q != seat && scores[q] > best_other) best_other = scores[q];
    const cx_player *pl = &s->players[seat];
    float free = (float)cx_room(pl, cs);
    return scores[seat] - best_other + PROGRESS_PER_CARD * (float)s->deck_pos
         + urgency(s) * ((float)s->deck_pos + FREE_SPACE_URGENCY * free);
}

typedef struct {
    const cx_cardset *cs;
    int seat;
    int budget;          /* positions left to search */
    int searched;
    uint64_t *seen;      /* open-addressing set of public hashes */
    int seen_mask;
    float best;
} turn_search;

/* 1 if the hash was new (and is now recorded) */
static int first_visit(turn_search *ts, uint64_t h) {
    h |= 1;   /* 0 marks an empty slot */
    for (int i = (int)(h & (uint64_t)ts->seen_mask);; i = (i + 1) & ts->seen_mask) {
        if (ts->seen[i] == h) return 0;
        if (ts->seen[i] == 0) { ts->seen[i] = h; return 1; }
    }
}

/* The moves worth trying: shuffling tokens between animals or back to the
 * pool only reorders what an assignment already did, so the search leaves
 * `move` and `unassign` out unless nothing else is legal -- or the game is
 * overdue, when emptying an animal so that it can be protected may be the
 * only way to free a space. */
static int candidate_moves(const cx_state *s, const cx_cardset *cs,
                           cx_action *moves) {
    int n = cx_legal_actions(s, cs, moves), kept = 0;
    if (urgency(s) > 0.0f) return n;
    for (int i = 0; i < n; i++) {
        int kind = CX_ACTION_KIND(moves[i]);
        if (kind != CX_A_MOVE && kind != CX_A_UNASSIGN) moves[kept++] = moves[i];
    }
    return kept ? kept : n;
}

/* best value reachable from s by the seat's own moves */
static float best_end(turn_search *ts, const cx_state *s) {
    if (cx_is_over(s) || s->current != ts->seat || s->phase == CX_PH_REFILL)
        return cx_greedy_value(s, ts->cs, ts->seat);
    cx_action moves[CX_MAX_ACTIONS];
    int n = candidate_moves(s, ts->cs, moves);
    float best = -1e9f;
    for (int i = 0; i < n; i++) {
        cx_state next = *s;
        cx_apply(&next, ts->cs, moves[i]);
        if (ts->budget <= 0) {
            float v = cx_greedy_value(&next, ts->cs, ts->seat);
            if (v > best) best = v;
            continue;
        }
        if (next.current == ts->seat && !cx_is_over(&next) &&
            !first_visit(ts, cx_public_hash(&next)))
            continue;
        ts->budget--;
        ts->searched++;
        float v = best_end(ts, &next);
        if (v > best) best = v;
    }
    return best;
}

cx_action cx_greedy_choose(const cx_state *s, const cx_cardset *cs,
                           int max_nodes, int *searched) {
    cx_action moves[CX_MAX_ACTIONS];
    int n = candidate_moves(s, cs, moves);
    if (max_nodes > CX_GREEDY_MAX_NODES) max_nodes = CX_GREEDY_MAX_NODES;
    int slots = 1024;   /* twice the budget: the open-addressing set stays sparse */
    while (slots < 2 * max_nodes) slots <<= 1;
    turn_search ts = {cs, s->current, max_nodes, 0,
                      calloc((size_t)slots, sizeof(uint64_t)), slots - 1, 0};
    cx_action best_move = moves[0];
    float best = -1e9f;
    for (int i = 0; i < n && ts.seen; i++) {
        cx_state next = *s;
        cx_apply(&next, cs, moves[i]);
        float v = best_end(&ts, &next);
        if (v > best + 1e-6f) { best = v; best_move = moves[i]; }
    }
    free(ts.seen);
    if (searched) *searched = ts.searched;
    return best_move;
}
