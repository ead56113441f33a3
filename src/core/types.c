/* The names and sizes of data types, and the names of feature levels. */
#include "internal.h"

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

#define L(v) {DMLREF_FEATURE_LEVEL_##v, #v}
static const struct { uint32_t value; const char *name; } levels[] = {
    L(1_0), L(2_0), L(2_1), L(3_0), L(3_1), L(4_0), L(4_1), L(5_0),
    L(5_1), L(5_2), L(6_0), L(6_1), L(6_2), L(6_3), L(6_4),
};
#undef L

const char *dmlref_feature_level_name(DMLREF_FEATURE_LEVEL level) {
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; ++i)
        if (levels[i].value == (uint32_t)level) return levels[i].name;
    return NULL;
}

int feature_level_known(uint32_t fl) { /* every compile asks: a switch, not the table's walk */
    switch (fl) {
#define L(v) case DMLREF_FEATURE_LEVEL_##v:
        L(1_0) L(2_0) L(2_1) L(3_0) L(3_1) L(4_0) L(4_1) L(5_0) L(5_1) L(5_2) L(6_0) L(6_1) L(6_2) L(6_3) L(6_4)
#undef L
        return 1;
    default: return 0;
    }
}
