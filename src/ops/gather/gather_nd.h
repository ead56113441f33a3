/*
 * GATHER_ND and GATHER_ND1 (docs/operators.md P1): one implementation in
 * gather_nd.c, GATHER_ND being GATHER_ND1 with BatchDimensionCount 0.  The two
 * classes (src/ops/gather/op_gather_nd.c, src/ops/gather/op_gather_nd1.c) hold their schemas and read
 * their descs into these calls, so either builds without the other
 * (make OPS=...).
 */
#ifndef DMLREF_GATHER_ND_H
#define DMLREF_GATHER_ND_H

#include "core/internal.h"

/* The desc's fields, whichever of the two descs they come from. */
typedef struct gather_nd_desc {
    const DMLREF_TENSOR_DESC *input, *indices, *output;
    uint32_t r; /* InputDimensionCount                       */
    uint32_t q; /* IndicesDimensionCount                     */
    uint32_t b; /* BatchDimensionCount (0 for GATHER_ND)     */
    int has_batch; /* GATHER_ND1: the field exists (rule GN5) */
} gather_nd_desc;

/* Every rule of P1.2 at op->feature_level; fills op (tensors, parameters,
 * oracle, the checking pre-pass).  desc: the operator's desc (d's tensors are its
 * InputTensor, IndicesTensor and OutputTensor: the class's slots). */
dmlref_status gather_nd_compile(op_t *op, const void *desc, const gather_nd_desc *d, dmlref_error *err);

/* The output's DimensionCount and Sizes (the class's output_sizes hook): the inputs'
 * rules and GN3-GN8, as compile checks them; the output's desc is not read. */
dmlref_status gather_nd_output_sizes(const op_t *op, const void *desc, const gather_nd_desc *d, uint32_t *n,
                                     uint32_t *sizes, dmlref_error *err);

/* The fast path (plan_gather_nd of gather_fast.c with the compiled parameters). */
dmlref_status gather_nd_plan(op_t *op, dmlref_error *err);

#endif
