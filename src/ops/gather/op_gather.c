/*
 * GATHER (docs/operators.md section 2).  output[...] = input[..., indices[...], ...]
 *
 *   N = DimensionCount, a = Axis, K = IndexDimensions.
 *   Output.Sizes = Input.Sizes[0..a) ++ Indices.Sizes[N-K..N) ++ Input.Sizes[a+1..N),
 *   right-aligned to N dimensions (a leading 1 prepended when K = 0; the first K-1
 *   entries, which must be 1, cropped when K >= 2).
 */
#include "gather_fast.h"
#include "core/registry.h"

#include <inttypes.h>
#include <stdio.h>

#define OP "GATHER"

typedef struct gather_params {
    uint32_t axis;       /* Axis            */
    uint32_t index_dims; /* IndexDimensions */
} gather_params;

/* Where output coordinate o reads: input coordinate i (but i[a]) and indices coordinate j. */
static void gather_map(uint32_t n, uint32_t a, uint32_t k, const uint32_t *o, uint32_t *i, uint32_t *j) {
    for (uint32_t d = 0; d < n; ++d) i[d] = j[d] = 0;
    for (uint32_t d = a + 1; d < n; ++d) i[d] = o[d];                  /* trailing      */
    for (uint32_t t = 0; t < k; ++t) j[n - k + t] = o[a + 1 - k + t];   /* index block   */
    for (uint32_t s = 0; s < a; ++s) {                                 /* leading dims, */
        const int64_t od = (int64_t)a - (int64_t)k - (int64_t)s;        /* right-aligned */
        if (od >= 0) i[a - 1 - s] = o[od];
    }
}

void gather_output_sizes(uint32_t n, uint32_t a, uint32_t k, const uint32_t *in, const uint32_t *ix, uint32_t *out) {
    for (uint32_t d = 0; d < n; ++d) out[d] = 1;
    for (uint32_t d = a + 1; d < n; ++d) out[d] = in[d];
    for (uint32_t t = 0; t < k; ++t) out[a + 1 - k + t] = ix[n - k + t];
    for (uint32_t s = 0; s < a; ++s) {
        const int64_t od = (int64_t)a - (int64_t)k - (int64_t)s;
        if (od >= 0) out[od] = in[a - 1 - s];
    }
}

int dmlref_gather_output_sizes(uint32_t dimension_count, uint32_t axis, uint32_t index_dimensions,
                               const uint32_t *input_sizes, const uint32_t *indices_sizes, uint32_t *output_sizes) {
    if (dimension_count < 1 || dimension_count > MAX_DIMS || axis >= dimension_count ||
        index_dimensions > dimension_count || index_dimensions > axis + 1 || !input_sizes || !indices_sizes ||
        !output_sizes)
        return -1;
    gather_output_sizes(dimension_count, axis, index_dimensions, input_sizes, indices_sizes, output_sizes);
    return 0;
}

static dmlref_status gather_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    const unsigned char *in_data = IN_DATA(x, 0), *ix_data = IN_DATA(x, 1);
    unsigned char *out_data = OUT_DATA(x, 0);
    const gather_params *g = OP_CPARAMS(op, gather_params);
    const uint64_t *bs[1] = {out->bstrides};
    uint32_t i[MAX_DIMS], j[MAX_DIMS];
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        int in_range;
        gather_map(out->n, g->axis, g->index_dims, it.coord, i, j);
        const index_value v = index_read(ix_data + tensor_offset(ix, j), ix->dtype);
        i[g->axis] = (uint32_t)index_normalize(v, in->sizes[g->axis], &in_range);
        memcpy(out_data + it.offset[0], in_data + tensor_offset(in, i), in->esize);
    }
    return DMLREF_OK;
}

static dmlref_status gather_check(const op_t *op, const exec_args *x, dmlref_error *err) {
    return check_indices_along_axis(op, OP_CPARAMS(op, gather_params)->axis, x, err);
}

/* Rules G3-G5, G8, G9 (after the tensor rules, G1 and G2), then the output's Sizes (G6): the
 * one shape computation of compile and output_sizes. */
static dmlref_status gather_shape(const tensor_t *in, const tensor_t *ix, uint32_t a, uint32_t k, uint32_t *want,
                                  dmlref_error *err) {
    const uint32_t n = in->n;
    if (a >= n)                                                                           /* G3  */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "G3", "Axis", NULL,
                         OP ": Axis (%" PRIu32 ") must be in [0, InputTensor.DimensionCount) = [0, %" PRIu32 ")",
                         a, n);
    if (k > n)                                                                            /* G4  */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "G4", "IndexDimensions", NULL,
                         OP ": IndexDimensions (%" PRIu32 ") must be in [0, IndicesTensor.DimensionCount] = [0, %" PRIu32 "]",
                         k, n);
    if (k > a + 1)                                                                        /* G5  */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "G5", "IndexDimensions", NULL,
                         OP ": IndexDimensions (%" PRIu32 ") must be <= Axis + 1 (%" PRIu32
                         "): the index dimensions end at output dimension Axis",
                         k, a + 1);
    for (uint32_t d = 0; d + 1 < k; ++d)                                                  /* G7, G8 */
        if (in->sizes[d] != 1)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "G8", "InputTensor", "Sizes",
                             OP ": InputTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must be 1: with IndexDimensions %" PRIu32
                             " the leading %" PRIu32 " input dimensions are cropped from the output "
                             "(original rank of InputTensor + IndexDimensions - 1 must be <= OutputTensor.DimensionCount)",
                             d, in->sizes[d], k, k - 1);
    for (uint32_t d = 0; d < n - k; ++d)                                                  /* G9  */
        if (ix->sizes[d] != 1)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "G9", "IndicesTensor", "Sizes",
                             OP ": IndicesTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must be 1: only the trailing "
                             "IndexDimensions (%" PRIu32 ") dimensions of IndicesTensor are meaningful",
                             d, ix->sizes[d], k);

    gather_output_sizes(n, a, k, in->sizes, ix->sizes, want);
    return DMLREF_OK;
}

/* G1: Indices and Output have Input's DimensionCount, allowed at the level; G2: Input's DataType
 * allowed, Output's equal, Indices' an index type (compile_slots, check_input_slots) */
static const slot_rules rules = {"G1", "G2", 0, 1};

static dmlref_status gather_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_GATHER_OPERATOR_DESC *g = desc;
    support_t s;
    /* G10: the tensor rules; G1: Indices and Output have Input's DimensionCount, allowed at the
     * level; G2: Input's DataType allowed, Output's equal, Indices' an index type */
    TRY(compile_slots(op, desc, &rules, &s, err));
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];

    const uint32_t a = g->Axis, k = g->IndexDimensions;
    uint32_t want[MAX_DIMS];                                                              /* G6  */
    TRY(gather_shape(in, ix, a, k, want, err));
    TRY(check_same_sizes(OP, "G6", "OutputTensor", out, "the gathered shape", want, err));

    *OP_PARAMS(op, gather_params) = (gather_params){a, k};
    op->oracle = gather_oracle;
    op->check = gather_check;
    return DMLREF_OK;
}

static dmlref_status gather_plan(op_t *op, dmlref_error *err) {
    const gather_params *g = OP_CPARAMS(op, gather_params);
    return plan_gather(op, 0, g->axis, g->index_dims, err);
}

static dmlref_status gather_output_sizes_hook(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                              uint32_t *sizes, dmlref_error *err) {
    const DMLREF_GATHER_OPERATOR_DESC *g = desc;
    tensor_t t[2]; /* Input, Indices */
    (void)output;
    TRY(check_input_slots(op, desc, &rules, t, err)); /* G10, G1, G2 as compile checks the inputs */
    TRY(gather_shape(&t[0], &t[1], g->Axis, g->IndexDimensions, sizes, err));
    *n = t[0].n;
    return DMLREF_OK;
}

#define D DMLREF_GATHER_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_INDICES(D, IndicesTensor),
                                           SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, Axis), PARAM_UINT(D, IndexDimensions)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 4, DT_F32F16, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, DT_IDX4}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, DT_IDX4}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_GATHER, OP, sizeof(D), DMLREF_FEATURE_LEVEL_1_0, 0,
                                              N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class gather_class = {&schema, support, N_OF(support), gather_compile, PLAN_HOOK(gather_plan),
                              gather_output_sizes_hook};
