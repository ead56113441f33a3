/*
 * ONE_HOT's fast path (one_hot_fast.c).  May replace op->kernel /
 * op->kernel_name and set op->plan; the oracle stays when no fast path applies
 * (a failed allocation: OUT_OF_MEMORY).  Called after validation succeeded, with Axis and
 * on_dim (the last dim of Values with size > 1: the on value's).
 */
#ifndef DMLREF_OPS_ONE_HOT_FAST_H
#define DMLREF_OPS_ONE_HOT_FAST_H

#include "engine/plan.h"

dmlref_status plan_one_hot(op_t *op, uint32_t axis, uint32_t on_dim, dmlref_error *err);

#endif
