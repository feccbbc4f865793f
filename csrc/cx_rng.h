/* cx_rng.h -- the one random number generator of the engine.
 *
 * xoshiro256** seeded through splitmix64: fast, small state, and the same
 * stream on every platform, so a seed names the same games everywhere.
 * Bounded draws use multiply-shift with rejection, which is exactly uniform. */
#ifndef CX_RNG_H
#define CX_RNG_H

#include <stdint.h>

typedef struct { uint64_t s[4]; } cx_rng;

static inline uint64_t cx_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void cx_rng_seed(cx_rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = cx_splitmix64(&x);
}

static inline uint64_t cx_rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t cx_rng_next(cx_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = cx_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = cx_rotl(s[3], 45);
    return result;
}

/* uniform integer in [0, n), n >= 1 */
static inline uint32_t cx_rng_below(cx_rng *r, uint32_t n) {
    uint64_t m = (uint64_t)(uint32_t)(cx_rng_next(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(cx_rng_next(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* uniform double in [0, 1) */
static inline double cx_rng_unit(cx_rng *r) {
    return (double)(cx_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Fisher-Yates shuffle of a byte array */
static inline void cx_shuffle_bytes(cx_rng *r, uint8_t *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)cx_rng_below(r, (uint32_t)(i + 1));
        uint8_t t = a[i]; a[i] = a[j]; a[j] = t;
    }
}

#endif
