/*
 * The builders' shared helpers under gen's filters and flavours (bld_opts,
 * builders/builder.h), called directly as a builder gen has never seen would
 * call them: bld_pick over bld_data_types, bld_index_types and a list of its
 * own; bld_layout under --packed; bld_rand_index and bld_is_signed_index under
 * --no-negative-indices; bld_cap and bld_rand_sizes / bld_rand_dims under
 * --max-elements; bld_rand_value under --bits (and its absence without).
 * Prints "builders: N passed, N failed".
 */
#include "builders/builder.h"
#include "case/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

static void check(int ok, const char *what) {
    if (ok) ++passed;
    else {
        ++failed;
        printf("FAIL: %s\n", what);
    }
}

#define T(dt) (1u << DMLREF_TENSOR_DATA_TYPE_##dt)

/* The types bld_pick draws from v[0..n) in 4000 draws, as a mask. */
static uint32_t picks(const DMLREF_TENSOR_DATA_TYPE *v, uint32_t n) {
    prng r = {42};
    uint32_t m = 0;
    for (int i = 0; i < 4000; ++i) m |= 1u << bld_pick(&r, v, n);
    return m;
}

static void test_pick(void) {
    uint32_t all = 0;
    for (int k = 0; k < 11; ++k) all |= 1u << bld_data_types[k];
    bld_opts = (bld_settings){0};
    check(picks(bld_data_types, 11) == all, "bld_pick draws all 11 data types without a filter");
    bld_opts.data_types = T(FLOAT16) | T(INT8);
    check(picks(bld_data_types, 11) == (T(FLOAT16) | T(INT8)), "bld_pick draws exactly the --data-types");
    check(picks(bld_index_types, 4) == (T(INT64) | T(INT32) | T(UINT64) | T(UINT32)),
          "--data-types leaves the index types alone");
    bld_opts = (bld_settings){.index_types = T(UINT32)};
    check(picks(bld_index_types, 4) == T(UINT32), "bld_pick draws exactly the --index-types");
    check(picks(bld_data_types, 11) == all, "--index-types leaves the data types alone");
    /* a builder's own list: a type either filter allows */
    static const DMLREF_TENSOR_DATA_TYPE own[3] = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_INT32,
                                                   DMLREF_TENSOR_DATA_TYPE_UINT8};
    bld_opts = (bld_settings){.data_types = T(FLOAT32)};
    check(picks(own, 3) == (T(FLOAT32) | T(INT32)), "a builder's own list: --data-types or an index type");
    bld_opts.index_types = T(UINT64);
    check(picks(own, 3) == T(FLOAT32), "a builder's own list under both filters");
    bld_opts = (bld_settings){.data_types = T(FLOAT64), .index_types = T(UINT64)};
    check(picks(own, 3) == (T(FLOAT32) | T(INT32) | T(UINT8)), "nothing allowed: any (gen rejects the case)");
    /* the plain draws: bld_pick is v[bld_rnd(r, n)] */
    bld_opts = (bld_settings){0};
    prng a = {7}, b = {7};
    int same = 1;
    for (int i = 0; i < 100; ++i) same &= bld_pick(&a, bld_data_types, 11) == bld_data_types[bld_rnd(&b, 11)];
    check(same, "bld_pick without a filter draws as before");
}

static void test_layout(void) {
    bld_opts = (bld_settings){.packed = 1};
    prng r = {3};
    int packed = 1;
    for (int i = 0; i < 2000; ++i) {
        case_tensor t;
        memset(&t, 0, sizeof t);
        uint32_t sizes[8];
        const uint32_t n = 1 + bld_rnd(&r, 8);
        bld_rand_sizes(&r, n, sizes, 256);
        bld_tensor_init(&t, bld_data_types[bld_rnd(&r, 11)], n, sizes);
        bld_layout(&r, &t, 1);
        const uint64_t min = (bld_product(sizes, n) * t.esize + 3) & ~UINT64_C(3);
        packed &= !t.buf.Strides && !t.total_given && t.buf.TotalTensorSizeInBytes == min && t.buf.Strides == NULL &&
                  t.span_slots == bld_product(sizes, n) && t.data != NULL;
        bld_tensor_free(&t);
    }
    check(packed, "bld_layout under --packed: no Strides, minimal TotalTensorSizeInBytes");
    bld_opts = (bld_settings){0};
    int strided = 0, padded = 0;
    for (int i = 0; i < 2000; ++i) {
        case_tensor t;
        memset(&t, 0, sizeof t);
        uint32_t sizes[8];
        const uint32_t n = 1 + bld_rnd(&r, 8);
        bld_rand_sizes(&r, n, sizes, 256);
        bld_tensor_init(&t, DMLREF_TENSOR_DATA_TYPE_UINT8, n, sizes);
        bld_layout(&r, &t, 1);
        strided |= t.buf.Strides != NULL;
        padded |= t.total_given;
        bld_tensor_free(&t);
    }
    check(strided && padded, "bld_layout without --packed: strides and padding");
}

static void test_indices(void) {
    case_tensor t;
    memset(&t, 0, sizeof t);
    const uint32_t one = 1;
    int neg = 0, nonneg = 1;
    prng r = {5};
    bld_tensor_init(&t, DMLREF_TENSOR_DATA_TYPE_INT64, 1, &one);
    bld_opts = (bld_settings){0};
    check(bld_is_signed_index(&t), "INT64 indices may be negative");
    for (int i = 0; i < 3000; ++i) neg |= bld_rand_index(&r, &t, 7) < 0;
    check(neg, "bld_rand_index draws negative indices without a filter");
    bld_opts.no_negative_indices = 1;
    check(!bld_is_signed_index(&t), "bld_is_signed_index is 0 under --no-negative-indices");
    for (int i = 0; i < 3000; ++i) {
        const int64_t v = bld_rand_index(&r, &t, 7);
        nonneg &= v >= 0 && v < 7;
    }
    check(nonneg, "bld_rand_index under --no-negative-indices: [0, n)");
    bld_opts = (bld_settings){0};
    bld_tensor_free(&t);
}

static void test_large(void) {
    bld_opts = (bld_settings){0};
    check(bld_cap(48) == 48 && bld_cap(1000) == 1000, "bld_cap without --max-elements is its base");
    bld_opts.max_elements = 65536;
    check(bld_cap(256) == 65536 && bld_cap(48) == 12288 && bld_cap(12) == 3072, "bld_cap scales by M / 256");
    check(bld_cap(1000) == 65536 && bld_cap(100000) == 100000, "bld_cap of a base above 256: M, never below base");
    prng r = {11};
    int within = 1, above_16th = 1, above_8th = 0, total = 0, big_dim = 0;
    for (int i = 0; i < 4000; ++i) {
        uint32_t s[8];
        const uint32_t n = 1 + bld_rnd(&r, 8);
        const uint64_t cap = 1 + bld_rnd(&r, 100000);
        if (i & 1) bld_rand_sizes(&r, n, s, cap);
        else bld_rand_dims(&r, n, s, 3, cap);
        const uint64_t p = bld_product(s, n);
        for (uint32_t d = 0; d < n; ++d) big_dim |= s[d] > 4;
        within &= p >= 1 && p <= cap;
        above_16th &= p * 16 > cap;
        above_8th += p * 8 > cap;
        ++total;
    }
    check(within, "large sizes: the product never above the cap");
    check(above_16th && above_8th * 10 > total * 9, "large sizes: the product above cap / 16, mostly above cap / 8");
    check(big_dim, "large sizes: sizes beyond 4");
    bld_opts = (bld_settings){0};
}

/* The special values among 20000 draws of dt, as bits: 1 subnormal, 2 signalling NaN,
 * 4 NaN payload, 8 -0, 16 inf, 32 integer minimum, 64 integer maximum. */
static uint32_t specials(DMLREF_TENSOR_DATA_TYPE dt) {
    prng r = {13};
    const uint32_t es = dmlref_data_type_size(dt);
    uint32_t m = 0;
    for (int i = 0; i < 20000; ++i) {
        unsigned char p[8];
        bld_rand_value(&r, dt, p);
        const uint64_t v = value_load_bits(p, es);
        if (value_is_float(dt)) {
            const int eb = es == 2 ? 5 : es == 4 ? 8 : 11, mb = 8 * (int)es - 1 - eb;
            const uint64_t e = v >> mb & ((UINT64_C(1) << eb) - 1), man = v & ((UINT64_C(1) << mb) - 1),
                           emax = (UINT64_C(1) << eb) - 1, quiet = UINT64_C(1) << (mb - 1);
            if (e == 0 && man) m |= 1;
            if (e == emax && man && !(man & quiet)) m |= 2;
            if (e == emax && (man & quiet) && v != (emax << mb | quiet)) m |= 4;
            if (e == 0 && !man && v) m |= 8;
            if (e == emax && !man) m |= 16;
        } else {
            const uint64_t top = UINT64_C(1) << (8 * es - 1);
            if (v == top) m |= 32;
            if (v == top - 1) m |= 64;
        }
    }
    return m;
}

static void test_bits(void) {
    static const DMLREF_TENSOR_DATA_TYPE floats[3] = {DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_FLOAT32,
                                                      DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    for (int k = 0; k < 3; ++k) {
        char what[96];
        bld_opts = (bld_settings){0};
        snprintf(what, sizeof what, "plain %s: no subnormal, signalling NaN or payload; -0 and inf",
                 dmlref_data_type_name(floats[k]));
        check(specials(floats[k]) == (8 | 16), what);
        bld_opts.bits = 1;
        snprintf(what, sizeof what, "--bits %s: subnormals, signalling NaNs, payloads, -0, inf",
                 dmlref_data_type_name(floats[k]));
        check(specials(floats[k]) == (1 | 2 | 4 | 8 | 16), what);
    }
    bld_opts.bits = 1;
    check(specials(DMLREF_TENSOR_DATA_TYPE_INT8) == (32 | 64) && specials(DMLREF_TENSOR_DATA_TYPE_INT64) == (32 | 64),
          "--bits INT8, INT64: the minimum and the maximum");
    bld_opts = (bld_settings){0};
}

int main(void) {
    test_pick();
    test_layout();
    test_indices();
    test_large();
    test_bits();
    printf("builders: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
