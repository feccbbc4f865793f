/* cx_internal.h -- small helpers shared by the rules files; not exported. */
#ifndef CX_INTERNAL_H
#define CX_INTERNAL_H

#include "cx_rules.h"

#define CX_CUR(s) (&(s)->players[(s)->current])

static inline int cx_pool_spaces(const uint8_t *pool) {
    return (pool[0] + 2) / 3 + (pool[1] + 2) / 3 + (pool[2] + 2) / 3 +
           (pool[3] + 2) / 3;
}

static inline int cx_player_spaces(const cx_player *p) {
    return p->n_board + cx_pool_spaces(p->pool);
}

static inline int cx_player_capacity(const cx_player *p, const cx_cardset *cs) {
    return cs->center_spaces + p->extra_spaces;
}

/* free spaces of the Conservation Center (negative while over capacity) */
static inline int cx_room(const cx_player *p, const cx_cardset *cs) {
    return cx_player_capacity(p, cs) - cx_player_spaces(p);
}

/* would one more token of colour x in the pool still fit in `room`? */
static inline int cx_fits_one_more(const cx_player *p, int x, int room) {
    return room >= (p->pool[x] % 3 == 0 ? 1 : 0);
}

static inline int cx_player_capture_limit(const cx_player *p,
                                          const cx_cardset *cs) {
    int limit = cs->capture_limit - p->track / 2 + p->capture_bonus;
    return limit < 0 ? 0 : limit;
}

static inline int cx_slot_needs(const cx_slot *sl, const cx_cardset *cs, int x) {
    return sl->on[x] < cs->cards[sl->card].needs[x];
}

static inline int cx_slot_complete(const cx_slot *sl, const cx_cardset *cs) {
    const uint8_t *needs = cs->cards[sl->card].needs;
    for (int x = 0; x < CX_NUM_TOKENS; x++)
        if (sl->on[x] != needs[x]) return 0;
    return 1;
}

static inline int cx_slot_empty(const cx_slot *sl) {
    return (sl->on[0] | sl->on[1] | sl->on[2] | sl->on[3] | sl->on[4]) == 0;
}

static inline int cx_slot_of(const cx_player *p, int card) {
    for (int i = 0; i < p->n_board; i++)
        if (p->board[i].card == card) return i;
    return -1;
}

/* earliest revealed Mission card of caretaker colour x, or -1 */
static inline int cx_mission_caretaker(const cx_state *s, const cx_cardset *cs,
                                       int x) {
    for (int i = 0; i < s->n_mission; i++) {
        const cx_card *c = &cs->cards[s->mission[i]];
        if (!c->is_animal && c->colour == x) return i;
    }
    return -1;
}

/* take the top card of the draw pile; its old slot is zeroed so that the
 * dealt part of deck[] never carries information (and states compare as
 * bytes after a JSON round trip) */
static inline uint8_t cx_deal_one(cx_state *s) {
    uint8_t card = s->deck[s->deck_pos];
    s->deck[s->deck_pos++] = 0;
    return card;
}

/* can a trade x -> y be made now, and at what cost in x (0: not legal)? */
int cx_trade_cost(const cx_state *s, const cx_cardset *cs, int x, int y);
/* would the immediate effect of this card change anything now? */
int cx_effect_matters(const cx_state *s, const cx_cardset *cs, int card);
/* may Mission caretakers of colour x be recruited, ignoring capacity? */
static inline int cx_can_recruit_colour(const cx_state *s, const cx_cardset *cs,
                                        int x) {
    return s->supply[x] > 0 && cx_mission_caretaker(s, cs, x) >= 0;
}



/* cx_apply.c: a released animal's permanent effect joins the seat's own */
void cx_own_permanent_effect(cx_player *p, const cx_card *c);
/* cx_apply.c: refill the Mission board to five; the last card revealed
 * triggers the end */
void cx_refill_mission(cx_state *s);
/* cx_apply.c: the refill becomes chance decisions (opening: the first deal
 * of the game, after which the first seat's turn begins) */
void cx_enter_refill(cx_state *s, int opening);
#endif
