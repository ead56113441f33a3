/*
 * TOP_K and TOP_K1 (topk.h; docs/operators.md, TOP_K): the rules, the output shape and
 * the oracle.
 *
 *   TK1  Input, OutputValue, OutputIndex: the same DimensionCount, allowed at the level
 *   TK2  OutputValue.DataType == Input.DataType, in the level's set (never FLOAT64)
 *   TK3  OutputIndex.DataType UINT32 (UINT64 too from 5_0)
 *   TK4  Axis < DimensionCount
 *   TK5  1 <= K <= Input.Sizes[Axis]
 *   TK6  OutputValue.Sizes == OutputIndex.Sizes == Input.Sizes with [Axis] = K
 *   TK7  AxisDirection INCREASING (0) or DECREASING (1) (TOP_K1)
 *
 * The oracle, per sequence along Axis (n elements): the K first positions in the order
 * of topk.h, kept as a binary heap in the sequence's own OutputIndex row (the root the
 * position that comes last; a later position j replaces it when j comes before it),
 * then sorted there in place (heapsort), then the values copied by index: O(n log K)
 * comparisons, no memory but the output's.  (The outputs never overlap each other or
 * the input: dmlref_execute refuses such bindings, rule B5.)
 */
#include "topk.h"
#include "core/scalar.h"

#include <inttypes.h>

/* ---- rules and shape ------------------------------------------------------------ */

/* TK4, TK5 (and TK7) on the input's shape; the output shape into sizes. */
static dmlref_status param_rules(const topk_desc *d, const tensor_t *in, uint32_t *sizes, dmlref_error *err) {
    const char *O = d->op;
    if (d->axis >= in->n)                                                                   /* TK4 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "TK4", "Axis", NULL,
                              "%s: Axis (%" PRIu32 ") must be less than InputTensor.DimensionCount (%" PRIu32 ")", O,
                              d->axis, in->n);
    if (d->k < 1 || d->k > in->sizes[d->axis])                                              /* TK5 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "TK5", "K", NULL,
                              "%s: K (%" PRIu32 ") must be in [1, InputTensor.Sizes[Axis]] = [1, %" PRIu32 "]", O,
                              d->k, in->sizes[d->axis]);
    if (d->direction > DMLREF_AXIS_DIRECTION_DECREASING)                                    /* TK7 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "TK7", "AxisDirection", NULL,
                              "%s: AxisDirection (%" PRIu32 ") must be INCREASING (0) or DECREASING (1)", O,
                              d->direction);
    for (uint32_t i = 0; i < in->n; ++i) sizes[i] = i == d->axis ? d->k : in->sizes[i];     /* TK6 */
    return DMLREF_OK;
}

dmlref_status topk_output_sizes(const op_t *op, const topk_desc *d, uint32_t *n, uint32_t *sizes, dmlref_error *err) {
    tensor_t in;
    uint32_t want[MAX_DIMS];
    TRY(shape_input(op, "InputTensor", d->in, 0, "TK1", "TK2", &in, err)); /* TK1, TK2 */
    TRY(param_rules(d, &in, want, err));
    *n = in.n;
    memcpy(sizes, want, in.n * sizeof *want);
    return DMLREF_OK;
}

/* ---- the oracle ------------------------------------------------------------------ */

/* One sequence: its input elements and its OutputIndex row. */
typedef struct seq {
    const unsigned char *in;
    uint64_t in_st;      /* bytes between input elements along Axis     */
    uint32_t dtype;
    unsigned char *ix;
    uint64_t ix_st;      /* bytes between OutputIndex elements along Axis */
    uint32_t ix_dtype;   /* UINT32 or UINT64 */
    uint32_t decreasing;
} seq;

static uint64_t pos_get(const seq *q, uint64_t r) {
    if (q->ix_dtype == DMLREF_TENSOR_DATA_TYPE_UINT64) {
        uint64_t v;
        memcpy(&v, q->ix + r * q->ix_st, 8);
        return v;
    }
    uint32_t v;
    memcpy(&v, q->ix + r * q->ix_st, 4);
    return v;
}

static void pos_set(const seq *q, uint64_t r, uint64_t j) {
    if (q->ix_dtype == DMLREF_TENSOR_DATA_TYPE_UINT64) {
        memcpy(q->ix + r * q->ix_st, &j, 8);
    } else {
        const uint32_t v = (uint32_t)j; /* j < Input.Sizes[Axis] < 2^32 */
        memcpy(q->ix + r * q->ix_st, &v, 4);
    }
}

/* 1 when position a comes before position b (topk.h). */
static int before(const seq *q, uint64_t a, uint64_t b) {
    const uint64_t ka = scalar_order_key((DMLREF_TENSOR_DATA_TYPE)q->dtype, q->in + a * q->in_st, 0);
    const uint64_t kb = scalar_order_key((DMLREF_TENSOR_DATA_TYPE)q->dtype, q->in + b * q->in_st, 0);
    if (ka != kb) return q->decreasing ? ka > kb : ka < kb;
    return a < b;
}

/* The heap of heap[0 .. size): every parent comes after its children (the root last). */
static void sift_down(const seq *q, uint64_t r, uint64_t size) {
    const uint64_t j = pos_get(q, r);
    for (;;) {
        uint64_t c = 2 * r + 1;
        if (c >= size) break;
        uint64_t jc = pos_get(q, c);
        if (c + 1 < size) {
            const uint64_t j2 = pos_get(q, c + 1);
            if (before(q, jc, j2)) c += 1, jc = j2; /* the child that comes later */
        }
        if (!before(q, j, jc)) break;
        pos_set(q, r, jc);
        r = c;
    }
    pos_set(q, r, j);
}

static void sift_up(const seq *q, uint64_t r, uint64_t j) {
    while (r > 0) {
        const uint64_t p = (r - 1) / 2, jp = pos_get(q, p);
        if (!before(q, jp, j)) break;
        pos_set(q, r, jp);
        r = p;
    }
    pos_set(q, r, j);
}

/* The K first positions of the n, in order, into the sequence's OutputIndex row. */
static void select_sequence(const seq *q, uint64_t n, uint64_t k) {
    for (uint64_t j = 0; j < n; ++j) {
        if (j < k) sift_up(q, j, j);
        else if (before(q, j, pos_get(q, 0))) {
            pos_set(q, 0, j);
            sift_down(q, 0, k);
        }
    }
    for (uint64_t end = k; end-- > 1;) { /* heapsort: the last position to the end */
        const uint64_t last = pos_get(q, 0);
        pos_set(q, 0, pos_get(q, end));
        pos_set(q, end, last);
        sift_down(q, 0, end);
    }
}

void topk_sequence(const unsigned char *in, uint64_t in_st, uint32_t dtype, unsigned char *ix, uint64_t ix_st,
                   uint32_t ix_dtype, uint32_t decreasing, uint64_t n, uint64_t k) {
    const seq q = {in, in_st, dtype, ix, ix_st, ix_dtype, decreasing};
    select_sequence(&q, n, k);
}

static dmlref_status topk_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const topk_params *p = OP_CPARAMS(op, topk_params);
    const tensor_t *in = &op->inputs[0], *val = &op->outputs[0], *ix = &op->outputs[1];
    const uint32_t a = p->axis;
    uint32_t outer[MAX_DIMS];
    nd_iter it;
    (void)err;
    memcpy(outer, in->sizes, sizeof outer);
    outer[a] = 1; /* every sequence once */
    const uint64_t *bs[3] = {in->bstrides, val->bstrides, ix->bstrides};
    for (nd_iter_init(&it, in->n, outer, 3, bs); !it.done; nd_iter_next(&it)) {
        const seq q = {IN_DATA(x, 0) + it.offset[0], in->bstrides[a], in->dtype,
                       OUT_DATA(x, 1) + it.offset[2], ix->bstrides[a], ix->dtype, p->decreasing};
        unsigned char *v = OUT_DATA(x, 0) + it.offset[1];
        select_sequence(&q, in->sizes[a], p->k);
        for (uint64_t r = 0; r < p->k; ++r) memcpy(v + r * val->bstrides[a], q.in + pos_get(&q, r) * q.in_st, in->esize);
    }
    return DMLREF_OK;
}

/* ---- compile --------------------------------------------------------------------- */

dmlref_status topk_compile(op_t *op, const topk_desc *d, dmlref_error *err) {
    const char *O = d->op;
    TRY(op_alloc_tensors(op, 1, 2, err));
    tensor_t *in = &op->inputs[0], *val = &op->outputs[0], *ix = &op->outputs[1];
    support_t s;
    uint32_t want[MAX_DIMS];
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(O, "InputTensor", d->in, NULL, in, err));
    TRY(tensor_check(O, "OutputValueTensor", d->val, op, val, err));
    TRY(tensor_check(O, "OutputIndexTensor", d->idx, op, ix, err));
    TRY(check_support(O, "TK1", "TK2", "InputTensor", in, &s, 0, op->feature_level, err));           /* TK1, TK2 */
    TRY(check_same_dims(O, "TK1", "OutputValueTensor", val, "InputTensor", in, err));               /* TK1 */
    TRY(check_same_dims(O, "TK1", "OutputIndexTensor", ix, "InputTensor", in, err));                /* TK1 */
    TRY(check_same_type(O, "TK2", "OutputValueTensor", val, "InputTensor", in, err));               /* TK2 */
    TRY(check_support(O, "TK1", "TK3", "OutputIndexTensor", ix, &s, 1, op->feature_level, err));     /* TK3 */
    TRY(param_rules(d, in, want, err));                                                            /* TK4, TK5, TK7 */
    TRY(check_same_sizes(O, "TK6", "OutputValueTensor", val, "InputTensor.Sizes with [Axis] = K", want, err));
    TRY(check_same_sizes(O, "TK6", "OutputIndexTensor", ix, "InputTensor.Sizes with [Axis] = K", want, err));

    *OP_PARAMS(op, topk_params) =
        (topk_params){d->axis, d->k, d->direction == DMLREF_AXIS_DIRECTION_DECREASING};
    op->oracle = topk_oracle;
    return DMLREF_OK;
}
