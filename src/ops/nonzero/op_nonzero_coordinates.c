/*
 * NONZERO_COORDINATES (docs/operators.md Q10): the coordinates of Input's nonzero
 * elements, in row-major order, and their count.
 *
 *   count = 0
 *   for each coordinate c of Input, in row-major order:
 *       if Input[c] is nonzero:             (floats: x != 0, so +-0 are zero and NaN is
 *                                            nonzero, tested on the bits; integers x != 0)
 *           Coordinates[.., count, j] = c[D - N + j], j = 0 .. N-1  (the last N components)
 *           count += 1
 *   Coordinates[.., r, j] = 0 for every row r >= count   (dmlref's decision; DirectML
 *                                                        leaves them undefined)
 *   Count[0, ..] = count
 *
 *   NZ1  DimensionCounts, each independent: 4 or 5 at 3_0; from 4_0 Input 1-8, OutputCount
 *        1-8, OutputCoordinates 2-8
 *   NZ2  Input.DataType in T8 (never 64-bit)
 *   NZ3  OutputCount.DataType and OutputCoordinates.DataType are UINT32
 *   NZ4  every OutputCount size is 1
 *   NZ5  OutputCoordinates.Sizes == {1, ..., 1, M, N}, M = Input's element count
 *   NZ6  effective rank <= N <= Input.DimensionCount (effective rank: Input.DimensionCount
 *        without its leading sizes of 1)
 *
 * Rows at and past the count are not defined by DirectML: the defined_elements hook says
 * which output elements a comparer may check (count * N rows' elements, and the count).
 * The fast path is nonzero_fast.c.
 */
#include "nonzero_fast.h"
#include "core/registry.h"

#include <inttypes.h>

#define OP "NONZERO_COORDINATES"

/* 1 when the element at p (data type dt, T8) is nonzero: floats on the bits, the sign bit
 * ignored (+-0 are zero, NaN is not), integers any bit. */
static int nz_is_nonzero(uint32_t dt, const unsigned char *p) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: {
        uint32_t v;
        memcpy(&v, p, 4);
        return (v & UINT32_C(0x7FFFFFFF)) != 0;
    }
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return (v & 0x7FFFu) != 0;
    }
    case DMLREF_TENSOR_DATA_TYPE_INT32:
    case DMLREF_TENSOR_DATA_TYPE_UINT32: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v != 0;
    }
    case DMLREF_TENSOR_DATA_TYPE_INT16:
    case DMLREF_TENSOR_DATA_TYPE_UINT16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v != 0;
    }
    default: return *p != 0; /* INT8, UINT8 */
    }
}

/* ---- the oracle ------------------------------------------------------------------ */

static dmlref_status nonzero_coordinates_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *cnt = &op->outputs[0], *co = &op->outputs[1];
    const nonzero_params *p = OP_CPARAMS(op, nonzero_params);
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dcount = OUT_DATA(x, 0), *dco = OUT_DATA(x, 1);
    const uint64_t srow = co->bstrides[co->n - 2], scol = co->bstrides[co->n - 1];
    const uint32_t D = in->n, N = p->n;
    uint64_t count = 0;
    nd_iter it;
    (void)err;
    const uint64_t *bs[1] = {in->bstrides};
    for (nd_iter_init(&it, in->n, in->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        if (!nz_is_nonzero(in->dtype, src + it.offset[0])) continue;
        for (uint32_t j = 0; j < N; ++j) {
            const uint32_t v = it.coord[D - N + j];
            memcpy(dco + count * srow + j * scol, &v, 4);
        }
        ++count;
    }
    static const unsigned char zero[4] = {0};
    for (uint64_t r = count; r < in->elements; ++r)
        for (uint32_t j = 0; j < N; ++j) memcpy(dco + r * srow + j * scol, zero, 4);
    const uint32_t c32 = (uint32_t)count; /* count <= elements <= 2^32 - 1 */
    memcpy(dcount, &c32, 4);
    (void)cnt;
    return DMLREF_OK;
}

/* ---- shapes and rules ------------------------------------------------------------ */

/* NZ1 for an output (the input's range is its support row): 4-5 before 4_0, then 1-8
 * (OutputCount) or 2-8 (OutputCoordinates). */
static dmlref_status nz_output_dims(const op_t *op, const char *name, uint32_t n, uint32_t lo_from_4_0,
                                    dmlref_error *err) {
    const int old = op->feature_level < DMLREF_FEATURE_LEVEL_4_0;
    const uint32_t lo = old ? 4 : lo_from_4_0, hi = old ? 5 : 8;
    if (n < lo || n > hi)
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "NZ1", name, "DimensionCount",
                              OP ": %s.DimensionCount (%" PRIu32 ") must be in [%" PRIu32 ", %" PRIu32
                              "] at feature level %s",
                              name, n, lo, hi, dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)op->feature_level));
    return DMLREF_OK;
}

/* NZ6: effective rank <= N <= Input.DimensionCount. */
static dmlref_status nz_check_n(const tensor_t *in, uint32_t N, dmlref_error *err) {
    uint32_t lead = 0;
    while (lead < in->n && in->sizes[lead] == 1) ++lead;
    const uint32_t eff = in->n - lead;
    if (N < eff || N > in->n)
        return set_rule_error(err, DMLREF_ERROR_SIZES, "NZ6", "OutputCoordinatesTensor", "Sizes",
                              OP ": OutputCoordinatesTensor.Sizes' last size N (%" PRIu32
                              ") must be in [effective rank, InputTensor.DimensionCount] = [%" PRIu32 ", %" PRIu32
                              "] (effective rank: InputTensor.DimensionCount without its leading sizes of 1)",
                              N, eff, in->n);
    return DMLREF_OK;
}

/* The output shapes: OutputCount {1, ..., 1} and OutputCoordinates {1, ..., 1, M, N}, their
 * DimensionCounts and N read from the output descs (the inputs leave them free). */
static dmlref_status nonzero_coordinates_output_sizes(const op_t *op, const void *desc, uint32_t output,
                                                      uint32_t *n, uint32_t *sizes, dmlref_error *err) {
    const DMLREF_NONZERO_COORDINATES_OPERATOR_DESC *d = desc;
    tensor_t in;
    uint32_t gn, gs[MAX_DIMS];
    TRY(shape_input(op, "InputTensor", d->InputTensor, 0, "NZ1", "NZ2", &in, err));
    if (output == 0) {
        TRY(shape_given(op, "OutputCountTensor", d->OutputCountTensor, "its DimensionCount", &gn, gs, err));
        TRY(nz_output_dims(op, "OutputCountTensor", gn, 1, err));
        *n = gn;
        for (uint32_t k = 0; k < gn; ++k) sizes[k] = 1;
        return DMLREF_OK;
    }
    TRY(shape_given(op, "OutputCoordinatesTensor", d->OutputCoordinatesTensor, "its DimensionCount and N", &gn, gs,
                    err));
    TRY(nz_output_dims(op, "OutputCoordinatesTensor", gn, 2, err));
    TRY(nz_check_n(&in, gs[gn - 1], err));
    *n = gn;
    for (uint32_t k = 0; k + 2 < gn; ++k) sizes[k] = 1;
    sizes[gn - 2] = (uint32_t)in.elements; /* <= 2^32 - 1 (rule T13) */
    sizes[gn - 1] = gs[gn - 1];
    return DMLREF_OK;
}

/* Which output elements are defined after an execution: OutputCount's one element, and the
 * first count rows of OutputCoordinates (count * N elements, row-major); the rows past the
 * count are DirectML's "undefined" (dmlref writes 0 there). */
static void nonzero_coordinates_defined(const op_t *op, const dmlref_buffer *outputs, uint32_t output,
                                        uint64_t *defined) {
    const nonzero_params *p = OP_CPARAMS(op, nonzero_params);
    if (output == 0) {
        *defined = 1;
        return;
    }
    uint32_t c;
    memcpy(&c, outputs[0].data, 4);
    if (c > op->inputs[0].elements) c = (uint32_t)op->inputs[0].elements;
    *defined = (uint64_t)c * p->n;
}

static dmlref_status nonzero_coordinates_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_NONZERO_COORDINATES_OPERATOR_DESC *d = desc;
    TRY(op_alloc_tensors(op, 1, 2, err));
    tensor_t *in = &op->inputs[0], *cnt = &op->outputs[0], *co = &op->outputs[1];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(OP, "InputTensor", d->InputTensor, NULL, in, err));
    TRY(tensor_check(OP, "OutputCountTensor", d->OutputCountTensor, op, cnt, err));
    TRY(tensor_check(OP, "OutputCoordinatesTensor", d->OutputCoordinatesTensor, op, co, err));
    TRY(check_support(OP, "NZ1", "NZ2", "InputTensor", in, &s, 0, op->feature_level, err));          /* NZ1, NZ2 */
    TRY(nz_output_dims(op, "OutputCountTensor", cnt->n, 1, err));                                    /* NZ1 */
    TRY(nz_output_dims(op, "OutputCoordinatesTensor", co->n, 2, err));                               /* NZ1 */
    TRY(check_support(OP, "NZ1", "NZ3", "OutputCountTensor", cnt, &s, 1, op->feature_level, err));   /* NZ3 */
    TRY(check_support(OP, "NZ1", "NZ3", "OutputCoordinatesTensor", co, &s, 1, op->feature_level, err)); /* NZ3 */
    for (uint32_t k = 0; k < cnt->n; ++k)                                                            /* NZ4 */
        if (cnt->sizes[k] != 1) {
            char b[128];
            return set_rule_error(err, DMLREF_ERROR_SIZES, "NZ4", "OutputCountTensor", "Sizes",
                                  OP ": OutputCountTensor.Sizes %s must all be 1 (a scalar; Sizes[%" PRIu32 "] is %" PRIu32
                                  ")",
                                  sizes_str(b, sizeof b, cnt->sizes, cnt->n), k, cnt->sizes[k]);
        }
    const uint32_t N = co->sizes[co->n - 1];
    TRY(nz_check_n(in, N, err));                                                                      /* NZ6 */
    uint32_t want[MAX_DIMS];                                                                          /* NZ5 */
    for (uint32_t k = 0; k + 2 < co->n; ++k) want[k] = 1;
    want[co->n - 2] = (uint32_t)in->elements;
    want[co->n - 1] = N;
    for (uint32_t k = 0; k < co->n; ++k)
        if (co->sizes[k] != want[k]) {
            char a[128], b[128];
            return set_rule_error(err, DMLREF_ERROR_SIZES, "NZ5", "OutputCoordinatesTensor", "Sizes",
                                  OP ": OutputCoordinatesTensor.Sizes %s must be {1, ..., 1, M, N} = %s with M = "
                                  "InputTensor's element count (%" PRIu64 ") (they differ at dimension %" PRIu32 ")",
                                  sizes_str(a, sizeof a, co->sizes, co->n), sizes_str(b, sizeof b, want, co->n),
                                  in->elements, k);
        }
    *OP_PARAMS(op, nonzero_params) = (nonzero_params){N};
    op->oracle = nonzero_coordinates_oracle;
    op->defined = nonzero_coordinates_defined;
    return DMLREF_OK;
}

#define D DMLREF_NONZERO_COORDINATES_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputCountTensor),
                                           SLOT_OUT(D, OutputCoordinatesTensor)};
/* index_types: the two outputs' type (NZ3); their DimensionCounts are NZ1's own */
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_3_0, {4, 5, DT_T8, DT(UINT32)}},
    {DMLREF_FEATURE_LEVEL_4_0, {1, 8, DT_T8, DT(UINT32)}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_NONZERO_COORDINATES, OP, sizeof(D), DMLREF_FEATURE_LEVEL_3_0,
                                     0, N_OF(slots), slots, 0, NULL};
#undef D

const op_class nonzero_coordinates_class = {&schema, support, N_OF(support), nonzero_coordinates_compile,
                                            PLAN_HOOK(plan_nonzero_coordinates), nonzero_coordinates_output_sizes};
