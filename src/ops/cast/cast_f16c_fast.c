/*
 * CAST's F16C kernels (cast_fast.c's cast.f32_f16.f16c and cast.f16_f32.f16c),
 * taken at plan time only where the CPU has F16C (simd_cpu_f16c; the build's
 * baseline is SSE2).  The functions carry their instruction set in a target
 * attribute, so the file builds with the library's flags in any build system
 * (the Makefile, python/setup.py, an integrator's); nothing here runs unless the
 * planner chose it.  The compiler's own intrinsics, not SIMDe's: SIMDe picks its
 * implementation from the flags of the whole translation unit.
 *
 * VCVTPS2PH with the rounding in the instruction (round to nearest even, not
 * MXCSR's mode) is the oracle's binary32 -> binary16 conversion: Inf from
 * 65520 up, subnormal results rounded and not flushed, and a NaN quieted with
 * the top 10 bits of its payload kept.  VCVTPH2PS is exact; it quiets a
 * signalling NaN as the oracle does.  The unit tests hold both to the oracle on
 * every one of the 65536 binary16 patterns and on binary32 special values and
 * random bits.
 */
#include "cast_fast.h"
#include "simd/simd.h"

#if DMLREF_X86_F16C
#include <immintrin.h>

#define F16C_TARGET __attribute__((target("avx,f16c")))

/* 16 elements a step; returns how many it converted (n rounded down). */
F16C_TARGET uint64_t cast_f16c_f32_f16(unsigned char *d, const unsigned char *s, uint64_t n, int stream) {
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 a = _mm256_loadu_ps((const float *)(const void *)(s + 4 * i));
        const __m256 b = _mm256_loadu_ps((const float *)(const void *)(s + 4 * i + 32));
        const __m128i ha = _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT), hb = _mm256_cvtps_ph(b, _MM_FROUND_TO_NEAREST_INT);
        if (stream) {
            _mm_stream_si128((__m128i *)(void *)(d + 2 * i), ha);
            _mm_stream_si128((__m128i *)(void *)(d + 2 * i + 16), hb);
        } else {
            _mm_storeu_si128((__m128i *)(void *)(d + 2 * i), ha);
            _mm_storeu_si128((__m128i *)(void *)(d + 2 * i + 16), hb);
        }
    }
    return i;
}

/* 8 elements a step; returns how many it converted. */
F16C_TARGET uint64_t cast_f16c_f16_f32(unsigned char *d, const unsigned char *s, uint64_t n, int stream) {
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 f = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(s + 2 * i)));
        const __m128i lo = _mm_castps_si128(_mm256_castps256_ps128(f)), hi = _mm_castps_si128(_mm256_extractf128_ps(f, 1));
        if (stream) { /* d + 4 i is 16-aligned (the caller's head) */
            _mm_stream_si128((__m128i *)(void *)(d + 4 * i), lo);
            _mm_stream_si128((__m128i *)(void *)(d + 4 * i + 16), hi);
        } else {
            _mm_storeu_si128((__m128i *)(void *)(d + 4 * i), lo);
            _mm_storeu_si128((__m128i *)(void *)(d + 4 * i + 16), hi);
        }
    }
    return i;
}
#else
typedef int cast_f16c_fast_empty; /* ISO C: a translation unit is not empty */
#endif
