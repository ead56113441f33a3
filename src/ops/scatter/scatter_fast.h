/*
 * SCATTER's fast path (scatter_fast.c).  May replace op->kernel /
 * op->kernel_name and set op->plan; the oracle stays when no fast path applies
 * (a failed allocation: OUT_OF_MEMORY).  Called after validation succeeded, with Axis.
 */
#ifndef DMLREF_OPS_SCATTER_FAST_H
#define DMLREF_OPS_SCATTER_FAST_H

#include "engine/plan.h"

dmlref_status plan_scatter(op_t *op, uint32_t axis, dmlref_error *err);

#endif
