/* DIAGONAL_MATRIX1's random valid cases: an output of 2 to 4 dims (a stack of
 * up to 6x6 matrices; packed, gapped or permuted), every data type, the
 * InputTensor half of the time (same sizes; strided, gapped or broadcast),
 * Value any element of the type (edges, specials, the canonical NaN; FLOAT16:
 * 0 only, section 10's open question) with ValueDataType the output's, and a band [Begin, End) across the matrix, empty,
 * inverted (Begin > End), or ONNX Trilu's half-infinite ones
 * ([INT32_MIN, k), [k + 1, INT32_MAX)). */
#include "builder.h"

#include <string.h>

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 2 + bld_rnd(r, 3), H = 1 + bld_rnd(r, 6), W = 1 + bld_rnd(r, 6);
    uint32_t sizes[4];
    const uint64_t batch_cap = bld_cap(96) / (H * W);
    bld_rand_sizes(r, N - 2, sizes, batch_cap ? batch_cap : 1);
    sizes[N - 2] = H;
    sizes[N - 1] = W;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    const int32_t span = (int32_t)(H + W + 3), near = (int32_t)bld_rnd(r, (uint32_t)span) - (int32_t)(H + 1);
    int32_t begin, end;
    const uint32_t k = bld_rnd(r, 100);
    if (k < 50) begin = near, end = near + (int32_t)bld_rnd(r, (uint32_t)span); /* a band, maybe empty */
    else if (k < 75) begin = near + 1 + (int32_t)bld_rnd(r, (uint32_t)span), end = near;     /* inverted */
    else if (k < 90) {                                                                     /* Trilu */
        if (bld_rnd(r, 2)) begin = INT32_MIN, end = near;
        else begin = near + 1, end = INT32_MAX;
    } else {
        static const int32_t far[4] = {INT32_MIN, INT32_MAX, -1, 0};
        begin = far[bld_rnd(r, 4)];
        end = far[bld_rnd(r, 4)];
    }
    const dmlref_param *pt = desc_param(g->schema, "ValueDataType"), *pv = desc_param(g->schema, "Value"),
                       *pb = desc_param(g->schema, "DiagonalFillBegin"), *pe = desc_param(g->schema, "DiagonalFillEnd");
    if (!pt || !pv || !pb || !pe) return -1;
    desc_set_u32(bld_desc(g), pt->offset, (uint32_t)dt);
    memset(bld_desc(g) + pv->offset, 0, 8);
    bld_rand_value(r, dt, bld_desc(g) + pv->offset);
    /* a FLOAT16 union value is 0 in golden suites: the binary16-in-Bytes convention and
     * onnxruntime's float32 one agree only there (docs/operators.md section 10) */
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16) memset(bld_desc(g) + pv->offset, 0, 8);
    memcpy(bld_desc(g) + pb->offset, &begin, sizeof begin);
    memcpy(bld_desc(g) + pe->offset, &end, sizeof end);
    const int with_input = (int)bld_rnd(r, 2);
    g->n_inputs = with_input ? 1 : 0;
    g->n_outputs = 1;
    if (with_input) {
        bld_tensor_init(&g->inputs[0], dt, N, sizes);
        bld_layout(r, &g->inputs[0], 1);
        bld_fill_random(r, &g->inputs[0]);
    }
    bld_tensor_init(&g->outputs[0], dt, N, sizes);
    bld_layout(r, &g->outputs[0], 0);
    return 0;
}

const builder diagonal_matrix1_builder = {DMLREF_OPERATOR_DIAGONAL_MATRIX1, build};
