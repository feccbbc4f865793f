/* cx_cardset.c -- the limits a card set must keep so that no game played
 * with it can take a count of the state past its width or a list past its
 * array. The Python loader refuses such a set with a message naming the
 * card and field (coexist_ai/cardschema.py); this check is the engine's own
 * guard, for a set that reached it by any other way. */
#include <stddef.h>
#include "cx_internal.h"

const uint8_t CX_EFFECT_IMMEDIATE[CX_NUM_EFFECTS] = {
    [CX_EFF_DISCARD_SURVIVAL] = 1, [CX_EFF_RECRUIT_TWO] = 1, [CX_EFF_HOUSE_ONE] = 1,
    [CX_EFF_RECRUIT_MISSION] = 1, [CX_EFF_DISCARD_SURVIVAL_RECRUIT] = 1,
};

const uint8_t CX_EFFECT_PARAMETERS[CX_NUM_EFFECTS] = {
    [CX_EFF_START_RECRUIT] = CX_PARAM_COLOUR,
    [CX_EFF_CAPTURE_BONUS] = CX_PARAM_AMOUNT,
    [CX_EFF_DISCARD_SURVIVAL] = CX_PARAM_AMOUNT,
    [CX_EFF_RECRUIT_TWO] = CX_PARAM_COLOUR,
    [CX_EFF_DISCARD_SURVIVAL_RECRUIT] = CX_PARAM_COLOUR,
    [CX_EFF_DOUBLE_PROTECT] = CX_PARAM_COLOUR,
    [CX_EFF_TRAIN_ONE_TO_ONE] = CX_PARAM_PAIR,
};

static int check_effect(const cx_card *c) {
    if (c->effect >= CX_NUM_EFFECTS) return CX_CS_EFFECT;
    int uses = CX_EFFECT_PARAMETERS[c->effect];
    int colour_ok = uses & CX_PARAM_COLOUR ? c->eff_colour < CX_NUM_CARETAKERS
                                           : c->eff_colour == 0;
    int amount_ok = uses & CX_PARAM_AMOUNT ? c->eff_amount >= 1 : c->eff_amount == 0;
    int pair_ok = uses & CX_PARAM_PAIR ? c->eff_from < c->eff_to &&
                                     c->eff_to < CX_NUM_CARETAKERS
                                   : (c->eff_from | c->eff_to) == 0;
    return colour_ok && amount_ok && pair_ok ? CX_OK : CX_CS_EFFECT;
}

static int check_card(const cx_card *c) {
    if (c->is_animal > 1 || c->fauna >= CX_NUM_FAUNAS) return CX_CS_CARD;
    if (!c->is_animal) {
        /* a caretaker card is its colour and fauna, nothing else */
        int rest = c->capture | c->conservation | c->effect | c->eff_colour |
                   c->eff_amount | c->eff_from | c->eff_to;
        for (int x = 0; x < CX_NUM_TOKENS; x++) rest |= c->needs[x] | c->protect[x];
        return c->colour < CX_NUM_CARETAKERS && !rest ? CX_OK : CX_CS_CARD;
    }
    if (c->colour) return CX_CS_CARD;
    /* a need above the supply could never be met; bytes below 128 keep the
     * byte-parallel comparisons of cx_moves.c exact */
    for (int x = 0; x < CX_NUM_TOKENS; x++)
        if (c->needs[x] > CX_SUPPLY_START[x] || c->protect[x] > CX_MAX_PROTECT)
            return CX_CS_CARD;
    return check_effect(c);
}

int cx_check_cardset(const cx_cardset *cs) {
    if (cs->n_cards > CX_MAX_CARDS) return CX_CS_CARDS;
    if (cs->center_spaces < 1 || cs->release_goal < 1 || cs->max_rounds < 1 ||
        cs->max_rounds > CX_MAX_ROUNDS) return CX_CS_RULES;
    int spaces = cs->center_spaces, start_recruits = 0;
    int capture = cs->capture_limit;
    for (int i = 0; i < cs->n_cards; i++) {
        const cx_card *c = &cs->cards[i];
        int err = check_card(c);
        if (err) return err;
        /* animals first: moves and dense action ids count on it */
        if (i && c->is_animal && !cs->cards[i - 1].is_animal) return CX_CS_CARDS;
        spaces += c->effect == CX_EFF_EXTRA_SPACE;
        start_recruits += c->effect == CX_EFF_START_RECRUIT;
        if (c->effect == CX_EFF_CAPTURE_BONUS) capture += c->eff_amount;
    }
    /* a seat may own every permanent effect of the set */
    if (spaces > CX_MAX_SPACES) return CX_CS_SPACES;
    if (start_recruits > CX_MAX_START_RECRUIT) return CX_CS_START_RECRUIT;
    if (capture > CX_MAX_CAPTURE) return CX_CS_CAPTURE;
    for (int i = cs->n_cards; i < CX_MAX_CARDS; i++) {
        const uint8_t *bytes = (const uint8_t *)&cs->cards[i];
        for (size_t k = 0; k < sizeof(cx_card); k++)
            if (bytes[k]) return CX_CS_CARDS;
    }
    return CX_OK;
}
