/* cx_setup.c -- dealing a new game, and scoring one. */
#include <string.h>
#include "cx_internal.h"

int cx_cards_of_faunas(const cx_cardset *cs, int n_players,
                       const uint8_t *faunas, uint8_t *out) {
    int n = 0;
    for (int c = 0; c < cs->n_cards; c++)
        for (int p = 0; p < n_players; p++)
            if (cs->cards[c].fauna == faunas[p]) { out[n++] = (uint8_t)c; break; }
    return n;
}

static int fauna_has_cards(const cx_cardset *cs, int fauna) {
    for (int c = 0; c < cs->n_cards; c++)
        if (cs->cards[c].fauna == fauna) return 1;
    return 0;
}

static int check_faunas(const cx_cardset *cs, int n_players, const uint8_t *faunas) {
    for (int p = 0; p < n_players; p++) {
        if (faunas[p] >= CX_NUM_FAUNAS || !fauna_has_cards(cs, faunas[p]))
            return CX_ERR_FAUNA;
        for (int q = 0; q < p; q++)
            if (faunas[q] == faunas[p]) return CX_ERR_FAUNA;
    }
    return CX_OK;
}

/* is deck a permutation of the cards of the chosen faunas? */
static int check_deck(const cx_cardset *cs, int n_players, const uint8_t *faunas,
                      const uint8_t *deck, int deck_len) {
    uint8_t expected[CX_MAX_CARDS], seen[CX_MAX_CARDS] = {0};
    int n = cx_cards_of_faunas(cs, n_players, faunas, expected);
    if (deck_len != n) return CX_ERR_DECK;
    uint8_t wanted[CX_MAX_CARDS] = {0};
    for (int i = 0; i < n; i++) wanted[expected[i]] = 1;
    for (int i = 0; i < deck_len; i++) {
        if (deck[i] >= CX_MAX_CARDS || !wanted[deck[i]] || seen[deck[i]])
            return CX_ERR_DECK;
        seen[deck[i]] = 1;
    }
    return CX_OK;
}

int cx_new_game(cx_state *s, const cx_cardset *cs, int n_players,
                const uint8_t *faunas, int first_player,
                const uint8_t *deck, int deck_len) {
    if (n_players < CX_MIN_PLAYERS || n_players > CX_MAX_PLAYERS)
        return CX_ERR_PLAYERS;
    if (first_player < 0 || first_player >= n_players) return CX_ERR_FIRST;
    int err = check_faunas(cs, n_players, faunas);
    if (err) return err;
    err = check_deck(cs, n_players, faunas, deck, deck_len);
    if (err) return err;

    memset(s, 0, sizeof *s);
    s->n_players = (uint8_t)n_players;
    s->first_player = s->current = (uint8_t)first_player;
    memcpy(s->supply, CX_SUPPLY_START, CX_NUM_TOKENS);
    for (int p = 0; p < n_players; p++) s->players[p].fauna = faunas[p];
    s->deck_len = (uint8_t)deck_len;
    memcpy(s->deck, deck, (size_t)deck_len);
    for (int i = 0; i < deck_len; i++) s->loc[deck[i]] = CX_LOC_DECK;
    /* the opening deal: the first five cards, in order; it never triggers
     * the end, even from a draw pile of five cards or fewer */
    cx_refill_mission(s);
    s->end_triggered = 0;
    cx_begin_turn(s);
    return CX_OK;
}

int cx_new_game_explicit_chance(cx_state *s, const cx_cardset *cs, int n_players,
                                const uint8_t *faunas, int first_player) {
    uint8_t deck[CX_MAX_CARDS];
    int len = n_players >= CX_MIN_PLAYERS && n_players <= CX_MAX_PLAYERS
            ? cx_cards_of_faunas(cs, n_players, faunas, deck) : 0;
    int err = cx_new_game(s, cs, n_players, faunas, first_player, deck, len);
    if (err) return err;
    /* take the opening deal back: chance decisions deal it instead */
    for (int i = 0; i < s->n_mission; i++) s->loc[s->mission[i]] = CX_LOC_DECK;
    memset(s->mission, 0, sizeof s->mission);
    s->n_mission = 0;
    memcpy(s->deck, deck, (size_t)len);
    s->deck_pos = 0;
    s->explicit_chance = 1;
    cx_enter_refill(s, 1);
    return CX_OK;
}

int cx_new_game_seeded(cx_state *s, const cx_cardset *cs, int n_players,
                       const uint8_t *faunas, int first_player, uint64_t seed) {
    cx_rng rng;
    uint8_t drawn[CX_NUM_FAUNAS], deck[CX_MAX_CARDS];
    cx_rng_seed(&rng, seed);
    if (n_players < CX_MIN_PLAYERS || n_players > CX_MAX_PLAYERS)
        return CX_ERR_PLAYERS;
    if (faunas == NULL) {
        int n = 0;
        for (int f = 0; f < CX_NUM_FAUNAS; f++)
            if (fauna_has_cards(cs, f)) drawn[n++] = (uint8_t)f;
        if (n < n_players) return CX_ERR_FAUNA;
        cx_shuffle_bytes(&rng, drawn, n);
        faunas = drawn;
    } else if (check_faunas(cs, n_players, faunas)) {
        return CX_ERR_FAUNA;
    }
    int len = cx_cards_of_faunas(cs, n_players, faunas, deck);
    cx_shuffle_bytes(&rng, deck, len);
    return cx_new_game(s, cs, n_players, faunas, first_player, deck, len);
}

/* ---- score ------------------------------------------------------------ */

int cx_reputation_points(int track) {
    int points = 0;
    for (int space = track; space < CX_TRACK_SIZE; space++)
        points += CX_TRACK_POINTS[space];
    return points;
}

static int specialty_points(const cx_state *s, const cx_cardset *cs, int fauna) {
    int best = 0;
    switch (fauna) {
    case CX_FOREST:
        for (int c = 0; c < cs->n_cards; c++)
            if (cs->cards[c].fauna == CX_FOREST && s->loc[c] >= CX_LOC_RELEASED &&
                s->loc[c] < CX_LOC_PROTECTED) best++;
        return best;
    case CX_AIR:
        for (int c = 0; c < cs->n_cards; c++)
            if (cs->cards[c].fauna == CX_AIR && s->loc[c] >= CX_LOC_PROTECTED)
                best++;
        return best;
    case CX_SEA:
        for (int p = 0; p < s->n_players; p++)
            for (int i = 0; i < s->players[p].n_board; i++) {
                int v = cs->cards[s->players[p].board[i].card].conservation;
                if (v > best) best = v;
            }
        return best;
    default:
        for (int p = 0; p < s->n_players; p++)
            if (s->players[p].track > best) best = s->players[p].track;
        return best;
    }
}

void cx_score_breakdown(const cx_state *s, const cx_cardset *cs, int out[][3]) {
    for (int p = 0; p < s->n_players; p++) {
        int conservation = 0;
        for (int c = 0; c < cs->n_cards; c++)
            if (s->loc[c] == CX_LOC_RELEASED + p) conservation += cs->cards[c].conservation;
        out[p][0] = conservation;
        out[p][1] = cx_reputation_points(s->players[p].track);
        out[p][2] = specialty_points(s, cs, s->players[p].fauna);
    }
}

void cx_scores(const cx_state *s, const cx_cardset *cs, int *out) {
    int parts[CX_MAX_PLAYERS][3];
    cx_score_breakdown(s, cs, parts);
    for (int p = 0; p < s->n_players; p++)
        out[p] = parts[p][0] + parts[p][1] + parts[p][2];
}

void cx_ranks(const cx_state *s, const cx_cardset *cs, int *out) {
    int score[CX_MAX_PLAYERS];
    cx_scores(s, cs, score);
    for (int p = 0; p < s->n_players; p++) {
        out[p] = 1;
        for (int q = 0; q < s->n_players; q++) {
            int better = score[q] > score[p] ||
                (score[q] == score[p] && s->players[q].track < s->players[p].track);
            out[p] += better;
        }
    }
}

int cx_capture_limit(const cx_state *s, const cx_cardset *cs, int seat) {
    return cx_player_capture_limit(&s->players[seat], cs);
}

int cx_spaces_used(const cx_state *s, int seat) {
    return cx_player_spaces(&s->players[seat]);
}

int cx_capacity(const cx_state *s, const cx_cardset *cs, int seat) {
    return cx_player_capacity(&s->players[seat], cs);
}
