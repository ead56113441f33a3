/*
 * CAST (docs/operators.md, CAST).  output[c] = convert(input[c]) for every
 * coordinate c, from InputTensor.DataType to OutputTensor.DataType:
 *
 *   CA1  Input and Output: same DimensionCount and Sizes
 *   CA2  DimensionCount allowed at the feature level (exactly 4 before 3_1,
 *        then 1 to 8)
 *   CA3  Input.DataType and Output.DataType each in the feature level's set
 *        (1_0: FLOAT32 FLOAT16 INT16 INT8 UINT16 UINT8; 3_0: T10; 4_1: T11);
 *        any pair, equal types included
 *
 * The conversion of one element is scalar_cast (src/core/scalar.c): same type
 * a bit copy; int -> int modulo 2^w; int -> float and float -> float one
 * rounding to nearest even, overflow to +-Inf, no flush to zero, -0 kept, a
 * NaN's sign and payload kept as far as they fit, quiet bit forced; float ->
 * int NaN 0, +-Inf max / min, else truncation toward zero, then saturation.
 *
 * The fast path (cast.f32_f16, cast.f16_f32, cast.f32_i32, cast.u8_f32,
 * cast.copy, cast.generic) is cast_fast.c.
 */
#include "cast_fast.h"
#include "core/registry.h"
#include "core/scalar.h"

#define OP "CAST"

/* T10 = T11 without FLOAT64; C6 = CAST's 1_0 set (no 32-bit integers: docs/operators.md CAST). */
#define DT_T10 (DT_T11 & ~DT(FLOAT64))
#define DT_C6 (DT(FLOAT32) | DT(FLOAT16) | DT(INT16) | DT(INT8) | DT(UINT16) | DT(UINT8))

/* For every coordinate c: out[c] = scalar_cast(in[c]). */
static dmlref_status cast_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[2] = {out->bstrides, in->bstrides};
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 2, bs); !it.done; nd_iter_next(&it))
        scalar_cast((DMLREF_TENSOR_DATA_TYPE)out->dtype, dst + it.offset[0], (DMLREF_TENSOR_DATA_TYPE)in->dtype,
                    src + it.offset[1]);
    return DMLREF_OK;
}

static dmlref_status cast_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_CAST_OPERATOR_DESC *d = desc;
    TRY(op_alloc_tensors(op, 1, 1, err));
    tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(OP, "InputTensor", d->InputTensor, NULL, in, err));
    TRY(tensor_check(OP, "OutputTensor", d->OutputTensor, op, out, err));
    TRY(check_same_dims(OP, "CA1", "OutputTensor", out, "InputTensor", in, err));                /* CA1 */
    TRY(check_support(OP, "CA2", "CA3", "InputTensor", in, &s, 0, op->feature_level, err));       /* CA2, CA3 */
    TRY(check_support(OP, "CA2", "CA3", "OutputTensor", out, &s, 0, op->feature_level, err));     /* CA3 */
    TRY(check_same_sizes(OP, "CA1", "OutputTensor", out, "InputTensor.Sizes", in->sizes, err)); /* CA1 */
    op->oracle = cast_oracle;
    return DMLREF_OK;
}

/* ---- the fast path --------------------------------------------------------- */

static dmlref_status cast_plan_hook(op_t *op, dmlref_error *err) { return plan_cast(op, err); }

/* ---- the class ------------------------------------------------------------- */

static dmlref_status cast_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n, uint32_t *sizes,
                                       dmlref_error *err) {
    const DMLREF_CAST_OPERATOR_DESC *d = desc; /* CA1: Output.Sizes == Input.Sizes */
    (void)output;
    return shape_of_input(op, "InputTensor", d->InputTensor, "CA2", "CA3", n, sizes, err);
}

#define D DMLREF_CAST_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 4, DT_C6, 0}},
    {DMLREF_FEATURE_LEVEL_3_0, {4, 4, DT_T10, 0}},
    {DMLREF_FEATURE_LEVEL_3_1, {1, 8, DT_T10, 0}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_CAST, OP, sizeof(D), DMLREF_FEATURE_LEVEL_1_0, 0,
                                     N_OF(slots), slots, 0, NULL};
#undef D

const op_class cast_class = {&schema, support, N_OF(support), cast_compile, PLAN_HOOK(cast_plan_hook), cast_output_sizes};
