/*
 * ARGMIN and ARGMAX (docs/operators.md, ARGMIN / ARGMAX): what the two classes
 * (op_argmin.c, op_argmax.c), their shared rules and oracle (argminmax.c) and
 * the fast path (argminmax_fast.c) share.  The two descs are layout-identical;
 * the classes pass their fields, so neither desc is read through the other's type.
 */
#ifndef DMLREF_OPS_ARGMINMAX_H
#define DMLREF_OPS_ARGMINMAX_H

#include "core/registry.h"
#include "engine/plan.h"

typedef struct argminmax_params {
    uint32_t is_max;        /* 1: ARGMAX, 0: ARGMIN                                 */
    uint32_t last;          /* AxisDirection DECREASING: the last index of the best */
    uint32_t n_red;         /* reduced axes                                         */
    uint32_t red[MAX_DIMS]; /* the reduced axes, increasing                         */
    uint32_t reduced[MAX_DIMS]; /* 1 for a reduced axis                             */
    uint64_t count;         /* reduced elements per output element (< 2^32)         */
} argminmax_params;

/* The desc's fields (both descs have them, in this order). */
typedef struct argminmax_fields {
    const DMLREF_TENSOR_DESC *in, *out;
    uint32_t axis_count;
    const uint32_t *axes;
    uint32_t direction;
} argminmax_fields;

dmlref_status argminmax_compile(op_t *op, const argminmax_fields *f, int is_max, dmlref_error *err);

/* argminmax.rows_f32.avx2's pass 1 (argminmax_avx2_fast.c; DMLREF_X86_AVX2 builds, taken only
 * where simd_cpu_avx2()): the FLOAT32 elements [0, n16) of a row (n16 a multiple of 16) in
 * blocks of `size` elements (a multiple of 16; the last may be shorter), each block's 4 lane
 * maxima (minima), each bit for bit one of its elements, stored 16 bytes apart from v, their
 * maxima (minima) with the row's first 4 elements at acc (16 bytes); *nan: whether any element
 * is a NaN.  Returns the count of blocks. */
uint32_t argminmax_avx2_blocks(const unsigned char *row, uint64_t n16, uint64_t size, int is_max, unsigned char *v,
                               unsigned char *acc, int *nan);
dmlref_status argminmax_output_sizes(const op_t *op, const argminmax_fields *f, uint32_t *n, uint32_t *sizes,
                                     dmlref_error *err);

/* Whether key a beats the best key b so far (keys: scalar_order_key with nan_low = !is_max). */
static inline int argminmax_better(const argminmax_params *p, uint64_t a, uint64_t b) {
    if (p->is_max) return p->last ? a >= b : a > b;
    return p->last ? a <= b : a < b;
}

/* Index j written as an element of the output's type (4 or 8 bytes, host encoding). */
static inline void argminmax_store(unsigned char *dst, uint32_t oes, uint64_t j) {
    if (oes == 8) memcpy(dst, &j, 8);
    else {
        const uint32_t v = (uint32_t)j;
        memcpy(dst, &v, 4);
    }
}

/* The fast path (argminmax_fast.c): argminmax.rows*, argminmax.columns*; the oracle stays
 * when the reduced axes do not merge into one strided run. */
dmlref_status plan_argminmax(op_t *op, const argminmax_params *p, dmlref_error *err);

#endif
