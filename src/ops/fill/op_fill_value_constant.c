/*
 * FILL_VALUE_CONSTANT (docs/operators.md Q4): every output element is Value, a
 * DML_SCALAR_UNION of type ValueDataType copied bit for bit (its first esize
 * bytes; a FLOAT16 is its binary16 pattern in Bytes[0..1]; NaN payloads kept).
 *
 *   FV1  OutputTensor.DimensionCount allowed at the feature level (4 at 2_1, 1 to 8 from 4_0)
 *   FV2  OutputTensor.DataType in the level's set (T8; T11 from 4_1)
 *   FV3  ValueDataType == OutputTensor.DataType
 *
 * The fast path (fill_value_constant.fill, fill_value_constant.strided) is fill_fast.c.
 */
#include "fill.h"
#include "core/registry.h"

#define OP "FILL_VALUE_CONSTANT"

/* For every output element: the value's bytes. */
static dmlref_status fill_value_constant_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const fill_constant_params *p = OP_CPARAMS(op, fill_constant_params);
    const tensor_t *out = &op->outputs[0];
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[1] = {out->bstrides};
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 1, bs); !it.done; nd_iter_next(&it))
        memcpy(dst + it.offset[0], p->value, out->esize);
    return DMLREF_OK;
}

static dmlref_status fill_value_constant_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC *d = desc;
    TRY(op_alloc_tensors(op, 0, 1, err));
    tensor_t *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);
    TRY(tensor_check(OP, "OutputTensor", d->OutputTensor, op, out, err));
    TRY(check_support(OP, "FV1", "FV2", "OutputTensor", out, &s, 0, op->feature_level, err)); /* FV1, FV2 */
    TRY(check_value_type(OP, "FV3", "ValueDataType", (uint32_t)d->ValueDataType, out, err));  /* FV3 */
    fill_constant_params *p = OP_PARAMS(op, fill_constant_params);
    memset(p->value, 0, sizeof p->value);
    scalar_from_union((DMLREF_TENSOR_DATA_TYPE)out->dtype, &d->Value, p->value);
    op->oracle = fill_value_constant_oracle;
    return DMLREF_OK;
}

static dmlref_status fill_value_constant_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                      uint32_t *sizes, dmlref_error *err) {
    (void)output;
    return fill_output_sizes(op, OP, ((const DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC *)desc)->OutputTensor, n, sizes,
                             err);
}

#define D DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_DATA_TYPE(D, ValueDataType), PARAM_UNION(D, Value, ValueDataType)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_4_0, {1, 8, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_FILL_VALUE_CONSTANT, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_1, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class fill_value_constant_class = {&schema, support, N_OF(support), fill_value_constant_compile,
                                            PLAN_HOOK(fill_constant_plan), fill_value_constant_output_sizes};
