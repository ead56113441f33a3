/*
 * DIAGONAL_MATRIX1 (docs/operators.md P10): the band of diagonals
 * [DiagonalFillBegin, DiagonalFillEnd) of x - y (64-bit; Begin > End inverts
 * it) takes Value, every other element the optional InputTensor's element, or
 * 0 without one.  Value is a DML_SCALAR_UNION of type ValueDataType, copied
 * bit for bit (src/core/scalar.h; a FLOAT16 is its binary16 pattern in
 * Bytes[0..1]).  Oracle: diagonal.c; fast path: diagonal_fast.c.
 *
 *   DG1  Output.DimensionCount 2 to 4 (5_1 on)
 *   DG2  Output.DataType in T11
 *   DG3  InputTensor, when not NULL: the same DataType and DimensionCount as the Output
 *   DG4  InputTensor, when not NULL: the same Sizes as the Output (dmlref's decision:
 *        the doc reads InputTensor[coordinate] at every output coordinate, section 9 item 33)
 *   DG5  ValueDataType == OutputTensor.DataType
 *   DG6  feature level >= 5_1 (the API's check: UNSUPPORTED_OPERATOR, no rule id)
 *   DG7  DiagonalFillBegin and DiagonalFillEnd: every value is valid
 */
#include "diagonal.h"
#include "core/registry.h"
#include "core/scalar.h"

#include <inttypes.h>

#define OP "DIAGONAL_MATRIX1"

static dmlref_status diagonal_matrix1_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC *d = desc;
    support_t s; /* DG6: compile_impl found the level's row */
    TRY(compile_slots(op, desc, NULL, &s, err)); /* the tensor rules (InputTensor when given) */
    const tensor_t *out = &op->outputs[0], *in = d->InputTensor ? &op->inputs[0] : NULL;
    TRY(check_support(OP, "DG1", "DG2", "OutputTensor", out, &s, 0, op->feature_level, err)); /* DG1, DG2 */
    if (in) {
        TRY(check_same_type(OP, "DG3", "InputTensor", in, "OutputTensor", out, err));      /* DG3 */
        TRY(check_same_dims(OP, "DG3", "InputTensor", in, "OutputTensor", out, err));      /* DG3 */
        TRY(check_same_sizes(OP, "DG4", "InputTensor", in, "OutputTensor", out->sizes, err)); /* DG4 */
    }
    TRY(check_value_type(OP, "DG5", "ValueDataType", (uint32_t)d->ValueDataType, out, err)); /* DG5 */

    unsigned char fill[8] = {0};
    scalar_from_union((DMLREF_TENSOR_DATA_TYPE)out->dtype, &d->Value, fill);
    diagonal_setup(op, d->DiagonalFillBegin, d->DiagonalFillEnd, fill); /* DG7 */
    return DMLREF_OK;
}

/* DG4: the InputTensor's Sizes when there is one; else OutputTensor's own (checked: DG1). */
static dmlref_status diagonal_matrix1_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                   uint32_t *sizes, dmlref_error *err) {
    const DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC *d = desc;
    (void)output;
    if (d->InputTensor) return shape_of_input(op, "InputTensor", d->InputTensor, "DG1", "DG2", n, sizes, err);
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);
    TRY(shape_given(op, "OutputTensor", d->OutputTensor, "the whole output shape (there is no InputTensor)", n, sizes,
                    err));
    if (*n < s.min_dims || *n > s.max_dims)                                                     /* DG1 */
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "DG1", "OutputTensor", "DimensionCount",
                              OP ": OutputTensor.DimensionCount (%" PRIu32 ") must be in [%" PRIu32 ", %" PRIu32
                              "] at feature level %s",
                              *n, s.min_dims, s.max_dims,
                              dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)op->feature_level));
    return DMLREF_OK;
}

#define D DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN_OPTIONAL(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_DATA_TYPE(D, ValueDataType), PARAM_UNION(D, Value, ValueDataType),
                                      PARAM_INT(D, DiagonalFillBegin), PARAM_INT(D, DiagonalFillEnd)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_5_1, {2, 4, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_DIAGONAL_MATRIX1, OP, sizeof(D), DMLREF_FEATURE_LEVEL_5_1, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class diagonal_matrix1_class = {&schema, support, N_OF(support), diagonal_matrix1_compile, PLAN_HOOK(diagonal_plan),
                                         diagonal_matrix1_output_sizes};
