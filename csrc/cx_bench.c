/* cx_bench.c -- the loops behind `coexist-ai bench`, kept in C so that the
 * figures measure the engine and not the Python around it. */
#include <string.h>
#include "cx_internal.h"
#include "cx_bench.h"

/* keeps the compiler from proving a copy unused */
#define CX_CLOBBER(p) __asm__ volatile("" : : "r"(p) : "memory")

long long cx_bench_random_games(const cx_cardset *cs, int n_players,
                                int n_games, uint64_t seed) {
    cx_state s;
    cx_rng rng;
    long long actions = 0;
    cx_rng_seed(&rng, seed);
    for (int g = 0; g < n_games; g++) {
        if (cx_new_game_seeded(&s, cs, n_players, NULL, 0, seed + (uint64_t)g))
            return -1;
        actions += cx_playout_random(&s, cs, &rng, 1 << 20);
    }
    return actions;
}

void cx_bench_copy_struct(const cx_state *src, int iterations) {
    cx_state dst[4];
    for (int i = 0; i < iterations; i++) {
        dst[i & 3] = *src;
        CX_CLOBBER(&dst[i & 3]);
    }
}

void cx_bench_copy_memcpy(const cx_state *src, int iterations) {
    unsigned char dst[4][sizeof(cx_state)];
    for (int i = 0; i < iterations; i++) {
        memcpy(dst[i & 3], src, sizeof(cx_state));
        CX_CLOBBER(dst[i & 3]);
    }
}
