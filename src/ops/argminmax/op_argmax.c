/*
 * ARGMAX (docs/operators.md, ARGMIN / ARGMAX; DirectML 138, FL 3_0): per output
 * element, the row-major position over the reduced Axes (increasing axis order) of the
 * largest input element agreeing with it on the kept axes; a NaN wins
 * (above +Inf), +-0 tie; INCREASING: the first such position,
 * DECREASING: the last.  Rules AM1-AM7, the shape and the oracle: argminmax.c; the fast
 * path: argminmax_fast.c.
 */
#include "argminmax.h"

static argminmax_fields fields_of(const void *desc) {
    const DMLREF_ARGMAX_OPERATOR_DESC *d = desc;
    const argminmax_fields f = {d->InputTensor, d->OutputTensor, d->AxisCount, d->Axes, (uint32_t)d->AxisDirection};
    return f;
}

static dmlref_status argmax_compile(op_t *op, const void *desc, dmlref_error *err) {
    const argminmax_fields f = fields_of(desc);
    return argminmax_compile(op, &f, 1, err);
}

static dmlref_status argmax_plan(op_t *op, dmlref_error *err) {
    return plan_argminmax(op, OP_CPARAMS(op, argminmax_params), err);
}

static dmlref_status argmax_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                         uint32_t *sizes, dmlref_error *err) {
    const argminmax_fields f = fields_of(desc);
    (void)output;
    return argminmax_output_sizes(op, &f, n, sizes, err);
}

#define D DMLREF_ARGMAX_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT(D, OutputTensor, 1, 1)};
static const dmlref_param params[] = {PARAM_COUNT(D, AxisCount), PARAM_UINT_ARRAY(D, Axes, AxisCount),
                                      PARAM_AXIS_DIRECTION(D, AxisDirection)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, DT_IDX4}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T8 | DT(INT64) | DT(UINT64), DT_IDX4}}, /* T10 */
};
static const dmlref_schema schema = {DMLREF_OPERATOR_ARGMAX, "ARGMAX", sizeof(D), DMLREF_FEATURE_LEVEL_3_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class argmax_class = {&schema, support, N_OF(support), argmax_compile, PLAN_HOOK(argmax_plan),
                               argmax_output_sizes};
