/*
 * MAX_UNPOOLING's fast path (max_unpooling_fast.c).  May replace op->kernel /
 * op->kernel_name and set op->plan; the oracle stays when no fast path applies
 * (a failed allocation: OUT_OF_MEMORY).  Called after validation succeeded.
 */
#ifndef DMLREF_OPS_MAX_UNPOOLING_FAST_H
#define DMLREF_OPS_MAX_UNPOOLING_FAST_H

#include "engine/plan.h"

dmlref_status plan_max_unpooling(op_t *op, dmlref_error *err);

#endif
