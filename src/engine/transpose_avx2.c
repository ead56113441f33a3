/*
 * The transposing copies' tiles in AVX2 (copy_plan.c's tile_staged_x*, kernels
 * identity.transpose_avx2.x1 to .x8), taken at plan time only where the CPU has
 * AVX2 (simd_cpu_avx2; the build's baseline is SSE2), as ARGMIN/ARGMAX's AVX2
 * pass 1 is: the functions carry their instruction set in a target attribute, so
 * the file builds with the library's flags in any build system; the compiler's
 * own intrinsics, not SIMDe's.
 *
 * A staged tile: `in` holds 128/W rows of 64 bytes (one source line each), `out`
 * receives 64/W rows of 128 bytes, out[a][b] = in[b][a] for elements of W bytes.
 * The SSE2 blocks' unpacks, 32 bytes a row: each 128-bit lane transposes its own
 * K x K block (K = 16, 8, 4, 2 for W = 1, 2, 4, 8), so one step does two blocks
 * side by side, lane 0's columns to out rows a + j, lane 1's to a + K + j.  Bytes
 * move unchanged; the unit tests hold both ways to the oracle.
 */
#include "engine/plan.h"
#include "simd/simd.h"

#if DMLREF_X86_AVX2
#include <immintrin.h>

#define AVX2_TARGET __attribute__((target("avx2")))
#define IN_ROW 64u   /* bytes between rows of in  */
#define OUT_ROW 128u /* bytes between rows of out */

static DMLREF_ALWAYS_INLINE AVX2_TARGET __m256i load(const unsigned char *p) {
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* lane 0 of v to out row a, lane 1 to out row a + k, both at byte offset o */
static DMLREF_ALWAYS_INLINE AVX2_TARGET void store2(unsigned char *out, uint32_t a, uint32_t k,
                                                    uint32_t o, __m256i v) {
    _mm_storeu_si128((__m128i *)(void *)(out + a * OUT_ROW + o), _mm256_castsi256_si128(v));
    _mm_storeu_si128((__m128i *)(void *)(out + (a + k) * OUT_ROW + o), _mm256_extracti128_si256(v, 1));
}

AVX2_TARGET void transpose_tile_avx2_x1(unsigned char *out, const unsigned char *in) {
    for (uint32_t b = 0; b < 128; b += 16)
        for (uint32_t a0 = 0; a0 < 64; a0 += 32) {
            __m256i r[16], x[16], y[16], z[16];
DMLREF_UNROLL
            for (int k = 0; k < 16; ++k) r[k] = load(in + (b + (uint32_t)k) * IN_ROW + a0);
DMLREF_UNROLL
            for (int g = 0; g < 8; ++g) {
                x[2 * g] = _mm256_unpacklo_epi8(r[2 * g], r[2 * g + 1]);
                x[2 * g + 1] = _mm256_unpackhi_epi8(r[2 * g], r[2 * g + 1]);
            }
DMLREF_UNROLL
            for (int g = 0; g < 4; ++g) {
                y[4 * g] = _mm256_unpacklo_epi16(x[4 * g], x[4 * g + 2]);
                y[4 * g + 1] = _mm256_unpackhi_epi16(x[4 * g], x[4 * g + 2]);
                y[4 * g + 2] = _mm256_unpacklo_epi16(x[4 * g + 1], x[4 * g + 3]);
                y[4 * g + 3] = _mm256_unpackhi_epi16(x[4 * g + 1], x[4 * g + 3]);
            }
DMLREF_UNROLL
            for (int h = 0; h < 2; ++h)
DMLREF_UNROLL
                for (int k = 0; k < 4; ++k) {
                    z[8 * h + 2 * k] = _mm256_unpacklo_epi32(y[8 * h + k], y[8 * h + 4 + k]);
                    z[8 * h + 2 * k + 1] = _mm256_unpackhi_epi32(y[8 * h + k], y[8 * h + 4 + k]);
                }
DMLREF_UNROLL
            for (int j = 0; j < 16; ++j) {
                const __m256i v = j & 1 ? _mm256_unpackhi_epi64(z[j >> 1], z[8 + (j >> 1)])
                                        : _mm256_unpacklo_epi64(z[j >> 1], z[8 + (j >> 1)]);
                store2(out, a0 + (uint32_t)j, 16, b, v);
            }
        }
}

AVX2_TARGET void transpose_tile_avx2_x2(unsigned char *out, const unsigned char *in) {
    for (uint32_t b = 0; b < 64; b += 8)
        for (uint32_t a0 = 0; a0 < 32; a0 += 16) {
            __m256i r[8], x[8], y[8];
DMLREF_UNROLL
            for (int k = 0; k < 8; ++k) r[k] = load(in + (b + (uint32_t)k) * IN_ROW + 2 * a0);
DMLREF_UNROLL
            for (int g = 0; g < 4; ++g) {
                x[2 * g] = _mm256_unpacklo_epi16(r[2 * g], r[2 * g + 1]);
                x[2 * g + 1] = _mm256_unpackhi_epi16(r[2 * g], r[2 * g + 1]);
            }
DMLREF_UNROLL
            for (int h = 0; h < 2; ++h) {
                y[4 * h] = _mm256_unpacklo_epi32(x[4 * h], x[4 * h + 2]);
                y[4 * h + 1] = _mm256_unpackhi_epi32(x[4 * h], x[4 * h + 2]);
                y[4 * h + 2] = _mm256_unpacklo_epi32(x[4 * h + 1], x[4 * h + 3]);
                y[4 * h + 3] = _mm256_unpackhi_epi32(x[4 * h + 1], x[4 * h + 3]);
            }
DMLREF_UNROLL
            for (int j = 0; j < 8; ++j) {
                const __m256i v = j & 1 ? _mm256_unpackhi_epi64(y[j >> 1], y[4 + (j >> 1)])
                                        : _mm256_unpacklo_epi64(y[j >> 1], y[4 + (j >> 1)]);
                store2(out, a0 + (uint32_t)j, 8, 2 * b, v);
            }
        }
}

AVX2_TARGET void transpose_tile_avx2_x4(unsigned char *out, const unsigned char *in) {
    for (uint32_t b = 0; b < 32; b += 4)
        for (uint32_t a0 = 0; a0 < 16; a0 += 8) {
            const __m256i r0 = load(in + b * IN_ROW + 4 * a0), r1 = load(in + (b + 1) * IN_ROW + 4 * a0);
            const __m256i r2 = load(in + (b + 2) * IN_ROW + 4 * a0), r3 = load(in + (b + 3) * IN_ROW + 4 * a0);
            const __m256i t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpacklo_epi32(r2, r3);
            const __m256i t2 = _mm256_unpackhi_epi32(r0, r1), t3 = _mm256_unpackhi_epi32(r2, r3);
            store2(out, a0, 4, 4 * b, _mm256_unpacklo_epi64(t0, t1));
            store2(out, a0 + 1, 4, 4 * b, _mm256_unpackhi_epi64(t0, t1));
            store2(out, a0 + 2, 4, 4 * b, _mm256_unpacklo_epi64(t2, t3));
            store2(out, a0 + 3, 4, 4 * b, _mm256_unpackhi_epi64(t2, t3));
        }
}

AVX2_TARGET void transpose_tile_avx2_x8(unsigned char *out, const unsigned char *in) {
    for (uint32_t b = 0; b < 16; b += 2)
        for (uint32_t a0 = 0; a0 < 8; a0 += 4) {
            const __m256i r0 = load(in + b * IN_ROW + 8 * a0), r1 = load(in + (b + 1) * IN_ROW + 8 * a0);
            store2(out, a0, 2, 8 * b, _mm256_unpacklo_epi64(r0, r1));
            store2(out, a0 + 1, 2, 8 * b, _mm256_unpackhi_epi64(r0, r1));
        }
}
#else
typedef int transpose_avx2_empty; /* ISO C: a translation unit is not empty */
#endif
