/*
 * splitmix64 (Steele, Lea, Flood 2014): the command's only source of
 * randomness, for `random` inputs and `gen`.  Same seed, same sequence, on
 * every platform.
 */
#ifndef DMLREF_CLI_PRNG_H
#define DMLREF_CLI_PRNG_H

#include <stdint.h>

typedef struct prng {
    uint64_t state;
} prng;

static inline uint64_t prng_next(prng *r) {
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform in [0, n] (inclusive, n may be UINT64_MAX), by rejection. */
static inline uint64_t prng_upto(prng *r, uint64_t n) {
    if (n == UINT64_MAX) return prng_next(r);
    const uint64_t m = n + 1, limit = UINT64_MAX - (UINT64_MAX % m + 1) % m;
    uint64_t x;
    do x = prng_next(r);
    while (x > limit);
    return x % m;
}

/* Uniform in [0, n), n >= 1. */
static inline uint64_t prng_below(prng *r, uint64_t n) { return prng_upto(r, n - 1); }

/* (Floats in [low, high]: case/draw.h, from prng_next(r) >> 11, no host floating point.) */

#endif
