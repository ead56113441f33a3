/*
 * The index policy's one definition (src/core/index.h): (value, n, policy) ->
 * (result, in_range) over the edge values of all four index types, written
 * out by hand, and the fast/SIMD readers agreeing with it.
 */
#include "check.h"
#include "core/internal.h"
#include "simd/simd.h"

#define I32 DMLREF_TENSOR_DATA_TYPE_INT32
#define I64 DMLREF_TENSOR_DATA_TYPE_INT64
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64

typedef struct row {
    uint32_t dtype;
    int64_t s;  /* signed types */
    uint64_t u; /* unsigned types */
    uint64_t n;
    uint64_t clamp; /* result under INDEX_CLAMP */
    int in_range;   /* INDEX_ERROR and INDEX_OPERATOR_RULE give n when out of range */
} row;

static const row rows[] = {
    /* INT32, n = 5 */
    {I32, INT32_MIN, 0, 5, 0, 0},
    {I32, -6, 0, 5, 0, 0},
    {I32, -5, 0, 5, 0, 1},
    {I32, -1, 0, 5, 4, 1},
    {I32, 0, 0, 5, 0, 1},
    {I32, 4, 0, 5, 4, 1},
    {I32, 5, 0, 5, 4, 0},
    {I32, INT32_MAX, 0, 5, 4, 0},
    /* INT32, n = 1 and n = 2^32 - 1 */
    {I32, -1, 0, 1, 0, 1},
    {I32, -2, 0, 1, 0, 0},
    {I32, 1, 0, 1, 0, 0},
    {I32, INT32_MIN, 0, UINT32_MAX, UINT64_C(2147483647), 1},
    {I32, INT32_MAX, 0, UINT32_MAX, UINT64_C(2147483647), 1},
    /* INT64 */
    {I64, INT64_MIN, 0, 5, 0, 0},
    {I64, -6, 0, 5, 0, 0},
    {I64, -5, 0, 5, 0, 1},
    {I64, -1, 0, 5, 4, 1},
    {I64, 0, 0, 5, 0, 1},
    {I64, 4, 0, 5, 4, 1},
    {I64, 5, 0, 5, 4, 0},
    {I64, INT64_MAX, 0, 5, 4, 0},
    {I64, -(int64_t)UINT32_MAX, 0, UINT32_MAX, 0, 1},
    {I64, -(int64_t)UINT32_MAX - 1, 0, UINT32_MAX, 0, 0},
    {I64, (int64_t)UINT32_MAX, 0, UINT32_MAX, UINT64_C(4294967294), 0},
    /* UINT32 */
    {U32, 0, 0, 5, 0, 1},
    {U32, 0, 4, 5, 4, 1},
    {U32, 0, 5, 5, 4, 0},
    {U32, 0, UINT32_MAX, 5, 4, 0},
    {U32, 0, UINT32_MAX, UINT32_MAX, UINT64_C(4294967294), 0},
    {U32, 0, UINT32_MAX - 1, UINT32_MAX, UINT64_C(4294967294), 1},
    {U32, 0, 1, 1, 0, 0},
    /* UINT64 */
    {U64, 0, 0, 5, 0, 1},
    {U64, 0, 4, 5, 4, 1},
    {U64, 0, 5, 5, 4, 0},
    {U64, 0, UINT64_MAX, 5, 4, 0},
    {U64, 0, UINT64_C(1) << 32, UINT32_MAX, UINT64_C(4294967294), 0},
    {U64, 0, UINT64_MAX, 1, 0, 0},
};

static void put(unsigned char *b, const row *r) {
    switch (r->dtype) {
    case I32: { const int32_t v = (int32_t)r->s; memcpy(b, &v, 4); break; }
    case I64: memcpy(b, &r->s, 8); break;
    case U32: { const uint32_t v = (uint32_t)r->u; memcpy(b, &v, 4); break; }
    default: memcpy(b, &r->u, 8); break;
    }
}

TEST(index_policy_table) {
    static const index_policy pols[] = {INDEX_CLAMP, INDEX_ERROR, INDEX_OPERATOR_RULE};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; ++k) {
        const row *r = &rows[k];
        unsigned char b[8];
        put(b, r);
        for (size_t p = 0; p < 3; ++p) {
            int ok = -1;
            const uint64_t got = index_load(b, r->dtype, r->n, pols[p], &ok);
            const uint64_t want = r->in_range || pols[p] == INDEX_CLAMP ? r->clamp : r->n;
            if (got != want || ok != r->in_range)
                test_fail(__FILE__, __LINE__, "row %zu policy %d: (%llu, %d), wanted (%llu, %d)", k, (int)pols[p],
                          (unsigned long long)got, ok, (unsigned long long)want, r->in_range);
        }
        /* the oracles' name for the default, and the fast paths' reader */
        int ok = -1;
        CHECK_EQ_U64(index_normalize(index_read(b, r->dtype), r->n, &ok), r->clamp);
        CHECK(ok == r->in_range);
        CHECK_EQ_U64(index_load_clamp(b, r->dtype, r->n), r->clamp);
        /* the chunked normalizer, one lane and a full vector group of the same value */
        if (r->n <= UINT32_MAX) {
            const uint32_t es = r->dtype == I32 || r->dtype == U32 ? 4 : 8;
            unsigned char many[9 * 8];
            for (int i = 0; i < 9; ++i) memcpy(many + i * es, b, es);
            uint32_t out[9];
            simd_index_norm(many, es, r->dtype, r->n, 9, out);
            for (int i = 0; i < 9; ++i) CHECK_EQ_U64(out[i], r->clamp);
        }
    }
}
