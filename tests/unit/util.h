/* Helpers for building tensor descs in tests. */
#ifndef DMLREF_TEST_UTIL_H
#define DMLREF_TEST_UTIL_H

#include "dmlref.h"

/* A buffer tensor desc with its own storage for sizes and strides. */
typedef struct tdesc {
    uint32_t sizes[8], strides[8];
    DMLREF_BUFFER_TENSOR_DESC buf;
    DMLREF_TENSOR_DESC desc;
} tdesc;

/* Packed (strides NULL) or strided when strides != NULL; Total = the minimum. */
void tdesc_init(tdesc *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                const uint32_t *strides);

#define SIZES(...) ((const uint32_t[]){__VA_ARGS__})
#define NDIMS(...) ((uint32_t)(sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t)))
/* tdesc_init(&t, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(3, 2)) */
#define DIMS(...) NDIMS(__VA_ARGS__), SIZES(__VA_ARGS__), NULL

#endif
