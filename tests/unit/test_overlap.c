/*
 * The exact output no-overlap search (src/core/overlap.c) against brute force: random
 * small layouts, every verdict and the earliest colliding element compared with a
 * row-major walk over all elements.
 */
#include <stdlib.h>

#include "check.h"
#include "core/overlap.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

/* The earliest element (row-major) whose offset an earlier one has: its position, or UINT64_MAX. */
static uint64_t brute_first(const tensor_t *t, uint64_t *offs) {
    uint32_t x[MAX_DIMS] = {0};
    for (uint64_t p = 0; p < t->elements; ++p) {
        uint64_t off = 0;
        for (uint32_t d = 0; d < t->n; ++d) off += x[d] * t->strides[d];
        for (uint64_t q = 0; q < p; ++q)
            if (offs[q] == off) return p;
        offs[p] = off;
        for (uint32_t d = t->n; d-- > 0;) {
            if (++x[d] < t->sizes[d]) break;
            x[d] = 0;
        }
    }
    return UINT64_MAX;
}

TEST(overlap_search_matches_brute_force) {
    uint64_t offs[4096];
    int found = 0, disjoint = 0;
    for (int iter = 0; iter < 20000; ++iter) {
        tensor_t t;
        memset(&t, 0, sizeof t);
        t.n = 1 + rnd(4);
        t.elements = 1;
        for (uint32_t d = 0; d < t.n; ++d) {
            t.sizes[d] = 1 + rnd(7);
            t.strides[d] = 1 + rnd(iter % 2 ? 40 : 9);
            t.elements *= t.sizes[d];
        }
        const uint64_t want = brute_first(&t, offs);
        uint32_t first[MAX_DIMS];
        int any = 0;
        const overlap_verdict v = overlap_search(&t, first, &any);
        if (want == UINT64_MAX) {
            ++disjoint;
            if (v != OVERLAP_DISJOINT || any) test_fail(__FILE__, __LINE__, "iteration %d: disjoint, verdict %d", iter, (int)v);
            continue;
        }
        ++found;
        uint64_t pos = 0;
        for (uint32_t d = 0; d < t.n; ++d) pos = pos * t.sizes[d] + first[d];
        if (v != OVERLAP_FOUND || !any || pos != want)
            test_fail(__FILE__, __LINE__, "iteration %d: verdict %d, position %llu, wanted %llu", iter, (int)v,
                      (unsigned long long)pos, (unsigned long long)want);
    }
    CHECK(found > 1000 && disjoint > 1000); /* both verdicts exercised */
}

/* Strides near 2^32 and sizes near 2^32 / 2: the sign-magnitude sums reach 2^63 and beyond. */
TEST(overlap_search_extreme_values) {
    tensor_t t;
    memset(&t, 0, sizeof t);
    t.n = 2;
    t.sizes[0] = 65535;
    t.sizes[1] = 65537;
    t.strides[0] = UINT32_MAX;         /* 2^32 - 1 = 65535 * 65537 */
    t.strides[1] = UINT32_MAX - 1;     /* consecutive, so coprime: c0 would be a multiple of 2^32 - 2 */
    t.elements = (uint64_t)t.sizes[0] * t.sizes[1];
    uint32_t first[MAX_DIMS];
    int any = 0;
    overlap_verdict v = overlap_search(&t, first, &any);
    CHECK(v == OVERLAP_DISJOINT);
    /* strides {2S, 3S}, S = 2^30 - 1 (3S < 2^32: DirectML's strides are UINT32), sizes {4, 3}:
     * [3,0] (6S) is [0,2] */
    t.sizes[0] = 4;
    t.sizes[1] = 3;
    t.strides[0] = 2u * ((1u << 30) - 1);
    t.strides[1] = 3u * ((1u << 30) - 1);
    t.elements = 12;
    v = overlap_search(&t, first, &any);
    CHECK(v == OVERLAP_FOUND);
    CHECK_EQ_U64(first[0], 3);
    CHECK_EQ_U64(first[1], 0);
}
