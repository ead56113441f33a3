/* DIAGONAL_MATRIX's random valid cases: an output of 2 to 4 dims (a stack of
 * up to 6x6 matrices; packed, gapped or permuted), every data type, an Offset
 * that crosses the matrix or lies far outside it (INT32_MIN and INT32_MAX
 * too), and a Value the output's type holds exactly (golden suites leave the
 * FLOAT conversion's truncation and saturation out, docs/operators.md P10):
 * small integers, type edges, eighths for the float types, signed zeros and
 * infinities there. */
#include "builder.h"

#include <math.h>
#include <string.h>

static int is_float(DMLREF_TENSOR_DATA_TYPE dt) {
    return dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32 || dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16 ||
           dt == DMLREF_TENSOR_DATA_TYPE_FLOAT64;
}

static int is_unsigned(DMLREF_TENSOR_DATA_TYPE dt) {
    return dt == DMLREF_TENSOR_DATA_TYPE_UINT8 || dt == DMLREF_TENSOR_DATA_TYPE_UINT16 ||
           dt == DMLREF_TENSOR_DATA_TYPE_UINT32 || dt == DMLREF_TENSOR_DATA_TYPE_UINT64;
}

/* The smallest and largest values of dt that a FLOAT holds exactly. */
static void exact_edges(DMLREF_TENSOR_DATA_TYPE dt, float *lo, float *hi) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_INT8: *lo = -128.0f, *hi = 127.0f; return;
    case DMLREF_TENSOR_DATA_TYPE_INT16: *lo = -32768.0f, *hi = 32767.0f; return;
    case DMLREF_TENSOR_DATA_TYPE_INT32: *lo = -2147483648.0f, *hi = 2147483520.0f; return;          /* 2^31 - 2^7 */
    case DMLREF_TENSOR_DATA_TYPE_INT64: *lo = -9223372036854775808.0f, *hi = 9223371487098961920.0f; /* 2^63 - 2^39 */
        return;
    case DMLREF_TENSOR_DATA_TYPE_UINT8: *lo = 0.0f, *hi = 255.0f; return;
    case DMLREF_TENSOR_DATA_TYPE_UINT16: *lo = 0.0f, *hi = 65535.0f; return;
    case DMLREF_TENSOR_DATA_TYPE_UINT32: *lo = 0.0f, *hi = 4294967040.0f; return;                    /* 2^32 - 2^8 */
    case DMLREF_TENSOR_DATA_TYPE_UINT64: *lo = 0.0f, *hi = 18446742974197923840.0f; return;          /* 2^64 - 2^40 */
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: *lo = -65504.0f, *hi = 65504.0f; return;
    default: *lo = -3.40282346638528859812e+38f, *hi = 3.40282346638528859812e+38f; return;        /* FLT_MAX */
    }
}

static float draw_value(prng *r, DMLREF_TENSOR_DATA_TYPE dt) {
    const uint32_t k = bld_rnd(r, 100);
    float lo, hi;
    exact_edges(dt, &lo, &hi);
    if (k < 45) return is_unsigned(dt) ? (float)bld_rnd(r, 201) : (float)((int32_t)bld_rnd(r, 201) - 100);
    if (k < 60) return bld_rnd(r, 2) ? hi : lo;
    if (k < 75 && is_float(dt)) return (float)((int32_t)bld_rnd(r, 2001) - 1000) / 8.0f; /* exact in FLOAT16 */
    if (k < 83) return is_float(dt) && bld_rnd(r, 2) ? -0.0f : 0.0f;
    if (k < 88 && is_float(dt)) return bld_rnd(r, 2) ? -INFINITY : INFINITY;
    return 1.0f; /* EyeLike's */
}

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 2 + bld_rnd(r, 3), H = 1 + bld_rnd(r, 6), W = 1 + bld_rnd(r, 6);
    uint32_t sizes[4];
    const uint64_t batch_cap = bld_cap(96) / (H * W);
    bld_rand_sizes(r, N - 2, sizes, batch_cap ? batch_cap : 1);
    sizes[N - 2] = H;
    sizes[N - 1] = W;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    const uint32_t k = bld_rnd(r, 100);
    int32_t offset;
    if (k < 70) offset = (int32_t)bld_rnd(r, H + W + 3) - (int32_t)(H + 1); /* [-(H+1), W+1] */
    else if (k < 85) offset = (int32_t)bld_rnd(r, 41) - 20;
    else {
        static const int32_t far[4] = {INT32_MIN, INT32_MAX, INT32_MIN + 1, INT32_MAX - 1};
        offset = far[bld_rnd(r, 4)];
    }
    const float value = draw_value(r, dt);
    const dmlref_param *po = desc_param(g->schema, "Offset"), *pv = desc_param(g->schema, "Value");
    if (!po || !pv) return -1;
    memcpy(bld_desc(g) + po->offset, &offset, sizeof offset);
    memcpy(bld_desc(g) + pv->offset, &value, sizeof value);
    g->n_inputs = 0;
    g->n_outputs = 1;
    bld_tensor_init(&g->outputs[0], dt, N, sizes);
    bld_layout(r, &g->outputs[0], 0);
    return 0;
}

const builder diagonal_matrix_builder = {DMLREF_OPERATOR_DIAGONAL_MATRIX, build};
