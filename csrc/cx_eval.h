/* cx_eval.h -- what a finished or cut-off game is worth to each seat, and
 * the fast move policies used in rollouts. */
#ifndef CX_EVAL_H
#define CX_EVAL_H

#include "cx_rules.h"

enum {
    CX_REWARD_WIN = 0,   /* 1 shared among the winners, 0 for the others */
    CX_REWARD_RANK = 1,  /* share of the other seats beaten (ties: half) */
    CX_REWARD_MARGIN = 2 /* 0.5 + 0.5 tanh((own - best other score) / 10) */
};

enum {
    CX_POLICY_RANDOM = 0, /* uniform over the legal moves */
    CX_POLICY_LIGHT = 1,  /* random, weighted by the kind of move */
    CX_POLICY_FITTED = 2  /* a softmax over move features (cx_policy.h) */
};

/* Reward of every seat in [0, 1]: the chosen kind blended with the margin
 * reward, `margin_weight` of the way. Uses final scores when the game is
 * over, estimated ones (cx_estimate_scores) when it is cut off. A game
 * ended by the round safeguard (no end was triggered) is worth 0 to every
 * seat: RULES.md says it never happens between reasonable players, so a
 * leader must not count on it to keep a lead by marking time. */
void cx_reward(const cx_state *s, const cx_cardset *cs, int kind,
               float margin_weight, float *out);

/* the game is over, ended by the round safeguard (no end was triggered) */
int cx_ended_by_safeguard(const cx_state *s);

/* Points each seat would score now, plus credit for the animals on its
 * board by how close they are to release (counting pool caretakers they
 * still need) and a little for other caretakers. */
void cx_estimate_scores(const cx_state *s, const cx_cardset *cs, float *out);

/* one move drawn by a rollout policy; `weights` (CX_POLICY_FEATURES of
 * them) are the fitted policy's and are read only by it */
cx_action cx_policy_pick(const cx_state *s, const cx_cardset *cs, int policy,
                         const float *weights, cx_rng *r);

/* Play by a policy until the end or until `max_turns` turns have ended (0:
 * no limit); returns the moves played. The cut-off counts turns, not moves,
 * so that every rollout covers the same stretch of the game: one counted in
 * moves would end fewer rounds ahead after a turn spent shuffling tokens,
 * and a discount by rounds would then reward the shuffling. */
int cx_rollout(cx_state *s, const cx_cardset *cs, int policy,
               const float *weights, int max_turns, cx_rng *r);

#endif
