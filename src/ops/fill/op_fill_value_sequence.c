/*
 * FILL_VALUE_SEQUENCE (docs/operators.md Q4): output element i (its row-major
 * logical index, not its memory offset) is ValueStart + i * ValueDelta:
 *   integers  (Start + i * Delta) modulo 2^bits (two's complement for signed types);
 *   FLOAT32   fl32(Start + fl32(fl32(i) * Delta)), two roundings, never fused;
 *   FLOAT16   the same in float32 on the widened binary16 Start and Delta, then
 *             one rounding to binary16 (nearest even, overflow -> Inf);
 * a NaN result is the canonical quiet NaN (0x7FC00000, FLOAT16 0x7E00): dmlref's
 * decision, hosts differ in which NaN an operation returns.  fill.h's
 * fill_sequence_element is the formula.
 *
 *   FV1  OutputTensor.DimensionCount allowed at the feature level (4 at 2_1, 1 to 8 from 4_0)
 *   FV2  OutputTensor.DataType in the level's set (T8; T10 from 5_0: never FLOAT64)
 *   FV3  ValueDataType == OutputTensor.DataType
 *
 * The fast path (fill_value_sequence.int32, fill_value_sequence.generic) is fill_fast.c.
 */
#include "fill.h"
#include "core/registry.h"

#define OP "FILL_VALUE_SEQUENCE"

/* T10 = T11 without FLOAT64. */
#define DT_T10 (DT_T11 & ~DT(FLOAT64))

/* For every output coordinate, in row-major order i = 0, 1, ...: element i. */
static dmlref_status fill_value_sequence_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const fill_sequence_params *p = OP_CPARAMS(op, fill_sequence_params);
    const tensor_t *out = &op->outputs[0];
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[1] = {out->bstrides};
    nd_iter it;
    uint64_t i = 0;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 1, bs); !it.done; nd_iter_next(&it), ++i)
        fill_sequence_element(p, i, dst + it.offset[0]);
    return DMLREF_OK;
}

/* A union's value as fill_sequence_params keeps it (fill.h). */
static uint64_t union_value(DMLREF_TENSOR_DATA_TYPE dt, const DMLREF_SCALAR_UNION *u) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: { uint32_t b; memcpy(&b, u->Bytes, 4); return b; }
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: return scalar_f16_to_f32_bits(u->UInt16);
    case DMLREF_TENSOR_DATA_TYPE_INT8: return (uint64_t)(int64_t)u->Int8;
    case DMLREF_TENSOR_DATA_TYPE_UINT8: return u->UInt8;
    case DMLREF_TENSOR_DATA_TYPE_INT16: return (uint64_t)(int64_t)u->Int16;
    case DMLREF_TENSOR_DATA_TYPE_UINT16: return u->UInt16;
    case DMLREF_TENSOR_DATA_TYPE_INT32: return (uint64_t)(int64_t)u->Int32;
    case DMLREF_TENSOR_DATA_TYPE_UINT32: return u->UInt32;
    default: return u->UInt64; /* INT64, UINT64 */
    }
}

static dmlref_status fill_value_sequence_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC *d = desc;
    TRY(op_alloc_tensors(op, 0, 1, err));
    tensor_t *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);
    TRY(tensor_check(OP, "OutputTensor", d->OutputTensor, op, out, err));
    TRY(check_support(OP, "FV1", "FV2", "OutputTensor", out, &s, 0, op->feature_level, err)); /* FV1, FV2 */
    TRY(check_value_type(OP, "FV3", "ValueDataType", (uint32_t)d->ValueDataType, out, err));  /* FV3 */
    fill_sequence_params *p = OP_PARAMS(op, fill_sequence_params);
    const DMLREF_TENSOR_DATA_TYPE dt = (DMLREF_TENSOR_DATA_TYPE)out->dtype;
    p->dtype = out->dtype;
    p->esize = out->esize;
    p->start = union_value(dt, &d->ValueStart);
    p->delta = union_value(dt, &d->ValueDelta);
    op->oracle = fill_value_sequence_oracle;
    return DMLREF_OK;
}

static dmlref_status fill_value_sequence_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                      uint32_t *sizes, dmlref_error *err) {
    (void)output;
    return fill_output_sizes(op, OP, ((const DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC *)desc)->OutputTensor, n, sizes,
                             err);
}

#define D DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_DATA_TYPE(D, ValueDataType), PARAM_UNION(D, ValueStart, ValueDataType),
                                      PARAM_UNION(D, ValueDelta, ValueDataType)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_4_0, {1, 8, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_5_0, {1, 8, DT_T10, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_FILL_VALUE_SEQUENCE, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_1, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class fill_value_sequence_class = {&schema, support, N_OF(support), fill_value_sequence_compile,
                                            PLAN_HOOK(fill_sequence_plan), fill_value_sequence_output_sizes};
