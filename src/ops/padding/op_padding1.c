/*
 * PADDING1 (docs/operators.md P5): PADDING with a typed fill value, the
 * DML_SCALAR_UNION PaddingValue of type PaddingValueDataType, which must be
 * the output's (PD5, checked in every mode) and is copied bit for bit
 * (src/core/scalar.h; a FLOAT16 is its binary16 pattern in Bytes[0..1]).  The
 * other rules, the oracle and the fast path are PADDING's (padding.c,
 * padding_fast.c).
 */
#include "padding.h"
#include "core/registry.h"
#include "core/scalar.h"

#define OP "PADDING1"

static dmlref_status padding1_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_PADDING1_OPERATOR_DESC *d = desc;
    const padding_fields f = {d->InputTensor, d->OutputTensor, (uint32_t)d->PaddingMode, d->DimensionCount,
                              d->StartPadding, d->EndPadding};
    TRY(padding_compile_tensors(op, OP, desc, &f, err)); /* tensor rules, PD1, PD2, PD4 */
    TRY(check_value_type(OP, "PD5", "PaddingValueDataType", (uint32_t)d->PaddingValueDataType, &op->outputs[0],
                         err)); /* PD5 */
    TRY(padding_compile_pads(op, OP, &f, err)); /* PD1, PD3 */
    scalar_from_union((DMLREF_TENSOR_DATA_TYPE)op->outputs[0].dtype, &d->PaddingValue, OP_PARAMS(op, padding_params)->fill);
    return DMLREF_OK;
}

static dmlref_status padding1_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                      uint32_t *sizes, dmlref_error *err) {
    const DMLREF_PADDING1_OPERATOR_DESC *d = desc;
    const padding_fields f = {d->InputTensor, d->OutputTensor, (uint32_t)d->PaddingMode, d->DimensionCount,
                              d->StartPadding, d->EndPadding};
    (void)output;
    return padding_output_sizes(op, &f, n, sizes, err);
}

#define D DMLREF_PADDING1_OPERATOR_DESC
static const char *const mode_names[] = {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"};
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_ENUM(D, PaddingMode, mode_names), PARAM_DATA_TYPE(D, PaddingValueDataType),
                                      PARAM_UNION(D, PaddingValue, PaddingValueDataType),
                                      PARAM_COUNT(D, DimensionCount), PARAM_UINT_ARRAY(D, StartPadding, DimensionCount),
                                      PARAM_UINT_ARRAY(D, EndPadding, DimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_5_0, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_PADDING1, OP, sizeof(D), DMLREF_FEATURE_LEVEL_5_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class padding1_class = {&schema, support, N_OF(support), padding1_compile, PLAN_HOOK(padding_plan), padding1_output_sizes};
