/*
 * Uniform draws for `random` inputs, exact and host-independent: integer
 * arithmetic only, so every host (x87 excess precision, big-endian, 32-bit)
 * gives the same bits from the same seed.
 *
 * Floats: with k the top 53 bits of one splitmix64 draw, the element is the
 * real number  low + (high - low) * k / 2^53  computed exactly (a big
 * integer: the bounds' significands aligned to the smaller exponent) and
 * rounded once to the element's type, to nearest, ties to even.  The result
 * lies in [low, high] (both are representable, rounding is monotonic) and
 * nothing overflows, whatever the bounds (-1e308 .. 1e308 included).
 */
#ifndef DMLREF_CLI_DRAW_H
#define DMLREF_CLI_DRAW_H

#include "dmlref.h"

#include <stdint.h>

/* Enough 32-bit limbs for |bound| * 2^(2045 + 53) * 2^53 and a few bits more. */
#define DRAW_LIMBS 72

typedef struct draw_big {
    uint32_t n; /* limbs in use; w[n - 1] != 0 unless n == 0 */
    uint32_t w[DRAW_LIMBS];
} draw_big;

typedef struct draw_float {
    uint32_t width;     /* element bytes: 2, 4 or 8        */
    uint32_t p;         /* significand bits (11, 24, 53)   */
    int32_t qmin;       /* exponent of the smallest subnormal */
    int32_t scale;      /* N * 2^scale is the drawn value  */
    int same;           /* low and high have the same bits */
    uint64_t low_bits;
    int a_neg;          /* low * 2^53 / 2^scale = (a_neg ? -1 : 1) * a */
    draw_big a, d;      /* d = (high - low) / 2^(scale + 53), an integer >= 0 */
    int small;          /* d < 2^10 and a < 2^62: the sums fit in 64 bits */
    uint64_t a64, d64;  /* a and d when small                              */
} draw_float;

/*
 * Prepares a draw of type dt (FLOAT16/32/64) between the finite values with
 * bit patterns low_bits and high_bits (as integers of the type's width).
 * Returns 0, or -1 when low exceeds high.
 */
int draw_float_init(draw_float *df, DMLREF_TENSOR_DATA_TYPE dt, uint64_t low_bits, uint64_t high_bits);

/* The bits of low + (high - low) * k / 2^53, rounded once (k < 2^53). */
uint64_t draw_float_bits(const draw_float *df, uint64_t k);

#endif
