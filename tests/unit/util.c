#include "util.h"

#include <string.h>

void tdesc_init(tdesc *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                const uint32_t *strides) {
    memset(t, 0, sizeof *t);
    memcpy(t->sizes, sizes, n * sizeof *sizes);
    if (strides) memcpy(t->strides, strides, n * sizeof *strides);
    t->buf.DataType = dt;
    t->buf.DimensionCount = n;
    t->buf.Sizes = t->sizes;
    t->buf.Strides = strides ? t->strides : NULL;
    t->buf.TotalTensorSizeInBytes = dmlref_calc_buffer_tensor_size(dt, n, t->sizes, t->buf.Strides);
    t->desc.Type = DMLREF_TENSOR_TYPE_BUFFER;
    t->desc.Desc = &t->buf;
}
