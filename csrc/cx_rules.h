/* cx_rules.h -- the public C interface of the Coexist rules engine.
 *
 * Every function takes the card set beside the state: the state holds card
 * indices only, the card set says what each card is. Functions that can fail
 * on outside input return 0 or a negative CX_ERR_* code; the search-side
 * functions (cx_apply, cx_legal_actions) trust their input and never fail. */
#ifndef CX_RULES_H
#define CX_RULES_H

#include "cx_types.h"
#include "cx_rng.h"

enum {
    CX_OK = 0,
    CX_ERR_PLAYERS = -1,    /* players not in 2..4 */
    CX_ERR_FAUNA = -2,      /* a fauna out of range, repeated, or cardless */
    CX_ERR_FIRST = -3,      /* first player not a seat */
    CX_ERR_DECK = -4,       /* deck order is not a permutation of the cards
                               of the chosen faunas */
    CX_ERR_ILLEGAL = -5     /* the action is not legal in this state */
};

/* -- card sets -----------------------------------------------------------
 * 0 when a card set keeps the engine's limits, else what it breaks: */
enum {
    CX_CS_CARDS = 1,        /* more than CX_MAX_CARDS, bytes past n_cards, or
                               an animal after a caretaker card */
    CX_CS_RULES,            /* center_spaces, release_goal or max_rounds */
    CX_CS_CARD,             /* a card's kind, fauna, colour, needs or protect */
    CX_CS_EFFECT,           /* an effect kind or its parameters */
    CX_CS_SPACES,           /* center_spaces + extra_space cards > CX_MAX_SPACES */
    CX_CS_START_RECRUIT,    /* start_recruit cards > CX_MAX_START_RECRUIT */
    CX_CS_CAPTURE           /* capture_limit + capture_bonus amounts > CX_MAX_CAPTURE */
};
int cx_check_cardset(const cx_cardset *cs);
/* 1 for the effect kinds that act once, right after the release (asked
 * as an `effect` decision); the others are permanent */
extern const uint8_t CX_EFFECT_IMMEDIATE[CX_NUM_EFFECTS];
/* which parameters each effect kind takes (CX_PARAM_* bits) */
extern const uint8_t CX_EFFECT_PARAMETERS[CX_NUM_EFFECTS];

/* -- dense action ids (cx_actions.c) ------------------------------------ */
int cx_num_animals(const cx_cardset *cs);           /* they come first */
int cx_num_distinct_actions(const cx_cardset *cs);
int cx_action_id(const cx_cardset *cs, cx_action a);  /* -1: no move of cs */
cx_action cx_action_of_id(const cx_cardset *cs, int id);  /* -1: out of range */

/* -- setup ---------------------------------------------------------------
 * A new game with an explicit draw-pile order (deck[0] is dealt first). */
int cx_new_game(cx_state *s, const cx_cardset *cs, int n_players,
                const uint8_t *faunas, int first_player,
                const uint8_t *deck, int deck_len);

/* A new game in which chance is explicit: the Mission starts empty and
 * every card it is dealt, the opening five included, is a chance decision
 * (phase CX_PH_REFILL, moves `reveal <card>`), uniform over the draw pile. */
int cx_new_game_explicit_chance(cx_state *s, const cx_cardset *cs, int n_players,
                                const uint8_t *faunas, int first_player);

/* Cards of the chosen faunas in card-index order; returns their number. */
int cx_cards_of_faunas(const cx_cardset *cs, int n_players,
                       const uint8_t *faunas, uint8_t *out);

/* A new game dealt from a seed: faunas drawn from the seed when faunas is
 * NULL (distinct, among faunas that have cards), then the deck shuffled. */
int cx_new_game_seeded(cx_state *s, const cx_cardset *cs, int n_players,
                       const uint8_t *faunas, int first_player, uint64_t seed);

/* Start the current seat's turn: anti-cycle counts from the tokens on its
 * animals, then the first real decision (a start_recruit effect or the
 * choice of option). Used by setup and by positions loaded from JSON. */
void cx_begin_turn(cx_state *s);

/* -- moves ------------------------------------------------------------- */
int cx_legal_actions(const cx_state *s, const cx_cardset *cs, cx_action *out);
int cx_is_legal(const cx_state *s, const cx_cardset *cs, cx_action a);
void cx_apply(cx_state *s, const cx_cardset *cs, cx_action a); /* unchecked */
int cx_apply_checked(cx_state *s, const cx_cardset *cs, cx_action a);

static inline int cx_is_over(const cx_state *s) { return s->phase == CX_PH_OVER; }

/* -- score ----------------------------------------------------------------
 * out[p][0..2] = conservation, reputation, specialty points of seat p. */
void cx_score_breakdown(const cx_state *s, const cx_cardset *cs, int out[][3]);
void cx_scores(const cx_state *s, const cx_cardset *cs, int *out);
/* 1 = first place; tied seats share the better place. */
void cx_ranks(const cx_state *s, const cx_cardset *cs, int *out);
int cx_reputation_points(int track);
int cx_capture_limit(const cx_state *s, const cx_cardset *cs, int seat);
int cx_spaces_used(const cx_state *s, int seat);
int cx_capacity(const cx_state *s, const cx_cardset *cs, int seat);

/* -- hidden information --------------------------------------------------- */
void cx_hide_deck(cx_state *s);                 /* sort the hidden tail */
void cx_determinize(cx_state *s, cx_rng *r);    /* shuffle the hidden tail */
uint64_t cx_public_hash(const cx_state *s);     /* ignores the hidden order */

/* -- playouts and checks ----------------------------------------------------- */
/* Uniformly random moves until the game ends or max_actions are played;
 * returns the number of actions played. */
int cx_playout_random(cx_state *s, const cx_cardset *cs, cx_rng *r,
                      int max_actions);
/* 0 if every invariant holds, else a positive number naming the broken one
 * (see cx_check.c). */
int cx_check_invariants(const cx_state *s, const cx_cardset *cs);
/* Invariant 1 alone (every count, colour and card index in range, unused
 * bytes zero): enough for cx_begin_turn and cx_hide_deck to be safe on a
 * state read from outside, before the rest is checked. */
int cx_check_bounds(const cx_state *s, const cx_cardset *cs);
/* Every seat's permanent effects and released count, from the animals it
 * released (positions written without them: JSON). The start_recruit
 * colours stay in their given order when they are the released ones,
 * else they follow card order. Needs cx_check_bounds to hold. */
void cx_derive_effects(cx_state *s, const cx_cardset *cs);

#endif
