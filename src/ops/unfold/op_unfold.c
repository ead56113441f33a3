/*
 * UNFOLD (docs/operators.md, UNFOLD; DirectML 177, FL 6_4): im2col, as
 * torch.nn.functional.unfold.  For Input {N, C, S_0 .. S_{K-1}} (K = D - 2):
 *
 *     out[1 x (D-3), n, c * prod(W) + k, l] = in[n, c, b(l) * Stride + k * Dilation - StartPadding]
 *
 * or all-zero bits where that reads outside the input; k (the window offset) and
 * l (the block) are row-major over the window grid W and the block grid B.
 *
 *   UF1  Input and Output have the same DimensionCount D, 3 to 8
 *   UF2  same DataType, one of the 11 (T11; the page's table lists none)
 *   UF3  DimensionCount == D - 2 (the spatial count, 1 to 6), the length of all five
 *        arrays, none of them NULL
 *   UF4  WindowSizes, Strides, Dilations >= 1
 *   UF5  span_d = S_d + StartPadding_d + EndPadding_d - Dilations_d * (W_d - 1) - 1 >= 0
 *        (64-bit)
 *   UF6  Output.Sizes = {1 x (D-3), N, C * prod(W), prod(B)}, B_d = span_d / Strides_d + 1
 *        (64-bit products; C * prod(W) and prod(B) must fit a tensor size, 2^32 - 1)
 *
 * The fast path (unfold.rows, unfold.gather) is unfold_fast.c.
 */
#include "unfold.h"
#include "core/registry.h"

#include <inttypes.h>
#include <string.h>

#define OP "UNFOLD"

/* ---- the oracle ------------------------------------------------------------ */

/* For every output coordinate: the row's channel c and window offsets k_d, the
 * column's blocks b_d, then per spatial dim the source index (unfold_source), the
 * element copied, or zeros when a dim reads outside the input (PADDING CONSTANT's way). */
static dmlref_status unfold_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const unfold_params *p = OP_CPARAMS(op, unfold_params);
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[1] = {out->bstrides};
    const uint32_t D = out->n;
    static const unsigned char zero[8] = {0};
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        const uint64_t n = it.coord[D - 3], row = it.coord[D - 2];
        uint64_t k = row % p->pw, l = it.coord[D - 1];
        uint64_t at = n * in->bstrides[0] + (row / p->pw) * in->bstrides[1];
        int outside = 0;
        for (uint32_t d = p->k; d-- > 0;) {
            const int64_t s = unfold_source(p, d, l % p->blocks[d], k % p->w[d]);
            k /= p->w[d];
            l /= p->blocks[d];
            if (s < 0 || s >= (int64_t)in->sizes[2 + d]) outside = 1;
            else at += (uint64_t)s * in->bstrides[2 + d];
        }
        memcpy(dst + it.offset[0], outside ? zero : src + at, out->esize);
    }
    return DMLREF_OK;
}

/* ---- the shape: UF3-UF6, written once for compile and output_sizes --------- */

static dmlref_status check_array(const uint32_t *a, const char *field, uint32_t k, dmlref_error *err) {
    if (!a)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "UF3", field, NULL,
                              OP ": %s is NULL (it must hold DimensionCount = %" PRIu32 " entries)", field, k);
    return DMLREF_OK;
}

static dmlref_status check_positive(const uint32_t *a, const char *field, uint32_t k, dmlref_error *err) {
    for (uint32_t d = 0; d < k; ++d)                                                          /* UF4 */
        if (a[d] == 0)
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "UF4", field, NULL,
                                  OP ": %s[%" PRIu32 "] is 0; every entry must be at least 1", field, d);
    return DMLREF_OK;
}

/* UF3, UF4, UF5 for the input in; then the output's Sizes (UF6) into want[0 .. D) and the
 * parameters into p. */
static dmlref_status unfold_shape(const tensor_t *in, const DMLREF_UNFOLD_OPERATOR_DESC *d, uint64_t *want,
                                  unfold_params *p, dmlref_error *err) {
    const uint32_t D = in->n, k = D - 2; /* D >= 3: UF1 checked first */
    if (d->DimensionCount != k)                                                               /* UF3 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "UF3", "DimensionCount", NULL,
                              OP ": DimensionCount (%" PRIu32 ") must equal InputTensor.DimensionCount - 2 = %" PRIu32
                              " - 2 = %" PRIu32 " (the spatial dimensions)",
                              d->DimensionCount, D, k);
    TRY(check_array(d->WindowSizes, "WindowSizes", k, err));
    TRY(check_array(d->Strides, "Strides", k, err));
    TRY(check_array(d->Dilations, "Dilations", k, err));
    TRY(check_array(d->StartPadding, "StartPadding", k, err));
    TRY(check_array(d->EndPadding, "EndPadding", k, err));
    TRY(check_positive(d->WindowSizes, "WindowSizes", k, err));                               /* UF4 */
    TRY(check_positive(d->Strides, "Strides", k, err));
    TRY(check_positive(d->Dilations, "Dilations", k, err));
    mem_zero(p, sizeof *p);
    p->k = k;
    p->pw = p->pb = 1;
    for (uint32_t i = 0; i < k; ++i) {
        const uint64_t s = in->sizes[2 + i], w = d->WindowSizes[i], dil = d->Dilations[i];
        const uint64_t have = s + d->StartPadding[i] + d->EndPadding[i]; /* < 2^34 */
        const uint64_t reach = dil * (w - 1) + 1;                         /* < 2^64 */
        if (have < reach)                                                                     /* UF5 */
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "UF5", "WindowSizes", NULL,
                                  OP ": the window of spatial dimension %" PRIu32 " does not fit: InputTensor.Sizes[%" PRIu32
                                  "] + StartPadding[%" PRIu32 "] + EndPadding[%" PRIu32 "] = %" PRIu64
                                  " is below Dilations[%" PRIu32 "] * (WindowSizes[%" PRIu32 "] - 1) + 1 = %" PRIu64,
                                  i, 2 + i, i, i, have, i, i, reach);
        p->w[i] = d->WindowSizes[i];
        p->st[i] = d->Strides[i];
        p->dil[i] = d->Dilations[i];
        p->p0[i] = d->StartPadding[i];
        p->blocks[i] = (have - reach) / d->Strides[i] + 1; /* <= 2^34 */
        /* the products so far are <= 2^32 - 1 (checked below), each factor < 2^32 (w, C) or
         * checked to be (a block count): no product overflows 64 bits */
        p->pw *= w;
        const int wide = p->pw > UINT32_MAX || p->pw * in->sizes[1] > UINT32_MAX;
        if (wide)                                                                             /* UF6 */
            return set_rule_error(err, DMLREF_ERROR_SIZES, "UF6", "OutputTensor", "Sizes",
                                  OP ": InputTensor.Sizes[1] * prod(WindowSizes) (through WindowSizes[%" PRIu32
                                  "]: %" PRIu32 " * %" PRIu64 ") is above 2^32 - 1: no tensor size can hold it",
                                  i, in->sizes[1], p->pw);
        if (p->blocks[i] > UINT32_MAX || p->pb * p->blocks[i] > UINT32_MAX)                 /* UF6 */
            return set_rule_error(err, DMLREF_ERROR_SIZES, "UF6", "OutputTensor", "Sizes",
                                  OP ": the block count prod(B) (through spatial dimension %" PRIu32 ": %" PRIu64
                                  " * %" PRIu64 ") is above 2^32 - 1: no tensor size can hold it",
                                  i, p->pb, p->blocks[i]);
        p->pb *= p->blocks[i];
    }
    for (uint32_t i = 0; i + 3 < D; ++i) want[i] = 1;
    want[D - 3] = in->sizes[0];
    want[D - 2] = p->pw * in->sizes[1];
    want[D - 1] = p->pb;
    return DMLREF_OK;
}

/* ---- compile ----------------------------------------------------------------- */

static dmlref_status unfold_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_UNFOLD_OPERATOR_DESC *d = desc;
    TRY(op_alloc_tensors(op, 1, 1, err));
    tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(OP, "InputTensor", d->InputTensor, NULL, in, err));
    TRY(tensor_check(OP, "OutputTensor", d->OutputTensor, op, out, err));
    TRY(check_same_dims(OP, "UF1", "OutputTensor", out, "InputTensor", in, err));            /* UF1 */
    TRY(check_support(OP, "UF1", "UF2", "InputTensor", in, &s, 0, op->feature_level, err));   /* UF1, UF2 */
    TRY(check_same_type(OP, "UF2", "OutputTensor", out, "InputTensor", in, err));            /* UF2 */

    uint64_t want[MAX_DIMS];
    unfold_params *p = OP_PARAMS(op, unfold_params);
    TRY(unfold_shape(in, d, want, p, err));                                                   /* UF3-UF6 */
    for (uint32_t i = 0; i < out->n; ++i)                                                     /* UF6 */
        if (out->sizes[i] != want[i])
            return set_rule_error(err, DMLREF_ERROR_SIZES, "UF6", "OutputTensor", "Sizes",
                                  OP ": OutputTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must be %" PRIu64
                                  ": OutputTensor.Sizes = {1 x (D - 3), N, C * prod(WindowSizes), prod(blocks)} = "
                                  "{1 x %" PRIu32 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "}",
                                  i, out->sizes[i], want[i], out->n - 3, want[out->n - 3], want[out->n - 2],
                                  want[out->n - 1]);
    op->oracle = unfold_oracle;
    return DMLREF_OK;
}

/* The fast path (unfold_fast.c). */
static dmlref_status unfold_plan_hook(op_t *op, dmlref_error *err) {
    return plan_unfold(op, OP_CPARAMS(op, unfold_params), err);
}

static dmlref_status unfold_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                         uint32_t *sizes, dmlref_error *err) {
    const DMLREF_UNFOLD_OPERATOR_DESC *d = desc;
    tensor_t in;
    uint64_t want[MAX_DIMS];
    unfold_params p;
    (void)output;
    TRY(shape_input(op, "InputTensor", d->InputTensor, 0, "UF1", "UF2", &in, err)); /* UF1, UF2 */
    TRY(unfold_shape(&in, d, want, &p, err));                                       /* UF3-UF6 */
    TRY(shape_fit(op, "UF6", "OutputTensor", in.n, want, sizes, err));
    *n = in.n;
    return DMLREF_OK;
}

/* ---- the class ------------------------------------------------------------- */

#define D DMLREF_UNFOLD_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {
    PARAM_COUNT(D, DimensionCount),
    PARAM_UINT_ARRAY(D, WindowSizes, DimensionCount),
    PARAM_UINT_ARRAY(D, Strides, DimensionCount),
    PARAM_UINT_ARRAY(D, Dilations, DimensionCount),
    PARAM_UINT_ARRAY(D, StartPadding, DimensionCount),
    PARAM_UINT_ARRAY(D, EndPadding, DimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_6_4, {3, 8, DT_T11, 0}}, /* the page's table lists no types: T11 (decision) */
};
static const dmlref_schema schema = {DMLREF_OPERATOR_UNFOLD, OP, sizeof(D), DMLREF_FEATURE_LEVEL_6_4, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class unfold_class = {&schema, support, N_OF(support), unfold_compile, PLAN_HOOK(unfold_plan_hook),
                               unfold_output_sizes};
