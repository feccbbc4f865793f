/* cx_apply.c -- playing an action, and the turn sequence around it.
 *
 * cx_apply trusts its input to be legal (search calls it millions of times);
 * the checked cx_apply_checked refuses anything cx_legal_actions would not
 * list. cx_apply still keeps cheap guards at every array it writes: an
 * action that names a card or slot not there, or a full board, changes
 * nothing, so no bug elsewhere can write outside the state. After
 * every action the state is advanced to the next decision that is really a
 * decision: start_recruit effects with an empty supply are passed over, the
 * end of turn refills the Mission board and hands over to the next seat. */
#include <string.h>
#include "cx_internal.h"

static void gain(cx_state *s, cx_player *p, int x, int k) {
    if (k > s->supply[x]) k = s->supply[x];
    p->pool[x] += (uint8_t)k;
    s->supply[x] -= (uint8_t)k;
}

static void mission_remove(cx_state *s, int i) {
    memmove(&s->mission[i], &s->mission[i + 1], (size_t)(s->n_mission - i - 1));
    s->mission[--s->n_mission] = 0;   /* unused bytes stay zero */
}

static void board_remove(cx_player *p, int i) {
    memmove(&p->board[i], &p->board[i + 1],
            sizeof(cx_slot) * (size_t)(p->n_board - i - 1));
    p->n_board--;
    memset(&p->board[p->n_board], 0, sizeof(cx_slot));
}

/* every token on the animal goes back to the supply */
static void slot_return_tokens(cx_state *s, cx_slot *sl) {
    for (int x = 0; x < CX_NUM_TOKENS; x++) s->supply[x] += sl->on[x];
}

void cx_refill_mission(cx_state *s) {
    int drew = 0;
    while (s->n_mission < CX_MISSION_SIZE && s->deck_pos < s->deck_len) {
        uint8_t card = cx_deal_one(s);
        s->mission[s->n_mission++] = card;
        s->loc[card] = CX_LOC_MISSION;
        drew = 1;
    }
    if (drew && s->deck_pos == s->deck_len) s->end_triggered = 1;
}

/* ask the next start_recruit effect whose colour the supply still has */
static void advance_start(cx_state *s) {
    const cx_player *p = CX_CUR(s);
    while (s->step < p->n_start_recruit &&
           s->supply[p->start_recruit[s->step]] == 0)
        s->step++;
    if (s->step >= p->n_start_recruit) {
        s->phase = CX_PH_CHOOSE;
        s->step = 0;
    }
}

void cx_begin_turn(cx_state *s) {
    cx_player *p = CX_CUR(s);
    for (int i = 0; i < p->n_board; i++)
        memcpy(p->board[i].movable, p->board[i].on, CX_NUM_CARETAKERS);
    s->step = 0;
    s->capture_used = 0;
    s->train_up = s->train_down = 0;
    s->effect_card = 0;
    s->phase = CX_PH_START;
    advance_start(s);
}

static int refill_pending(const cx_state *s) {
    return s->n_mission < CX_MISSION_SIZE && s->deck_pos < s->deck_len;
}

void cx_enter_refill(cx_state *s, int opening) {
    s->phase = CX_PH_REFILL;
    s->step = (uint8_t)opening;   /* PH_REFILL: 1 for the opening deal */
    s->capture_used = s->train_up = s->train_down = 0;
    s->effect_card = 0;
}

static void hand_over(cx_state *s, const cx_cardset *cs);

/* the end-of-turn refill: dealt in the draw pile's order, or left to
 * chance decisions, one card at a time */
static void finish_turn(cx_state *s, const cx_cardset *cs) {
    if (s->explicit_chance && refill_pending(s)) {
        cx_enter_refill(s, 0);
        return;
    }
    cx_refill_mission(s);
    hand_over(s, cs);
}

/* chance: `card`, still in the draw pile, comes onto the Mission */
static void reveal(cx_state *s, const cx_cardset *cs, int card) {
    int j = s->deck_pos;
    while (j < s->deck_len && s->deck[j] != card) j++;
    if (j == s->deck_len || s->n_mission >= CX_MISSION_SIZE) return;
    s->deck[j] = s->deck[s->deck_pos];
    s->deck[s->deck_pos] = (uint8_t)card;
    s->mission[s->n_mission++] = cx_deal_one(s);
    s->loc[card] = CX_LOC_MISSION;
    int opening = s->step;
    /* as in cx_new_game, the opening deal never triggers the end */
    if (!opening && s->deck_pos == s->deck_len) s->end_triggered = 1;
    if (refill_pending(s)) return;
    if (opening) cx_begin_turn(s);
    else hand_over(s, cs);
}

static void hand_over(cx_state *s, const cx_cardset *cs) {
    cx_player *p = CX_CUR(s);
    if (p->turns < UINT8_MAX) p->turns++;   /* only "first turn or not" matters */
    int next = (s->current + 1) % s->n_players;
    if (next == s->first_player) {
        s->rounds++;
        if (s->end_triggered || s->rounds >= cs->max_rounds) {
            s->phase = CX_PH_OVER;
            s->step = s->capture_used = s->train_up = s->train_down = 0;
            s->effect_card = 0;
            return;
        }
    }
    s->current = (uint8_t)next;
    cx_begin_turn(s);
}

static void check_capacity_then_finish(cx_state *s, const cx_cardset *cs) {
    const cx_player *p = CX_CUR(s);
    if (cx_player_spaces(p) > cx_player_capacity(p, cs)) {
        s->phase = CX_PH_DISCARD;
        s->step = 0;
    } else {
        finish_turn(s, cs);
    }
}

static int mission_index(const cx_state *s, int card) {
    for (int i = 0; i < s->n_mission; i++)
        if (s->mission[i] == card) return i;
    return -1;
}

/* 0 (nothing done) when the card is not on the Mission or the board is full */
static int house(cx_state *s, cx_player *p, int card) {
    int i = mission_index(s, card);
    if (i < 0 || p->n_board >= CX_MAX_BOARD) return 0;
    mission_remove(s, i);
    cx_slot *sl = &p->board[p->n_board++];
    memset(sl, 0, sizeof *sl);
    sl->card = (uint8_t)card;
    s->loc[card] = (uint8_t)(CX_LOC_BOARD + s->current);
    return 1;
}

static int recruit(cx_state *s, const cx_cardset *cs, cx_player *p, int x) {
    int i = cx_mission_caretaker(s, cs, x);
    if (i < 0) return 0;
    s->loc[s->mission[i]] = CX_LOC_DISCARD;
    mission_remove(s, i);
    gain(s, p, x, 1);
    return 1;
}

static void protect(cx_state *s, const cx_cardset *cs, cx_player *p, int card) {
    const cx_card *c = &cs->cards[card];
    int i = cx_slot_of(p, card);
    if (i < 0) return;
    board_remove(p, i);
    s->loc[card] = (uint8_t)(CX_LOC_PROTECTED + s->current);
    for (int x = 0; x < CX_NUM_CARETAKERS; x++) {
        int doublings = p->double_protect[x] > 6 ? 6 : p->double_protect[x];
        gain(s, p, x, c->protect[x] << doublings);
    }
    int k = c->protect[CX_S] - p->skip_survival;
    if (k < 0) k = 0;
    if (k > CX_TRACK_SIZE - p->track) k = CX_TRACK_SIZE - p->track;
    if (k > s->supply[CX_S]) k = s->supply[CX_S];
    p->track += (uint8_t)k;
    s->supply[CX_S] -= (uint8_t)k;
}

void cx_own_permanent_effect(cx_player *p, const cx_card *c) {
    switch (c->effect) {
    case CX_EFF_START_RECRUIT:
        if (p->n_start_recruit < CX_MAX_START_RECRUIT)
            p->start_recruit[p->n_start_recruit++] = c->eff_colour;
        break;
    case CX_EFF_CAPTURE_BONUS: p->capture_bonus += c->eff_amount; break;
    case CX_EFF_EXTRA_SPACE: p->extra_spaces++; break;
    case CX_EFF_DOUBLE_PROTECT: p->double_protect[c->eff_colour]++; break;
    case CX_EFF_SKIP_SURVIVAL: p->skip_survival++; break;
    case CX_EFF_TRAIN_ONE_TO_ONE:
        p->one_to_one[c->eff_from] |= (uint8_t)(1u << c->eff_to);
        break;
    default: break;
    }
}

static void release(cx_state *s, const cx_cardset *cs, cx_player *p, int card) {
    int i = cx_slot_of(p, card);
    if (i < 0) return;
    slot_return_tokens(s, &p->board[i]);
    board_remove(p, i);
    s->loc[card] = (uint8_t)(CX_LOC_RELEASED + s->current);
    p->n_released++;
    if (p->n_released >= cs->release_goal) s->end_triggered = 1;
    cx_own_permanent_effect(p, &cs->cards[card]);
    if (cx_effect_matters(s, cs, card)) {
        s->phase = CX_PH_EFFECT;
        s->effect_card = (uint8_t)card;
        s->step = 0;
    }
}

static void effect_done(cx_state *s) {
    s->phase = CX_PH_CENTER;
    s->effect_card = 0;
    s->step = 0;
}

static void apply_effect(cx_state *s, const cx_cardset *cs, cx_player *p) {
    const cx_card *c = &cs->cards[s->effect_card];
    switch (c->effect) {
    case CX_EFF_DISCARD_SURVIVAL: {
        int k = c->eff_amount < p->track ? c->eff_amount : p->track;
        p->track -= (uint8_t)k;
        s->supply[CX_S] += (uint8_t)k;
        break;
    }
    case CX_EFF_RECRUIT_TWO: gain(s, p, c->eff_colour, 2); break;
    case CX_EFF_DISCARD_SURVIVAL_RECRUIT:
        if (p->track) { p->track--; s->supply[CX_S]++; }
        gain(s, p, c->eff_colour, 1);
        break;
    default: break;
    }
    effect_done(s);
}

static void train(cx_state *s, const cx_cardset *cs, cx_player *p, int x, int y) {
    int cost = cx_trade_cost(s, cs, x, y);
    p->pool[x] -= (uint8_t)cost;
    s->supply[x] += (uint8_t)cost;
    gain(s, p, y, 1);
    uint8_t lo = (uint8_t)(x < y ? x : y), hi = (uint8_t)(x < y ? y : x);
    uint8_t crossed = (uint8_t)(((1u << hi) - 1) & ~((1u << lo) - 1));
    if (y > x) s->train_up |= crossed; else s->train_down |= crossed;
    if (s->step < UINT8_MAX) s->step++;   /* read as "a trade was made" */
}

static void discard_animal(cx_state *s, const cx_cardset *cs, cx_player *p,
                           int card) {
    int i = cx_slot_of(p, card);
    if (i < 0) return;
    slot_return_tokens(s, &p->board[i]);
    board_remove(p, i);
    s->loc[card] = CX_LOC_DISCARD;
    if (cx_player_spaces(p) <= cx_player_capacity(p, cs)) finish_turn(s, cs);
}

static void apply_end(cx_state *s, const cx_cardset *cs) {
    if (s->phase == CX_PH_EFFECT) effect_done(s);
    else check_capacity_then_finish(s, cs);
}

static void apply_skip(cx_state *s) {
    if (s->phase == CX_PH_START) { s->step++; advance_start(s); }
    else effect_done(s);
}

static void apply_apply(cx_state *s, const cx_cardset *cs, cx_player *p) {
    if (s->phase == CX_PH_START) {
        if (s->step >= p->n_start_recruit) return;
        gain(s, p, p->start_recruit[s->step], 1);
        s->step++;
        advance_start(s);
    } else {
        apply_effect(s, cs, p);
    }
}

static int pending_effect(const cx_state *s, const cx_cardset *cs) {
    return cs->cards[s->effect_card].effect;
}

static void apply_house(cx_state *s, const cx_cardset *cs, cx_player *p, int card) {
    if (s->phase == CX_PH_EFFECT && pending_effect(s, cs) != CX_EFF_HOUSE_ONE) return;
    if (!house(s, p, card)) return;
    if (s->phase == CX_PH_EFFECT) { effect_done(s); return; }
    int used = s->capture_used + cs->cards[card].capture;
    s->capture_used = (uint8_t)(used < UINT8_MAX ? used : UINT8_MAX);
    s->phase = CX_PH_HOUSE;
}

static void apply_recruit(cx_state *s, const cx_cardset *cs, cx_player *p, int x) {
    if (s->phase == CX_PH_EFFECT && pending_effect(s, cs) != CX_EFF_RECRUIT_MISSION)
        return;
    if (!recruit(s, cs, p, x)) return;
    if (s->phase == CX_PH_EFFECT) s->step++;
    else s->phase = CX_PH_RECRUIT;
}

static void move_token(cx_player *p, int x, int from, int to) {
    int i = cx_slot_of(p, from), j = cx_slot_of(p, to);
    if (i < 0 || j < 0 || i == j || !p->board[i].movable[x]) return;
    cx_slot *a = &p->board[i], *b = &p->board[j];
    a->on[x]--; a->movable[x]--;
    b->on[x]++;
}

static void unassign(cx_player *p, int x, int card) {
    int i = cx_slot_of(p, card);
    if (i < 0 || !p->board[i].movable[x]) return;
    cx_slot *sl = &p->board[i];
    sl->on[x]--; sl->movable[x]--;
    p->pool[x]++;
}

static void assign(cx_player *p, int x, int card) {
    int i = cx_slot_of(p, card);
    if (i < 0 || !(x == CX_S ? p->track : p->pool[x])) return;
    cx_slot *sl = &p->board[i];
    sl->on[x]++;
    if (x == CX_S) p->track--; else p->pool[x]--;
}

static void discard_token(cx_state *s, const cx_cardset *cs, cx_player *p, int x) {
    if (!p->pool[x]) return;
    p->pool[x]--;
    s->supply[x]++;
    if (cx_player_spaces(p) <= cx_player_capacity(p, cs)) finish_turn(s, cs);
}

/* the decisions in which each kind of move can be legal (bit: phase) */
#define IN(ph) (1u << CX_PH_##ph)
static const uint16_t KIND_PHASES[CX_NUM_ACTION_KINDS] = {
    [CX_A_PASS] = IN(CHOOSE),
    [CX_A_END] = IN(RECRUIT) | IN(HOUSE) | IN(CENTER) | IN(TRAIN) | IN(EFFECT),
    [CX_A_CENTER] = IN(CHOOSE), [CX_A_TRAIN_START] = IN(CHOOSE),
    [CX_A_APPLY] = IN(START) | IN(EFFECT), [CX_A_SKIP] = IN(START) | IN(EFFECT),
    [CX_A_RECRUIT] = IN(CHOOSE) | IN(RECRUIT) | IN(EFFECT),
    [CX_A_HOUSE] = IN(CHOOSE) | IN(HOUSE) | IN(EFFECT),
    [CX_A_PROTECT] = IN(CENTER), [CX_A_ASSIGN] = IN(CENTER), [CX_A_MOVE] = IN(CENTER),
    [CX_A_UNASSIGN] = IN(CENTER), [CX_A_RELEASE] = IN(CENTER),
    [CX_A_TRAIN] = IN(TRAIN),
    [CX_A_DISCARD_TOKEN] = IN(DISCARD), [CX_A_DISCARD_ANIMAL] = IN(DISCARD),
    [CX_A_REVEAL] = IN(REFILL),
};
#undef IN

void cx_apply(cx_state *s, const cx_cardset *cs, cx_action a) {
    cx_player *p = CX_CUR(s);
    int x = CX_ACTION_X(a), y = CX_ACTION_Y(a);
    int ca = CX_ACTION_A(a), cb = CX_ACTION_B(a);
    /* colours and cards index arrays below: out of range, or a kind of move
     * that has no place in this decision, nothing happens (pool[] has no S,
     * so caretaker moves also need x < CX_S) */
    int kind = CX_ACTION_KIND(a);
    if (ca >= cs->n_cards || cb >= cs->n_cards || x >= CX_NUM_TOKENS ||
        y >= CX_NUM_CARETAKERS || kind >= CX_NUM_ACTION_KINDS ||
        !(KIND_PHASES[kind] >> s->phase & 1))
        return;
    if (x == CX_S && kind != CX_A_ASSIGN) return;
    switch (kind) {
    case CX_A_PASS: check_capacity_then_finish(s, cs); break;
    case CX_A_END: apply_end(s, cs); break;
    case CX_A_CENTER: s->phase = CX_PH_CENTER; break;
    case CX_A_TRAIN_START: s->phase = CX_PH_TRAIN; s->step = 0; break;
    case CX_A_APPLY: apply_apply(s, cs, p); break;
    case CX_A_SKIP: apply_skip(s); break;
    case CX_A_RECRUIT: apply_recruit(s, cs, p, x); break;
    case CX_A_HOUSE: apply_house(s, cs, p, ca); break;
    case CX_A_PROTECT: protect(s, cs, p, ca); break;
    case CX_A_ASSIGN: assign(p, x, ca); break;
    case CX_A_MOVE: move_token(p, x, ca, cb); break;
    case CX_A_UNASSIGN: unassign(p, x, ca); break;
    case CX_A_RELEASE: release(s, cs, p, ca); break;
    case CX_A_TRAIN: train(s, cs, p, x, y); break;
    case CX_A_DISCARD_TOKEN: discard_token(s, cs, p, x); break;
    case CX_A_DISCARD_ANIMAL: discard_animal(s, cs, p, ca); break;
    case CX_A_REVEAL: reveal(s, cs, ca); break;
    default: break;
    }
}

int cx_apply_checked(cx_state *s, const cx_cardset *cs, cx_action a) {
    if (!cx_is_legal(s, cs, a)) return CX_ERR_ILLEGAL;
    cx_apply(s, cs, a);
    return CX_OK;
}

