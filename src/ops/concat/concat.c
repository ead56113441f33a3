/*
 * What SPLIT and JOIN share: one whole tensor and `count` pieces laid side by
 * side along Axis (docs/operators.md sections 5 and 6).  SPLIT copies whole -> pieces, JOIN pieces -> whole.
 */
#include "concat.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The whole tensor's rules (tensor rules, P2/J2 at the level), then P1/J1, P3/J3 and the count
 * against Sizes[Axis] (P5/J5): the first rules of compile, shared with output_sizes. */
static dmlref_status concat_whole_rules(const op_t *op, const char *whole_name, const DMLREF_TENSOR_DESC *whole_desc,
                                        const char *count_name, uint32_t count, uint32_t axis, int split,
                                        tensor_t *whole_out, dmlref_error *err) {
    const char *O = op->name;
    tensor_t whole;
    *whole_out = tensor_zero;
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(O, whole_name, whole_desc, split ? NULL : op, &whole, err));
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
    *whole_out = whole;
    return DMLREF_OK;
}

/* A piece's rules, named `name` in errors. */
static dmlref_status piece_rules(op_t *op, const char *name, const DMLREF_TENSOR_DESC *desc, int split, tensor_t *p,
                                 const char *whole_name, const tensor_t *whole, uint32_t axis, dmlref_error *err) {
    const char *O = op->name;
    TRY(tensor_check(O, name, desc, split ? op : NULL, p, err));
    TRY(check_same_dims(O, split ? "P2" : "J2", name, p, whole_name, whole, err));                  /* P2, J2 */
    TRY(check_same_type(O, split ? "P2" : "J2", name, p, whole_name, whole, err));
    TRY(check_sizes_but_axis(O, split ? "P4" : "J4", name, p, whole_name, whole, axis, err)); /* P4, J4 */
    return DMLREF_OK;
}

dmlref_status concat_compile(op_t *op, const char *whole_name, const DMLREF_TENSOR_DESC *whole_desc,
                             const char *count_name, uint32_t count, const char *pieces_name,
                             const DMLREF_TENSOR_DESC *pieces_desc, uint32_t axis, int split,
                             dmlref_error *err) {
    const char *O = op->name;
    tensor_t whole;
    TRY(concat_whole_rules(op, whole_name, whole_desc, count_name, count, axis, split, &whole, err));
    if (!pieces_desc) return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "T1", pieces_name, NULL, "%s: %s is NULL", O, pieces_name);
    TRY(op_alloc_tensors(op, split ? 1 : count, split ? count : 1, err));
    tensor_t *pieces = split ? op->outputs : op->inputs;
    *(split ? op->inputs : op->outputs) = whole;

    uint64_t sum = 0;
    for (uint32_t k = 0; k < count; ++k) {
        tensor_t *p = &pieces[k];
        /* The piece's name ("OutputTensors[2]") is only formatted when a rule fails: the
         * rules run again with it, to the same verdict (out of memory aside, which names
         * no field). */
        dmlref_status st = piece_rules(op, pieces_name, &pieces_desc[k], split, p, whole_name, &whole, axis, err);
        if (st != DMLREF_OK && st != DMLREF_ERROR_OUT_OF_MEMORY) {
            char name[48];
            field_name(name, sizeof name, pieces_name, k);
            const dmlref_status again = piece_rules(op, name, &pieces_desc[k], split, p, whole_name, &whole, axis, err);
            return again != DMLREF_OK ? again : st;
        }
        TRY(st);
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
#if DMLREF_ORACLE_ONLY /* no plan hooks (core/registry.h): never called, and concat_fast.c is not built */
    (void)op, (void)split, (void)err;
    return DMLREF_OK;
#else
    return plan_concat(op, split, OP_CPARAMS(op, concat_params)->axis, err);
#endif
}

dmlref_status split_output_sizes(const op_t *op, const DMLREF_SPLIT_OPERATOR_DESC *d, uint32_t output, uint32_t *n,
                                 uint32_t *sizes, dmlref_error *err) {
    const char *O = op->name;
    tensor_t whole;
    char name[48], what[96];
    uint32_t gn = 0, given[MAX_DIMS];
    TRY(concat_whole_rules(op, "InputTensor", d->InputTensor, "OutputCount", d->OutputCount, d->Axis, 1, &whole,
                           err));
    if (!d->OutputTensors)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "T1", "OutputTensors", NULL,
                              "%s: OutputTensors is NULL: each piece's Sizes[Axis] is its share of InputTensor, "
                              "which the inputs and parameters leave free", O);
    field_name(name, sizeof name, "OutputTensors", output);
#if DMLREF_MESSAGES
    snprintf(what, sizeof what, "its share of InputTensor along Axis (Sizes[%" PRIu32 "])", d->Axis);
#else
    what[0] = '\0'; /* named only in messages */
#endif
    TRY(shape_given(op, name, &d->OutputTensors[output], what, &gn, given, err));
    if (gn != whole.n)                                                                     /* P2 */
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "P2", name, "DimensionCount",
                              "%s: %s.DimensionCount (%" PRIu32 ") must equal InputTensor.DimensionCount (%" PRIu32 ")",
                              O, name, gn, whole.n);
    *n = whole.n;
    for (uint32_t k = 0; k < whole.n; ++k) sizes[k] = whole.sizes[k];
    sizes[d->Axis] = given[d->Axis];                                                       /* P4 */
    return DMLREF_OK;
}

dmlref_status join_output_sizes(const op_t *op, const DMLREF_JOIN_OPERATOR_DESC *d, uint32_t *n, uint32_t *sizes,
                                dmlref_error *err) {
    const char *O = op->name;
    const uint32_t count = d->InputCount, axis = d->Axis;
    tensor_t first, p;
    if (count == 0)                                                                        /* J1 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "J1", "InputCount", NULL, "%s: InputCount must be greater than 0", O);
    if (!d->InputTensors)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "T1", "InputTensors", NULL, "%s: InputTensors is NULL", O);
    uint64_t sum = 0;
    for (uint32_t k = 0; k < count; ++k) {
        char name[48];
        field_name(name, sizeof name, "InputTensors", k);
        if (k == 0) {
            TRY(shape_input(op, name, &d->InputTensors[0], 0, "J2", "J2", &first, err));    /* J2 */
            if (axis >= first.n)                                                           /* J3 */
                return set_rule_error(err, DMLREF_ERROR_PARAMETER, "J3", "Axis", NULL,
                                      "%s: Axis (%" PRIu32 ") must be in [0, InputTensors[0].DimensionCount - 1] = [0, %" PRIu32 "]",
                                      O, axis, first.n - 1);
            p = first;
        } else {
            TRY(tensor_check(O, name, &d->InputTensors[k], NULL, &p, err));
            TRY(check_same_dims(O, "J2", name, &p, "InputTensors[0]", &first, err));       /* J2 */
            TRY(check_same_type(O, "J2", name, &p, "InputTensors[0]", &first, err));
            TRY(check_sizes_but_axis(O, "J4", name, &p, "InputTensors[0]", &first, axis, err)); /* J4 */
        }
        sum += p.sizes[axis]; /* < 2^64: at most 2^32 terms below 2^32 */
    }
    if (sum > UINT32_MAX)                                                                  /* J5 */
        return set_rule_error(err, DMLREF_ERROR_SIZES, "J5", "InputTensors", "Sizes",
                              "%s: the InputTensors sizes along Axis (%" PRIu32 ") sum to %" PRIu64
                              ", above 2^32 - 1: no OutputTensor.Sizes[%" PRIu32 "] can hold it",
                              O, axis, sum, axis);
    *n = first.n;
    for (uint32_t k = 0; k < first.n; ++k) sizes[k] = first.sizes[k];
    sizes[axis] = (uint32_t)sum;
    return DMLREF_OK;
}
