/* cx_policy.h -- the fitted rollout policy: a softmax over cheap features
 * of each legal move, its weights fitted to the moves of strong play
 * (coexist_ai/learn/policy.py). The features read only public facts. */
#ifndef CX_POLICY_H
#define CX_POLICY_H

#include "cx_rules.h"

/* kind one-hots first (CX_A_PASS .. CX_A_DISCARD_ANIMAL), then the
 * features of the card or colour a move acts on (cx_policy.c) */
#define CX_POLICY_KINDS 16
#define CX_POLICY_FEATURES 45
/* nonzero features of one move, at most */
#define CX_POLICY_MAX_ACTIVE 10

/* what every move of one decision shares: the mover's needs and room */
typedef struct {
    int shortfall[CX_NUM_TOKENS]; /* tokens its board animals still need,
                                     less the pool's caretakers of the colour */
    int ready;                    /* its animals ready to release */
    int room;                     /* free spaces of its Center */
} cx_move_context;

void cx_move_context_of(const cx_state *s, const cx_cardset *cs,
                        cx_move_context *ctx);

/* the features of move `a` (legal in `s`) into f[CX_POLICY_FEATURES] */
void cx_move_features(const cx_state *s, const cx_cardset *cs,
                      const cx_move_context *ctx, cx_action a, float *f);

/* one move drawn with probability proportional to exp(weights . features) */
cx_action cx_fitted_pick(const cx_state *s, const cx_cardset *cs,
                         const cx_action *moves, int n, const float *weights,
                         cx_rng *r);

#endif
