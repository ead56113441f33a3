/*
 * PADDING's and PADDING1's random valid cases (builders/padding.c,
 * builders/padding1.c): one static builder both include, since `make OPS=`
 * may build either alone.
 *
 * Cases: every data type, 1 to 8 dims, every PaddingMode (WRAP and SYMMETRIC
 * included: gen validates at 6_4, then picks a level that accepts the case),
 * dims without padding, pads larger than the input (periodic folding, PD6),
 * strided and gapped layouts, broadcast inputs.  Fill values every type in play
 * represents exactly: PADDING's FLOAT a small integer (a quarter for float
 * types), PADDING1's union any value of the type, but 0 for FLOAT16 (the
 * FLOAT16-in-a-union convention is an open question: docs/operators.md §10).
 */
#ifndef DMLREF_BUILDERS_PADDING_COMMON_H
#define DMLREF_BUILDERS_PADDING_COMMON_H

#include "builder.h"

#include <string.h>

static void pad_set_bytes(dmlref_case *g, const char *name, const void *v, size_t n) {
    const dmlref_param *p = desc_param(g->schema, name);
    if (p) memcpy(bld_desc(g) + p->offset, v, n);
}

static int pad_build(prng *r, dmlref_case *g, int is_v1) {
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t in[8], out[8], order[8], start[8], end[8];
    bld_rand_sizes(r, N, in, bld_cap(48));
    const uint32_t mode = bld_rnd(r, 5);
    /* pads, dims in a random order, keeping the output within the cap */
    uint64_t total = bld_product(in, N);
    const uint64_t cap = bld_cap(BLD_SMALL_CAP); /* the output's elements */
    for (uint32_t i = 0; i < N; ++i) order[i] = i;
    for (uint32_t i = N; i > 1; --i) {
        const uint32_t j = bld_rnd(r, i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    for (uint32_t k = 0; k < N; ++k) {
        const uint32_t d = order[k];
        uint32_t s = 0, e = 0;
        const uint32_t kind = bld_rnd(r, 8);
        if (kind >= 3) {
            s = bld_rnd(r, 4);
            e = bld_rnd(r, 4);
        }
        if (kind == 7) { /* larger than the input: folded periodically (PD6) */
            s = in[d] + bld_rnd(r, in[d] + 3);
            e = bld_rnd(r, 2 * in[d] + 2);
        }
        const uint64_t grown = total / in[d] * (in[d] + s + e);
        if (grown > cap) s = e = 0;
        else total = grown;
        start[d] = s;
        end[d] = e;
    }
    /* the output's sizes: the library's rule PD3 (dmlref_output_sizes), over packed FLOAT32 tensors */
    bld_shape ts;
    const DMLREF_TENSOR_DESC *const sin = bld_shape_init(&ts, DMLREF_TENSOR_DATA_TYPE_FLOAT32, N, in);
    const DMLREF_PADDING_OPERATOR_DESC sd = {sin, NULL, (DMLREF_PADDING_MODE)mode, 0.0f, N, start, end};
    const DMLREF_PADDING1_OPERATOR_DESC sd1 = {sin, NULL, (DMLREF_PADDING_MODE)mode, DMLREF_TENSOR_DATA_TYPE_FLOAT32,
                                               {{0}}, N, start, end};
    if (is_v1 ? bld_output_sizes(DMLREF_OPERATOR_PADDING1, &sd1, N, out) != 0
              : bld_output_sizes(DMLREF_OPERATOR_PADDING, &sd, N, out) != 0)
        return -1;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 1;
    g->n_outputs = 1;
    bld_tensor_init(&g->inputs[0], dt, N, in);
    bld_tensor_init(&g->outputs[0], dt, N, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);

    bld_set_param(g, "PaddingMode", mode);
    bld_set_param(g, "DimensionCount", N);
    bld_set_array(g, "StartPadding", start, N);
    bld_set_array(g, "EndPadding", end, N);
    if (is_v1) {
        unsigned char v[8] = {0};
        if (dt != DMLREF_TENSOR_DATA_TYPE_FLOAT16) bld_rand_value(r, dt, v);
        bld_set_param(g, "PaddingValueDataType", (uint32_t)dt);
        pad_set_bytes(g, "PaddingValue", v, sizeof v);
    } else {
        const int is_float = dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32 || dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16 ||
                             dt == DMLREF_TENSOR_DATA_TYPE_FLOAT64;
        const int is_unsigned = dt == DMLREF_TENSOR_DATA_TYPE_UINT8 || dt == DMLREF_TENSOR_DATA_TYPE_UINT16 ||
                                dt == DMLREF_TENSOR_DATA_TYPE_UINT32 || dt == DMLREF_TENSOR_DATA_TYPE_UINT64;
        const int32_t k = (int32_t)bld_rnd(r, 201) - (is_unsigned ? 0 : 100);
        const float f = is_float && bld_rnd(r, 2) ? (float)k / 4.0f : (float)(is_unsigned && k < 0 ? -k : k);
        pad_set_bytes(g, "PaddingValue", &f, sizeof f);
    }
    return 0;
}

#endif
