/*
 * CAST's F16C kernels (cast_fast.c's cast.f32_f16.f16c and cast.f16_f32.f16c),
 * taken at plan time only where the CPU has F16C (simd_cpu_f16c; the build's
 * baseline is SSE2).  The Makefile builds this file, and only this file, with
 * -mavx -mf16c: nothing here runs unless the planner chose it.
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
#include <simde/x86/f16c.h>

/* 16 elements a step; returns how many it converted (n rounded down). */
uint64_t cast_f16c_f32_f16(unsigned char *d, const unsigned char *s, uint64_t n, int stream) {
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const simde__m256 a = simde_mm256_loadu_ps((const float *)(const void *)(s + 4 * i));
        const simde__m256 b = simde_mm256_loadu_ps((const float *)(const void *)(s + 4 * i + 32));
        const simde__m128i ha = simde_mm256_cvtps_ph(a, 0), hb = simde_mm256_cvtps_ph(b, 0);
        if (stream) {
            simde_mm_stream_si128((simde__m128i *)(void *)(d + 2 * i), ha);
            simde_mm_stream_si128((simde__m128i *)(void *)(d + 2 * i + 16), hb);
        } else {
            simde_mm_storeu_si128((simde__m128i *)(void *)(d + 2 * i), ha);
            simde_mm_storeu_si128((simde__m128i *)(void *)(d + 2 * i + 16), hb);
        }
    }
    return i;
}

/* 8 elements a step; returns how many it converted. */
uint64_t cast_f16c_f16_f32(unsigned char *d, const unsigned char *s, uint64_t n, int stream) {
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const simde__m256 f = simde_mm256_cvtph_ps(simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + 2 * i)));
        const simde__m128i lo = simde_mm_castps_si128(simde_mm256_castps256_ps128(f));
        const simde__m128i hi = simde_mm_castps_si128(simde_mm256_extractf128_ps(f, 1));
        if (stream) { /* d + 4 i is 16-aligned (the caller's head) */
            simde_mm_stream_si128((simde__m128i *)(void *)(d + 4 * i), lo);
            simde_mm_stream_si128((simde__m128i *)(void *)(d + 4 * i + 16), hi);
        } else {
            simde_mm_storeu_si128((simde__m128i *)(void *)(d + 4 * i), lo);
            simde_mm_storeu_si128((simde__m128i *)(void *)(d + 4 * i + 16), hi);
        }
    }
    return i;
}
#else
typedef int cast_f16c_fast_empty; /* ISO C: a translation unit is not empty */
#endif
