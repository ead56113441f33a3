/* Index values (docs/operators.md 1.8; the policy is index.h's index_norm) and the checking pre-pass. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>

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
        index_norm(v, bounds[c], INDEX_ERROR, &ok);
        if (!ok) {
            char pos[128], val[32];
            const int sgn = v.is_signed;
            return set_rule_error(err, DMLREF_ERROR_INDEX_OUT_OF_RANGE, "N1", idx_name, NULL,
                             "%s: %s%s = %s is out of range [%s%" PRIu64 ", %" PRIu64 ") for %s (%" PRIu64 ")",
                             op->name, idx_name, coord_str(pos, sizeof pos, it.coord, idx->n),
                             index_str(val, sizeof val, v), sgn ? "-" : "", sgn ? bounds[c] : 0,
                             bounds[c], bound_names[c], bounds[c]);
        }
    }
    return DMLREF_OK;
}

dmlref_status check_indices_along_axis(const op_t *op, uint32_t axis, const exec_args *x, dmlref_error *err) {
    const uint64_t bounds[1] = {op->inputs[0].sizes[axis]};
#if DMLREF_MESSAGES
    char bound_name[64];
    const char *names[1] = {bound_name};
    snprintf(bound_name, sizeof bound_name, "InputTensor.Sizes[%" PRIu32 "]", axis);
#else /* the bound's name, for the message only */
    const char *names[1] = {NULL};
#endif
    return check_indices_in_range(op, &op->inputs[1], IN_DATA(x, 1), "IndicesTensor", 1, bounds, names, err);
}
