/* cx_eval.c -- rewards, score estimates and rollout policies. */
#include <math.h>
#include <string.h>
#include "cx_internal.h"
#include "cx_eval.h"
#include "cx_policy.h"

/* Credit for animals on a board, as a share of their conservation value:
 * housing is the first step to a release; each token on the card brings it
 * closer; a pool caretaker that an animal still needs counts nearly as much
 * as one already placed. */
#define HOUSED_CREDIT 0.05f
#define PROGRESS_CREDIT 0.45f
#define MATCHED_SHARE 0.8f
/* a caretaker no animal on the board needs: something to train or place */
#define LOOSE_TOKEN_CREDIT 0.1f
/* free spaces are where new caretakers go: a full board stalls, so the
 * first free spaces are worth keeping unless an animal is worth more */
#define FREE_SPACE_CREDIT 0.4f
#define FREE_SPACES_COUNTED 1

static float board_credit(const cx_player *pl, const cx_cardset *cs) {
    uint8_t pool[CX_NUM_CARETAKERS];
    float credit = 0.0f;
    memcpy(pool, pl->pool, sizeof pool);
    for (int i = 0; i < pl->n_board; i++) {
        const cx_slot *sl = &pl->board[i];
        const cx_card *c = &cs->cards[sl->card];
        float need = 0, have = 0;
        for (int x = 0; x < CX_NUM_TOKENS; x++) {
            int missing = c->needs[x] - sl->on[x];
            need += c->needs[x];
            have += sl->on[x];
            if (x < CX_NUM_CARETAKERS && missing > 0) {
                int matched = missing < pool[x] ? missing : pool[x];
                pool[x] -= (uint8_t)matched;
                have += MATCHED_SHARE * (float)matched;
            }
        }
        float done = need > 0 ? have / need : 1.0f;
        credit += (HOUSED_CREDIT + PROGRESS_CREDIT * done) * (float)c->conservation;
    }
    for (int x = 0; x < CX_NUM_CARETAKERS; x++)
        credit += LOOSE_TOKEN_CREDIT * (float)pool[x];
    int free = cx_player_capacity(pl, cs) - cx_player_spaces(pl);
    if (free > FREE_SPACES_COUNTED) free = FREE_SPACES_COUNTED;
    return credit + FREE_SPACE_CREDIT * (float)free;
}

void cx_estimate_scores(const cx_state *s, const cx_cardset *cs, float *out) {
    int now[CX_MAX_PLAYERS];
    cx_scores(s, cs, now);
    for (int p = 0; p < s->n_players; p++)
        out[p] = (float)now[p] + board_credit(&s->players[p], cs);
}

/* score points per unit of tanh in the margin reward */
#define MARGIN_SCALE 10.0f
/* score points per unit of logit when comparing estimated scores */
#define ESTIMATE_SCALE 4.0f

static float margin_reward(const float *score, int n, int p) {
    float best_other = -1e9f;
    for (int q = 0; q < n; q++)
        if (q != p && score[q] > best_other) best_other = score[q];
    return 0.5f + 0.5f * tanhf((score[p] - best_other) / MARGIN_SCALE);
}

/* final scores: exact comparisons with the track tie-break */
static void final_rewards(const cx_state *s, const cx_cardset *cs, int kind,
                          float *base, float *score) {
    int n = s->n_players, ranks[CX_MAX_PLAYERS], pts[CX_MAX_PLAYERS];
    int winners = 0;
    cx_scores(s, cs, pts);
    cx_ranks(s, cs, ranks);
    for (int p = 0; p < n; p++) { score[p] = (float)pts[p]; winners += ranks[p] == 1; }
    for (int p = 0; p < n; p++) {
        if (kind == CX_REWARD_WIN) {
            base[p] = ranks[p] == 1 ? 1.0f / (float)winners : 0.0f;
            continue;
        }
        float beaten = 0;
        for (int q = 0; q < n; q++)
            if (q != p) beaten += ranks[p] < ranks[q] ? 1.0f : ranks[p] == ranks[q] ? 0.5f : 0.0f;
        base[p] = beaten / (float)(n - 1);
    }
}

/* estimated scores: soft comparisons */
static void estimated_rewards(const cx_state *s, const cx_cardset *cs, int kind,
                              float *base, float *score) {
    int n = s->n_players;
    cx_estimate_scores(s, cs, score);
    for (int p = 0; p < n; p++) {
        float beaten = 0, best = 1;
        for (int q = 0; q < n; q++) {
            if (q == p) continue;
            float win = 1.0f / (1.0f + expf((score[q] - score[p]) / ESTIMATE_SCALE));
            beaten += win;
            if (win < best) best = win;
        }
        base[p] = kind == CX_REWARD_WIN ? best : beaten / (float)(n - 1);
    }
}

int cx_ended_by_safeguard(const cx_state *s) {
    return cx_is_over(s) && !s->end_triggered;
}

void cx_reward(const cx_state *s, const cx_cardset *cs, int kind,
               float margin_weight, float *out) {
    float base[CX_MAX_PLAYERS], score[CX_MAX_PLAYERS];
    if (cx_ended_by_safeguard(s)) {
        /* the round safeguard: no seat may play for it */
        for (int p = 0; p < s->n_players; p++) out[p] = 0.0f;
        return;
    }
    if (cx_is_over(s)) final_rewards(s, cs, kind, base, score);
    else estimated_rewards(s, cs, kind, base, score);
    for (int p = 0; p < s->n_players; p++) {
        float margin = margin_reward(score, s->n_players, p);
        out[p] = kind == CX_REWARD_MARGIN ? margin
               : (1.0f - margin_weight) * base[p] + margin_weight * margin;
    }
}

/* Weights of the light policy by kind of move: finish what is started
 * (release, assign, apply), rarely shuffle tokens around or give animals
 * away, never unassign unless nothing else is legal. */
static const uint8_t LIGHT_WEIGHT[CX_NUM_ACTION_KINDS] = {
    [CX_A_PASS] = 1, [CX_A_END] = 2, [CX_A_CENTER] = 4, [CX_A_TRAIN_START] = 1,
    [CX_A_APPLY] = 12, [CX_A_SKIP] = 1, [CX_A_RECRUIT] = 4, [CX_A_HOUSE] = 4,
    [CX_A_PROTECT] = 1, [CX_A_ASSIGN] = 10, [CX_A_MOVE] = 1, [CX_A_UNASSIGN] = 0,
    [CX_A_RELEASE] = 60, [CX_A_TRAIN] = 2, [CX_A_DISCARD_TOKEN] = 3,
    [CX_A_DISCARD_ANIMAL] = 1,
};

static cx_action pick_weighted(const cx_action *moves, int n, cx_rng *r) {
    int total = 0;
    for (int i = 0; i < n; i++) total += LIGHT_WEIGHT[CX_ACTION_KIND(moves[i])];
    if (total == 0) return moves[cx_rng_below(r, (uint32_t)n)];
    int ticket = (int)cx_rng_below(r, (uint32_t)total);
    for (int i = 0; i < n; i++) {
        ticket -= LIGHT_WEIGHT[CX_ACTION_KIND(moves[i])];
        if (ticket < 0) return moves[i];
    }
    return moves[n - 1];
}

cx_action cx_policy_pick(const cx_state *s, const cx_cardset *cs, int policy,
                         const float *weights, cx_rng *r) {
    cx_action moves[CX_MAX_ACTIONS];
    int n = cx_legal_actions(s, cs, moves);
    if (n == 1) return moves[0];
    if (policy == CX_POLICY_LIGHT) return pick_weighted(moves, n, r);
    if (policy == CX_POLICY_FITTED) return cx_fitted_pick(s, cs, moves, n, weights, r);
    return moves[cx_rng_below(r, (uint32_t)n)];
}

int cx_rollout(cx_state *s, const cx_cardset *cs, int policy,
               const float *weights, int max_turns, cx_rng *r) {
    int played = 0, turns = 0;
    /* a game ends within CX_MAX_ROUNDS rounds; the action cap only guards
     * the search against a bug that would let one turn go on forever */
    while (!cx_is_over(s) && (max_turns <= 0 || turns < max_turns) &&
           played < CX_MAX_ROLLOUT_ACTIONS) {
        int seat = s->current;
        cx_apply(s, cs, cx_policy_pick(s, cs, policy, weights, r));
        played++;
        turns += s->current != seat;
    }
    return played;
}
