/* cx_learned.c -- features and model of cx_learned.h. The Python reference
 * of the features (coexist_ai/learn/features.py) reads the same quantities
 * through the typed views; tests/test_learned.py checks the two agree. */
#include <math.h>
#include <string.h>
#include "cx_internal.h"
#include "cx_learned.h"

/* the board: values, progress (pool caretakers matched to the animals
 * that need them, in board order, as cx_eval.c's board credit does) */
static void board_features(const cx_player *pl, const cx_cardset *cs, float *g) {
    uint8_t pool[CX_NUM_CARETAKERS];
    memcpy(pool, pl->pool, sizeof pool);
    for (int i = 0; i < pl->n_board; i++) {
        const cx_slot *sl = &pl->board[i];
        const cx_card *c = &cs->cards[sl->card];
        int need = 0, have = 0;
        for (int x = 0; x < CX_NUM_TOKENS; x++) {
            int missing = c->needs[x] - sl->on[x];
            need += c->needs[x];
            have += sl->on[x];
            if (x == CX_S) { g[CX_LF_MISSING_SURVIVAL] += (float)missing; continue; }
            int matched = missing < pool[x] ? missing : pool[x];
            pool[x] -= (uint8_t)matched;
            have += matched;
            g[CX_LF_MISSING_CARETAKERS] += (float)(missing - matched);
        }
        float value = (float)c->conservation;
        g[CX_LF_BOARD_VALUE] += value;
        g[CX_LF_BOARD_PROGRESS] += value * (need > 0 ? (float)have / (float)need : 1.0f);
        if (cx_slot_complete(sl, cs)) g[CX_LF_READY_VALUE] += value;
    }
    for (int x = 0; x < CX_NUM_CARETAKERS; x++) {
        g[CX_LF_POOL] += (float)pl->pool[x];
        g[CX_LF_LOOSE_POOL] += (float)pool[x];
    }
}

static void seat_features(const cx_state *s, const cx_cardset *cs, int p,
                          const int *points, float *g) {
    const cx_player *pl = &s->players[p];
    memset(g, 0, sizeof(float) * CX_LEARNED_SEAT_FEATURES);
    g[CX_LF_CONSERVATION] = (float)points[0];
    g[CX_LF_REPUTATION] = (float)points[1];
    g[CX_LF_SPECIALTY] = (float)points[2];
    g[CX_LF_TRACK] = pl->track;
    g[CX_LF_RELEASED] = pl->n_released;
    g[CX_LF_BOARD] = pl->n_board;
    board_features(pl, cs, g);
    g[CX_LF_FREE_SPACES] = (float)cx_room(pl, cs);
    g[CX_LF_CAPTURE_LIMIT] = (float)cx_player_capture_limit(pl, cs);
    g[CX_LF_START_RECRUIT] = pl->n_start_recruit;
    g[CX_LF_EXTRA_SPACES] = pl->extra_spaces;
    g[CX_LF_CAPTURE_BONUS] = pl->capture_bonus;
    g[CX_LF_SKIP_SURVIVAL] = pl->skip_survival;
    for (int x = 0; x < CX_NUM_CARETAKERS; x++) {
        g[CX_LF_DOUBLE_PROTECT] += pl->double_protect[x];
        for (int y = 0; y < CX_NUM_CARETAKERS; y++)
            g[CX_LF_ONE_TO_ONE] += (float)(pl->one_to_one[x] >> y & 1);
    }
}

/* what every seat reads alike, and its own part of the context */
static void context_features(const cx_state *s, const cx_cardset *cs, int p,
                             float *x) {
    const cx_player *pl = &s->players[p];
    x[CX_LF_TO_MOVE] = p == s->current;
    x[CX_LF_PLAYED_ROUND] = pl->turns > s->rounds;
    x[CX_LF_FAUNA + pl->fauna] = 1.0f;
    x[CX_LF_DECK_LEFT] = s->deck_len ? (float)(s->deck_len - s->deck_pos) / (float)s->deck_len : 0.0f;
    x[CX_LF_END_TRIGGERED] = s->end_triggered != 0;
    x[CX_LF_ROUNDS] = s->rounds;
    x[CX_LF_PLAYERS + s->n_players - CX_MIN_PLAYERS] = 1.0f;
    for (int i = 0; i < s->n_mission; i++) {
        const cx_card *c = &cs->cards[s->mission[i]];
        if (c->is_animal) x[CX_LF_MISSION_VALUE] += (float)c->conservation;
    }
}

void cx_learned_features(const cx_state *s, const cx_cardset *cs, float *out) {
    int n = s->n_players, points[CX_MAX_PLAYERS][3];
    float g[CX_MAX_PLAYERS][CX_LEARNED_SEAT_FEATURES];
    cx_score_breakdown(s, cs, points);
    for (int p = 0; p < n; p++) seat_features(s, cs, p, points[p], g[p]);
    for (int p = 0; p < n; p++) {
        float *x = out + p * CX_LEARNED_FEATURES;
        memset(x, 0, sizeof(float) * CX_LEARNED_FEATURES);
        float best_other = -1e9f;
        for (int q = 0; q < n; q++) {
            if (q == p) continue;
            float total = (float)(points[q][0] + points[q][1] + points[q][2]);
            if (total > best_other) best_other = total;
            for (int f = 0; f < CX_LEARNED_SEAT_FEATURES; f++)
                x[CX_LF_OTHERS + f] += g[q][f] / (float)(n - 1);
        }
        memcpy(x + CX_LF_OWN, g[p], sizeof g[p]);
        x[CX_LF_BEST_OTHER_SCORE] = best_other;
        context_features(s, cs, p, x);
    }
}

static float sigmoid(float z) { return 1.0f / (1.0f + expf(-z)); }

void cx_learned_predict(const cx_learned *m, const float *x, float *heads) {
    float in[CX_LEARNED_FEATURES], h[CX_LEARNED_MAX_HIDDEN];
    const float *top = in;
    int width = CX_LEARNED_FEATURES;
    for (int f = 0; f < CX_LEARNED_FEATURES; f++)
        in[f] = (x[f] - m->shift[f]) / m->scale[f];
    if (m->hidden > 0) {
        for (int j = 0; j < m->hidden; j++) {
            float z = m->b1[j];
            for (int f = 0; f < CX_LEARNED_FEATURES; f++) z += m->w1[j][f] * in[f];
            h[j] = z > 0.0f ? z : 0.0f;
        }
        top = h;
        width = m->hidden;
    }
    for (int k = 0; k < CX_LEARNED_HEADS; k++) {
        float z = m->b2[k];
        for (int j = 0; j < width; j++) z += m->w2[k][j] * top[j];
        heads[k] = sigmoid(z);
    }
}

void cx_learned_reward(const cx_learned *m, const cx_state *s,
                       const cx_cardset *cs, int kind, float margin_weight,
                       float *out) {
    float x[CX_MAX_PLAYERS * CX_LEARNED_FEATURES], heads[CX_LEARNED_HEADS];
    cx_learned_features(s, cs, x);
    for (int p = 0; p < s->n_players; p++) {
        cx_learned_predict(m, x + p * CX_LEARNED_FEATURES, heads);
        float margin = heads[CX_REWARD_MARGIN];
        float base = heads[kind == CX_REWARD_WIN ? CX_REWARD_WIN : CX_REWARD_RANK];
        out[p] = kind == CX_REWARD_MARGIN ? margin
               : (1.0f - margin_weight) * base + margin_weight * margin;
    }
}

void cx_cutoff_reward(const cx_learned *m, const cx_state *s,
                      const cx_cardset *cs, int kind, float margin_weight,
                      float *out) {
    if (m && !cx_is_over(s)) cx_learned_reward(m, s, cs, kind, margin_weight, out);
    else cx_reward(s, cs, kind, margin_weight, out);
}
