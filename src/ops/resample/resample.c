/*
 * The RESAMPLE family's shared part (resample.h): the source index, the rules
 * RS1-RS6, the oracle and the output_sizes hook.
 *
 *   RS1  Input and Output: the same DimensionCount, allowed at the feature level
 *   RS2  the same DataType, in the feature level's set
 *   RS3  ScaleCount / DimensionCount == the tensors' DimensionCount (arrays not NULL)
 *   RS4  every Scale finite and > 0
 *   RS5  every pixel offset finite
 *   RS6  InterpolationMode NEAREST_NEIGHBOR (LINEAR: not supported by dmlref);
 *        RoundingDirection INCREASING or DECREASING
 * Output.Sizes are free (>= 1): the output desc gives them.
 */
#include "resample.h"

#include <inttypes.h>

/* Each step through a volatile float: rounded to binary32 on every host (i386's
 * x87 keeps excess precision in registers otherwise), and nothing to contract.
 * floor and ceil without libm: below 2^23 in magnitude through an exact int64
 * conversion; from 2^23 on every float is an integer (or infinite). */
uint32_t resample_source_index(uint32_t o, float scale, float in_off, float out_off, int decreasing, uint32_t n) {
    volatile float t = (float)o; /* exact below 2^24, round to nearest even above */
    t = t - out_off;
    t = t / scale;
    t = t - in_off;
    const float r = t;
    if (!(r > -8388608.0f && r < 8388608.0f)) { /* an integer already, or infinite (never NaN: RS4, RS5) */
        if (!(r > 0.0f)) return 0;
        return (double)r >= (double)(n - 1) ? n - 1 : (uint32_t)(double)r;
    }
    int64_t k = (int64_t)r; /* toward zero, exact */
    if (decreasing && (float)k > r) --k;  /* floor */
    if (!decreasing && (float)k < r) ++k; /* ceil  */
    if (k <= 0) return 0;
    return (uint64_t)k >= (uint64_t)n - 1 ? n - 1 : (uint32_t)k;
}

#if DMLREF_MESSAGES
static const char *mode_name(uint32_t m) {
    return m < N_INTERPOLATION_MODE_NAMES ? interpolation_mode_enum_names[m] : "an unknown value";
}
#else /* named only in a message's arguments, which are then never evaluated (padding.c's idiom) */
#define mode_name(m) ((void)(m), (const char *)NULL)
#endif

static int finite_f(float x) {
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return (b & 0x7F800000u) != 0x7F800000u;
}

dmlref_status resample_param_rules(const op_t *op, const resample_desc *d, uint32_t n, resample_params *p,
                                   dmlref_error *err) {
    const char *O = d->op;
    (void)op;
    if (d->count != n)                                                                         /* RS3 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "RS3", d->count_name, NULL,
                              "%s: %s (%" PRIu32 ") must equal InputTensor.DimensionCount (%" PRIu32 ")", O,
                              d->count_name, d->count, n);
    if (!d->scales)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "RS3", "Scales", NULL,
                              "%s: Scales is NULL (%s is %" PRIu32 ")", O, d->count_name, d->count);
    if (d->variant != RESAMPLE_V0 && !d->in_offsets)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "RS3", "InputPixelOffsets", NULL,
                              "%s: InputPixelOffsets is NULL (%s is %" PRIu32 ")", O, d->count_name, d->count);
    if (d->variant != RESAMPLE_V0 && !d->out_offsets)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "RS3", "OutputPixelOffsets", NULL,
                              "%s: OutputPixelOffsets is NULL (%s is %" PRIu32 ")", O, d->count_name, d->count);
    for (uint32_t i = 0; i < n; ++i) {                                                         /* RS4 */
        const float s = d->scales[i];
        if (!finite_f(s) || !(s > 0.0f))
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "RS4", "Scales", NULL,
                                  "%s: Scales[%" PRIu32 "] (%g) must be finite and greater than 0", O, i, (double)s);
    }
    for (uint32_t i = 0; d->variant != RESAMPLE_V0 && i < n; ++i) {                          /* RS5 */
        if (!finite_f(d->in_offsets[i]))
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "RS5", "InputPixelOffsets", NULL,
                                  "%s: InputPixelOffsets[%" PRIu32 "] (%g) must be finite", O, i,
                                  (double)d->in_offsets[i]);
        if (!finite_f(d->out_offsets[i]))
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "RS5", "OutputPixelOffsets", NULL,
                                  "%s: OutputPixelOffsets[%" PRIu32 "] (%g) must be finite", O, i,
                                  (double)d->out_offsets[i]);
    }
    if (d->mode == DMLREF_INTERPOLATION_MODE_LINEAR)                                           /* RS6 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "RS6", "InterpolationMode", NULL,
                              "%s: InterpolationMode LINEAR (1) is not supported by dmlref: only NEAREST_NEIGHBOR (0)",
                              O);
    if (d->mode != DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR)
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "RS6", "InterpolationMode", NULL,
                              "%s: InterpolationMode (%" PRIu32 ", %s) must be NEAREST_NEIGHBOR (0)", O, d->mode,
                              mode_name(d->mode));
    if (d->has_direction && d->direction > DMLREF_AXIS_DIRECTION_DECREASING)
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "RS6", "RoundingDirection", NULL,
                              "%s: RoundingDirection (%" PRIu32 ") must be INCREASING (0) or DECREASING (1)", O,
                              d->direction);
    p->n = n;
    p->decreasing = d->variant == RESAMPLE_V2 ? d->direction == DMLREF_AXIS_DIRECTION_DECREASING : 1;
    for (uint32_t i = 0; i < n; ++i) {
        p->scale[i] = d->scales[i];
        if (d->variant == RESAMPLE_V0) {
            p->in_off[i] = 0.0f; /* fl32(0.5 - 0.5) */
            p->out_off[i] = -0.5f;
        } else if (d->variant == RESAMPLE_V1) {
            volatile float a = d->in_offsets[i];
            a = a - 0.5f; /* InOff = fl32(InputPixelOffsets - 0.5): floor(x + 1/2) */
            p->in_off[i] = a;
            p->out_off[i] = d->out_offsets[i];
        } else {
            p->in_off[i] = d->in_offsets[i];
            p->out_off[i] = d->out_offsets[i];
        }
    }
    return DMLREF_OK;
}

/* For every output coordinate o: out[o] = in[i(o)], i computed per element (Q11.3). */
static dmlref_status resample_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const resample_params *p = OP_CPARAMS(op, resample_params);
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[1] = {out->bstrides};
    uint32_t ic[MAX_DIMS];
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        for (uint32_t d = 0; d < out->n; ++d)
            ic[d] = resample_source_index(it.coord[d], p->scale[d], p->in_off[d], p->out_off[d], (int)p->decreasing,
                                          in->sizes[d]);
        memcpy(dst + it.offset[0], src + tensor_offset(in, ic), out->esize);
    }
    return DMLREF_OK;
}

dmlref_status resample_compile(op_t *op, const resample_desc *d, dmlref_error *err) {
    const char *O = d->op;
    TRY(op_alloc_tensors(op, 1, 1, err));
    tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);
    TRY(tensor_check(O, "InputTensor", d->in, NULL, in, err));
    TRY(tensor_check(O, "OutputTensor", d->out, op, out, err));
    TRY(check_same_dims(O, "RS1", "OutputTensor", out, "InputTensor", in, err));          /* RS1 */
    TRY(check_support(O, "RS1", "RS2", "InputTensor", in, &s, 0, op->feature_level, err)); /* RS1, RS2 */
    TRY(check_same_type(O, "RS2", "OutputTensor", out, "InputTensor", in, err));          /* RS2 */
    resample_params p;
    memset(&p, 0, sizeof p);
    TRY(resample_param_rules(op, d, in->n, &p, err)); /* RS3 - RS6 */
    *OP_PARAMS(op, resample_params) = p;
    op->oracle = resample_oracle;
    return DMLREF_OK;
}

dmlref_status resample_output_sizes(const op_t *op, const resample_desc *d, uint32_t *n, uint32_t *sizes,
                                    dmlref_error *err) {
    tensor_t in;
    resample_params p;
    uint32_t gn, given[MAX_DIMS];
    TRY(shape_input(op, "InputTensor", d->in, 0, "RS1", "RS2", &in, err)); /* RS1, RS2 */
    TRY(resample_param_rules(op, d, in.n, &p, err));                      /* RS3 - RS6 */
    TRY(shape_given(op, "OutputTensor", d->out, "the resampled sizes (free: docs/operators.md Q11.2)", &gn, given,
                    err));
    if (gn != in.n)                                                                            /* RS1 */
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "RS1", "OutputTensor", "DimensionCount",
                              "%s: OutputTensor.DimensionCount (%" PRIu32 ") must equal InputTensor.DimensionCount (%" PRIu32
                              ")",
                              d->op, gn, in.n);
    *n = gn;
    for (uint32_t i = 0; i < gn; ++i) sizes[i] = given[i];
    return DMLREF_OK;
}
