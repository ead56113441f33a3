/* ELEMENT_WISE_IDENTITY's random valid cases: one tensor copied into another
 * layout (permuted, padded, or from a broadcast input).  ScaleBias stays NULL
 * (x * Scale + Bias is arithmetic, not data movement) unless gen asks for it
 * (bld_opts.scale_bias, `gen --scale-bias`): then every case is FLOAT32 or
 * FLOAT16 with a ScaleBias, {1, 0} one time in 8, else two values drawn as the
 * data's are (bld_rand_value: bit fields and exact dyadics, so every host draws
 * the same), a finite one's magnitude brought into [2^-15, 2^17) (outside the
 * bits flavour) so that the results are not all infinities or zeros. */
#include "builder.h"

#include "case/fields.h"

#include <stddef.h>
#include <string.h>

/* Written through memcpy, not returned: an x87 float return would quiet a signalling NaN. */
static void scale_bias_value(prng *r, float *out) {
    uint32_t u;
    unsigned char b[8];
    bld_rand_value(r, DMLREF_TENSOR_DATA_TYPE_FLOAT32, b);
    memcpy(&u, b, sizeof u); /* the binary32 bits, as a host integer */
    const uint32_t e = u >> 23 & 0xFFu;
    if (!bld_opts.bits && e != 0 && e != 0xFFu && (e < 112 || e > 143)) u = (u & 0x807FFFFFu) | (112u + e % 32u) << 23;
    memcpy(out, &u, sizeof u);
}

static int build(prng *r, dmlref_case *g) {
    static const DMLREF_TENSOR_DATA_TYPE with_scale_bias[2] = {DMLREF_TENSOR_DATA_TYPE_FLOAT32,
                                                               DMLREF_TENSOR_DATA_TYPE_FLOAT16};
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t sizes[8];
    bld_rand_sizes(r, N, sizes, bld_cap(256));
    const DMLREF_TENSOR_DATA_TYPE dt = bld_opts.scale_bias ? bld_pick(r, with_scale_bias, 2) : bld_pick(r, bld_data_types, 11);
    g->n_inputs = 1;
    g->n_outputs = 1;
    bld_tensor_init(&g->inputs[0], dt, N, sizes);
    bld_tensor_init(&g->outputs[0], dt, N, sizes);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    if (bld_opts.scale_bias) { /* drawn last: the rest of the case as without it */
        DMLREF_SCALE_BIAS *sb = fields_store_alloc(&g->store, sizeof *sb); /* kept with the case's desc */
        if (!sb) {
            bld_out_of_memory = 1;
            return -1;
        }
        *sb = (DMLREF_SCALE_BIAS){1.0f, 0.0f};
        if (bld_rnd(r, 8) != 0) {
            scale_bias_value(r, &sb->Scale);
            scale_bias_value(r, &sb->Bias);
        }
        memcpy(bld_desc(g) + offsetof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, ScaleBias), &sb, sizeof sb);
    }
    return 0;
}

const builder element_wise_identity_builder = {DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, build};
