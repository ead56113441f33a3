/*
 * What the classes' output_sizes hooks share (registry.h; dmlref_output_sizes in
 * include/dmlref.h): an input checked as compile checks it, the part of an output's
 * shape only its desc gives, and 64-bit sizes brought back to tensor sizes.
 */
#include "registry.h"

#include <inttypes.h>
#include <stdio.h>

dmlref_status shape_input(const op_t *op, const char *name, const DMLREF_TENSOR_DESC *td, int is_index,
                          const char *dims_rule, const char *type_rule, tensor_t *t, dmlref_error *err) {
    support_t s;
    support_lookup(op->cls, op->feature_level, &s); /* dmlref_output_sizes found the level's row */
    TRY(tensor_check(op->name, name, td, NULL, t, err));
    return check_support(op->name, dims_rule, type_rule, name, t, &s, is_index, op->feature_level, err);
}

dmlref_status shape_given(const op_t *op, const char *name, const DMLREF_TENSOR_DESC *td, const char *what,
                          uint32_t *n, uint32_t *sizes, dmlref_error *err) {
    const char *O = op->name;
    if (!td)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "T1", name, NULL,
                              "%s: %s is NULL: its Sizes give %s, which the inputs and parameters leave free", O,
                              name, what);
    if (td->Type != DMLREF_TENSOR_TYPE_BUFFER)
        return set_rule_error(err, DMLREF_ERROR_TENSOR_TYPE, "T2", name, "Type",
                              "%s: %s.Type (%u) must be DML_TENSOR_TYPE_BUFFER (1): its Sizes give %s", O, name,
                              (unsigned)td->Type, what);
    const DMLREF_BUFFER_TENSOR_DESC *bd = td->Desc;
    if (!bd)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "T3", name, "Desc",
                              "%s: %s.Desc is NULL: its Sizes give %s", O, name, what);
    if (bd->DimensionCount < 1 || bd->DimensionCount > MAX_DIMS)
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "T8", name, "DimensionCount",
                              "%s: %s.DimensionCount (%" PRIu32 ") must be in [1, 8]: its Sizes give %s", O, name,
                              bd->DimensionCount, what);
    if (!bd->Sizes)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "T9", name, "Sizes",
                              "%s: %s.Sizes is NULL: they give %s", O, name, what);
    for (uint32_t d = 0; d < bd->DimensionCount; ++d)
        if (bd->Sizes[d] == 0)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "T10", name, "Sizes",
                                  "%s: %s.Sizes[%" PRIu32 "] is 0; every size must be >= 1", O, name, d);
    *n = bd->DimensionCount;
    for (uint32_t d = 0; d < *n; ++d) sizes[d] = bd->Sizes[d];
    return DMLREF_OK;
}

dmlref_status shape_fit(const op_t *op, const char *rule, const char *name, uint32_t n, const uint64_t *want,
                        uint32_t *out, dmlref_error *err) {
    for (uint32_t d = 0; d < n; ++d)
        if (want[d] > UINT32_MAX)
            return set_rule_error(err, DMLREF_ERROR_SIZES, rule, name, "Sizes",
                                  "%s: %s.Sizes[%" PRIu32 "] would be %" PRIu64
                                  ", which is above 2^32 - 1: no tensor size can hold it",
                                  op->name, name, d, want[d]);
    for (uint32_t d = 0; d < n; ++d) out[d] = (uint32_t)want[d];
    return DMLREF_OK;
}

dmlref_status shape_of_input(const op_t *op, const char *name, const DMLREF_TENSOR_DESC *td, const char *dims_rule,
                             const char *type_rule, uint32_t *n, uint32_t *sizes, dmlref_error *err) {
    tensor_t t;
    TRY(shape_input(op, name, td, 0, dims_rule, type_rule, &t, err));
    *n = t.n;
    for (uint32_t d = 0; d < t.n; ++d) sizes[d] = t.sizes[d];
    return DMLREF_OK;
}
