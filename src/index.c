/* Reading and normalizing index values (docs/operators.md 1.8), and the checking pre-pass. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>

index_value index_read(const unsigned char *p, uint32_t dtype) {
    index_value v = {0, 0, 0};
    switch (dtype) {
    case DMLREF_TENSOR_DATA_TYPE_INT32: { int32_t x; memcpy(&x, p, 4); v.is_signed = 1; v.s = x; break; }
    case DMLREF_TENSOR_DATA_TYPE_INT64: { int64_t x; memcpy(&x, p, 8); v.is_signed = 1; v.s = x; break; }
    case DMLREF_TENSOR_DATA_TYPE_UINT32: { uint32_t x; memcpy(&x, p, 4); v.u = x; break; }
    case DMLREF_TENSOR_DATA_TYPE_UINT64: { uint64_t x; memcpy(&x, p, 8); v.u = x; break; }
    default: break; /* validation admits only the four index types */
    }
    return v;
}

uint64_t index_normalize(index_value v, uint64_t n, int *in_range) {
    if (v.is_signed) {
        if (v.s < 0) {
            /* -v as unsigned, without overflowing at INT64_MIN */
            const uint64_t mag = (uint64_t)(-(v.s + 1)) + 1;
            *in_range = mag <= n;
            return mag <= n ? n - mag : 0;
        }
        v.u = (uint64_t)v.s;
    }
    *in_range = v.u < n;
    return v.u < n ? v.u : n - 1;
}

const char *index_str(char *buf, size_t cap, index_value v) {
    if (v.is_signed) snprintf(buf, cap, "%" PRId64, v.s);
    else snprintf(buf, cap, "%" PRIu64, v.u);
    return buf;
}

dmlref_status check_indices_in_range(const op_t *op, const tensor_t *idx,
                                     const unsigned char *idx_data, const char *idx_name,
                                     uint32_t components, const uint64_t *bounds,
                                     const char *const *bound_names, dmlref_error *err) {
    const uint64_t *bs[1] = {idx->bstrides};
    nd_iter it;
    for (nd_iter_init(&it, idx->n, idx->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        const uint32_t c = components > 1 ? it.coord[idx->n - 1] : 0;
        const index_value v = index_read(idx_data + it.offset[0], idx->dtype);
        int ok;
        index_normalize(v, bounds[c], &ok);
        if (!ok) {
            char pos[128], val[32];
            const int sgn = v.is_signed;
            return set_error(err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                             "%s: %s%s = %s is out of range [%s%" PRIu64 ", %" PRIu64 ") for %s (%" PRIu64 ")",
                             op->name, idx_name, coord_str(pos, sizeof pos, it.coord, idx->n),
                             index_str(val, sizeof val, v), sgn ? "-" : "", sgn ? bounds[c] : 0,
                             bounds[c], bound_names[c], bounds[c]);
        }
    }
    return DMLREF_OK;
}

dmlref_status check_indices_along_axis(const op_t *op, uint32_t axis, const exec_args *x, dmlref_error *err) {
    char bound_name[64];
    const char *names[1] = {bound_name};
    const uint64_t bounds[1] = {op->inputs[0].sizes[axis]};
    snprintf(bound_name, sizeof bound_name, "InputTensor.Sizes[%" PRIu32 "]", axis);
    return check_indices_in_range(op, &op->inputs[1], IN_DATA(x, 1), "IndicesTensor", 1, bounds, names, err);
}
