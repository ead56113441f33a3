/* Fast-path planning (plan.c): picks op->kernel at compile time. */
#ifndef DMLREF_PLAN_H
#define DMLREF_PLAN_H

#include "internal.h"

/* May replace op->kernel / op->kernel_name and set op->plan.  The oracle stays
 * when no fast path applies.  Called after validation succeeded. */
dmlref_status plan_fast_path(op_t *op, dmlref_error *err);

#endif
