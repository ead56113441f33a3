/* The RESAMPLE family's random valid cases (builders/resample2.c, ...): 1 to 4
 * dims (4 where the member's first level allows only 4), the types of the newest
 * level (F32, F16, I8, U8), each dimension's Scale drawn as an integer upscale
 * (the output Input.Sizes * s), a nice ratio (out / in), a random float in
 * [1/16, 8), FLT_MAX or a tiny 2^-100; offsets 0, +-0.5, 1 or random in (-4, 4);
 * the output's sizes free (1 to 2 * in + 1 for the non-integer scales); half the cases
 * ONNX-like (resample_draw). */
#ifndef DMLREF_BUILDERS_RESAMPLE_COMMON_H
#define DMLREF_BUILDERS_RESAMPLE_COMMON_H

#include "builder.h"

#include <string.h>

static const DMLREF_TENSOR_DATA_TYPE resample_types[4] = {
    DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_INT8,
    DMLREF_TENSOR_DATA_TYPE_UINT8};

static float resample_bits(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* A float in [1/16, 8) from its bits (the same on every host). */
static float resample_rand_float(prng *r) {
    const uint32_t e = 127 - 4 + bld_rnd(r, 7), m = (uint32_t)(prng_next(r) & 0x7FFFFFu);
    return resample_bits(e << 23 | m);
}

/* An offset: 0, 0.5, -0.5, 1, or a random float in (-4, 4) (the bits of a float in [1/16, 8) halved). */
static float resample_rand_offset(prng *r) {
    switch (bld_rnd(r, 6)) {
    case 0: return 0.0f;
    case 1: return 0.5f;
    case 2: return -0.5f;
    case 3: return 1.0f;
    default: {
        const uint32_t e = 127 - 5 + bld_rnd(r, 7), m = (uint32_t)(prng_next(r) & 0x7FFFFFu);
        return resample_bits((bld_rnd(r, 2) ? 0x80000000u : 0u) | e << 23 | m);
    }
    }
}

/* The (InOff, OutOff) pairs ONNX Resize can express (cli/framework.c fw_resample_nearest):
 * asymmetric, tf_half_pixel_for_nn, half_pixel. */
static const float resample_onnx_pairs[3][2] = {{0.0f, 0.0f}, {0.0f, -0.5f}, {0.5f, -0.5f}};

/* Draws the tensors and the per-dimension values: n dims (min_dims to 4), scales, the
 * effective input offsets (InOff) and the output offsets; 0, or -1 to draw again.  Half the
 * cases are ONNX-like (one pair of resample_onnx_pairs for every dimension, the output size
 * floor(In.Sizes * Scale)), so that export has a framework form for them. */
static int resample_draw(prng *r, dmlref_case *g, uint32_t min_dims, uint32_t *np, float *scale, float *in_off,
                         float *out_off) {
    const uint32_t n = min_dims + bld_rnd(r, 4 - min_dims + 1);
    const int onnx = bld_rnd(r, 2) == 0;
    const uint32_t pair = bld_rnd(r, 3);
    uint32_t in[4], out[4];
    bld_rand_sizes(r, n, in, bld_cap(64));
    uint64_t p = 1, rem = bld_product(in, n); /* outputs so far times the inputs still to come */
    for (uint32_t d = 0; d < n; ++d) {
        rem /= in[d];
        uint32_t o;
        uint32_t kind = bld_rnd(r, 8);
        if (onnx && kind >= 6) kind = 0;
        switch (kind) {
        case 0: /* an integer upscale, out = in * s */
        case 1:
        case 2: {
            const uint32_t s = 1 + bld_rnd(r, 3);
            o = in[d] * s;
            scale[d] = (float)s;
            break;
        }
        case 3: { /* a nice ratio out / in (rounded once to float32) */
        case 4:
            o = 1 + bld_rnd(r, 2 * in[d] + 1);
            volatile float q = (float)o;
            q = q / (float)in[d];
            scale[d] = q;
            break;
        }
        case 5: /* a random float */
            o = 1 + bld_rnd(r, 2 * in[d] + 1);
            scale[d] = resample_rand_float(r);
            break;
        case 6: /* FLT_MAX: every o maps to t = -InOff (align_corners with a size-1 side) */
            o = 1 + bld_rnd(r, 4);
            scale[d] = resample_bits(0x7F7FFFFFu);
            break;
        default: /* tiny: every o > OutOff maps past the end */
            o = 1 + bld_rnd(r, 4);
            scale[d] = resample_bits(0x0D800000u); /* 2^-100 */
            break;
        }
        if (onnx) { /* ONNX's output size: floor(in * scale), exactly and in float32 alike */
            volatile double prod = (double)in[d] * (double)scale[d];
            volatile float prod32 = (float)prod;
            o = (uint32_t)prod;
            if (o < 1 || (uint32_t)prod32 != o || p * o * rem > bld_cap(256)) scale[d] = 1.0f, o = in[d];
            in_off[d] = resample_onnx_pairs[pair][0];
            out_off[d] = resample_onnx_pairs[pair][1];
        } else {
            if (p * o * rem > bld_cap(256)) o = 1;
            in_off[d] = resample_rand_offset(r);
            out_off[d] = resample_rand_offset(r);
        }
        p *= o;
        out[d] = o;
    }
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, resample_types, 4);
    g->n_inputs = 1;
    g->n_outputs = 1;
    bld_tensor_init(&g->inputs[0], dt, n, in);
    bld_tensor_init(&g->outputs[0], dt, n, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    *np = n;
    return 0;
}

#endif
