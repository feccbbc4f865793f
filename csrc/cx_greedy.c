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

/* The key of a position in the set of positions seen. The search hides the
 * draw pile of its root once and no move within a turn touches the pile, so
 * every position searched is already hidden: its key is a hash of its bytes
 * as they are (no copy, no hiding, unlike cx_public_hash). Four independent
 * lanes of multiply-xorshift let the processor hash four words at a time;
 * each step is a bijection of its lane, so two positions that differ in one
 * word always get different lanes. Positions are told apart as with the
 * public hash (equal positions, equal keys; different ones collide with a
 * chance of 2^-64), so the search and its moves are unchanged: the choices
 * of the build before are in tests/golden/greedy-choices.json. */
static inline uint64_t key_step(uint64_t lane, const uint8_t *bytes) {
    uint64_t w;
    memcpy(&w, bytes, 8);
    uint64_t h = (lane ^ w) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
}

static uint64_t position_key(const cx_state *s) {
    const uint8_t *bytes = (const uint8_t *)s;
    uint64_t a = 0x243F6A8885A308D3ULL, b = 0x13198A2E03707344ULL,
             c = 0xA4093822299F31D0ULL, d = 0x082EFA98EC4E6C89ULL;
    size_t i = 0;
    for (; i + 32 <= sizeof *s; i += 32) {
        a = key_step(a, bytes + i);
        b = key_step(b, bytes + i + 8);
        c = key_step(c, bytes + i + 16);
        d = key_step(d, bytes + i + 24);
    }
    for (; i + 8 <= sizeof *s; i += 8) a = key_step(a, bytes + i);
    uint64_t tail = 0;
    memcpy(&tail, bytes + i, sizeof *s - i);
    uint64_t h = (a ^ tail) * 0xFF51AFD7ED558CCDULL;
    h = (h ^ (h >> 33) ^ b) * 0xC4CEB9FE1A85EC53ULL;
    h = (h ^ (h >> 33) ^ c) * 0xFF51AFD7ED558CCDULL;
    h = (h ^ (h >> 33) ^ d) * 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 33);
}

/* The set of positions seen: open addressing over their keys (0 marks an
 * empty slot). It starts small (most turns search a few hundred positions)
 * and doubles at half full, so a decision no longer clears a table sized
 * for the whole budget; it holds at most `cap` keys, then stops recording. */
typedef struct {
    uint64_t *keys;
    int mask, count, cap;
} key_set;

#define FIRST_SLOTS 1024

/* the slot holding `key`, or the empty slot where it would go */
static int set_slot(const key_set *t, uint64_t key) {
    int i = (int)(key & (uint64_t)t->mask);
    while (t->keys[i] != 0 && t->keys[i] != key) i = (i + 1) & t->mask;
    return i;
}

static int set_grow(key_set *t) {
    key_set big = {calloc(2 * ((size_t)t->mask + 1), sizeof(uint64_t)),
                   2 * t->mask + 1, t->count, t->cap};
    if (!big.keys) return 0;
    for (int i = 0; i <= t->mask; i++)
        if (t->keys[i]) big.keys[set_slot(&big, t->keys[i])] = t->keys[i];
    free(t->keys);
    *t = big;
    return 1;
}

/* 1 if the key was not in the set (it is now, if there was room) */
static int set_add(key_set *t, uint64_t key) {
    int i = set_slot(t, key);
    if (t->keys[i] == key) return 0;
    if (t->count >= t->cap) return 1;
    if (2 * (t->count + 1) > t->mask + 1 && set_grow(t)) i = set_slot(t, key);
    else if (t->count + 1 > t->mask) return 1;    /* no memory to grow: keep a free slot */
    t->keys[i] = key;
    t->count++;
    return 1;
}

typedef struct {
    const cx_cardset *cs;
    int seat;
    int budget;          /* positions left to search */
    int searched;
    key_set seen;        /* positions of the seat's turn already searched */
} turn_search;

/* 1 if the position was not searched yet (it is now recorded) */
static int first_visit(turn_search *ts, const cx_state *s) {
    return set_add(&ts->seen, position_key(s) | 1);
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
            !first_visit(ts, &next))
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
    cx_state root = *s;
    cx_hide_deck(&root);     /* so that every position searched is hidden */
    cx_action moves[CX_MAX_ACTIONS];
    int n = candidate_moves(&root, cs, moves);
    if (max_nodes > CX_GREEDY_MAX_NODES) max_nodes = CX_GREEDY_MAX_NODES;
    /* every position searched is recorded: the budget bounds them */
    turn_search ts = {cs, root.current, max_nodes, 0,
                      {calloc(FIRST_SLOTS, sizeof(uint64_t)), FIRST_SLOTS - 1, 0, max_nodes}};
    cx_action best_move = moves[0];
    float best = -1e9f;
    for (int i = 0; i < n && ts.seen.keys; i++) {
        cx_state next = root;
        cx_apply(&next, cs, moves[i]);
        float v = best_end(&ts, &next);
        if (v > best + 1e-6f) { best = v; best_move = moves[i]; }
    }
    free(ts.seen.keys);
    if (searched) *searched = ts.searched;
    return best_move;
}
