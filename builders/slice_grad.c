/* SLICE_GRAD's random valid cases: SLICE1's window drawn over the output gradient (the
 * forward input) per dimension (offset, size), walked with a stride of either sign (mostly
 * +-1, sometimes up to the window size; a size-1 input gradient sometimes takes INT32_MIN or
 * INT32_MAX), an input gradient of at most the elements the window reaches; a third of the
 * cases a plain box (every stride 1: the gradient of a plain slice, ONNX Pad's form); gapped,
 * permuted and broadcast input gradients, gapped output gradients. */
#include "builder.h"

#include <stdint.h>

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t in[8], out[8], off[8], size[8], stride[8];
    bld_rand_sizes(r, N, out, bld_cap(256));
    const int box = bld_rnd(r, 3) == 0;
    for (uint32_t d = 0; d < N; ++d) {
        off[d] = bld_rnd(r, out[d]);
        size[d] = 1 + bld_rnd(r, out[d] - off[d]);
        const uint32_t k = bld_rnd(r, 10), mag = k < 6 ? 1 : 1 + bld_rnd(r, size[d]);
        const int32_t s = box ? 1 : bld_rnd(r, 2) ? (int32_t)mag : -(int32_t)mag;
        in[d] = 1 + bld_rnd(r, 1 + (size[d] - 1) / (box ? 1 : mag));
        stride[d] = (uint32_t)s;
        if (!box && in[d] == 1 && bld_rnd(r, 8) == 0) stride[d] = bld_rnd(r, 2) ? 0x80000000u : 0x7FFFFFFFu;
    }
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 1;
    g->n_outputs = 1;
    bld_set_array(g, "InputWindowOffsets", off, N);
    bld_set_array(g, "InputWindowSizes", size, N);
    bld_set_array(g, "InputWindowStrides", stride, N);
    bld_tensor_init(&g->inputs[0], dt, N, in);
    bld_tensor_init(&g->outputs[0], dt, N, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    return 0;
}

const builder slice_grad_builder = {DMLREF_OPERATOR_SLICE_GRAD, build};
