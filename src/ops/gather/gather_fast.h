/*
 * The gather family's fast paths (gather_fast.c): GATHER, GATHER_ELEMENTS,
 * GATHER_ND and GATHER_ND1.  Each planner may replace op->kernel /
 * op->kernel_name and set op->plan; the oracle stays when no fast path applies
 * (a failed allocation: OUT_OF_MEMORY).  Called after validation succeeded, with the
 * operator's parameters.
 */
#ifndef DMLREF_OPS_GATHER_FAST_H
#define DMLREF_OPS_GATHER_FAST_H

#include "engine/plan.h"

dmlref_status plan_gather(op_t *op, int elements, uint32_t axis, uint32_t index_dims, dmlref_error *err);
/* GATHER_ND and GATHER_ND1 (GATHER_ND: batch_dim_count 0), after validation. */
dmlref_status plan_gather_nd(op_t *op, uint32_t input_dim_count, uint32_t indices_dim_count, uint32_t batch_dim_count,
                             dmlref_error *err);

#endif
