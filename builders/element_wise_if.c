/* ELEMENT_WISE_IF's random valid cases: four tensors of one shape (1 to 8 dims), the
 * condition UINT8 (0, 1, or now and then any other nonzero byte: true too), A, B and the
 * output of any data type (edges, specials, NaN payloads and -0 under the bits flavour);
 * the inputs packed, gapped, permuted or broadcast (zero strides, as ONNX Where's callers
 * broadcast), the output packed or gapped. */
#include "builder.h"

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t sizes[8];
    bld_rand_sizes(r, N, sizes, bld_cap(256));
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 3;
    g->n_outputs = 1;
    bld_tensor_init(&g->inputs[0], DMLREF_TENSOR_DATA_TYPE_UINT8, N, sizes);
    bld_tensor_init(&g->inputs[1], dt, N, sizes);
    bld_tensor_init(&g->inputs[2], dt, N, sizes);
    bld_tensor_init(&g->outputs[0], dt, N, sizes);
    for (int k = 0; k < 3; ++k) bld_layout(r, &g->inputs[k], 1);
    bld_layout(r, &g->outputs[0], 0);
    case_tensor *c = &g->inputs[0];
    for (uint64_t i = 0; c->data && i < c->total_slots; ++i) {
        const uint32_t k = bld_rnd(r, 16);
        c->data[i] = (unsigned char)(k < 7 ? 0 : k < 14 ? 1 : 2 + bld_rnd(r, 254));
    }
    bld_fill_random(r, &g->inputs[1]);
    bld_fill_random(r, &g->inputs[2]);
    return 0;
}

const builder element_wise_if_builder = {DMLREF_OPERATOR_ELEMENT_WISE_IF, build};
