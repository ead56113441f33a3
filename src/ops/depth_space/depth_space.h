/*
 * DEPTH_TO_SPACE, SPACE_TO_DEPTH and their 1 forms (docs/operators.md, P6): the
 * one implementation the four operator files (op_depth_to_space.c,
 * op_space_to_depth.c, op_depth_to_space1.c, op_space_to_depth1.c) share: the
 * rules and the oracle (depth_space.c) and the fast path (depth_space_fast.c).
 * The v0 operators are the v1 operators with Order = DEPTH_COLUMN_ROW.
 */
#ifndef DMLREF_DEPTH_SPACE_H
#define DMLREF_DEPTH_SPACE_H

#include "core/internal.h"

/* The compiled parameters (depth_space_compile fills them, the oracle and the
 * fast path read them). */
typedef struct depth_space_params {
    uint32_t block;    /* BlockSize                                 */
    uint32_t order;    /* DMLREF_DEPTH_SPACE_ORDER (v0: DEPTH_COLUMN_ROW) */
    uint32_t to_space; /* 1: DEPTH_TO_SPACE(1), 0: SPACE_TO_DEPTH(1) */
} depth_space_params;

/* DMLREF_DEPTH_SPACE_ORDER's names by value (the 1 forms' PARAM_ENUM Order). */
extern const char *const depth_space_order_names[2];

/* Validates the desc's fields at op->feature_level (the tensor rules, then
 * DS1-DS6; op->cls gives the support rows, op->name the messages' operator)
 * and fills op: its tensors, its parameters and the oracle.
 *   to_space   1: DEPTH_TO_SPACE(1), 0: SPACE_TO_DEPTH(1)
 *   has_order  0 for the v0 operators (no Order field: DEPTH_COLUMN_ROW) */
dmlref_status depth_space_compile(op_t *op, int to_space, const DMLREF_TENSOR_DESC *input,
                                  const DMLREF_TENSOR_DESC *output, uint32_t block_size, int has_order,
                                  uint32_t order, dmlref_error *err);

/* The fast path (every class's plan hook; depth_space_fast.c): the permutation as one strided copy,
 * with an interleaving kernel for the block's innermost dimension. */
dmlref_status depth_space_plan(op_t *op, dmlref_error *err);

/* The output's DimensionCount (4) and Sizes (the classes' output_sizes hook): the input's
 * rules, DS3, DS6, DS4 / DS5 as compile checks them. */
dmlref_status depth_space_output_sizes(const op_t *op, int to_space, const DMLREF_TENSOR_DESC *input,
                                       uint32_t block_size, int has_order, uint32_t order, uint32_t *n,
                                       uint32_t *sizes, dmlref_error *err);

#endif
