/* cx_learned.h -- the learned evaluation at the rollout cut-off: features
 * of a position from one seat's point of view, and a small model over them
 * (linear, or one hidden layer of rectified units) trained by
 * `coexist-ai train` (coexist_ai/learn/) to predict the seat's final result.
 *
 * The model has one output per reward kind (cx_eval.h): the expected win
 * share, rank share and margin reward of the seat at the end of the game,
 * each a probability-like number in [0, 1]. They replace the hand-written
 * estimate of cx_reward at a cut-off position, blended the same way. */
#ifndef CX_LEARNED_H
#define CX_LEARNED_H

#include "cx_eval.h"

/* features of one seat (a row of cx_learned_features' seat part) */
enum {
    CX_LF_CONSERVATION = 0, /* points of the animals it released */
    CX_LF_REPUTATION,       /* points of its track now */
    CX_LF_SPECIALTY,        /* points of its specialty now */
    CX_LF_TRACK,            /* Survival tokens on its track */
    CX_LF_RELEASED,         /* animals released (the 5th ends the game) */
    CX_LF_BOARD,            /* animals on its board */
    CX_LF_BOARD_VALUE,      /* their conservation values, summed */
    CX_LF_BOARD_PROGRESS,   /* each value times the share of its needs met,
                               pool caretakers it still needs counted */
    CX_LF_READY_VALUE,      /* values of animals that can be released now */
    CX_LF_MISSING_CARETAKERS, /* caretakers the board still needs beyond
                                 the pool */
    CX_LF_MISSING_SURVIVAL, /* Survival tokens the board still needs */
    CX_LF_POOL,             /* unassigned caretakers */
    CX_LF_LOOSE_POOL,       /* of them, those no animal of its board needs */
    CX_LF_FREE_SPACES,      /* capacity - spaces used */
    CX_LF_CAPTURE_LIMIT,    /* its Mission B limit */
    CX_LF_START_RECRUIT,    /* start_recruit effects owned */
    CX_LF_EXTRA_SPACES,     /* extra_space effects owned */
    CX_LF_CAPTURE_BONUS,    /* capture_bonus amounts owned */
    CX_LF_SKIP_SURVIVAL,    /* skip_survival effects owned */
    CX_LF_DOUBLE_PROTECT,   /* double_protect effects owned */
    CX_LF_ONE_TO_ONE,       /* train_one_to_one pairs owned */
    CX_LEARNED_SEAT_FEATURES
};

/* A seat's feature vector: its own seat features, the mean of the other
 * seats' (so one model reads 2, 3 and 4 players), the best score now of
 * another seat, then the context below. */
enum {
    CX_LF_OWN = 0,
    CX_LF_OTHERS = CX_LEARNED_SEAT_FEATURES,
    CX_LF_BEST_OTHER_SCORE = 2 * CX_LEARNED_SEAT_FEATURES,
    CX_LF_TO_MOVE,          /* 1: the seat moves now */
    CX_LF_PLAYED_ROUND,     /* 1: it has had its turn in this round */
    CX_LF_FAUNA,            /* one-hot of its specialty, 4 columns */
    CX_LF_DECK_LEFT = CX_LF_FAUNA + CX_NUM_FAUNAS, /* share of the pile left */
    CX_LF_END_TRIGGERED,    /* 1: this round is the last */
    CX_LF_ROUNDS,           /* complete rounds played */
    CX_LF_PLAYERS,          /* one-hot of 2, 3, 4 players, 3 columns */
    CX_LF_MISSION_VALUE = CX_LF_PLAYERS + CX_MAX_PLAYERS - CX_MIN_PLAYERS + 1,
                            /* conservation of the Mission's animals */
    CX_LEARNED_FEATURES
};

#define CX_LEARNED_MAX_HIDDEN 64
#define CX_LEARNED_HEADS 3   /* CX_REWARD_WIN, _RANK, _MARGIN, in that order */
#define CX_LEARNED_MAX_IN \
    (CX_LEARNED_FEATURES > CX_LEARNED_MAX_HIDDEN ? CX_LEARNED_FEATURES \
                                                 : CX_LEARNED_MAX_HIDDEN)

/* The weights, loaded once (coexist_ai/_learned.pxi checks them first):
 * x' = (x - shift) / scale, then h = relu(w1 x' + b1) when hidden > 0
 * (else h = x'), then each output = sigmoid(w2 h + b2). */
typedef struct {
    int hidden;                       /* hidden units, 0: a linear model */
    float shift[CX_LEARNED_FEATURES]; /* the training set's feature means */
    float scale[CX_LEARNED_FEATURES]; /* ... and spreads, all > 0 */
    float w1[CX_LEARNED_MAX_HIDDEN][CX_LEARNED_FEATURES];
    float b1[CX_LEARNED_MAX_HIDDEN];
    float w2[CX_LEARNED_HEADS][CX_LEARNED_MAX_IN]; /* over hidden or inputs */
    float b2[CX_LEARNED_HEADS];
} cx_learned;

/* out[p * CX_LEARNED_FEATURES + f]: feature f of every seat p */
void cx_learned_features(const cx_state *s, const cx_cardset *cs, float *out);

/* the model's outputs (win, rank, margin) for one feature vector */
void cx_learned_predict(const cx_learned *m, const float *x, float *heads);

/* Reward of every seat in [0, 1] at a position that is not over, as
 * cx_reward gives it, with the model's outputs as the estimate. */
void cx_learned_reward(const cx_learned *m, const cx_state *s,
                       const cx_cardset *cs, int kind, float margin_weight,
                       float *out);

/* The reward of a search's leaf: cx_learned_reward with model `m` at a
 * cut-off, cx_reward at the end of the game or when `m` is NULL. */
void cx_cutoff_reward(const cx_learned *m, const cx_state *s,
                      const cx_cardset *cs, int kind, float margin_weight,
                      float *out);

#endif
