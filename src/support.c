/*
 * Feature-level support tables (spec 1.6) and the checks shared by every
 * operator: equal DimensionCount, equal DataType, allowed per level, equal sizes.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>

#define T6 (DT(FLOAT32) | DT(FLOAT16) | DT(INT32) | DT(INT16) | DT(UINT32) | DT(UINT16))
#define T8 (T6 | DT(INT8) | DT(UINT8))
#define T11 (T8 | DT(FLOAT64) | DT(INT64) | DT(UINT64))
#define F32F16 (DT(FLOAT32) | DT(FLOAT16))
#define IDXU32 DT(UINT32)
#define IDX4 (DT(INT64) | DT(INT32) | DT(UINT64) | DT(UINT32))

/* One row: from feature level `from` on (until the next row), this support. */
typedef struct support_row {
    DMLREF_OPERATOR_TYPE type;
    uint32_t from;
    support_t s;
} support_row;

/* Rows of one operator are in increasing `from` order. */
static const support_row rows[] = {
    {DMLREF_OPERATOR_GATHER, 0x1000, {4, 4, F32F16, IDXU32}},
    {DMLREF_OPERATOR_GATHER, 0x2100, {4, 4, T8, IDXU32}},
    {DMLREF_OPERATOR_GATHER, 0x3000, {1, 8, T8, IDX4}},
    {DMLREF_OPERATOR_GATHER, 0x4100, {1, 8, T11, IDX4}},
    {DMLREF_OPERATOR_GATHER_ELEMENTS, 0x2100, {4, 4, T8, IDXU32}},
    {DMLREF_OPERATOR_GATHER_ELEMENTS, 0x3000, {1, 8, T8, IDX4}},
    {DMLREF_OPERATOR_GATHER_ELEMENTS, 0x4100, {1, 8, T11, IDX4}},
    {DMLREF_OPERATOR_SCATTER_ND, 0x2100, {4, 4, T8, IDXU32}},
    {DMLREF_OPERATOR_SCATTER_ND, 0x3000, {1, 8, T8, IDX4}},
    {DMLREF_OPERATOR_SCATTER_ND, 0x4100, {1, 8, T11, IDX4}},
    {DMLREF_OPERATOR_SPLIT, 0x1000, {4, 4, T6, 0}},
    {DMLREF_OPERATOR_SPLIT, 0x2100, {4, 4, T8, 0}},
    {DMLREF_OPERATOR_SPLIT, 0x3000, {1, 8, T8, 0}},
    {DMLREF_OPERATOR_SPLIT, 0x4100, {1, 8, T11, 0}},
    {DMLREF_OPERATOR_JOIN, 0x1000, {4, 4, T6, 0}},
    {DMLREF_OPERATOR_JOIN, 0x2100, {4, 4, T8, 0}},
    {DMLREF_OPERATOR_JOIN, 0x3000, {4, 5, T8, 0}}, /* the Join page's 3_0 row */
    {DMLREF_OPERATOR_JOIN, 0x3100, {1, 8, T8, 0}}, /* FL history: 8D from 3_1 */
    {DMLREF_OPERATOR_JOIN, 0x4100, {1, 8, T11, 0}},
};

int support_lookup(DMLREF_OPERATOR_TYPE type, uint32_t fl, support_t *s) {
    int found = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i)
        if (rows[i].type == type && rows[i].from <= fl) {
            *s = rows[i].s;
            found = 1;
        }
    return found;
}

dmlref_status check_same_dims(const char *op, const char *name, const tensor_t *t,
                              const char *ref_name, const tensor_t *ref, dmlref_error *err) {
    if (t->n == ref->n) return DMLREF_OK;
    return set_error(err, DMLREF_ERROR_DIMENSION_COUNT,
                     "%s: %s.DimensionCount (%" PRIu32 ") must equal %s.DimensionCount (%" PRIu32 ")",
                     op, name, t->n, ref_name, ref->n);
}

dmlref_status check_same_type(const char *op, const char *name, const tensor_t *t,
                              const char *ref_name, const tensor_t *ref, dmlref_error *err) {
    if (t->dtype == ref->dtype) return DMLREF_OK;
    return set_error(err, DMLREF_ERROR_DATA_TYPE, "%s: %s.DataType (%s) must equal %s.DataType (%s)",
                     op, name, dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)t->dtype), ref_name,
                     dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)ref->dtype));
}

static void type_list(char *buf, size_t cap, uint32_t mask) {
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t dt = 1; dt <= 11 && len < cap; ++dt)
        if (mask & (1u << dt))
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? " " : "",
                                    dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)dt));
}

dmlref_status check_support(const char *op, const char *name, const tensor_t *t,
                            const support_t *s, int is_index, uint32_t fl, dmlref_error *err) {
    const char *level = dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)fl);
    if (!is_index && (t->n < s->min_dims || t->n > s->max_dims))
        return set_error(err, DMLREF_ERROR_DIMENSION_COUNT,
                         "%s: %s.DimensionCount (%" PRIu32 ") must be in [%" PRIu32 ", %" PRIu32
                         "] at feature level %s",
                         op, name, t->n, s->min_dims, s->max_dims, level);
    const uint32_t mask = is_index ? s->index_types : s->data_types;
    if (!(mask & (1u << t->dtype))) {
        char buf[160];
        type_list(buf, sizeof buf, mask);
        return set_error(err, DMLREF_ERROR_DATA_TYPE,
                         "%s: %s.DataType (%s) is not supported at feature level %s (allowed: %s)", op,
                         name, dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)t->dtype), level, buf);
    }
    return DMLREF_OK;
}

dmlref_status check_same_sizes(const char *op, const char *name, const tensor_t *t,
                               const char *ref_name, const uint32_t *want, dmlref_error *err) {
    for (uint32_t d = 0; d < t->n; ++d)
        if (t->sizes[d] != want[d]) {
            char a[128], b[128];
            return set_error(err, DMLREF_ERROR_SIZES,
                             "%s: %s.Sizes %s must equal %s %s (they differ at dimension %" PRIu32 ")",
                             op, name, sizes_str(a, sizeof a, t->sizes, t->n), ref_name,
                             sizes_str(b, sizeof b, want, t->n), d);
        }
    return DMLREF_OK;
}
