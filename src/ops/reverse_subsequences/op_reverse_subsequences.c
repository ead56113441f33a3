/*
 * REVERSE_SUBSEQUENCES (docs/operators.md P9).
 *
 *   for each output coordinate o:
 *       L = min(lengths[o with o[Axis] = 0], Input.Sizes[Axis]);   (64-bit; above the size: clamped)
 *       k = o[Axis];
 *       output[o] = k < L ? input[o with Axis = L - 1 - k] : input[o];
 *
 * Every coordinate of SequenceLengthsTensor (its size along Axis is 1) is one
 * sequence: its first L elements along Axis are reversed, the rest copied as
 * they are.  A length above the axis size is clamped to it ("as if the value
 * were clamped to the maximum"): documented behaviour, so the checking option
 * has nothing to report; lengths 0 and 1 change nothing.
 *
 *   RS1  Input, SequenceLengths, Output: the same DimensionCount, allowed at the
 *        level (4 at 2_1, 4-5 at 3_0, 1-8 from 4_0)
 *   RS2  Output.DataType == Input.DataType, allowed at the level (T8, T11 from
 *        5_0); Output.Sizes == Input.Sizes
 *   RS3  SequenceLengths.Sizes[d] == Input.Sizes[d] for d != Axis, and
 *        SequenceLengths.Sizes[Axis] == 1
 *   RS4  SequenceLengths.DataType: UINT32 (2_1 - 4_1), UINT64 or UINT32 from 5_0
 *   RS5  Axis < Input.DimensionCount
 * Order: the tensor rules (Input, SequenceLengths, Output), RS1, RS2, RS4,
 * RS5, RS3 (it needs a valid Axis).
 *
 * The fast path is reverse_subsequences_fast.c.
 */
#include "reverse_subsequences.h"
#include "core/registry.h"

#include <inttypes.h>
#include <stdlib.h>

#define OP "REVERSE_SUBSEQUENCES"

typedef struct reverse_subsequences_params {
    uint32_t axis; /* Axis */
} reverse_subsequences_params;

/* ---- the oracle ------------------------------------------------------------- */

static dmlref_status reverse_subsequences_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *len = &op->inputs[1], *out = &op->outputs[0];
    const unsigned char *in_data = IN_DATA(x, 0), *len_data = IN_DATA(x, 1);
    unsigned char *out_data = OUT_DATA(x, 0);
    const uint32_t a = OP_CPARAMS(op, reverse_subsequences_params)->axis;
    const uint64_t n = in->sizes[a];
    uint64_t lbs[MAX_DIMS]; /* lengths[o with o[Axis] = 0]: stride 0 along Axis */
    memcpy(lbs, len->bstrides, sizeof lbs);
    lbs[a] = 0;
    const uint64_t *bs[2] = {out->bstrides, lbs};
    uint32_t ic[MAX_DIMS];
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 2, bs); !it.done; nd_iter_next(&it)) {
        const uint64_t L = seq_length(len_data + it.offset[1], len->dtype, n);
        const uint32_t k = it.coord[a];
        memcpy(ic, it.coord, sizeof ic);
        if (k < L) ic[a] = (uint32_t)(L - 1 - k);
        memcpy(out_data + it.offset[0], in_data + tensor_offset(in, ic), in->esize);
    }
    return DMLREF_OK;
}

/* ---- compile ------------------------------------------------------------------ */

static dmlref_status reverse_subsequences_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC *r = desc;
    static const slot_rules rules = {"RS1", "RS2", 0, 0};
    support_t s;
    /* the tensor rules; RS1: SequenceLengths and Output have Input's DimensionCount, allowed at
     * the level; RS2: Input's DataType allowed, Output's equal */
    TRY(compile_slots(op, desc, &rules, &s, err));
    const tensor_t *in = &op->inputs[0], *len = &op->inputs[1], *out = &op->outputs[0];
    TRY(check_same_sizes(OP, "RS2", "OutputTensor", out, "InputTensor.Sizes", in->sizes, err));
    TRY(check_support(OP, "RS1", "RS4", "SequenceLengthsTensor", len, &s, 1, op->feature_level, err)); /* RS4 */

    const uint32_t n = in->n, a = r->Axis;
    if (a >= n)                                                                                    /* RS5 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "RS5", "Axis", NULL,
                              OP ": Axis (%" PRIu32 ") must be in [0, InputTensor.DimensionCount) = [0, %" PRIu32
                              ") (RS5)",
                              a, n);
    for (uint32_t d = 0; d < n; ++d) {                                                             /* RS3 */
        if (d == a && len->sizes[d] != 1)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "RS3", "SequenceLengthsTensor", "Sizes",
                                  OP ": SequenceLengthsTensor.Sizes[%" PRIu32 "] (%" PRIu32
                                  ") must be 1: dimension %" PRIu32 " is Axis, one length per sequence (RS3)",
                                  d, len->sizes[d], d);
        if (d != a && len->sizes[d] != in->sizes[d])
            return set_rule_error(err, DMLREF_ERROR_SIZES, "RS3", "SequenceLengthsTensor", "Sizes",
                                  OP ": SequenceLengthsTensor.Sizes[%" PRIu32 "] (%" PRIu32
                                  ") must equal InputTensor.Sizes[%" PRIu32 "] (%" PRIu32
                                  ") in every dimension but Axis (%" PRIu32 ") (RS3)",
                                  d, len->sizes[d], d, in->sizes[d], a);
    }

    OP_PARAMS(op, reverse_subsequences_params)->axis = a;
    op->oracle = reverse_subsequences_oracle;
    return DMLREF_OK;
}

/* ---- the class ---------------------------------------------------------------- */

/* The fast path (reverse_subsequences_fast.c). */
static dmlref_status reverse_subsequences_plan(op_t *op, dmlref_error *err) {
    return plan_reverse_subsequences(op, OP_CPARAMS(op, reverse_subsequences_params)->axis, err);
}

static dmlref_status reverse_subsequences_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                       uint32_t *sizes, dmlref_error *err) {
    const DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC *d = desc; /* RS2: Output.Sizes == Input.Sizes */
    (void)output;
    return shape_of_input(op, "InputTensor", d->InputTensor, "RS1", "RS2", n, sizes, err);
}

#define D DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_INDICES(D, SequenceLengthsTensor),
                                           SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, Axis)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, DT(UINT32)}},
    {DMLREF_FEATURE_LEVEL_3_0, {4, 5, DT_T8, DT(UINT32)}},
    {DMLREF_FEATURE_LEVEL_4_0, {1, 8, DT_T8, DT(UINT32)}},
    {DMLREF_FEATURE_LEVEL_5_0, {1, 8, DT_T11, DT(UINT64) | DT(UINT32)}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_REVERSE_SUBSEQUENCES, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_1, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class reverse_subsequences_class = {&schema, support, N_OF(support), reverse_subsequences_compile,
                                             PLAN_HOOK(reverse_subsequences_plan), reverse_subsequences_output_sizes};
