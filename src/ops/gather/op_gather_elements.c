/*
 * GATHER_ELEMENTS (docs/operators.md section 3).
 *   for each coordinate c of Indices:  ic = c; ic[Axis] = norm(indices[c]);
 *                                      output[c] = input[ic]
 */
#include "gather_fast.h"
#include "core/registry.h"

#include <inttypes.h>

#define OP "GATHER_ELEMENTS"

typedef struct gather_elements_params {
    uint32_t axis; /* Axis */
} gather_elements_params;

static dmlref_status gather_elements_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    const unsigned char *in_data = IN_DATA(x, 0), *ix_data = IN_DATA(x, 1);
    unsigned char *out_data = OUT_DATA(x, 0);
    const uint32_t a = OP_CPARAMS(op, gather_elements_params)->axis;
    const uint64_t *bs[2] = {out->bstrides, ix->bstrides};
    uint32_t ic[MAX_DIMS];
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 2, bs); !it.done; nd_iter_next(&it)) {
        int in_range;
        memcpy(ic, it.coord, sizeof ic);
        const index_value v = index_read(ix_data + it.offset[1], ix->dtype);
        ic[a] = (uint32_t)index_normalize(v, in->sizes[a], &in_range);
        memcpy(out_data + it.offset[0], in_data + tensor_offset(in, ic), in->esize);
    }
    return DMLREF_OK;
}

static dmlref_status gather_elements_check(const op_t *op, const exec_args *x, dmlref_error *err) {
    return check_indices_along_axis(op, OP_CPARAMS(op, gather_elements_params)->axis, x, err);
}

/* Rules E3 and E4 (after the tensor rules, E1 and E2): the output is then shaped like the
 * indices (E5).  Shared by compile and output_sizes. */
static dmlref_status gather_elements_shape(const tensor_t *in, const tensor_t *ix, uint32_t a, dmlref_error *err) {
    const uint32_t n = in->n;
    if (a >= n)                                                                           /* E3 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "E3", "Axis", NULL,
                         OP ": Axis (%" PRIu32 ") must be in [0, InputTensor.DimensionCount) = [0, %" PRIu32 ")",
                         a, n);
    TRY(check_sizes_but_axis(OP, "E4", "IndicesTensor", ix, "InputTensor", in, a, err)); /* E4 */
    return DMLREF_OK;
}

/* E1: Indices and Output have Input's DimensionCount, allowed at the level; E2: Input's DataType
 * allowed, Output's equal, Indices' an index type (compile_slots, check_input_slots) */
static const slot_rules rules = {"E1", "E2", 0, 1};

static dmlref_status gather_elements_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_GATHER_ELEMENTS_OPERATOR_DESC *g = desc;
    support_t s;
    /* the tensor rules; E1: Indices and Output have Input's DimensionCount, allowed at the level;
     * E2: Input's DataType allowed, Output's equal, Indices' an index type */
    TRY(compile_slots(op, desc, &rules, &s, err));
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];

    const uint32_t a = g->Axis;
    TRY(gather_elements_shape(in, ix, a, err)); /* E3, E4 */
    TRY(check_same_sizes(OP, "E5", "OutputTensor", out, "IndicesTensor.Sizes", ix->sizes, err)); /* E5 */

    OP_PARAMS(op, gather_elements_params)->axis = a;
    op->oracle = gather_elements_oracle;
    op->check = gather_elements_check;
    return DMLREF_OK;
}

static dmlref_status gather_elements_plan(op_t *op, dmlref_error *err) {
    return plan_gather(op, 1, OP_CPARAMS(op, gather_elements_params)->axis, 0, err);
}

static dmlref_status gather_elements_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                   uint32_t *sizes, dmlref_error *err) {
    const DMLREF_GATHER_ELEMENTS_OPERATOR_DESC *g = desc;
    tensor_t t[2]; /* Input, Indices */
    const tensor_t *ix = &t[1];
    (void)output;
    TRY(check_input_slots(op, desc, &rules, t, err)); /* E1, E2 as compile checks the inputs */
    TRY(gather_elements_shape(&t[0], ix, g->Axis, err));
    *n = ix->n;                                                                           /* E5 */
    for (uint32_t d = 0; d < ix->n; ++d) sizes[d] = ix->sizes[d];
    return DMLREF_OK;
}

#define D DMLREF_GATHER_ELEMENTS_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_INDICES(D, IndicesTensor),
                                           SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, Axis)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, DT_IDX4}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, DT_IDX4}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_GATHER_ELEMENTS, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_1, 0,
                                              N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class gather_elements_class = {&schema, support, N_OF(support), gather_elements_compile, PLAN_HOOK(gather_elements_plan),
                                        gather_elements_output_sizes};
