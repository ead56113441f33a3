/* Index values (docs/operators.md 1.8; the policy is index.h's index_norm) and the checking pre-pass. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>

const char *index_str(char *buf, size_t cap, index_value v) {
    if (v.is_signed) snprintf(buf, cap, "%" PRId64, v.s);
    else snprintf(buf, cap, "%" PRIu64, v.u);
    return buf;
}

/* The walk and the message are functions of their own, not inlined: the walk's
 * iterator and the message's buffers are never on the stack together. */

/* The first index out of range in row-major order: 1 with its coordinate and value. */
static DMLREF_NOINLINE int first_out_of_range(const tensor_t *idx, const unsigned char *idx_data, uint32_t components,
                                              const uint64_t *bounds, uint32_t *coord, index_value *value) {
    const uint64_t *bs[1] = {idx->bstrides};
    nd_iter it;
    for (nd_iter_init(&it, idx->n, idx->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        const uint32_t c = components > 1 ? it.coord[idx->n - 1] : 0;
        const index_value v = index_read(idx_data + it.offset[0], idx->dtype);
        int ok;
        index_norm(v, bounds[c], INDEX_ERROR, &ok);
        if (!ok) {
            memcpy(coord, it.coord, sizeof it.coord);
            *value = v;
            return 1;
        }
    }
    return 0;
}

static DMLREF_NOINLINE dmlref_status out_of_range_error(const op_t *op, const tensor_t *idx, const char *idx_name,
                                                        const uint32_t *coord, index_value v, uint64_t bound, uint32_t dim,
                                                        dmlref_error *err) {
    char pos[128], val[32];
    const int sgn = v.is_signed;
    return set_rule_error(err, DMLREF_ERROR_INDEX_OUT_OF_RANGE, "N1", idx_name, NULL,
                          "%s: %s%s = %s is out of range [%s%" PRIu64 ", %" PRIu64 ") for InputTensor.Sizes[%" PRIu32
                          "] (%" PRIu64 ")",
                          op->name, idx_name, coord_str(pos, sizeof pos, coord, idx->n), index_str(val, sizeof val, v),
                          sgn ? "-" : "", sgn ? bound : 0, bound, dim, bound);
}

dmlref_status check_indices_in_range(const op_t *op, const tensor_t *idx,
                                     const unsigned char *idx_data, const char *idx_name,
                                     uint32_t components, const uint64_t *bounds,
                                     uint32_t bound_dim0, dmlref_error *err) {
    uint32_t coord[MAX_DIMS];
    index_value v;
    if (!first_out_of_range(idx, idx_data, components, bounds, coord, &v)) return DMLREF_OK;
    const uint32_t c = components > 1 ? coord[idx->n - 1] : 0;
    return out_of_range_error(op, idx, idx_name, coord, v, bounds[c], bound_dim0 + c, err);
}

dmlref_status check_indices_along_axis(const op_t *op, uint32_t axis, const exec_args *x, dmlref_error *err) {
    const uint64_t bounds[1] = {op->inputs[0].sizes[axis]};
    return check_indices_in_range(op, &op->inputs[1], IN_DATA(x, 1), "IndicesTensor", 1, bounds, axis, err);
}
