/*
 * What SLICE and SLICE1 share (docs/operators.md P3): the common rules and the
 * oracle; the fast path is slice_fast.c.  Both are one strided view of the
 * input (a base offset and one signed step per dimension), copied into the
 * output.
 */
#include "slice.h"

#include <inttypes.h>

const slice_roles slice_roles_forward = {"InputTensor", "OutputTensor", "SL1", "SL2"};

dmlref_status slice_check_arrays_roles(const char *O, const slice_roles *r, const tensor_t *in,
                                       uint32_t dimension_count, uint32_t n_arrays, const char *const *names,
                                       const void *const *arrays, dmlref_error *err) {
    if (dimension_count != in->n)                                                                  /* SL1 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, r->dims_rule, "DimensionCount", NULL,
                              "%s: DimensionCount (%" PRIu32 ") must equal %s.DimensionCount (%" PRIu32 ") (%s)", O,
                              dimension_count, r->in_name, in->n, r->dims_rule);
    for (uint32_t k = 0; k < n_arrays; ++k)                                                        /* SL1 */
        if (!arrays[k])
            return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, r->dims_rule, names[k], NULL,
                                  "%s: %s is NULL; it must point to DimensionCount (%" PRIu32 ") values (%s)", O,
                                  names[k], dimension_count, r->dims_rule);
    return DMLREF_OK;
}

dmlref_status slice_check_arrays(const char *O, const tensor_t *in, uint32_t dimension_count, uint32_t n_arrays,
                                 const char *const *names, const void *const *arrays, dmlref_error *err) {
    return slice_check_arrays_roles(O, &slice_roles_forward, in, dimension_count, n_arrays, names, arrays, err);
}

dmlref_status slice_check_roles(op_t *op, const slice_roles *r, const void *desc, uint32_t dimension_count,
                                uint32_t n_arrays, const char *const *names, const void *const *arrays,
                                dmlref_error *err) {
    const slot_rules rules = {r->dims_rule, r->type_rule, 0, 0};
    support_t s;
    /* the tensor rules under the slots' names (r->in_name, r->out_name); SL1: Output has Input's
     * DimensionCount, allowed at the level; SL2: Input's DataType allowed, Output's equal */
    TRY(compile_slots(op, desc, &rules, &s, err));
    return slice_check_arrays_roles(op->name, r, &op->inputs[0], dimension_count, n_arrays, names, arrays, err); /* SL1 */
}

dmlref_status slice_check_common(op_t *op, const void *desc, uint32_t dimension_count, uint32_t n_arrays,
                                 const char *const *names, const void *const *arrays, dmlref_error *err) {
    return slice_check_roles(op, &slice_roles_forward, desc, dimension_count, n_arrays, names, arrays, err);
}

dmlref_status slice_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const slice_params *p = OP_CPARAMS(op, slice_params);
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[1] = {out->bstrides};
    uint32_t ic[MAX_DIMS];
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        for (uint32_t d = 0; d < out->n; ++d) /* in [0, Input.Sizes[d]) by SL4 / SL5, SL7 */
            ic[d] = (uint32_t)(p->start[d] + p->step[d] * (int64_t)it.coord[d]);
        memcpy(dst + it.offset[0], src + tensor_offset(in, ic), in->esize);
    }
    return DMLREF_OK;
}
