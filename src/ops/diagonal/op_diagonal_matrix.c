/*
 * DIAGONAL_MATRIX (docs/operators.md P10): a generator, no input.
 * out[..., y, x] = (y + Offset == x) ? Value : 0 over the output's last two
 * dims (a stack of matrices), in 64-bit arithmetic; Value, a FLOAT, is made an
 * element of the output's type once (src/core/scalar.h: FLOAT16 rounded to nearest
 * even, integers truncated toward zero and saturated, NaN -> 0).  The same as
 * DIAGONAL_MATRIX1 with Begin = Offset, End = Offset + 1 (diagonal.h: the
 * oracle diagonal.c, the fast path diagonal_fast.c).
 *
 *   DM1  Output.DimensionCount allowed at the feature level: 4 before 4_0, 2 to 4 from 4_0
 *   DM2  Output.DataType allowed at the feature level: {FLOAT32, FLOAT16} at 2_0, T8 from
 *        2_1, T11 from 5_1
 *   DM3  feature level >= 2_0 (the API's check: UNSUPPORTED_OPERATOR, no rule id)
 *   DM4  Offset and Value: every value is valid (y + Offset in 64 bits never wraps; any
 *        FLOAT, NaN and infinities included, has a conversion)
 */
#include "diagonal.h"
#include "core/registry.h"
#include "core/scalar.h"

#include <inttypes.h>

#define OP "DIAGONAL_MATRIX"

static dmlref_status diagonal_matrix_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC *d = desc;
    static const slot_rules rules = {"DM1", "DM2", 0, 0};
    support_t s; /* DM3: compile_impl found the level's row */
    TRY(compile_slots(op, desc, &rules, &s, err)); /* the tensor rules; DM1, DM2: Output's support */
    const tensor_t *out = &op->outputs[0];

    unsigned char fill[8] = {0};
    scalar_from_float((DMLREF_TENSOR_DATA_TYPE)out->dtype, d->Value, fill); /* DM4 */
    diagonal_setup(op, d->Offset, (int64_t)d->Offset + 1, fill);
    return DMLREF_OK;
}

/* No input: OutputTensor's own DimensionCount and Sizes give the shape (checked: DM1). */
static dmlref_status diagonal_matrix_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                  uint32_t *sizes, dmlref_error *err) {
    const DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC *d = desc;
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);
    (void)output;
    TRY(shape_given(op, "OutputTensor", d->OutputTensor, "the whole output shape (there is no input)", n, sizes, err));
    if (*n < s.min_dims || *n > s.max_dims)                                                     /* DM1 */
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "DM1", "OutputTensor", "DimensionCount",
                              OP ": OutputTensor.DimensionCount (%" PRIu32 ") must be in [%" PRIu32 ", %" PRIu32
                              "] at feature level %s",
                              *n, s.min_dims, s.max_dims,
                              dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)op->feature_level));
    return DMLREF_OK;
}

#define D DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_INT(D, Offset), PARAM_FLOAT(D, Value)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_0, {4, 4, DT_F32F16, 0}},
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_4_0, {2, 4, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_5_1, {2, 4, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_DIAGONAL_MATRIX, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class diagonal_matrix_class = {&schema, support, N_OF(support), diagonal_matrix_compile, PLAN_HOOK(diagonal_plan),
                                        diagonal_matrix_output_sizes};
