/* The names and sizes of data types, and the names of feature levels. */
#include "internal.h"

/* Bytes and names, by data type (two tables, so that an image that names no type
 * links no name); UINT4/INT4 have no byte size. */
const uint8_t data_type_sizes[N_DATA_TYPES] = {0, 4, 2, 4, 2, 1, 4, 2, 1, 8, 8, 8, 0, 0};
static const char *const data_type_names[] = {
    NULL,    "FLOAT32", "FLOAT16", "UINT32", "UINT16", "UINT8", "INT32",
    "INT16", "INT8",    "FLOAT64", "UINT64", "INT64",  "UINT4", "INT4",
};
_Static_assert(sizeof data_type_sizes == sizeof data_type_names / sizeof data_type_names[0], "one row per type");

uint32_t dmlref_data_type_size(DMLREF_TENSOR_DATA_TYPE dt) {
    unsigned u = (unsigned)dt;
    return u < N_DATA_TYPES ? data_type_sizes[u] : 0;
}

const char *dmlref_data_type_name(DMLREF_TENSOR_DATA_TYPE dt) {
    unsigned u = (unsigned)dt;
    return u < N_DATA_TYPES ? data_type_names[u] : NULL;
}

int data_type_known(uint32_t dt) { return dt != 0 && dt < N_DATA_TYPES; }

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
