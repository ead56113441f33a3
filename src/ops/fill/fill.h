/*
 * FILL_VALUE_CONSTANT and FILL_VALUE_SEQUENCE (docs/operators.md Q4): what the
 * two generators share, below their op files (op_fill_value_constant.c,
 * op_fill_value_sequence.c): the output-shape rule (fill.c), the sequence's
 * element formula (below, the oracle's definition, which the fast path uses
 * too) and the fast path (fill_fast.c).
 */
#ifndef DMLREF_FILL_H
#define DMLREF_FILL_H

#include "core/internal.h"
#include "core/scalar.h"

#include <string.h>

/* FILL_VALUE_CONSTANT's parameters: the value as one output element. */
typedef struct fill_constant_params {
    unsigned char value[8]; /* esize bytes used */
} fill_constant_params;

/* FILL_VALUE_SEQUENCE's parameters.  Integers: Start and Delta as 64-bit
 * patterns (the union's value, sign-extended for signed types: only the low
 * esize * 8 bits of a result are kept, so the extension does not matter).
 * FLOAT32: their bits; FLOAT16: the binary16 values widened to binary32 bits. */
typedef struct fill_sequence_params {
    uint32_t dtype, esize;
    uint64_t start, delta;
} fill_sequence_params;

#define FILL_F32_NAN UINT32_C(0x7FC00000) /* every NaN result (dmlref's decision) */
#define FILL_F16_NAN 0x7E00u

static inline float fill_f32_of_bits(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* fl32(Start + fl32(fl32(i) * Delta)) as binary32 bits, a NaN result as FILL_F32_NAN.
 * Each step is rounded to float32 exactly once: the product of two floats is exact
 * in double, so its conversion is the one rounding of fl32(a * b); the sum is rounded
 * to double (or x87 extended) first, which for one addition of two floats gives the
 * correctly rounded float anyway (53 >= 2 * 24 + 2 bits).  The product is converted to
 * float before the addition, so no contraction into a fused multiply-add can happen. */
static inline uint32_t fill_sequence_f32(uint32_t start_bits, uint32_t delta_bits, uint64_t i) {
    const float fi = (float)i;                                                     /* fl32(i) */
    const float prod = (float)((double)fi * (double)fill_f32_of_bits(delta_bits)); /* fl32(fl32(i) * Delta) */
    const float v = (float)((double)fill_f32_of_bits(start_bits) + (double)prod);  /* fl32(Start + ...) */
    uint32_t b;
    memcpy(&b, &v, 4);
    return (b & 0x7FFFFFFFu) > 0x7F800000u ? FILL_F32_NAN : b;
}

/* Element i of the sequence, in the output's encoding, at out (esize bytes). */
static inline void fill_sequence_element(const fill_sequence_params *p, uint64_t i, unsigned char *out) {
    switch (p->dtype) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: {
        const uint32_t b = fill_sequence_f32((uint32_t)p->start, (uint32_t)p->delta, i);
        memcpy(out, &b, 4);
        return;
    }
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: {
        const uint32_t b = fill_sequence_f32((uint32_t)p->start, (uint32_t)p->delta, i);
        const uint16_t h = b == FILL_F32_NAN ? (uint16_t)FILL_F16_NAN : scalar_f32_to_f16(fill_f32_of_bits(b));
        memcpy(out, &h, 2);
        return;
    }
    default: {
        const uint64_t v = p->start + (uint64_t)i * p->delta; /* modulo 2^64, then the low bits */
        switch (p->esize) {
        case 1: { const uint8_t x = (uint8_t)v; memcpy(out, &x, 1); return; }
        case 2: { const uint16_t x = (uint16_t)v; memcpy(out, &x, 2); return; }
        case 4: { const uint32_t x = (uint32_t)v; memcpy(out, &x, 4); return; }
        default: memcpy(out, &v, 8); return;
        }
    }
    }
}

/* The output shape both classes give dmlref_output_sizes: the OutputTensor's own
 * (there is no input), its DimensionCount checked against the level (FV1). */
dmlref_status fill_output_sizes(const op_t *op, const char *opname, const DMLREF_TENSOR_DESC *td, uint32_t *n,
                                uint32_t *sizes, dmlref_error *err);

/* The fast paths (fill_fast.c): fill_value_constant.{fill,strided},
 * fill_value_sequence.{int32,generic}. */
dmlref_status fill_constant_plan(op_t *op, dmlref_error *err);
dmlref_status fill_sequence_plan(op_t *op, dmlref_error *err);

#endif
