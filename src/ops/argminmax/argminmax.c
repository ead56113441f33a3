/*
 * ARGMIN and ARGMAX (docs/operators.md, ARGMIN / ARGMAX; DirectML 137 / 138, FL 3_0):
 * the rules, the output shape and the oracle both classes share (op_argmin.c,
 * op_argmax.c hold the schemas).
 *
 *   AM1  Input and Output have the same DimensionCount, 1 to 8
 *   AM2  Input.DataType in the level's set (T8 from 3_0, T10 from 4_1)
 *   AM3  Output.DataType INT64, INT32, UINT64 or UINT32
 *   AM4  1 <= AxisCount <= DimensionCount, Axes not NULL, every axis < DimensionCount,
 *        the axes distinct (any order)
 *   AM5  Output.Sizes[d] = 1 for a reduced d, Input.Sizes[d] otherwise
 *   AM6  AxisDirection INCREASING (0) or DECREASING (1)
 *   AM7  an INT32 output holds every index: the reduced element count (the product of
 *        Input.Sizes over Axes) is at most 2^31 (dmlref's rule: a larger count would need
 *        indices above INT32_MAX; UINT32 holds every index of a tensor, 2^32 - 1 elements)
 *
 * For each output coordinate o, the candidates are the input elements agreeing with o on
 * the kept axes; candidate j (0-based) is the row-major position over the reduced axes in
 * increasing axis order.  The values compare by scalar_order_key: a NaN wins (ARGMAX: above
 * +Inf; ARGMIN: below -Inf), every NaN equal, -0 == +0, integers by value.  INCREASING
 * gives the first best j, DECREASING the last; j is written in the output's type.
 */
#include "argminmax.h"
#include "core/scalar.h"

#include <inttypes.h>

/* ---- the oracle ------------------------------------------------------------ */

static dmlref_status argminmax_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const argminmax_params *p = OP_CPARAMS(op, argminmax_params);
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[2] = {out->bstrides, in->bstrides};
    uint32_t rsizes[MAX_DIMS];
    uint64_t rst[MAX_DIMS];
    const uint64_t *rbs[1] = {rst};
    const DMLREF_TENSOR_DATA_TYPE dt = (DMLREF_TENSOR_DATA_TYPE)in->dtype;
    const int nan_low = !p->is_max;
    (void)err;
    for (uint32_t k = 0; k < p->n_red; ++k) {
        rsizes[k] = in->sizes[p->red[k]];
        rst[k] = in->bstrides[p->red[k]];
    }
    nd_iter it, r;
    for (nd_iter_init(&it, out->n, out->sizes, 2, bs); !it.done; nd_iter_next(&it)) {
        uint64_t best = 0, at = 0, j = 0;
        for (nd_iter_init(&r, p->n_red, rsizes, 1, rbs); !r.done; nd_iter_next(&r), ++j) {
            const uint64_t key = scalar_order_key(dt, src + it.offset[1] + r.offset[0], nan_low);
            if (j == 0 || argminmax_better(p, key, best)) {
                best = key;
                at = j;
            }
        }
        argminmax_store(dst + it.offset[0], out->esize, at);
    }
    return DMLREF_OK;
}

/* ---- the shape: AM4, AM5 (written once for compile and output_sizes) ------- */

static dmlref_status argminmax_shape(const op_t *op, const tensor_t *in, const argminmax_fields *f, uint32_t *want,
                                     argminmax_params *p, dmlref_error *err) {
    const uint32_t D = in->n;
    if (f->axis_count < 1 || f->axis_count > D)                                               /* AM4 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "AM4", "AxisCount", NULL,
                              "%s: AxisCount (%" PRIu32 ") must be in [1, InputTensor.DimensionCount] = [1, %" PRIu32 "]",
                              op->name, f->axis_count, D);
    if (!f->axes)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "AM4", "Axes", NULL,
                              "%s: Axes is NULL (it must hold AxisCount = %" PRIu32 " axes)", op->name, f->axis_count);
    mem_zero(p, sizeof *p);
    for (uint32_t k = 0; k < f->axis_count; ++k) {
        const uint32_t a = f->axes[k];
        if (a >= D)
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "AM4", "Axes", NULL,
                                  "%s: Axes[%" PRIu32 "] (%" PRIu32 ") must be in [0, InputTensor.DimensionCount) = [0, %" PRIu32 ")",
                                  op->name, k, a, D);
        if (p->reduced[a])
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "AM4", "Axes", NULL,
                                  "%s: Axes[%" PRIu32 "] (%" PRIu32 ") repeats an earlier axis; the axes must be distinct",
                                  op->name, k, a);
        p->reduced[a] = 1;
    }
    p->count = 1;
    for (uint32_t d = 0; d < D; ++d) {
        want[d] = p->reduced[d] ? 1 : in->sizes[d];                                            /* AM5 */
        if (p->reduced[d]) {
            p->red[p->n_red++] = d;
            p->count *= in->sizes[d]; /* <= the input's elements, < 2^32 */
        }
    }
    return DMLREF_OK;
}

/* ---- compile ----------------------------------------------------------------- */

dmlref_status argminmax_compile(op_t *op, const argminmax_fields *f, int is_max, dmlref_error *err) {
    const char *O = op->name;
    TRY(op_alloc_tensors(op, 1, 1, err));
    tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(O, "InputTensor", f->in, NULL, in, err));
    TRY(tensor_check(O, "OutputTensor", f->out, op, out, err));
    TRY(check_support(O, "AM1", "AM2", "InputTensor", in, &s, 0, op->feature_level, err));    /* AM1, AM2 */
    TRY(check_same_dims(O, "AM1", "OutputTensor", out, "InputTensor", in, err));             /* AM1 */
    TRY(check_support(O, "AM1", "AM3", "OutputTensor", out, &s, 1, op->feature_level, err));  /* AM3 */

    uint32_t want[MAX_DIMS];
    argminmax_params *p = OP_PARAMS(op, argminmax_params);
    TRY(argminmax_shape(op, in, f, want, p, err));                                            /* AM4 */
    TRY(check_same_sizes(O, "AM5", "OutputTensor", out, "InputTensor.Sizes with 1 on the Axes,", want, err)); /* AM5 */
    if (f->direction > DMLREF_AXIS_DIRECTION_DECREASING)                                      /* AM6 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "AM6", "AxisDirection", NULL,
                              "%s: AxisDirection (%" PRIu32 ") must be INCREASING (0) or DECREASING (1)", O,
                              f->direction);
    if (out->dtype == DMLREF_TENSOR_DATA_TYPE_INT32 && p->count > (UINT64_C(1) << 31))       /* AM7 */
        return set_rule_error(err, DMLREF_ERROR_DATA_TYPE, "AM7", "OutputTensor", "DataType",
                              "%s: OutputTensor.DataType INT32 cannot hold every index: the reduced element count "
                              "(%" PRIu64 ") is above 2^31 (use UINT32, INT64 or UINT64)",
                              O, p->count);
    p->is_max = (uint32_t)is_max;
    p->last = f->direction == DMLREF_AXIS_DIRECTION_DECREASING;
    op->oracle = argminmax_oracle;
    return DMLREF_OK;
}

dmlref_status argminmax_output_sizes(const op_t *op, const argminmax_fields *f, uint32_t *n, uint32_t *sizes,
                                     dmlref_error *err) {
    tensor_t in;
    uint32_t want[MAX_DIMS];
    argminmax_params p;
    TRY(shape_input(op, "InputTensor", f->in, 0, "AM1", "AM2", &in, err));                  /* AM1, AM2 */
    TRY(argminmax_shape(op, &in, f, want, &p, err));                                        /* AM4, AM5 */
    memcpy(sizes, want, in.n * sizeof *want);
    *n = in.n;
    return DMLREF_OK;
}
