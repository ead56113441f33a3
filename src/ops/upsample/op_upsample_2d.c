/*
 * UPSAMPLE_2D (docs/operators.md, Q7), NEAREST_NEIGHBOR: the last two dimensions
 * (H, W of NCHW / NCDHW) repeated ScaleSize.Height and ScaleSize.Width times:
 * out[..., h, w] = in[..., h / Height, w / Width] (integer division; depth is never
 * scaled).
 *
 *   US1  Input and Output: the same DimensionCount, 4 or 5
 *   US2  the same DataType, FLOAT32 or FLOAT16
 *   US3  ScaleSize.Height >= 1 and ScaleSize.Width >= 1; In.Sizes[N-2] * Height and
 *        In.Sizes[N-1] * Width <= 2^32 - 1
 *   US4  Output.Sizes = Input.Sizes with [N-2] * Height and [N-1] * Width
 *   US5  InterpolationMode NEAREST_NEIGHBOR (LINEAR: not supported by dmlref)
 *
 * The fast path (upsample_2d.repeat) is upsample_fast.c: TILE inverted.
 */
#include "upsample_fast.h"

#include <inttypes.h>

#define OP "UPSAMPLE_2D"

typedef struct upsample_params {
    uint32_t height, width; /* ScaleSize */
} upsample_params;

static dmlref_status upsample_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const upsample_params *p = OP_CPARAMS(op, upsample_params);
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[1] = {out->bstrides};
    const uint32_t n = out->n;
    uint32_t ic[MAX_DIMS];
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, n, out->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        for (uint32_t d = 0; d < n; ++d) ic[d] = it.coord[d];
        ic[n - 2] /= p->height;
        ic[n - 1] /= p->width;
        memcpy(dst + it.offset[0], src + tensor_offset(in, ic), out->esize);
    }
    return DMLREF_OK;
}

#if DMLREF_MESSAGES
static const char *mode_name(uint32_t m) {
    return m < N_INTERPOLATION_MODE_NAMES ? interpolation_mode_enum_names[m] : "an unknown value";
}
#else /* named only in a message's arguments, which are then never evaluated (padding.c's idiom) */
#define mode_name(m) ((void)(m), (const char *)NULL)
#endif

/* Rules US3 and US5 for input sizes in (n dims); want: the output sizes (US4). */
static dmlref_status upsample_rules(const DMLREF_UPSAMPLE_2D_OPERATOR_DESC *d, uint32_t n, const uint32_t *in,
                                    uint64_t *want, dmlref_error *err) {
    const uint32_t h = d->ScaleSize.Height, w = d->ScaleSize.Width;
    if (h == 0 || w == 0)                                                                      /* US3 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "US3", "ScaleSize", NULL,
                              OP ": ScaleSize {Width %" PRIu32 ", Height %" PRIu32 "}: both must be at least 1", w, h);
    for (uint32_t k = 0; k < n; ++k) want[k] = in[k];
    want[n - 2] = (uint64_t)in[n - 2] * h;
    want[n - 1] = (uint64_t)in[n - 1] * w;
    if (want[n - 2] > UINT32_MAX)
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "US3", "ScaleSize", NULL,
                              OP ": InputTensor.Sizes[%" PRIu32 "] * ScaleSize.Height = %" PRIu32 " * %" PRIu32
                              " = %" PRIu64 " is above 2^32 - 1",
                              n - 2, in[n - 2], h, want[n - 2]);
    if (want[n - 1] > UINT32_MAX)
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "US3", "ScaleSize", NULL,
                              OP ": InputTensor.Sizes[%" PRIu32 "] * ScaleSize.Width = %" PRIu32 " * %" PRIu32
                              " = %" PRIu64 " is above 2^32 - 1",
                              n - 1, in[n - 1], w, want[n - 1]);
    if (d->InterpolationMode == DMLREF_INTERPOLATION_MODE_LINEAR)                              /* US5 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "US5", "InterpolationMode", NULL,
                              OP ": InterpolationMode LINEAR (1) is not supported by dmlref: only NEAREST_NEIGHBOR (0)");
    if (d->InterpolationMode != DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR)
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "US5", "InterpolationMode", NULL,
                              OP ": InterpolationMode (%" PRIu32 ", %s) must be NEAREST_NEIGHBOR (0)",
                              (uint32_t)d->InterpolationMode, mode_name((uint32_t)d->InterpolationMode));
    return DMLREF_OK;
}

static dmlref_status upsample_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_UPSAMPLE_2D_OPERATOR_DESC *d = desc;
    TRY(op_alloc_tensors(op, 1, 1, err));
    tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);
    TRY(tensor_check(OP, "InputTensor", d->InputTensor, NULL, in, err));
    TRY(tensor_check(OP, "OutputTensor", d->OutputTensor, op, out, err));
    TRY(check_same_dims(OP, "US1", "OutputTensor", out, "InputTensor", in, err));          /* US1 */
    TRY(check_support(OP, "US1", "US2", "InputTensor", in, &s, 0, op->feature_level, err)); /* US1, US2 */
    TRY(check_same_type(OP, "US2", "OutputTensor", out, "InputTensor", in, err));          /* US2 */
    uint64_t want[MAX_DIMS];
    TRY(upsample_rules(d, in->n, in->sizes, want, err)); /* US3, US5 */
    for (uint32_t k = 0; k < in->n; ++k)                                                     /* US4 */
        if (out->sizes[k] != want[k])
            return set_rule_error(err, DMLREF_ERROR_SIZES, "US4", "OutputTensor", "Sizes",
                                  OP ": OutputTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must be %" PRIu64
                                  " (InputTensor.Sizes[%" PRIu32 "] %s)",
                                  k, out->sizes[k], want[k], k,
                                  k == in->n - 2 ? "* ScaleSize.Height" : k == in->n - 1 ? "* ScaleSize.Width" : "as it is");
    upsample_params *p = OP_PARAMS(op, upsample_params);
    p->height = d->ScaleSize.Height;
    p->width = d->ScaleSize.Width;
    op->oracle = upsample_oracle;
    return DMLREF_OK;
}

static dmlref_status upsample_plan_hook(op_t *op, dmlref_error *err) {
    const upsample_params *p = OP_CPARAMS(op, upsample_params);
    return plan_upsample_2d(op, p->height, p->width, err);
}

static dmlref_status upsample_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                           uint32_t *sizes, dmlref_error *err) {
    const DMLREF_UPSAMPLE_2D_OPERATOR_DESC *d = desc;
    tensor_t in;
    uint64_t want[MAX_DIMS];
    (void)output;
    TRY(shape_input(op, "InputTensor", d->InputTensor, 0, "US1", "US2", &in, err)); /* US1, US2 */
    TRY(upsample_rules(d, in.n, in.sizes, want, err));                             /* US3, US5 */
    TRY(shape_fit(op, "US4", "OutputTensor", in.n, want, sizes, err));
    *n = in.n;
    return DMLREF_OK;
}

#define D DMLREF_UPSAMPLE_2D_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_SIZE_2D(D, ScaleSize), PARAM_INTERPOLATION_MODE(D, InterpolationMode)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 5, DT_F32F16, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_UPSAMPLE_2D, OP, sizeof(D), DMLREF_FEATURE_LEVEL_1_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class upsample_2d_class = {&schema, support, N_OF(support), upsample_compile, PLAN_HOOK(upsample_plan_hook),
                                    upsample_output_sizes};
