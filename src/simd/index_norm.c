/*
 * Chunked index normalization (simd.h).  Bit-for-bit what index_normalize()
 * gives: negative signed values count from the end, then clamp into [0, A-1].
 */
#include "internal.h"
#include "simd/simd.h"

/* The rare path (out of range or negative): the library's own normalizer. */
static uint32_t norm_slow(const unsigned char *p, uint32_t dtype, uint64_t A) {
    int in_range;
    return (uint32_t)index_normalize(index_read(p, dtype), A, &in_range);
}

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

const char *simd_index_norm_impl(uint32_t dtype, uint64_t js, uint64_t A) {
    return vec_ok(dtype, js, A) ? (DMLREF_SIMD_AVX2 ? "avx2" : "sse2") : "scalar";
}

void simd_index_norm(const unsigned char *ix, uint64_t js, uint32_t dtype, uint64_t A, uint64_t n, uint32_t *out) {
    uint64_t i = 0;
#if DMLREF_SIMD
    if (vec_ok(dtype, js, A)) {
#if DMLREF_SIMD_AVX2 /* the same steps, 8 lanes at a time; the 128-bit loops below take the rest */
        const simde__m256i zero8 = simde_mm256_setzero_si256();
        if (dtype == DMLREF_TENSOR_DATA_TYPE_INT32) {
            const simde__m256i va = simde_mm256_set1_epi32((int32_t)A), vmax = simde_mm256_set1_epi32((int32_t)(A - 1));
            for (; i + 8 <= n; i += 8) {
                simde__m256i v = simde_mm256_loadu_si256((const simde__m256i *)(const void *)(ix + i * 4));
                v = simde_mm256_add_epi32(v, simde_mm256_and_si256(simde_mm256_cmpgt_epi32(zero8, v), va));
                v = simde_mm256_andnot_si256(simde_mm256_cmpgt_epi32(zero8, v), v);
                const simde__m256i big = simde_mm256_cmpgt_epi32(v, vmax);
                v = simde_mm256_or_si256(simde_mm256_andnot_si256(big, v), simde_mm256_and_si256(big, vmax));
                simde_mm256_storeu_si256((simde__m256i *)(void *)(out + i), v);
            }
        } else {
            const simde__m256i bias = simde_mm256_set1_epi32(INT32_MIN);
            const simde__m256i vmax = simde_mm256_set1_epi32((int32_t)(uint32_t)(A - 1));
            const simde__m256i vmaxb = simde_mm256_xor_si256(vmax, bias);
            for (; i + 8 <= n; i += 8) {
                const simde__m256i v = simde_mm256_loadu_si256((const simde__m256i *)(const void *)(ix + i * 4));
                const simde__m256i big = simde_mm256_cmpgt_epi32(simde_mm256_xor_si256(v, bias), vmaxb);
                simde_mm256_storeu_si256((simde__m256i *)(void *)(out + i),
                                         simde_mm256_or_si256(simde_mm256_andnot_si256(big, v),
                                                              simde_mm256_and_si256(big, vmax)));
            }
        }
#endif
        const simde__m128i zero = simde_mm_setzero_si128();
        if (dtype == DMLREF_TENSOR_DATA_TYPE_INT32) {
            /* A <= INT32_MAX: v + A cannot overflow for v < 0 */
            const simde__m128i va = simde_mm_set1_epi32((int32_t)A), vmax = simde_mm_set1_epi32((int32_t)(A - 1));
            for (; i + 4 <= n; i += 4) {
                simde__m128i v = simde_mm_loadu_si128((const simde__m128i *)(const void *)(ix + i * 4));
                v = simde_mm_add_epi32(v, simde_mm_and_si128(simde_mm_cmplt_epi32(v, zero), va));
                v = simde_mm_andnot_si128(simde_mm_cmplt_epi32(v, zero), v);             /* below -A: 0 */
                const simde__m128i big = simde_mm_cmpgt_epi32(v, vmax);                  /* A or more: A-1 */
                v = simde_mm_or_si128(simde_mm_andnot_si128(big, v), simde_mm_and_si128(big, vmax));
                simde_mm_storeu_si128((simde__m128i *)(void *)(out + i), v);
            }
        } else {
            /* unsigned compare as signed compare of values biased by 2^31 */
            const simde__m128i bias = simde_mm_set1_epi32(INT32_MIN);
            const simde__m128i vmax = simde_mm_set1_epi32((int32_t)(uint32_t)(A - 1));
            const simde__m128i vmaxb = simde_mm_xor_si128(vmax, bias);
            for (; i + 4 <= n; i += 4) {
                const simde__m128i v = simde_mm_loadu_si128((const simde__m128i *)(const void *)(ix + i * 4));
                const simde__m128i big = simde_mm_cmpgt_epi32(simde_mm_xor_si128(v, bias), vmaxb);
                simde_mm_storeu_si128((simde__m128i *)(void *)(out + i),
                                      simde_mm_or_si128(simde_mm_andnot_si128(big, v), simde_mm_and_si128(big, vmax)));
            }
        }
    }
#endif
    switch (dtype) {
    case DMLREF_TENSOR_DATA_TYPE_INT32:
        for (; i < n; ++i) {
            int32_t v;
            memcpy(&v, ix + i * js, 4);
            out[i] = (v >= 0 && (uint64_t)v < A) ? (uint32_t)v : norm_slow(ix + i * js, dtype, A);
        }
        break;
    case DMLREF_TENSOR_DATA_TYPE_UINT32:
        for (; i < n; ++i) {
            uint32_t v;
            memcpy(&v, ix + i * js, 4);
            out[i] = v < A ? v : (uint32_t)(A - 1);
        }
        break;
    case DMLREF_TENSOR_DATA_TYPE_INT64:
        for (; i < n; ++i) {
            uint64_t v;
            memcpy(&v, ix + i * js, 8);
            out[i] = v < A ? (uint32_t)v : norm_slow(ix + i * js, dtype, A); /* negatives are huge unsigned */
        }
        break;
    default: /* UINT64 */
        for (; i < n; ++i) {
            uint64_t v;
            memcpy(&v, ix + i * js, 8);
            out[i] = v < A ? (uint32_t)v : (uint32_t)(A - 1);
        }
        break;
    }
}
