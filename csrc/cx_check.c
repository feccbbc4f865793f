/* cx_check.c -- invariants of a state, for tests and for loading positions.
 *
 * Every byte is bounded before it is used as an index, so the check is safe
 * on any bytes at all (a state read from a file, a fuzzer's input). The
 * invariants are inductive: a legal move from a state where they all hold
 * leads to a state where they all hold, so no sequence of legal moves from
 * an accepted position can take a count past a fixed-size array.
 *
 * Returns 0 when all hold, else the number of the first broken one:
 *   1 counts out of range (players, seats, phase, rounds, mission, deck,
 *     boards, card indices, colours), or a byte outside the used part of an
 *     array (or of an unused seat) that is not zero
 *   2 a token kind's total differs from its supply at the start
 *   3 a card is in no place, or in two
 *   4 a card's recorded place disagrees with the lists
 *   5 a track outside 0..8, or tokens on an animal beyond its needs
 *   6 anti-cycle counts above the tokens they count
 *   7 released counts disagree with the cards released
 *   8 the decision in front of the seat cannot be asked (a start_recruit
 *     step past the seat's effects, an effect card not just released by
 *     the seat, a discard within capacity, a Training with no trade, a
 *     refill without explicit chance, room or a card to reveal, or no
 *     legal move at all before the end)
 *   9 the permanent effects a seat owns are not those of the animals it
 *     released
 *  10 more animals on a board than its capacity (one fewer while a
 *     `house_one` effect is pending: the animal that brought it just left) */
#include <string.h>
#include "cx_internal.h"

static int all_zero(const void *bytes, size_t n) {
    const uint8_t *b = bytes;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

/* the seat's own bytes: counts, colours and card indices in range, and the
 * unused slots of its arrays zero */
static int check_seat_ranges(const cx_player *pl, const cx_cardset *cs) {
    if (pl->n_board > CX_MAX_BOARD || pl->n_start_recruit > CX_MAX_START_RECRUIT ||
        pl->fauna >= CX_NUM_FAUNAS || pl->track > CX_TRACK_SIZE) return 1;
    for (int i = 0; i < pl->n_board; i++)
        if (pl->board[i].card >= cs->n_cards) return 1;
    if (!all_zero(&pl->board[pl->n_board],
                  sizeof(cx_slot) * (size_t)(CX_MAX_BOARD - pl->n_board)))
        return 1;
    for (int i = 0; i < pl->n_start_recruit; i++)
        if (pl->start_recruit[i] >= CX_NUM_CARETAKERS) return 1;
    if (!all_zero(&pl->start_recruit[pl->n_start_recruit],
                  (size_t)(CX_MAX_START_RECRUIT - pl->n_start_recruit)))
        return 1;
    for (int x = 0; x < CX_NUM_CARETAKERS; x++)
        if (pl->one_to_one[x] >> CX_NUM_CARETAKERS) return 1;
    return 0;
}

static int check_ranges(const cx_state *s, const cx_cardset *cs) {
    if (s->n_players < CX_MIN_PLAYERS || s->n_players > CX_MAX_PLAYERS) return 1;
    if (s->current >= s->n_players || s->first_player >= s->n_players) return 1;
    if (s->phase >= CX_NUM_PHASES || s->n_mission > CX_MISSION_SIZE) return 1;
    if (s->explicit_chance > 1 || (s->phase == CX_PH_REFILL && s->step > 1)) return 1;
    if (s->rounds > cs->max_rounds ||
        (s->rounds == cs->max_rounds && s->phase != CX_PH_OVER)) return 1;
    if (s->end_triggered > 1 || s->train_up > 7 || s->train_down > 7) return 1;
    if (s->phase == CX_PH_EFFECT ? s->effect_card >= cs->n_cards
                                 : s->effect_card != 0) return 1;
    if (s->deck_len > cs->n_cards || s->deck_pos > s->deck_len) return 1;
    for (int i = 0; i < CX_MAX_CARDS; i++) {
        int hidden = i >= s->deck_pos && i < s->deck_len;
        if (hidden ? s->deck[i] >= cs->n_cards : s->deck[i] != 0) return 1;
        if (s->loc[i] >= (i < cs->n_cards ? CX_NUM_LOCS : 1)) return 1;
    }
    for (int i = 0; i < CX_MISSION_SIZE; i++)
        if (i < s->n_mission ? s->mission[i] >= cs->n_cards : s->mission[i] != 0)
            return 1;
    for (int p = 0; p < CX_MAX_PLAYERS; p++) {
        const cx_player *pl = &s->players[p];
        if (p >= s->n_players ? !all_zero(pl, sizeof *pl) : check_seat_ranges(pl, cs))
            return 1;
    }
    for (int c = 0; c < cs->n_cards; c++) {   /* no place of an absent seat */
        int loc = s->loc[c];
        if (loc >= CX_LOC_BOARD && (loc - CX_LOC_BOARD) % CX_MAX_PLAYERS >= s->n_players)
            return 1;
    }
    return 0;
}

static int check_tokens(const cx_state *s) {
    int total[CX_NUM_TOKENS];
    for (int x = 0; x < CX_NUM_TOKENS; x++) total[x] = s->supply[x];
    for (int p = 0; p < s->n_players; p++) {
        const cx_player *pl = &s->players[p];
        for (int x = 0; x < CX_NUM_CARETAKERS; x++) total[x] += pl->pool[x];
        total[CX_S] += pl->track;
        for (int i = 0; i < pl->n_board; i++)
            for (int x = 0; x < CX_NUM_TOKENS; x++) total[x] += pl->board[i].on[x];
    }
    for (int x = 0; x < CX_NUM_TOKENS; x++)
        if (total[x] != CX_SUPPLY_START[x]) return 2;
    return 0;
}

/* every card listed at most once, and where its loc says */
static int check_places(const cx_state *s, const cx_cardset *cs) {
    uint8_t listed[CX_MAX_CARDS] = {0};
    for (int i = s->deck_pos; i < s->deck_len; i++) {
        if (s->loc[s->deck[i]] != CX_LOC_DECK) return 4;
        listed[s->deck[i]]++;
    }
    for (int i = 0; i < s->n_mission; i++) {
        if (s->loc[s->mission[i]] != CX_LOC_MISSION) return 4;
        listed[s->mission[i]]++;
    }
    for (int p = 0; p < s->n_players; p++)
        for (int i = 0; i < s->players[p].n_board; i++) {
            int c = s->players[p].board[i].card;
            if (s->loc[c] != CX_LOC_BOARD + p || !cs->cards[c].is_animal) return 4;
            listed[c]++;
        }
    for (int c = 0; c < cs->n_cards; c++) {
        int loc = s->loc[c];
        int is_listed = loc == CX_LOC_DECK || loc == CX_LOC_MISSION ||
                        (loc >= CX_LOC_BOARD && loc < CX_LOC_RELEASED);
        if (is_listed ? listed[c] != 1 : listed[c] != 0) return 3;
        if (loc >= CX_LOC_RELEASED && !cs->cards[c].is_animal) return 4;
    }
    return 0;
}

static int check_boards(const cx_state *s, const cx_cardset *cs) {
    for (int p = 0; p < s->n_players; p++) {
        const cx_player *pl = &s->players[p];
        for (int i = 0; i < pl->n_board; i++) {
            const cx_slot *sl = &pl->board[i];
            for (int x = 0; x < CX_NUM_TOKENS; x++)
                if (sl->on[x] > cs->cards[sl->card].needs[x]) return 5;
            for (int x = 0; x < CX_NUM_CARETAKERS; x++)
                if (sl->movable[x] > sl->on[x]) return 6;
        }
        int released = 0;
        for (int c = 0; c < cs->n_cards; c++)
            released += s->loc[c] == CX_LOC_RELEASED + p;
        if (released != pl->n_released) return 7;
    }
    return 0;
}

/* the permanent effects of the animals seat p released, as the engine
 * accumulates them on release (start_recruit in card order) */
static void owned_effects(const cx_state *s, const cx_cardset *cs, int p,
                          cx_player *out) {
    memset(out, 0, sizeof *out);
    for (int c = 0; c < cs->n_cards; c++)
        if (s->loc[c] == CX_LOC_RELEASED + p)
            cx_own_permanent_effect(out, &cs->cards[c]);
}

static void colour_counts(const cx_player *pl, uint8_t *counts) {
    memset(counts, 0, CX_NUM_CARETAKERS);
    for (int i = 0; i < pl->n_start_recruit; i++) counts[pl->start_recruit[i]]++;
}

static int check_effects(const cx_state *s, const cx_cardset *cs) {
    for (int p = 0; p < s->n_players; p++) {
        const cx_player *pl = &s->players[p];
        cx_player want;
        uint8_t have_colours[CX_NUM_CARETAKERS], want_colours[CX_NUM_CARETAKERS];
        owned_effects(s, cs, p, &want);
        colour_counts(pl, have_colours);   /* any release order will do */
        colour_counts(&want, want_colours);
        if (pl->n_start_recruit != want.n_start_recruit ||
            memcmp(have_colours, want_colours, sizeof have_colours) ||
            pl->capture_bonus != want.capture_bonus ||
            pl->extra_spaces != want.extra_spaces ||
            pl->skip_survival != want.skip_survival ||
            memcmp(pl->double_protect, want.double_protect, CX_NUM_CARETAKERS) ||
            memcmp(pl->one_to_one, want.one_to_one, CX_NUM_CARETAKERS))
            return 9;
    }
    return 0;
}

/* Animals only arrive by `house`: from the Mission with a free space, or
 * by a `house_one` effect right after a release took one away. */
static int check_capacity(const cx_state *s, const cx_cardset *cs) {
    for (int p = 0; p < s->n_players; p++) {
        const cx_player *pl = &s->players[p];
        int limit = cx_player_capacity(pl, cs);
        if (p == s->current && s->phase == CX_PH_EFFECT &&
            cs->cards[s->effect_card].effect == CX_EFF_HOUSE_ONE) limit--;
        if (pl->n_board > limit) return 10;
    }
    return 0;
}

static int check_decision(const cx_state *s, const cx_cardset *cs) {
    const cx_player *p = CX_CUR(s);
    cx_action moves[CX_MAX_ACTIONS];
    switch (s->phase) {
    case CX_PH_OVER: return 0;
    case CX_PH_START:
        if (s->step >= p->n_start_recruit ||
            !s->supply[p->start_recruit[s->step]]) return 8;
        break;
    case CX_PH_EFFECT:
        if (s->loc[s->effect_card] != CX_LOC_RELEASED + s->current ||
            !CX_EFFECT_IMMEDIATE[cs->cards[s->effect_card].effect]) return 8;
        break;
    case CX_PH_DISCARD:
        if (cx_player_spaces(p) <= cx_player_capacity(p, cs)) return 8;
        break;
    case CX_PH_REFILL:   /* a card to reveal, and room for it */
        if (!s->explicit_chance || s->n_mission >= CX_MISSION_SIZE ||
            s->deck_pos >= s->deck_len) return 8;
        break;
    default: break;
    }
    return cx_legal_actions(s, cs, moves) > 0 ? 0 : 8;
}

void cx_derive_effects(cx_state *s, const cx_cardset *cs) {
    for (int p = 0; p < s->n_players; p++) {
        cx_player *pl = &s->players[p], derived;
        uint8_t given[CX_NUM_CARETAKERS], wanted[CX_NUM_CARETAKERS];
        owned_effects(s, cs, p, &derived);
        colour_counts(pl, given);
        colour_counts(&derived, wanted);
        int keep_order = pl->n_start_recruit == derived.n_start_recruit &&
                         !memcmp(given, wanted, sizeof given);
        if (keep_order) memcpy(derived.start_recruit, pl->start_recruit,
                               sizeof derived.start_recruit);
        pl->n_start_recruit = derived.n_start_recruit;
        memcpy(pl->start_recruit, derived.start_recruit, sizeof pl->start_recruit);
        pl->capture_bonus = derived.capture_bonus;
        pl->extra_spaces = derived.extra_spaces;
        pl->skip_survival = derived.skip_survival;
        memcpy(pl->double_protect, derived.double_protect, CX_NUM_CARETAKERS);
        memcpy(pl->one_to_one, derived.one_to_one, CX_NUM_CARETAKERS);
        pl->n_released = 0;
        for (int c = 0; c < cs->n_cards; c++)
            pl->n_released += s->loc[c] == CX_LOC_RELEASED + p;
    }
}

int cx_check_bounds(const cx_state *s, const cx_cardset *cs) {
    /* the card set bounds every index below; one that fails its own check
     * makes every state unusable */
    if (cx_check_cardset(cs)) return 1;
    return check_ranges(s, cs);
}

int cx_check_invariants(const cx_state *s, const cx_cardset *cs) {
    int err = cx_check_bounds(s, cs);
    if (!err) err = check_tokens(s);
    if (!err) err = check_places(s, cs);
    if (!err) err = check_boards(s, cs);
    if (!err) err = check_effects(s, cs);
    if (!err) err = check_capacity(s, cs);
    if (!err) err = check_decision(s, cs);
    return err;
}
