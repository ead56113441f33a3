/*
 * TILE's fast path (tile_fast.c).  May replace op->kernel / op->kernel_name and
 * set op->plan; the oracle stays when no fast path applies (a failed allocation:
 * OUT_OF_MEMORY).  Called after validation succeeded, with Repeats[0 .. DimensionCount).
 */
#ifndef DMLREF_OPS_TILE_FAST_H
#define DMLREF_OPS_TILE_FAST_H

#include "engine/plan.h"

dmlref_status plan_tile(op_t *op, const uint32_t *repeats, dmlref_error *err);

#endif
