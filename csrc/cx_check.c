/* cx_check.c -- invariants of a state, for tests and for loading positions.
 *
 * Returns 0 when all hold, else the number of the first broken one:
 *   1 counts out of range (players, seats, phase, mission, deck, boards)
 *   2 a token kind's total differs from its supply at the start
 *   3 a card is in no place, or in two
 *   4 a card's recorded place disagrees with the lists
 *   5 a track outside 0..8, or tokens on an animal beyond its needs
 *   6 anti-cycle counts above the tokens they count
 *   7 released counts disagree with the cards released
 *   8 the decision in front of the seat cannot be asked (a start_recruit
 *     step past the seat's effects, an effect card not just released by
 *     the seat, a discard within capacity, a Training with no trade, or no
 *     legal move at all before the end) */
#include "cx_internal.h"

static int check_ranges(const cx_state *s, const cx_cardset *cs) {
    if (s->n_players < CX_MIN_PLAYERS || s->n_players > CX_MAX_PLAYERS) return 1;
    if (s->current >= s->n_players || s->first_player >= s->n_players) return 1;
    if (s->phase > CX_PH_OVER || s->n_mission > CX_MISSION_SIZE) return 1;
    if (s->deck_len > cs->n_cards || s->deck_pos > s->deck_len) return 1;
    for (int p = 0; p < s->n_players; p++)
        if (s->players[p].n_board > CX_MAX_BOARD ||
            s->players[p].n_start_recruit > CX_MAX_START_RECRUIT) return 1;
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
        if (loc >= CX_NUM_LOCS) return 3;
        if (is_listed ? listed[c] != 1 : listed[c] != 0) return 3;
    }
    return 0;
}

static int check_boards(const cx_state *s, const cx_cardset *cs) {
    for (int p = 0; p < s->n_players; p++) {
        const cx_player *pl = &s->players[p];
        if (pl->track > CX_TRACK_SIZE) return 5;
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

static int immediate_effect(int effect) {
    return effect == CX_EFF_DISCARD_SURVIVAL || effect == CX_EFF_RECRUIT_TWO ||
           effect == CX_EFF_HOUSE_ONE || effect == CX_EFF_RECRUIT_MISSION ||
           effect == CX_EFF_DISCARD_SURVIVAL_RECRUIT;
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
        if (s->effect_card >= cs->n_cards ||
            s->loc[s->effect_card] != CX_LOC_RELEASED + s->current ||
            !immediate_effect(cs->cards[s->effect_card].effect)) return 8;
        break;
    case CX_PH_DISCARD:
        if (cx_player_spaces(p) <= cx_player_capacity(p, cs)) return 8;
        break;
    default: break;
    }
    return cx_legal_actions(s, cs, moves) > 0 ? 0 : 8;
}

int cx_check_invariants(const cx_state *s, const cx_cardset *cs) {
    int err = check_ranges(s, cs);
    if (!err) err = check_tokens(s);
    if (!err) err = check_places(s, cs);
    if (!err) err = check_boards(s, cs);
    if (!err) err = check_decision(s, cs);
    return err;
}
