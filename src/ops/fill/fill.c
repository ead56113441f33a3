/*
 * FILL_VALUE_CONSTANT and FILL_VALUE_SEQUENCE: the output-shape rule they share
 * (fill.h; docs/operators.md Q4).
 */
#include "fill.h"
#include "core/registry.h"

#include <inttypes.h>

/* FV1: the OutputTensor's own shape (there is no input), its DimensionCount allowed at the level. */
dmlref_status fill_output_sizes(const op_t *op, const char *opname, const DMLREF_TENSOR_DESC *td, uint32_t *n,
                                uint32_t *sizes, dmlref_error *err) {
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);
    TRY(shape_given(op, "OutputTensor", td, "the whole output shape (there is no input)", n, sizes, err));
    if (*n < s.min_dims || *n > s.max_dims)                                                     /* FV1 */
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "FV1", "OutputTensor", "DimensionCount",
                              "%s: OutputTensor.DimensionCount (%" PRIu32 ") must be in [%" PRIu32 ", %" PRIu32
                              "] at feature level %s",
                              opname, *n, s.min_dims, s.max_dims,
                              dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)op->feature_level));
    return DMLREF_OK;
}
