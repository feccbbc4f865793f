/* cx_hidden.c -- what nobody at the table knows: the order of the draw pile.
 *
 * The hidden part of a state is exactly deck[deck_pos..deck_len). Hiding puts
 * it in card-index order (so an observation carries no trace of the real
 * order); determinizing shuffles it uniformly; the public hash reads the
 * state as if it were hidden. */
#include <string.h>
#include "cx_internal.h"

void cx_hide_deck(cx_state *s) {
    /* counting sort: card indices are small */
    uint8_t present[CX_MAX_CARDS] = {0};
    if (s->deck_len > CX_MAX_CARDS || s->deck_pos > s->deck_len) return;
    for (int i = s->deck_pos; i < s->deck_len; i++)
        if (s->deck[i] < CX_MAX_CARDS) present[s->deck[i]] = 1;
    int k = s->deck_pos;
    for (int c = 0; c < CX_MAX_CARDS; c++)
        if (present[c]) s->deck[k++] = (uint8_t)c;
}

void cx_determinize(cx_state *s, cx_rng *r) {
    if (s->deck_len > CX_MAX_CARDS || s->deck_pos > s->deck_len) return;
    cx_shuffle_bytes(r, s->deck + s->deck_pos, s->deck_len - s->deck_pos);
}

static inline uint64_t mix64(uint64_t h) {
    h ^= h >> 33; h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33; h *= 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 33);
}

uint64_t cx_public_hash(const cx_state *s) {
    cx_state hidden;
    memcpy(&hidden, s, sizeof hidden);
    cx_hide_deck(&hidden);
    const uint8_t *bytes = (const uint8_t *)&hidden;
    uint64_t h = 0x243F6A8885A308D3ULL ^ sizeof hidden;
    size_t i = 0;
    for (; i + 8 <= sizeof hidden; i += 8) {
        uint64_t w;
        memcpy(&w, bytes + i, 8);
        h = mix64(h ^ w) + i;
    }
    uint64_t tail = 0;
    memcpy(&tail, bytes + i, sizeof hidden - i);
    return mix64(h ^ tail);
}

int cx_playout_random(cx_state *s, const cx_cardset *cs, cx_rng *r,
                      int max_actions) {
    cx_action buf[CX_MAX_ACTIONS];
    int played = 0;
    while (s->phase != CX_PH_OVER && played < max_actions) {
        int n = cx_legal_actions(s, cs, buf);
        cx_apply(s, cs, buf[n == 1 ? 0 : cx_rng_below(r, (uint32_t)n)]);
        played++;
    }
    return played;
}
