/*
 * PADDING (docs/operators.md P5): the input surrounded by StartPadding and
 * EndPadding elements per dimension, filled by PaddingMode: CONSTANT (the
 * FLOAT PaddingValue converted to the element type: truncated toward zero and
 * saturated for integers, NaN -> 0, FLOAT16 rounded to nearest even; src/core/scalar.h),
 * EDGE, REFLECTION, SYMMETRIC (from 3_0) or WRAP (from 6_4).  The rules, the
 * oracle and the fast path are PADDING1's too (padding.c, padding_fast.c).
 */
#include "padding.h"
#include "core/registry.h"
#include "core/scalar.h"

#define OP "PADDING"

static dmlref_status padding_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_PADDING_OPERATOR_DESC *d = desc;
    const padding_fields f = {d->InputTensor, d->OutputTensor, (uint32_t)d->PaddingMode, d->DimensionCount,
                              d->StartPadding, d->EndPadding};
    TRY(padding_compile_tensors(op, OP, desc, &f, err)); /* tensor rules, PD1, PD2, PD4 */
    TRY(padding_compile_pads(op, OP, &f, err));    /* PD1, PD3 */
    scalar_from_float((DMLREF_TENSOR_DATA_TYPE)op->outputs[0].dtype, d->PaddingValue,
                      OP_PARAMS(op, padding_params)->fill);
    return DMLREF_OK;
}

static dmlref_status padding_class_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                      uint32_t *sizes, dmlref_error *err) {
    const DMLREF_PADDING_OPERATOR_DESC *d = desc;
    const padding_fields f = {d->InputTensor, d->OutputTensor, (uint32_t)d->PaddingMode, d->DimensionCount,
                              d->StartPadding, d->EndPadding};
    (void)output;
    return padding_output_sizes(op, &f, n, sizes, err);
}

#define D DMLREF_PADDING_OPERATOR_DESC
static const char *const mode_names[] = {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"};
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_ENUM(D, PaddingMode, mode_names), PARAM_FLOAT(D, PaddingValue),
                                      PARAM_COUNT(D, DimensionCount), PARAM_UINT_ARRAY(D, StartPadding, DimensionCount),
                                      PARAM_UINT_ARRAY(D, EndPadding, DimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 5, DT_F32F16, 0}},
    {DMLREF_FEATURE_LEVEL_2_1, {4, 5, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_3_1, {1, 8, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_5_0, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_PADDING, OP, sizeof(D), DMLREF_FEATURE_LEVEL_1_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class padding_class = {&schema, support, N_OF(support), padding_compile, PLAN_HOOK(padding_plan), padding_class_output_sizes};
