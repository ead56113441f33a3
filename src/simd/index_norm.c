/*
 * Chunked index normalization (simd.h).  The policy is index.h's index_norm
 * (INDEX_CLAMP), its one definition: the vector loops only decide that a whole
 * group of lanes is in range (0 <= v < A, one unsigned compare per lane) and
 * then copy the values as they are; a group with any other lane, and the tail,
 * go through index_load_clamp lane by lane.
 */
#include "core/internal.h"
#include "simd/simd.h"

static int vec_ok(uint32_t dtype, uint64_t js, uint64_t A) {
#if DMLREF_SIMD
    if (js != 4) return 0;
    if (dtype == DMLREF_TENSOR_DATA_TYPE_INT32) return A <= (uint64_t)INT32_MAX;
    return dtype == DMLREF_TENSOR_DATA_TYPE_UINT32;
#else
    (void)dtype;
    (void)js;
    (void)A;
    return 0;
#endif
}

/* Used by the tests only (to assert that the vector path runs where it should); it stays in the
 * library because it must answer from vec_ok itself: a copy of that test in the tests could drift. */
const char *simd_index_norm_impl(uint32_t dtype, uint64_t js, uint64_t A) {
    return vec_ok(dtype, js, A) ? (DMLREF_SIMD_AVX2 ? "avx2" : "sse2") : "scalar";
}

/* Lanes [i, i + k) through the owner, one loop per index type so that the
 * inlined owner's type tests fold away. */
static void norm_lanes(const unsigned char *ix, uint64_t js, uint32_t dtype, uint64_t A, uint64_t i, uint64_t k,
                       uint32_t *out) {
#define NORM_LOOP(DT) \
    for (uint64_t e = i + k; i < e; ++i) out[i] = (uint32_t)index_load_clamp(ix + i * js, DT, A)
    switch (dtype) {
    case DMLREF_TENSOR_DATA_TYPE_INT32: NORM_LOOP(DMLREF_TENSOR_DATA_TYPE_INT32); break;
    case DMLREF_TENSOR_DATA_TYPE_UINT32: NORM_LOOP(DMLREF_TENSOR_DATA_TYPE_UINT32); break;
    case DMLREF_TENSOR_DATA_TYPE_INT64: NORM_LOOP(DMLREF_TENSOR_DATA_TYPE_INT64); break;
    default: NORM_LOOP(DMLREF_TENSOR_DATA_TYPE_UINT64); break;
    }
#undef NORM_LOOP
}

void simd_index_norm(const unsigned char *ix, uint64_t js, uint32_t dtype, uint64_t A, uint64_t n, uint32_t *out) {
    uint64_t i = 0;
#if DMLREF_SIMD
    if (vec_ok(dtype, js, A)) {
        /* in range: v < A as unsigned 32-bit values (a negative INT32 is huge as unsigned; A <= 2^32 - 1),
         * compared as signed values biased by 2^31 */
        const int32_t ab = (int32_t)((uint32_t)A ^ UINT32_C(0x80000000));
#if DMLREF_SIMD_AVX2 /* 8 lanes at a time; the 128-bit loop below takes the rest */
        const simde__m256i bias8 = simde_mm256_set1_epi32(INT32_MIN), vab8 = simde_mm256_set1_epi32(ab);
        for (; i + 8 <= n; i += 8) {
            const simde__m256i v = simde_mm256_loadu_si256((const simde__m256i *)(const void *)(ix + i * 4));
            const simde__m256i lt = simde_mm256_cmpgt_epi32(vab8, simde_mm256_xor_si256(v, bias8));
            if (simde_mm256_movemask_ps(simde_mm256_castsi256_ps(lt)) == 0xFF)
                simde_mm256_storeu_si256((simde__m256i *)(void *)(out + i), v);
            else
                norm_lanes(ix, 4, dtype, A, i, 8, out);
        }
#endif
        const simde__m128i bias = simde_mm_set1_epi32(INT32_MIN), vab = simde_mm_set1_epi32(ab);
        for (; i + 4 <= n; i += 4) {
            const simde__m128i v = simde_mm_loadu_si128((const simde__m128i *)(const void *)(ix + i * 4));
            const simde__m128i lt = simde_mm_cmpgt_epi32(vab, simde_mm_xor_si128(v, bias));
            if (simde_mm_movemask_ps(simde_mm_castsi128_ps(lt)) == 0xF)
                simde_mm_storeu_si128((simde__m128i *)(void *)(out + i), v);
            else
                norm_lanes(ix, 4, dtype, A, i, 4, out);
        }
    }
#endif
    norm_lanes(ix, js, dtype, A, i, n - i, out);
}
