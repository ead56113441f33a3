/*
 * NONZERO_COORDINATES's parameters and fast path (nonzero_fast.c; the class, its
 * rules and its oracle are op_nonzero_coordinates.c).  plan sets op->kernel,
 * op->kernel_name and op->plan when the input is packed; the oracle stays otherwise
 * and when planning fails (OUT_OF_MEMORY).
 */
#ifndef DMLREF_OPS_NONZERO_FAST_H
#define DMLREF_OPS_NONZERO_FAST_H

#include "engine/plan.h"

/* The compiled operator's parameters: N, the components per row (NZ6). */
typedef struct nonzero_params {
    uint32_t n;
} nonzero_params;

dmlref_status plan_nonzero_coordinates(op_t *op, dmlref_error *err);

#endif
