/* cx_policy.c -- features of a move for the fitted rollout policy.
 *
 * A move's logit is weights . features: the kind of move (a one-hot, which
 * alone is the light policy's table in log form) and a few facts about the
 * card or colour it acts on, each scaled to about 0..1. They are cheap (no
 * move is played to compute them) because a rollout draws a move for every
 * decision of every turn it plays. */
#include <math.h>
#include <string.h>
#include "cx_internal.h"
#include "cx_policy.h"

enum {
    F_HOUSE_VALUE = CX_POLICY_KINDS, /* conservation / 3 */
    F_HOUSE_COVERED,  /* share of its caretaker needs the pool holds */
    F_HOUSE_OWN,      /* of the mover's own fauna */
    F_HOUSE_NEEDS_S,  /* it takes Survival tokens off the track */
    F_RELEASE_VALUE,
    F_RELEASE_FOREST, /* a forest animal, released by the forest seat */
    F_RELEASE_EFFECT, /* it has an immediate effect to apply */
    F_PROTECT_OWN,    /* an air animal protected by the air seat */
    F_PROTECT_AIR,    /* an air animal protected by another seat */
    F_PROTECT_S,      /* Survival tokens it brings to the track / 2 */
    F_PROTECT_GAIN,   /* caretakers it brings / 3 */
    F_PROTECT_VALUE,  /* conservation given up / 3 */
    F_ASSIGN_READY,   /* the animal is ready to release after it */
    F_ASSIGN_S,       /* a Survival token off the track */
    F_ASSIGN_VALUE,
    F_ASSIGN_LEFT,    /* share of the animal's needs still missing after it */
    F_RECRUIT_SHORT,  /* a colour the board needs and the pool lacks */
    F_RECRUIT_FULL,   /* one more caretaker would not fit */
    F_TRAIN_GAIN,     /* the colour gained is short */
    F_TRAIN_LOSS,     /* the colour given up is needed on the board */
    F_DISCARD_SHORT,  /* a token discarded of a colour that is short */
    F_DISCARD_VALUE,  /* an animal discarded: its conservation / 3 */
    F_END_READY,      /* ending the option with animals ready (count) */
    F_CENTER_READY,   /* choosing the Center with animals ready (count) */
    F_MOVE_READY,     /* the target is ready after the move */
    F_PROTECT_TRACK,  /* the track's fill / 8, on protect moves */
    F_ROOM,           /* free spaces / 3, on house and recruit moves */
    F_LATE_HOUSE,     /* housing when the draw pile is nearly gone */
    F_LATE_RECRUIT,   /* recruiting when the draw pile is nearly gone */
    F_COUNT
};
_Static_assert(F_COUNT == CX_POLICY_FEATURES, "feature count");
_Static_assert(CX_A_DISCARD_ANIMAL + 1 == CX_POLICY_KINDS, "kind one-hots");

/* "the draw pile is nearly gone": fewer cards left than this */
#define LATE_CARDS 10

void cx_move_context_of(const cx_state *s, const cx_cardset *cs,
                        cx_move_context *ctx) {
    const cx_player *p = CX_CUR(s);
    memset(ctx, 0, sizeof *ctx);
    for (int i = 0; i < p->n_board; i++) {
        const cx_slot *sl = &p->board[i];
        const uint8_t *needs = cs->cards[sl->card].needs;
        for (int x = 0; x < CX_NUM_TOKENS; x++)
            if (needs[x] > sl->on[x]) ctx->shortfall[x] += needs[x] - sl->on[x];
        ctx->ready += cx_slot_complete(sl, cs);
    }
    for (int x = 0; x < CX_NUM_CARETAKERS; x++) {
        ctx->shortfall[x] -= p->pool[x];
        if (ctx->shortfall[x] < 0) ctx->shortfall[x] = 0;
    }
    ctx->shortfall[CX_S] -= p->track;
    if (ctx->shortfall[CX_S] < 0) ctx->shortfall[CX_S] = 0;
    ctx->room = cx_room(p, cs);
}

static float thirds(int v) { return (float)v / 3.0f; }

/* a move's nonzero features, as (index, value) pairs */
typedef struct {
    int n;
    uint8_t index[CX_POLICY_MAX_ACTIVE];
    float value[CX_POLICY_MAX_ACTIVE];
} active;

static void put(active *f, int index, float value) {
    if (value == 0.0f) return;
    f->index[f->n] = (uint8_t)index;
    f->value[f->n++] = value;
}

static void house_features(const cx_state *s, const cx_player *p,
                           const cx_card *c, const cx_move_context *ctx,
                           active *f) {
    int need = 0, covered = 0;
    for (int x = 0; x < CX_NUM_CARETAKERS; x++) {
        need += c->needs[x];
        covered += c->needs[x] < p->pool[x] ? c->needs[x] : p->pool[x];
    }
    put(f, F_HOUSE_VALUE, thirds(c->conservation));
    put(f, F_HOUSE_COVERED, need ? (float)covered / (float)need : 1.0f);
    put(f, F_HOUSE_OWN, c->fauna == p->fauna);
    put(f, F_HOUSE_NEEDS_S, c->needs[CX_S] > 0);
    put(f, F_ROOM, thirds(ctx->room));
    put(f, F_LATE_HOUSE, s->deck_len - s->deck_pos < LATE_CARDS);
}

static void protect_features(const cx_player *p, const cx_card *c, active *f) {
    int s = c->protect[CX_S] - p->skip_survival, gain = 0;
    if (s > CX_TRACK_SIZE - p->track) s = CX_TRACK_SIZE - p->track;
    if (s < 0) s = 0;
    for (int x = 0; x < CX_NUM_CARETAKERS; x++) gain += c->protect[x];
    put(f, F_PROTECT_OWN, c->fauna == CX_AIR && p->fauna == CX_AIR);
    put(f, F_PROTECT_AIR, c->fauna == CX_AIR && p->fauna != CX_AIR);
    put(f, F_PROTECT_S, (float)s / 2.0f);
    put(f, F_PROTECT_GAIN, thirds(gain));
    put(f, F_PROTECT_VALUE, thirds(c->conservation));
    put(f, F_PROTECT_TRACK, (float)p->track / (float)CX_TRACK_SIZE);
}

/* a token of colour x onto the animal `card` (assign, or move's target):
 * is it ready after, and what share of its needs is still missing? */
static void token_onto(const cx_player *p, const cx_cardset *cs, int card,
                       int x, int *ready, float *left) {
    int i = cx_slot_of(p, card);
    *ready = 0;
    *left = 0.0f;
    if (i < 0) return;
    const cx_slot *sl = &p->board[i];
    const uint8_t *needs = cs->cards[card].needs;
    int need = 0, missing = 0;
    for (int y = 0; y < CX_NUM_TOKENS; y++) {
        int have = sl->on[y] + (y == x);
        need += needs[y];
        missing += needs[y] > have ? needs[y] - have : 0;
    }
    *ready = missing == 0;
    *left = need ? (float)missing / (float)need : 0.0f;
}

static void token_features(const cx_player *p, const cx_cardset *cs,
                           const cx_move_context *ctx, cx_action a, active *f) {
    int kind = CX_ACTION_KIND(a), x = CX_ACTION_X(a), ready;
    float left;
    switch (kind) {
    case CX_A_ASSIGN: {
        const cx_card *c = &cs->cards[CX_ACTION_A(a)];
        token_onto(p, cs, CX_ACTION_A(a), x, &ready, &left);
        put(f, F_ASSIGN_READY, (float)ready);
        put(f, F_ASSIGN_S, x == CX_S);
        put(f, F_ASSIGN_VALUE, thirds(c->conservation));
        put(f, F_ASSIGN_LEFT, left);
        break;
    }
    case CX_A_MOVE:
        token_onto(p, cs, CX_ACTION_B(a), x, &ready, &left);
        put(f, F_MOVE_READY, (float)ready);
        break;
    case CX_A_TRAIN:
        put(f, F_TRAIN_GAIN, ctx->shortfall[CX_ACTION_Y(a)] > 0);
        put(f, F_TRAIN_LOSS, ctx->shortfall[x] > 0 || p->pool[x] <= ctx->shortfall[x]);
        break;
    case CX_A_DISCARD_TOKEN:
        put(f, F_DISCARD_SHORT, ctx->shortfall[x] > 0);
        break;
    }
}

static void move_features(const cx_state *s, const cx_cardset *cs,
                          const cx_move_context *ctx, cx_action a, active *f) {
    const cx_player *p = CX_CUR(s);
    int kind = CX_ACTION_KIND(a), x = CX_ACTION_X(a);
    const cx_card *c = &cs->cards[CX_ACTION_A(a)];
    f->n = 0;
    if (kind < CX_POLICY_KINDS) put(f, kind, 1.0f);
    switch (kind) {
    case CX_A_HOUSE: house_features(s, p, c, ctx, f); break;
    case CX_A_PROTECT: protect_features(p, c, f); break;
    case CX_A_RELEASE:
        put(f, F_RELEASE_VALUE, thirds(c->conservation));
        put(f, F_RELEASE_FOREST, c->fauna == CX_FOREST && p->fauna == CX_FOREST);
        put(f, F_RELEASE_EFFECT, CX_EFFECT_IMMEDIATE[c->effect]);
        break;
    case CX_A_RECRUIT:
        put(f, F_RECRUIT_SHORT, ctx->shortfall[x] > 0);
        put(f, F_RECRUIT_FULL, !cx_fits_one_more(p, x, ctx->room));
        put(f, F_ROOM, thirds(ctx->room));
        put(f, F_LATE_RECRUIT, s->deck_len - s->deck_pos < LATE_CARDS);
        break;
    case CX_A_DISCARD_ANIMAL: put(f, F_DISCARD_VALUE, thirds(c->conservation)); break;
    case CX_A_END: put(f, F_END_READY, (float)ctx->ready); break;
    case CX_A_CENTER: put(f, F_CENTER_READY, (float)ctx->ready); break;
    default: token_features(p, cs, ctx, a, f); break;
    }
}

void cx_move_features(const cx_state *s, const cx_cardset *cs,
                      const cx_move_context *ctx, cx_action a, float *out) {
    active f = {0};
    move_features(s, cs, ctx, a, &f);
    memset(out, 0, sizeof(float) * CX_POLICY_FEATURES);
    for (int k = 0; k < f.n; k++) out[f.index[k]] = f.value[k];
}

/* logits past this are clipped: a weight file cannot overflow expf */
#define MAX_LOGIT 30.0f

cx_action cx_fitted_pick(const cx_state *s, const cx_cardset *cs,
                         const cx_action *moves, int n, const float *weights,
                         cx_rng *r) {
    float logit[CX_MAX_ACTIONS], best = -MAX_LOGIT;
    cx_move_context ctx;
    active f = {0};
    cx_move_context_of(s, cs, &ctx);
    for (int i = 0; i < n; i++) {
        move_features(s, cs, &ctx, moves[i], &f);
        float z = 0.0f;
        for (int k = 0; k < f.n; k++) z += weights[f.index[k]] * f.value[k];
        if (!(z < MAX_LOGIT)) z = MAX_LOGIT;      /* NaN too */
        if (z < -MAX_LOGIT) z = -MAX_LOGIT;
        logit[i] = z;
        if (z > best) best = z;
    }
    double total = 0.0;
    for (int i = 0; i < n; i++) total += logit[i] = expf(logit[i] - best);
    double ticket = cx_rng_unit(r) * total;
    for (int i = 0; i < n; i++) {
        ticket -= logit[i];
        if (ticket < 0) return moves[i];
    }
    return moves[n - 1];
}
