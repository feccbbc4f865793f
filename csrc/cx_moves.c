/* cx_moves.c -- legal actions of the decision in front of the current seat.
 *
 * The list comes out in ascending order of the action integers (the layout
 * of cx_types.h): by kind, then colour Y, colour X, card B, card A. Cards
 * are walked in card-index order, not board or Mission order, to get there.
 * Two principles of RULES.md shape the list: no two listed moves have the
 * same effect, and a move that would gain nothing is not listed. */
#include <string.h>
#include "cx_internal.h"

#define PUSH(act) (out[n++] = (act))

/* spaces that pool colour x takes with `count` tokens */
static inline int colour_spaces(int count) { return (count + 2) / 3; }

/* cost in x of a trade x -> y (0: not legal), given the free spaces */
static int trade_cost(const cx_state *s, int x, int y, int room) {
    const cx_player *p = CX_CUR(s);
    int cost;
    if (x == y || s->supply[y] == 0) return 0;
    if (y > x) {
        uint8_t crossed = (uint8_t)(((1u << y) - 1) & ~((1u << x) - 1));
        if (crossed & s->train_down) return 0;
        if (p->one_to_one[x] & (1u << y)) cost = 1;
        else if (y == x + 1) cost = 2;
        else return 0;
    } else {
        uint8_t crossed = (uint8_t)(((1u << x) - 1) & ~((1u << y) - 1));
        if (crossed & s->train_up) return 0;
        cost = 1;
    }
    if (p->pool[x] < cost) return 0;
    /* only colours x and y change their share of the spaces */
    int growth = colour_spaces(p->pool[x] - cost) - colour_spaces(p->pool[x])
               + colour_spaces(p->pool[y] + 1) - colour_spaces(p->pool[y]);
    return growth <= room ? cost : 0;
}

int cx_trade_cost(const cx_state *s, const cx_cardset *cs, int x, int y) {
    return trade_cost(s, x, y, cx_room(CX_CUR(s), cs));
}

static int any_trade(const cx_state *s, int room) {
    for (int x = 0; x < CX_NUM_CARETAKERS; x++)
        if (CX_CUR(s)->pool[x])
            for (int y = 0; y < CX_NUM_CARETAKERS; y++)
                if (trade_cost(s, x, y, room)) return 1;
    return 0;
}

int cx_effect_matters(const cx_state *s, const cx_cardset *cs, int card) {
    const cx_card *c = &cs->cards[card];
    const cx_player *p = CX_CUR(s);
    switch (c->effect) {
    case CX_EFF_DISCARD_SURVIVAL: return p->track > 0;
    case CX_EFF_RECRUIT_TWO: return s->supply[c->eff_colour] > 0;
    case CX_EFF_DISCARD_SURVIVAL_RECRUIT:
        return p->track > 0 || s->supply[c->eff_colour] > 0;
    case CX_EFF_HOUSE_ONE:
        for (int i = 0; i < s->n_mission; i++)
            if (cs->cards[s->mission[i]].is_animal) return 1;
        return 0;
    case CX_EFF_RECRUIT_MISSION:
        for (int x = 0; x < CX_NUM_CARETAKERS; x++)
            if (cx_can_recruit_colour(s, cs, x)) return 1;
        return 0;
    default: return 0;   /* permanent effects are never asked */
    }
}

/* recruit X for each colour the Mission offers; capacity checked unless an
 * effect grants the recruit */
/* bit x set: the Mission board shows a caretaker card of colour x */
static unsigned mission_colours(const cx_state *s, const cx_cardset *cs) {
    unsigned mask = 0;
    for (int i = 0; i < s->n_mission; i++) {
        const cx_card *c = &cs->cards[s->mission[i]];
        if (!c->is_animal) mask |= 1u << c->colour;
    }
    return mask;
}

/* room for effects, which may exceed capacity */
#define UNLIMITED_ROOM 1000

/* recruit X for each colour the Mission offers that fits in `room` */
static int gen_recruits(const cx_state *s, const cx_cardset *cs, cx_action *out,
                        int room) {
    unsigned offered = mission_colours(s, cs);
    int n = 0;
    for (int x = 0; x < CX_NUM_CARETAKERS; x++) {
        if (!(offered >> x & 1) || !s->supply[x]) continue;
        if (!cx_fits_one_more(CX_CUR(s), x, room)) continue;
        PUSH(CX_ACTION(CX_A_RECRUIT, x, 0, 0, 0));
    }
    return n;
}

/* sort a few card indices in place (at most a board's worth) */
static void sort_cards(uint8_t *cards, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && cards[j - 1] > cards[j]; j--) {
            uint8_t t = cards[j]; cards[j] = cards[j - 1]; cards[j - 1] = t;
        }
}

/* house A for each Mission animal within the capture budget, if a space is
 * free, in card-index order */
static int gen_houses(const cx_state *s, const cx_cardset *cs, cx_action *out,
                      int budget, int room) {
    uint8_t found[CX_MISSION_SIZE];
    int k = 0, n = 0;
    if (room < 1) return 0;
    for (int i = 0; i < s->n_mission; i++) {
        const cx_card *c = &cs->cards[s->mission[i]];
        if (c->is_animal && c->capture <= budget) found[k++] = s->mission[i];
    }
    sort_cards(found, k);
    for (int i = 0; i < k; i++) PUSH(CX_ACTION(CX_A_HOUSE, 0, 0, found[i], 0));
    return n;
}

static int gen_choose(const cx_state *s, const cx_cardset *cs, cx_action *out,
                      int room) {
    const cx_player *p = CX_CUR(s);
    int n = 0;
    if (p->turns > 0) PUSH(CX_ACTION(CX_A_CENTER, 0, 0, 0, 0));
    if (p->turns > 0 && any_trade(s, room))
        PUSH(CX_ACTION(CX_A_TRAIN_START, 0, 0, 0, 0));
    n += gen_recruits(s, cs, out + n, room);
    n += gen_houses(s, cs, out + n, cx_player_capture_limit(p, cs), room);
    if (n == 0) PUSH(CX_ACTION(CX_A_PASS, 0, 0, 0, 0));
    return n;
}

/* Bit masks over the board's animals in card-index order (bit k: the k-th
 * lowest card on the board), computed in one pass so that the move lists
 * below are written by walking bits, not by re-testing every slot for
 * every colour. */
typedef struct {
    uint8_t card[CX_MAX_BOARD];          /* the board's cards, ascending */
    uint8_t slot[CX_MAX_BOARD];          /* ... and the slot of each */
    int n;
    uint32_t needing[CX_NUM_TOKENS];     /* still needs a token of colour x */
    uint32_t movable[CX_NUM_CARETAKERS]; /* holds a movable token of x */
    uint32_t empty;                      /* carries no token at all */
    uint32_t complete;                   /* carries all it needs */
} slot_masks;

/* Byte-parallel comparisons (all counts are below 128, so no byte borrows
 * from its neighbour): bit x of the result is set when byte x qualifies. */
#define BYTES_HIGH 0x8080808080ULL
#define BYTES_ONE 0x0101010101ULL
static inline uint32_t gather_high_bits(uint64_t v) {
    /* bit 7 of bytes 0..4 -> bits 0..4; the multiplier lands byte k's bit on
     * bit 32 + k, and no two partial products meet */
    return (uint32_t)((((v >> 7) & BYTES_ONE) * 0x102040810ULL) >> 32) & 31;
}

/* colours x with have[x] < want[x], over 5 bytes */
static inline uint32_t colours_short(const uint8_t *have, const uint8_t *want) {
    uint64_t h = 0, w = 0;
    memcpy(&h, have, 5);
    memcpy(&w, want, 5);
    return gather_high_bits(((w | BYTES_HIGH) - (h + BYTES_ONE)) & BYTES_HIGH);
}

/* colours x with v[x] != 0, over `len` bytes (at most 5) */
static inline uint32_t colours_nonzero(const uint8_t *v, int len) {
    uint64_t h = 0;
    memcpy(&h, v, (size_t)len);
    return gather_high_bits(((h | BYTES_HIGH) - BYTES_ONE) & BYTES_HIGH);
}

static void board_masks(const cx_player *p, const cx_cardset *cs, slot_masks *m) {
    memset(m, 0, sizeof *m);
    m->n = p->n_board;
    for (int i = 0; i < m->n; i++) m->card[i] = p->board[i].card;
    sort_cards(m->card, m->n);
    for (int k = 0; k < m->n; k++) m->slot[k] = (uint8_t)cx_slot_of(p, m->card[k]);
    for (int k = 0; k < m->n; k++) {
        const cx_slot *sl = &p->board[m->slot[k]];
        uint32_t bit = 1u << k;
        uint32_t short_of = colours_short(sl->on, cs->cards[sl->card].needs);
        uint32_t movable = colours_nonzero(sl->movable, CX_NUM_CARETAKERS);
        for (int x = 0; x < CX_NUM_TOKENS; x++)
            m->needing[x] |= ((short_of >> x) & 1u) * bit;
        for (int x = 0; x < CX_NUM_CARETAKERS; x++)
            m->movable[x] |= ((movable >> x) & 1u) * bit;
        m->empty |= (colours_nonzero(sl->on, CX_NUM_TOKENS) == 0) * bit;
        m->complete |= (short_of == 0) * bit;
    }
}

/* one action per set bit of `animals`: `base` with that animal as card A */
static int push_per_animal(const slot_masks *m, cx_action *out, uint32_t animals,
                           cx_action base) {
    int n = 0;
    /* a fixed walk over the board with a conditional count: no branch
     * depends on which animals qualify */
    for (int k = 0; k < m->n; k++) {
        out[n] = base | m->card[k];
        n += (animals >> k) & 1;
    }
    return n;
}

static int gen_center(const cx_state *s, const cx_cardset *cs, cx_action *out,
                      int room) {
    const cx_player *p = CX_CUR(s);
    slot_masks m;
    int n = 0;
    board_masks(p, cs, &m);
    PUSH(CX_ACTION(CX_A_END, 0, 0, 0, 0));
    if (p->track < CX_TRACK_SIZE)
        n += push_per_animal(&m, out + n, m.empty, CX_ACTION(CX_A_PROTECT, 0, 0, 0, 0));
    for (int x = 0; x < CX_NUM_TOKENS; x++) {
        int have = (x == CX_S) ? p->track : p->pool[x];
        if (have)
            n += push_per_animal(&m, out + n, m.needing[x],
                                 CX_ACTION(CX_A_ASSIGN, x, 0, 0, 0));
    }
    /* move X A B: by colour, then target B, then source A */
    for (int x = 0; x < CX_NUM_CARETAKERS; x++)
        for (uint32_t to = m.needing[x]; to; to &= to - 1) {
            uint32_t low = to & -to;
            n += push_per_animal(&m, out + n, m.movable[x] & ~low,
                                 CX_ACTION(CX_A_MOVE, x, 0, 0, m.card[__builtin_ctz(to)]));
        }
    for (int x = 0; x < CX_NUM_CARETAKERS; x++)
        if (m.movable[x] && cx_fits_one_more(p, x, room))
            n += push_per_animal(&m, out + n, m.movable[x],
                                 CX_ACTION(CX_A_UNASSIGN, x, 0, 0, 0));
    n += push_per_animal(&m, out + n, m.complete, CX_ACTION(CX_A_RELEASE, 0, 0, 0, 0));
    return n;
}

static int gen_train(const cx_state *s, cx_action *out, int room) {
    int n = 0;
    if (s->step > 0) PUSH(CX_ACTION(CX_A_END, 0, 0, 0, 0));
    for (int y = 0; y < CX_NUM_CARETAKERS; y++)      /* Y sits above X */
        for (int x = 0; x < CX_NUM_CARETAKERS; x++)
            if (trade_cost(s, x, y, room))
                PUSH(CX_ACTION(CX_A_TRAIN, x, y, 0, 0));
    return n;
}

static int gen_effect(const cx_state *s, const cx_cardset *cs, cx_action *out) {
    const cx_card *c = &cs->cards[s->effect_card];
    int n = 0;
    switch (c->effect) {
    case CX_EFF_HOUSE_ONE:
        PUSH(CX_ACTION(CX_A_SKIP, 0, 0, 0, 0));
        n += gen_houses(s, cs, out + n, UNLIMITED_ROOM, UNLIMITED_ROOM);
        break;
    case CX_EFF_RECRUIT_MISSION:
        PUSH(CX_ACTION(s->step ? CX_A_END : CX_A_SKIP, 0, 0, 0, 0));
        n += gen_recruits(s, cs, out + n, UNLIMITED_ROOM);
        break;
    default:
        PUSH(CX_ACTION(CX_A_APPLY, 0, 0, 0, 0));
        PUSH(CX_ACTION(CX_A_SKIP, 0, 0, 0, 0));
    }
    return n;
}

static int gen_discard(const cx_state *s, cx_action *out) {
    const cx_player *p = CX_CUR(s);
    int n = 0;
    for (int x = 0; x < CX_NUM_CARETAKERS; x++)
        if (p->pool[x]) PUSH(CX_ACTION(CX_A_DISCARD_TOKEN, x, 0, 0, 0));
    uint8_t cards[CX_MAX_BOARD];
    for (int i = 0; i < p->n_board; i++) cards[i] = p->board[i].card;
    sort_cards(cards, p->n_board);
    for (int i = 0; i < p->n_board; i++)
        PUSH(CX_ACTION(CX_A_DISCARD_ANIMAL, 0, 0, cards[i], 0));
    return n;
}

/* chance: one reveal per card still in the draw pile, by card index */
static int gen_reveals(const cx_state *s, cx_action *out) {
    uint8_t present[CX_MAX_CARDS] = {0};
    int n = 0;
    for (int i = s->deck_pos; i < s->deck_len; i++) present[s->deck[i]] = 1;
    for (int c = 0; c < CX_MAX_CARDS; c++)
        if (present[c]) PUSH(CX_ACTION(CX_A_REVEAL, 0, 0, c, 0));
    return n;
}

int cx_legal_actions(const cx_state *s, const cx_cardset *cs, cx_action *out) {
    int n = 0;
    int room = cx_room(CX_CUR(s), cs);   /* free spaces (negative: over) */
    switch (s->phase) {
    case CX_PH_START:
        PUSH(CX_ACTION(CX_A_APPLY, 0, 0, 0, 0));
        PUSH(CX_ACTION(CX_A_SKIP, 0, 0, 0, 0));
        return n;
    case CX_PH_CHOOSE: return gen_choose(s, cs, out, room);
    case CX_PH_RECRUIT:
        PUSH(CX_ACTION(CX_A_END, 0, 0, 0, 0));
        return n + gen_recruits(s, cs, out + n, room);
    case CX_PH_HOUSE: {
        int budget = cx_player_capture_limit(CX_CUR(s), cs) - s->capture_used;
        PUSH(CX_ACTION(CX_A_END, 0, 0, 0, 0));
        return n + gen_houses(s, cs, out + n, budget, room);
    }
    case CX_PH_CENTER: return gen_center(s, cs, out, room);
    case CX_PH_TRAIN: return gen_train(s, out, room);
    case CX_PH_EFFECT: return gen_effect(s, cs, out);
    case CX_PH_DISCARD: return gen_discard(s, out);
    case CX_PH_REFILL: return gen_reveals(s, out);
    default: return 0;
    }
}

int cx_is_legal(const cx_state *s, const cx_cardset *cs, cx_action a) {
    cx_action buf[CX_MAX_ACTIONS];
    int n = cx_legal_actions(s, cs, buf);
    for (int i = 0; i < n; i++)
        if (buf[i] == a) return 1;
    return 0;
}
