/* Shared by op_split.c and op_join.c. */
#ifndef DMLREF_CONCAT_H
#define DMLREF_CONCAT_H

#include "engine/plan.h"
#include "core/registry.h"

/* The parameters of SPLIT and JOIN. */
typedef struct concat_params {
    uint32_t axis; /* Axis */
} concat_params;

/* Validates the whole tensor, the count, Axis and every piece (split: the
 * pieces are outputs; join: inputs) and fills op's tensors and parameters. */
dmlref_status concat_compile(op_t *op, const char *whole_name, const DMLREF_TENSOR_DESC *whole_desc,
                             const char *count_name, uint32_t count, const char *pieces_name,
                             const DMLREF_TENSOR_DESC *pieces_desc, uint32_t axis, int split,
                             dmlref_error *err);

/* The classes' output_sizes hooks.  SPLIT: piece `output` has InputTensor's Sizes but along
 * Axis, where OutputTensors[output].Sizes[Axis] (read by shape_given) is its share.  JOIN:
 * InputTensors[0]'s Sizes with the inputs' sizes along Axis summed (J5). */
dmlref_status split_output_sizes(const op_t *op, const DMLREF_SPLIT_OPERATOR_DESC *d, uint32_t output, uint32_t *n,
                                 uint32_t *sizes, dmlref_error *err);
dmlref_status join_output_sizes(const op_t *op, const DMLREF_JOIN_OPERATOR_DESC *d, uint32_t *n, uint32_t *sizes,
                                dmlref_error *err);

/* piece k's element c  <->  whole's element c + (sum of earlier pieces' Axis sizes) along Axis */
dmlref_status concat_oracle(const op_t *op, const exec_args *x, int split);

/* The fast path of SPLIT (split = 1) and JOIN: concat_plan (concat.c) with the
 * compiled Axis calls plan_concat (concat_fast.c), which may replace op->kernel /
 * op->kernel_name and set op->plan; the oracle stays when no fast path applies. */
dmlref_status concat_plan(op_t *op, int split, dmlref_error *err);
dmlref_status plan_concat(op_t *op, int split, uint32_t axis, dmlref_error *err);

#endif
