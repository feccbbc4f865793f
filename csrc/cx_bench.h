/* cx_bench.h -- benchmark loops (cx_bench.c). */
#ifndef CX_BENCH_H
#define CX_BENCH_H
#include "cx_types.h"

/* plays n_games uniformly random games; returns the actions played */
long long cx_bench_random_games(const cx_cardset *cs, int n_players,
                                int n_games, uint64_t seed);
/* copies a state `iterations` times: as a struct, and as raw bytes */
void cx_bench_copy_struct(const cx_state *src, int iterations);
void cx_bench_copy_memcpy(const cx_state *src, int iterations);
#endif
