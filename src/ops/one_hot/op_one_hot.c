/*
 * ONE_HOT (docs/operators.md P8).  Every sequence of Output along Axis is the
 * off value but at the position its index names, which is the on value:
 *
 *   off = Values[0,...,0];  on = Values[0,...,0, 1 at d, 0,...]  (d: the last dim of Values with size > 1)
 *   for each output coordinate o:
 *       v = indices[o with o[Axis] = 0];  n = Output.Sizes[Axis];
 *       output[o] = (v, counted from the end when negative, is in [0, n) and o[Axis] == v) ? on : off;
 *
 * An index out of range ([-n, n) signed, [0, n) unsigned) is NOT clamped: the
 * documented rule makes its whole sequence the off value (UINT64 values of
 * 2^63 and more are compared as unsigned: off too).  That is defined
 * behaviour, so DMLREF_OPTION_CHECK_INDICES has nothing to report (op->check
 * stays NULL).  The reading goes through index.h's one definition of the
 * policy, under INDEX_OPERATOR_RULE: an out-of-range value normalizes to n,
 * which matches no coordinate along Axis.
 *
 *   OH1  Indices, Values, Output: the same DimensionCount N, allowed at the level
 *   OH2  Output.DataType == Values.DataType, in the level's data set; Indices in
 *        the level's index set (UINT32 before 3_0)
 *   OH3  Axis < N
 *   OH4  Indices.Sizes[d] == Output.Sizes[d] for d != Axis; Indices.Sizes[Axis] == 1
 *   OH5  Values holds at least two elements
 *
 * The fast path is one_hot_fast.c.
 */
#include "one_hot_fast.h"
#include "core/registry.h"

#include <inttypes.h>
#include <stdlib.h>

#define OP "ONE_HOT"

typedef struct one_hot_params {
    uint32_t axis;      /* Axis                                              */
    uint32_t on_dim;    /* the last dim of Values with size > 1 (OH5: one exists) */
} one_hot_params;

/* ---- the oracle ------------------------------------------------------------- */

static dmlref_status one_hot_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *ix = &op->inputs[0], *va = &op->inputs[1], *out = &op->outputs[0];
    const one_hot_params *p = OP_CPARAMS(op, one_hot_params);
    const uint32_t a = p->axis;
    const uint64_t n = out->sizes[a];
    const unsigned char *ix_data = IN_DATA(x, 0);
    const unsigned char *off = IN_DATA(x, 1);                    /* Values[0,...,0]              */
    const unsigned char *on = off + va->bstrides[p->on_dim];     /* Values[0,..,1 at on_dim,..,0] */
    unsigned char *out_data = OUT_DATA(x, 0);
    uint64_t ixs[MAX_DIMS];
    memcpy(ixs, ix->bstrides, sizeof ixs);
    ixs[a] = 0; /* every o[Axis] reads indices[o with o[Axis] = 0] */
    const uint64_t *bs[2] = {out->bstrides, ixs};
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 2, bs); !it.done; nd_iter_next(&it)) {
        int in_range;
        const index_value v = index_read(ix_data + it.offset[1], ix->dtype);
        /* out of range: n, which no o[Axis] equals, so the whole sequence is off */
        const uint64_t k = index_norm(v, n, INDEX_OPERATOR_RULE, &in_range);
        memcpy(out_data + it.offset[0], it.coord[a] == k ? on : off, out->esize);
    }
    return DMLREF_OK;
}

/* ---- validation ---------------------------------------------------------------- */

/* OH5: Values holds the off and the on value.  Shared by compile and output_sizes. */
static dmlref_status one_hot_values_rule(const tensor_t *va, dmlref_error *err) {
    if (va->elements < 2) {                                                                    /* OH5 */
        char b[128];
        return set_rule_error(err, DMLREF_ERROR_SIZES, "OH5", "ValuesTensor", "Sizes",
                              OP ": ValuesTensor.Sizes %s hold 1 element; Values must contain at least two (the off "
                              "value and the on value)",
                              sizes_str(b, sizeof b, va->sizes, va->n));
    }
    return DMLREF_OK;
}

/* OH1: Values and Output have Indices' DimensionCount, Values' allowed at the level; OH2: Values'
 * DataType allowed, Output's equal, Indices' an index type (compile_slots, check_input_slots) */
static const slot_rules rules = {"OH1", "OH2", 1, 1};

static dmlref_status one_hot_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_ONE_HOT_OPERATOR_DESC *g = desc;
    support_t s;
    /* the tensor rules; OH1: Values and Output have Indices' DimensionCount, Values' allowed at
     * the level; OH2: Values' DataType allowed, Output's equal, Indices' an index type */
    TRY(compile_slots(op, desc, &rules, &s, err));
    const tensor_t *ix = &op->inputs[0], *va = &op->inputs[1], *out = &op->outputs[0];

    const uint32_t n = ix->n, a = g->Axis;
    if (a >= n)                                                                                /* OH3 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "OH3", "Axis", NULL,
                              OP ": Axis (%" PRIu32 ") must be in [0, IndicesTensor.DimensionCount) = [0, %" PRIu32 ")",
                              a, n);
    TRY(check_sizes_but_axis(OP, "OH4", "IndicesTensor", ix, "OutputTensor", out, a, err)); /* OH4 */
    if (ix->sizes[a] != 1)
        return set_rule_error(err, DMLREF_ERROR_SIZES, "OH4", "IndicesTensor", "Sizes",
                              OP ": IndicesTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must be 1: Axis (%" PRIu32
                              ") is where OutputTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") holds the depth",
                              a, ix->sizes[a], a, a, out->sizes[a]);
    TRY(one_hot_values_rule(va, err)); /* OH5 */

    one_hot_params *p = OP_PARAMS(op, one_hot_params);
    p->axis = a;
    p->on_dim = 0;
    for (uint32_t d = 0; d < n; ++d)
        if (va->sizes[d] > 1) p->on_dim = d; /* the last one: "the fastest-changing dimension of size > 1" */
    op->oracle = one_hot_oracle;
    return DMLREF_OK; /* no op->check: an out-of-range index is defined behaviour here (P8) */
}

/* ---- the class ---------------------------------------------------------------------- */

/* The fast path (one_hot_fast.c). */
static dmlref_status one_hot_plan_hook(op_t *op, dmlref_error *err) {
    const one_hot_params *p = OP_CPARAMS(op, one_hot_params);
    return plan_one_hot(op, p->axis, p->on_dim, err);
}

/* OH4: Indices' Sizes with the depth at Axis, which only OutputTensor.Sizes[Axis] gives. */
static dmlref_status one_hot_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                          uint32_t *sizes, dmlref_error *err) {
    const DMLREF_ONE_HOT_OPERATOR_DESC *g = desc;
    tensor_t t[2]; /* Indices, Values */
    const tensor_t *ix = &t[0], *va = &t[1];
    uint32_t gn = 0, given[MAX_DIMS];
    (void)output;
    TRY(check_input_slots(op, desc, &rules, t, err)); /* OH1, OH2 as compile checks the inputs */
    const uint32_t a = g->Axis;
    if (a >= ix->n)                                                                             /* OH3 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "OH3", "Axis", NULL,
                              OP ": Axis (%" PRIu32 ") must be in [0, IndicesTensor.DimensionCount) = [0, %" PRIu32 ")",
                              a, ix->n);
    if (ix->sizes[a] != 1)                                                                      /* OH4 */
        return set_rule_error(err, DMLREF_ERROR_SIZES, "OH4", "IndicesTensor", "Sizes",
                              OP ": IndicesTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must be 1: Axis (%" PRIu32
                              ") is where OutputTensor.Sizes[%" PRIu32 "] holds the depth",
                              a, ix->sizes[a], a, a);
    TRY(one_hot_values_rule(va, err));                                                        /* OH5 */
    TRY(shape_given(op, "OutputTensor", g->OutputTensor, "the depth along Axis", &gn, given, err));
    if (gn != ix->n)                                                                            /* OH1 */
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "OH1", "OutputTensor", "DimensionCount",
                              OP ": OutputTensor.DimensionCount (%" PRIu32 ") must equal IndicesTensor.DimensionCount (%" PRIu32 ")",
                              gn, ix->n);
    *n = ix->n;
    for (uint32_t d = 0; d < ix->n; ++d) sizes[d] = ix->sizes[d];
    sizes[a] = given[a];
    return DMLREF_OK;
}

#define D DMLREF_ONE_HOT_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_INDICES(D, IndicesTensor), SLOT_IN(D, ValuesTensor),
                                           SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, Axis)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_0, {4, 4, DT_F32F16, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, DT_IDX4}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, DT_IDX4}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_ONE_HOT, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class one_hot_class = {&schema, support, N_OF(support), one_hot_compile, PLAN_HOOK(one_hot_plan_hook), one_hot_output_sizes};
