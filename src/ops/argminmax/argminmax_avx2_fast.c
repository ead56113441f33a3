/*
 * ARGMIN's and ARGMAX's AVX2 pass 1 (argminmax_fast.c's argminmax.rows_f32.avx2),
 * taken at plan time only where the CPU has AVX2 (simd_cpu_avx2; the build's
 * baseline is SSE2), as CAST's F16C kernels are (cast_f16c_fast.c): the function
 * carries its instruction set in a target attribute, so the file builds with the
 * library's flags in any build system; the compiler's own intrinsics, not SIMDe's.
 *
 * The same work as best32f's SSE2 loop, 32 bytes a vector: maxps / minps over the
 * block and cmpunord for NaNs.  VMAXPS / VMINPS return one of their operands bit
 * for bit, as MAXPS / MINPS do, so every lane maximum kept is an element of its
 * block, and the caller decides the best on exact keys as before (a zero or
 * subnormal best redone, a NaN looked for in pass 2): the outputs are the SSE2
 * path's and the oracle's, which the unit tests check both ways.
 */
#include "argminmax.h"
#include "simd/simd.h"

#if DMLREF_X86_AVX2
#include <immintrin.h>

#define AVX2_TARGET __attribute__((target("avx2")))

#define MAXMIN(is_max, a, b) ((is_max) ? _mm256_max_ps((a), (b)) : _mm256_min_ps((a), (b)))
#define MAXMIN4(is_max, a, b) ((is_max) ? _mm_max_ps((a), (b)) : _mm_min_ps((a), (b)))

static DMLREF_ALWAYS_INLINE AVX2_TARGET uint32_t blocks(const unsigned char *row, uint64_t n16,
                                                        uint64_t size, int is_max, unsigned char *v,
                                                        unsigned char *acc, int *nan) {
    __m128 best = _mm_loadu_ps((const float *)(const void *)row);
    __m256 u = _mm256_setzero_ps();
    uint64_t i = 0;
    uint32_t k = 0;
    for (; i < n16; ++k) {
        const uint64_t end = n16 - i < size ? n16 : i + size;
        __m256 a0 = _mm256_loadu_ps((const float *)(const void *)(row + 4 * i)), a1 = a0;
        for (; i < end; i += 16) {
            const __m256 x0 = _mm256_loadu_ps((const float *)(const void *)(row + 4 * i));
            const __m256 x1 = _mm256_loadu_ps((const float *)(const void *)(row + 4 * i + 32));
            a0 = MAXMIN(is_max, a0, x0);
            a1 = MAXMIN(is_max, a1, x1);
            u = _mm256_or_ps(u, _mm256_cmp_ps(x0, x1, _CMP_UNORD_Q)); /* a NaN in either */
        }
        const __m256 a = MAXMIN(is_max, a0, a1);
        const __m128 b = MAXMIN4(is_max, _mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
        _mm_storeu_ps((float *)(void *)(v + 16 * (size_t)k), b);
        best = MAXMIN4(is_max, best, b);
    }
    _mm_storeu_ps((float *)(void *)acc, best);
    *nan = _mm256_movemask_ps(u) != 0;
    return k;
}

AVX2_TARGET uint32_t argminmax_avx2_blocks(const unsigned char *row, uint64_t n16, uint64_t size, int is_max,
                                           unsigned char *v, unsigned char *acc, int *nan) {
    return is_max ? blocks(row, n16, size, 1, v, acc, nan) : blocks(row, n16, size, 0, v, acc, nan);
}
#else
typedef int argminmax_avx2_fast_empty; /* ISO C: a translation unit is not empty */
#endif
