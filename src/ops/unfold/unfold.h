/*
 * UNFOLD (docs/operators.md, UNFOLD): what the class (op_unfold.c) and its fast
 * path (unfold_fast.c) share: the compiled parameters and the planner.
 *
 * Input {N, C, S_0 .. S_{K-1}} (K = D - 2 spatial dims), Output {1 x (D-3), N,
 * C * prod(W), prod(B)}; out[.., n, c * prod(W) + k, l] = in[n, c, b(l) * Stride
 * + k * Dilation - StartPadding], all-zero bits outside the input, k and l
 * row-major over the window grid W and the block grid B.
 */
#ifndef DMLREF_OPS_UNFOLD_H
#define DMLREF_OPS_UNFOLD_H

#include "engine/plan.h"

#define UNFOLD_MAX_SPATIAL (MAX_DIMS - 2)

typedef struct unfold_params {
    uint32_t k;                                                   /* spatial dims: DimensionCount        */
    uint32_t w[UNFOLD_MAX_SPATIAL], st[UNFOLD_MAX_SPATIAL];       /* WindowSizes, Strides                */
    uint32_t dil[UNFOLD_MAX_SPATIAL], p0[UNFOLD_MAX_SPATIAL];     /* Dilations, StartPadding             */
    uint64_t blocks[UNFOLD_MAX_SPATIAL];                          /* B_d = span_d / Stride_d + 1         */
    uint64_t pw, pb;                                              /* prod(W) and prod(B), each < 2^32    */
} unfold_params;

/* The source index along spatial dim d for block b and window index w (any value:
 * the caller checks it against the input's size). */
static inline int64_t unfold_source(const unfold_params *p, uint32_t d, uint64_t b, uint64_t w) {
    return (int64_t)(b * p->st[d]) + (int64_t)(w * p->dil[d]) - (int64_t)p->p0[d];
}

/* The fast path (unfold_fast.c): unfold.rows or unfold.gather; the oracle stays when
 * the per-dimension tables would be larger than UNFOLD_TABLE_MAX entries. */
dmlref_status plan_unfold(op_t *op, const unfold_params *p, dmlref_error *err);

#endif
