/*
 * What SPLIT and JOIN share: one whole tensor and `count` pieces laid side by
 * side along Axis (docs/operators.md sections 5 and 6).  SPLIT copies whole -> pieces, JOIN pieces -> whole.
 */
#include "concat.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* "base[k]" into buf (cap bytes, truncated like snprintf): the field name of piece k, built
 * for every piece of every compile, so without snprintf (which cost SPLIT's dmlref_run about
 * a quarter of its instructions). */
static void piece_name(char *buf, size_t cap, const char *base, uint32_t k) {
    char tmp[16];
    size_t n = 0, len = 0;
    do tmp[n++] = (char)('0' + k % 10); while ((k /= 10) != 0);
    for (const char *c = base; *c && len + 1 < cap; ++c) buf[len++] = *c;
    if (len + 1 < cap) buf[len++] = '[';
    while (n && len + 1 < cap) buf[len++] = tmp[--n];
    if (len + 1 < cap) buf[len++] = ']';
    buf[len] = '\0';
}

dmlref_status concat_compile(op_t *op, const char *whole_name, const DMLREF_TENSOR_DESC *whole_desc,
                             const char *count_name, uint32_t count, const char *pieces_name,
                             const DMLREF_TENSOR_DESC *pieces_desc, uint32_t axis, int split,
                             dmlref_error *err) {
    const char *O = op->name;
    tensor_t whole;
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(O, whole_name, whole_desc, split ? 0 : 1, &whole, err));
    TRY(check_support(O, split ? "P2" : "J2", split ? "P2" : "J2", whole_name, &whole, &s, 0, op->feature_level, err));
    if (count == 0)                                                                 /* P1, J1 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, split ? "P1" : "J1", count_name, NULL, "%s: %s must be greater than 0", O, count_name);
    if (axis >= whole.n)                                                            /* P3, J3 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, split ? "P3" : "J3", "Axis", NULL,
                         "%s: Axis (%" PRIu32 ") must be in [0, %s.DimensionCount - 1] = [0, %" PRIu32 "]",
                         O, axis, whole_name, whole.n - 1);
    /* Each piece takes at least 1 along Axis, so more pieces than that size can
     * never sum to it: rejected before any piece is read or allocated. */
    if (count > whole.sizes[axis])
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, split ? "P5" : "J5", count_name, NULL,
                         "%s: %s (%" PRIu32 ") exceeds %s.Sizes[Axis] (%" PRIu32
                         "): every piece is at least 1 along Axis",
                         O, count_name, count, whole_name, whole.sizes[axis]);
    if (!pieces_desc) return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "T1", pieces_name, NULL, "%s: %s is NULL", O, pieces_name);
    TRY(op_alloc_tensors(op, split ? 1 : count, split ? count : 1, err));
    tensor_t *pieces = split ? op->outputs : op->inputs;
    *(split ? op->inputs : op->outputs) = whole;

    uint64_t sum = 0;
    for (uint32_t k = 0; k < count; ++k) {
        char name[48];
        tensor_t *p = &pieces[k];
        piece_name(name, sizeof name, pieces_name, k);
        TRY(tensor_check(O, name, &pieces_desc[k], split, p, err));
        TRY(check_same_dims(O, split ? "P2" : "J2", name, p, whole_name, &whole, err));                  /* P2, J2 */
        TRY(check_same_type(O, split ? "P2" : "J2", name, p, whole_name, &whole, err));
        TRY(check_sizes_but_axis(O, split ? "P4" : "J4", name, p, whole_name, &whole, axis, err)); /* P4, J4 */
        sum += p->sizes[axis]; /* < 2^64: at most 2^32 terms below 2^32 */
    }
    if (sum != whole.sizes[axis])                                                   /* P5, J5 */
        return set_rule_error(err, DMLREF_ERROR_SIZES, split ? "P5" : "J5", pieces_name, "Sizes",
                         "%s: the %s sizes along Axis (%" PRIu32 ") sum to %" PRIu64 ", but %s.Sizes[%" PRIu32
                         "] is %" PRIu32,
                         O, pieces_name, axis, sum, whole_name, axis, whole.sizes[axis]);
    OP_PARAMS(op, concat_params)->axis = axis;
    return DMLREF_OK;
}

dmlref_status concat_oracle(const op_t *op, const exec_args *x, int split) {
    const uint32_t count = split ? op->n_outputs : op->n_inputs, a = OP_CPARAMS(op, concat_params)->axis;
    const tensor_t *whole = split ? &op->inputs[0] : &op->outputs[0];
    uint64_t base = 0; /* the piece's first coordinate along Axis in the whole */
    for (uint32_t k = 0; k < count; ++k) {
        const tensor_t *p = split ? &op->outputs[k] : &op->inputs[k];
        const uint64_t *bs[2] = {p->bstrides, whole->bstrides};
        const uint64_t whole_base = base * whole->bstrides[a];
        nd_iter it;
        for (nd_iter_init(&it, p->n, p->sizes, 2, bs); !it.done; nd_iter_next(&it)) {
            if (split)
                memcpy(OUT_DATA(x, k) + it.offset[0], IN_DATA(x, 0) + whole_base + it.offset[1], p->esize);
            else
                memcpy(OUT_DATA(x, 0) + whole_base + it.offset[1], IN_DATA(x, k) + it.offset[0], p->esize);
        }
        base += p->sizes[a];
    }
    return DMLREF_OK;
}

dmlref_status concat_plan(op_t *op, int split, dmlref_error *err) {
    return plan_concat(op, split, OP_CPARAMS(op, concat_params)->axis, err);
}
