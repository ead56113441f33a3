/*
 * ELEMENT_WISE_IF's fast path (select_fast.c; the class, its rules and its
 * oracle are op_element_wise_if.c).  Sets op->kernel, op->kernel_name and
 * op->plan; the oracle stays when planning fails (OUT_OF_MEMORY).
 */
#ifndef DMLREF_OPS_SELECT_FAST_H
#define DMLREF_OPS_SELECT_FAST_H

#include "engine/plan.h"

dmlref_status plan_element_wise_if(op_t *op, dmlref_error *err);

#endif
