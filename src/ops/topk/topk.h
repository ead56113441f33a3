/*
 * The TOP_K family (docs/operators.md, TOP_K): TOP_K (71) and TOP_K1 (112).  TOP_K is
 * TOP_K1 with DECREASING; both reduce their desc to one topk_desc and share the rules
 * TK1-TK7, the output shape, the oracle (topk.c) and the fast path (topk_fast.c).
 *
 * The order (one definition: scalar_order_key, src/core/scalar.h): position j of a
 * sequence along Axis comes before position i when
 *   DECREASING: key(v_j) > key(v_i), or the keys are equal and j < i;
 *   INCREASING: key(v_j) < key(v_i), or the keys are equal and j < i,
 * where key orders NaN above +Inf (all NaNs equal), -0 == +0.  The first K positions
 * give OutputIndexTensor (the index within the sequence) and OutputValueTensor (a bit
 * copy of the input element).
 */
#ifndef DMLREF_OPS_TOPK_H
#define DMLREF_OPS_TOPK_H

#include "core/registry.h"

typedef struct topk_params {
    uint32_t axis;       /* < DimensionCount                   */
    uint32_t k;          /* 1 .. Input.Sizes[Axis]             */
    uint32_t decreasing; /* 1: DECREASING (TOP_K), 0: INCREASING */
} topk_params;

/* What a member's desc gives, before its rules are checked. */
typedef struct topk_desc {
    const char *op;      /* "TOP_K" or "TOP_K1" */
    const DMLREF_TENSOR_DESC *in, *val, *idx;
    uint32_t axis, k;
    uint32_t direction;  /* AxisDirection (TOP_K: DECREASING) */
} topk_desc;

/* The whole compile of a member: the rules, op->params, op->oracle. */
dmlref_status topk_compile(op_t *op, const topk_desc *d, dmlref_error *err);

/* The output_sizes hook of a member (both outputs have the same shape: TK6). */
dmlref_status topk_output_sizes(const op_t *op, const topk_desc *d, uint32_t *n, uint32_t *sizes, dmlref_error *err);

/* The oracle's selection of one sequence (topk.c): the K first of its n positions, in
 * order, into its OutputIndex row (ix, ix_st bytes apart, UINT32 or UINT64), kept there
 * as a heap meanwhile.  O(n log K), no memory.  The fast path's large-K kernel. */
void topk_sequence(const unsigned char *in, uint64_t in_st, uint32_t dtype, unsigned char *ix, uint64_t ix_st,
                   uint32_t ix_dtype, uint32_t decreasing, uint64_t n, uint64_t k);

/* The fast path (topk_fast.c). */
dmlref_status topk_plan(op_t *op, dmlref_error *err);

/* The two hooks of a member from its desc reader `get` (const D * -> topk_desc). */
#define TOPK_HOOKS(name, D, get)                                                                             \
    static dmlref_status name##_compile(op_t *op, const void *desc, dmlref_error *err) {                    \
        const topk_desc d = get((const D *)desc);                                                           \
        return topk_compile(op, &d, err);                                                                   \
    }                                                                                                       \
    static dmlref_status name##_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n, \
                                             uint32_t *sizes, dmlref_error *err) {                          \
        const topk_desc d = get((const D *)desc);                                                           \
        (void)output;                                                                                       \
        return topk_output_sizes(op, &d, n, sizes, err);                                                    \
    }

/* T10 = T11 without FLOAT64 (5_0); U2 = {UINT64, UINT32}. */
#define TOPK_T10 (DT_T11 & ~DT(FLOAT64))
#define TOPK_U2 (DT(UINT64) | DT(UINT32))

#endif
