/*
 * ELEMENT_WISE_IDENTITY's ScaleBias on FLOAT32 (docs/operators.md, P7):
 *
 *     y = fl32(fl32(x * Scale) + Bias)      two roundings, no fused multiply-add,
 *                                           a NaN result written as 0x7FC00000
 *
 * The scalar definition (sb_f32_bits) and the vector kernel over a contiguous
 * run (simd_scale_bias_f32) write the same bits for every input: a multiply
 * then an add, each rounded to binary32 to nearest even, and every NaN
 * replaced by the canonical quiet NaN (IEEE 754 leaves a NaN result's sign and
 * payload to the hardware, and which operand's NaN survives depends on the
 * operand order the compiler picks, so dmlref fixes one).
 *
 * No contraction into an FMA: whoever includes this header is compiled with
 * -ffp-contract=off (the Makefile's rule for src/op_element_wise_identity.o;
 * gcc ignores `#pragma STDC FP_CONTRACT`, and on aarch64 it contracts by
 * default outside ISO C modes), and the pragma below says it to clang too.
 * No excess precision: where float arithmetic is evaluated wider
 * (FLT_EVAL_METHOD != 0: x87), each step is stored through a volatile float,
 * which rounds it to binary32 (the double rounding of the x87's 64-bit
 * significand and then 24 bits is innocuous for a product or a sum: 64 >=
 * 2 * 24 + 2), and the vector kernel is not used.
 *
 * Computed in the calling thread's floating-point environment, which must be
 * the default one (round to nearest even, no flush-to-zero, no
 * denormals-are-zero).
 */
#ifndef DMLREF_SIMD_SCALE_BIAS_H
#define DMLREF_SIMD_SCALE_BIAS_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "simd.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#define SB_F32 volatile float /* a store rounds the excess precision away */
#define SB_VECTOR 0
#else
#define SB_F32 float
#define SB_VECTOR DMLREF_SIMD
#endif

#define SB_NAN32 UINT32_C(0x7FC00000)

/* One element: the definition every path follows. */
static inline uint32_t sb_f32_bits(uint32_t xb, float scale, float bias) {
    float x;
    memcpy(&x, &xb, sizeof x);
    SB_F32 p = x * scale;
    SB_F32 r = p + bias;
    const float y = r;
    if (y != y) return SB_NAN32;
    uint32_t yb;
    memcpy(&yb, &y, sizeof yb);
    return yb;
}

/* n contiguous FLOAT32 elements from s to d (unaligned; d may equal s, else no
 * overlap), 4 per step, the tail element by element. */
static inline void simd_scale_bias_f32(unsigned char *d, const unsigned char *s, size_t n, float scale, float bias) {
    size_t i = 0;
#if SB_VECTOR
    const simde__m128 vs = simde_mm_set1_ps(scale), vb = simde_mm_set1_ps(bias);
    const simde__m128 nan = simde_mm_castsi128_ps(simde_mm_set1_epi32((int32_t)SB_NAN32));
    for (; i + 4 <= n; i += 4) {
        const simde__m128 x = simde_mm_loadu_ps((const float *)(const void *)(s + 4 * i));
        const simde__m128 p = simde_mm_mul_ps(x, vs);
        const simde__m128 r = simde_mm_add_ps(p, vb);
        const simde__m128 is_nan = simde_mm_cmpunord_ps(r, r);
        const simde__m128 y = simde_mm_or_ps(simde_mm_andnot_ps(is_nan, r), simde_mm_and_ps(is_nan, nan));
        simde_mm_storeu_ps((float *)(void *)(d + 4 * i), y);
    }
#endif
    for (; i < n; ++i) {
        uint32_t x;
        memcpy(&x, s + 4 * i, 4);
        x = sb_f32_bits(x, scale, bias);
        memcpy(d + 4 * i, &x, 4);
    }
}

#endif
