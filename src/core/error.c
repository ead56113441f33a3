/* Error recording and the names of enums. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

dmlref_status set_error(dmlref_error *err, dmlref_status code, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        err->rule[0] = '\0';
        err->field[0] = '\0';
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

dmlref_status set_rule_error(dmlref_error *err, dmlref_status code, const char *rule, const char *field,
                             const char *sub, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        snprintf(err->rule, sizeof err->rule, "%s", rule ? rule : "");
        if (field && sub) snprintf(err->field, sizeof err->field, "%s.%s", field, sub);
        else snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    }
    return code;
}

const char *dmlref_status_name(dmlref_status status) {
    switch (status) {
#define S(x) case DMLREF_##x: return "DMLREF_" #x;
    S(OK) S(ERROR_NULL_POINTER) S(ERROR_FEATURE_LEVEL) S(ERROR_UNSUPPORTED_OPERATOR)
    S(ERROR_TENSOR_TYPE) S(ERROR_DATA_TYPE) S(ERROR_DIMENSION_COUNT) S(ERROR_SIZES)
    S(ERROR_PARAMETER) S(ERROR_TENSOR_SIZE) S(ERROR_TOO_LARGE) S(ERROR_OUTPUT_OVERLAP)
    S(ERROR_FLAGS) S(ERROR_ALIGNMENT) S(ERROR_BINDING) S(ERROR_INDEX_OUT_OF_RANGE)
    S(ERROR_DUPLICATE_INDEX) S(ERROR_OUT_OF_MEMORY) S(ERROR_OPTIONS) S(ERROR_HOST_LIMIT)
    S(ERROR_CANNOT_VERIFY)
#undef S
    }
    return "DMLREF_ERROR_UNKNOWN";
}

/* name, bytes; UINT4/INT4 have no byte size. */
static const struct { const char *name; uint32_t size; } data_types[] = {
    {NULL, 0},       {"FLOAT32", 4}, {"FLOAT16", 2}, {"UINT32", 4}, {"UINT16", 2},
    {"UINT8", 1},    {"INT32", 4},   {"INT16", 2},   {"INT8", 1},   {"FLOAT64", 8},
    {"UINT64", 8},   {"INT64", 8},   {"UINT4", 0},   {"INT4", 0},
};

uint32_t dmlref_data_type_size(DMLREF_TENSOR_DATA_TYPE dt) {
    unsigned u = (unsigned)dt;
    return u < sizeof data_types / sizeof data_types[0] ? data_types[u].size : 0;
}

const char *dmlref_data_type_name(DMLREF_TENSOR_DATA_TYPE dt) {
    unsigned u = (unsigned)dt;
    return u < sizeof data_types / sizeof data_types[0] ? data_types[u].name : NULL;
}

static const struct { uint32_t value; const char *name; } levels[] = {
    {0x1000, "1_0"}, {0x2000, "2_0"}, {0x2100, "2_1"}, {0x3000, "3_0"}, {0x3100, "3_1"},
    {0x4000, "4_0"}, {0x4100, "4_1"}, {0x5000, "5_0"}, {0x5100, "5_1"}, {0x5200, "5_2"},
    {0x6000, "6_0"}, {0x6100, "6_1"}, {0x6200, "6_2"}, {0x6300, "6_3"}, {0x6400, "6_4"},
};

const char *dmlref_feature_level_name(DMLREF_FEATURE_LEVEL level) {
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; ++i)
        if (levels[i].value == (uint32_t)level) return levels[i].name;
    return NULL;
}

int feature_level_known(uint32_t fl) {
    return dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)fl) != NULL;
}
