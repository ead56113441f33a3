/* Shared by op_slice.c and op_slice1.c (docs/operators.md P3). */
#ifndef DMLREF_SLICE_H
#define DMLREF_SLICE_H

#include "engine/plan.h"
#include "core/registry.h"

/* Both operators are one strided view of the input:
 *     Output[o] = Input[start + step (.) o]
 * SLICE: start = Offsets, step = Strides; SLICE1: start = InputWindowOffsets
 * (+ InputWindowSizes - 1 where the stride is negative), step =
 * InputWindowStrides.  The rules keep start + step * o in [0, Input.Sizes) for
 * every output coordinate o. */
typedef struct slice_params {
    int64_t start[MAX_DIMS];
    int64_t step[MAX_DIMS];
} slice_params;

/* The checks both operators share, in this order: the tensor rules (Input,
 * Output), SL1 (Output.DimensionCount == Input.DimensionCount, the feature
 * level's dimension counts), SL2 (data types at the level, equal),
 * SL1 (DimensionCount == Input.DimensionCount, then every array non-NULL:
 * names[k] / arrays[k], k < n_arrays).  Fills op's tensors.  desc: the operator's desc,
 * whose two tensor slots (the schema's) are Input and Output. */
dmlref_status slice_check_common(op_t *op, const void *desc, uint32_t dimension_count, uint32_t n_arrays, const char *const *names,
                                 const void *const *arrays, dmlref_error *err);

/* The names slice_check_common's rules use: SLICE and SLICE1's {"InputTensor", "OutputTensor",
 * "SL1", "SL2"}; SLICE_GRAD checks its tensors with the roles swapped (the window lies in
 * OutputGradientTensor, the packed side is InputGradientTensor): {"InputGradientTensor",
 * "OutputGradientTensor", "SG1", "SG2"}. */
typedef struct slice_roles {
    const char *in_name, *out_name; /* inputs[0], outputs[0] */
    const char *dims_rule, *type_rule;
} slice_roles;
extern const slice_roles slice_roles_forward;

/* slice_check_common under other names (roles above). */
dmlref_status slice_check_roles(op_t *op, const slice_roles *r, const void *desc, uint32_t dimension_count,
                                uint32_t n_arrays,
                                const char *const *names, const void *const *arrays, dmlref_error *err);

/* The end of slice_check_common (SL1): DimensionCount equals Input's, no array NULL. */
dmlref_status slice_check_arrays(const char *op_name, const tensor_t *in, uint32_t dimension_count, uint32_t n_arrays,
                                 const char *const *names, const void *const *arrays, dmlref_error *err);
/* slice_check_arrays under other names: t is the tensor named r->in_name, the rule r->dims_rule. */
dmlref_status slice_check_arrays_roles(const char *op_name, const slice_roles *r, const tensor_t *t,
                                       uint32_t dimension_count, uint32_t n_arrays, const char *const *names,
                                       const void *const *arrays, dmlref_error *err);

/* The oracle of both: every output coordinate o (the canonical iterator) reads
 * the input element start + step (.) o. */
dmlref_status slice_oracle(const op_t *op, const exec_args *x, dmlref_error *err);

/* The fast path of both (slice_fast.c): the view copied by a copy_plan (kernels
 * "<prefix>.<kind>.<isa>", prefix "slice" or "slice1"). */
dmlref_status slice_plan(op_t *op, int v1, dmlref_error *err);

/* SLICE_GRAD's fast path (slice_grad_fast.c): the output's elements outside the window
 * zeroed and the input copied into the window (kernels "slice_grad.*"). */
dmlref_status slice_grad_plan(op_t *op, dmlref_error *err);

#endif
