/*
 * UPSAMPLE_2D's fast path (upsample_fast.c): one strided copy over the output
 * with the H and W dimensions split into (input, repeat) pairs, the repeat at
 * input stride 0.  Called after validation with ScaleSize's Height and Width.
 */
#ifndef DMLREF_OPS_UPSAMPLE_FAST_H
#define DMLREF_OPS_UPSAMPLE_FAST_H

#include "core/registry.h"
#include "engine/plan.h"

dmlref_status plan_upsample_2d(op_t *op, uint32_t height, uint32_t width, dmlref_error *err);

#endif
