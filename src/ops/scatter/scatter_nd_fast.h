/*
 * SCATTER_ND's fast path (scatter_nd_fast.c).  May replace op->kernel /
 * op->kernel_name and set op->plan; the oracle stays when no fast path applies
 * (a failed allocation: OUT_OF_MEMORY).  Called after validation succeeded.
 */
#ifndef DMLREF_OPS_SCATTER_ND_FAST_H
#define DMLREF_OPS_SCATTER_ND_FAST_H

#include "engine/plan.h"

dmlref_status plan_scatter_nd(op_t *op, uint32_t input_dim_count, uint32_t indices_dim_count, dmlref_error *err);

#endif
