/*
 * GATHER_ND and GATHER_ND1 (docs/operators.md P1), one implementation:
 * GATHER_ND is GATHER_ND1 with B = 0.
 *
 *   N = DimensionCount, R = InputDimensionCount, Q = IndicesDimensionCount,
 *   B = BatchDimensionCount, T = Indices.Sizes[N-1] (components per tuple),
 *   I = Input.Sizes[N-R..N), J = Indices.Sizes[N-Q..N), M = (Q-1) + (R-B-T).
 *   Output.Sizes = {1 x (N-M)} ++ J[0..Q-1) ++ I[B+T..R)
 *
 *   for each meaningful output coordinate m = (b[0..B), j[0..Q-1-B), s[0..R-B-T)):
 *       for k < T:  t[k] = norm(indices[0.., b, j, k], I[B+k])       (index.h, per component)
 *       output[0.., m] = input[0.., b, t[0..T), s]
 */
#include "gather_nd.h"
#include "gather_fast.h"
#include "core/registry.h"

#include <inttypes.h>
#include <stdio.h>

typedef struct gather_nd_params {
    uint32_t r; /* InputDimensionCount   */
    uint32_t q; /* IndicesDimensionCount */
    uint32_t b; /* BatchDimensionCount   */
} gather_nd_params;

/* Where output coordinate o reads: indices coordinate j (its last entry, the
 * component, left 0) and input coordinate i (the T gathered entries left 0). */
static void gather_nd_map(uint32_t n, const gather_nd_params *g, uint32_t t, const uint32_t *o, uint32_t *j,
                          uint32_t *i) {
    const uint32_t m = (g->q - 1) + (g->r - g->b - t);
    const uint32_t *mo = o + (n - m); /* the meaningful part: b, j, s */
    for (uint32_t d = 0; d < n; ++d) i[d] = j[d] = 0;
    for (uint32_t k = 0; k + 1 < g->q; ++k) j[n - g->q + k] = mo[k];                   /* b and j */
    for (uint32_t k = 0; k < g->b; ++k) i[n - g->r + k] = mo[k];                       /* b       */
    for (uint32_t e = 0; e < g->r - g->b - t; ++e) i[n - g->r + g->b + t + e] = mo[g->q - 1 + e]; /* s */
}

static dmlref_status gather_nd_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    const unsigned char *in_data = IN_DATA(x, 0), *ix_data = IN_DATA(x, 1);
    unsigned char *out_data = OUT_DATA(x, 0);
    const gather_nd_params *g = OP_CPARAMS(op, gather_nd_params);
    const uint32_t n = out->n, t = ix->sizes[n - 1], first = n - g->r + g->b; /* input dim of component 0 */
    const uint64_t *bs[1] = {out->bstrides};
    uint32_t i[MAX_DIMS], j[MAX_DIMS];
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, n, out->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        gather_nd_map(n, g, t, it.coord, j, i);
        for (uint32_t c = 0; c < t; ++c) {
            int in_range;
            j[n - 1] = c;
            const index_value v = index_read(ix_data + tensor_offset(ix, j), ix->dtype);
            i[first + c] = (uint32_t)index_normalize(v, in->sizes[first + c], &in_range);
        }
        memcpy(out_data + it.offset[0], in_data + tensor_offset(in, i), in->esize);
    }
    return DMLREF_OK;
}

/* The checking option: every component of every tuple in range for its input dim (N1). */
static dmlref_status gather_nd_check(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1];
    const gather_nd_params *g = OP_CPARAMS(op, gather_nd_params);
    const uint32_t n = in->n, t = ix->sizes[n - 1], first = n - g->r + g->b;
    uint64_t bounds[MAX_DIMS] = {0};
    for (uint32_t c = 0; c < t; ++c) bounds[c] = in->sizes[first + c];
    return check_indices_in_range(op, ix, IN_DATA(x, 1), "IndicesTensor", t, bounds, first, err);
}

/* Rules GN3-GN8 (after the tensor rules, GN1 and GN2), then the output's Sizes (GN8) into
 * want: the one shape computation of compile and output_sizes. */
static dmlref_status gather_nd_shape(const char *OP, const gather_nd_desc *gd, const tensor_t *in, const tensor_t *ix,
                                     uint32_t *want, dmlref_error *err) {
    const uint32_t n = in->n, r = gd->r, q = gd->q, b = gd->b;
    if (r < 1 || r > n)                                                                         /* GN3 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "GN3", "InputDimensionCount", NULL,
                              "%s: InputDimensionCount (%" PRIu32 ") must be in [1, InputTensor.DimensionCount] = [1, %" PRIu32 "]",
                              OP, r, n);
    if (q < 1 || q > n)
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "GN3", "IndicesDimensionCount", NULL,
                              "%s: IndicesDimensionCount (%" PRIu32 ") must be in [1, IndicesTensor.DimensionCount] = [1, %" PRIu32 "]",
                              OP, q, n);
    for (uint32_t d = 0; d < n - r; ++d)                                                        /* GN4 */
        if (in->sizes[d] != 1)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "GN4", "InputTensor", "Sizes",
                                  "%s: InputTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must be 1: only the trailing "
                                  "InputDimensionCount (%" PRIu32 ") dimensions are meaningful",
                                  OP, d, in->sizes[d], r);
    for (uint32_t d = 0; d < n - q; ++d)
        if (ix->sizes[d] != 1)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "GN4", "IndicesTensor", "Sizes",
                                  "%s: IndicesTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must be 1: only the trailing "
                                  "IndicesDimensionCount (%" PRIu32 ") dimensions are meaningful",
                                  OP, d, ix->sizes[d], q);
    if (b >= r || b >= q)                                                                       /* GN5 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "GN5", "BatchDimensionCount", NULL,
                              "%s: BatchDimensionCount (%" PRIu32 ") must be < InputDimensionCount (%" PRIu32
                              ") and < IndicesDimensionCount (%" PRIu32 ")",
                              OP, b, r, q);
    const uint32_t t = ix->sizes[n - 1];
    if (t < 1 || t > r - b)                                                                     /* GN6 */
        return set_rule_error(err, DMLREF_ERROR_SIZES, "GN6", "IndicesTensor", "Sizes",
                              "%s: IndicesTensor.Sizes[%" PRIu32 "] (%" PRIu32 "), the length of an index tuple, "
                              "must be in [1, %s] = [1, %" PRIu32 "]",
                              OP, n - 1, t, gd->has_batch ? "InputDimensionCount - BatchDimensionCount" : "InputDimensionCount",
                              r - b);
    for (uint32_t k = 0; k < b; ++k)                                                            /* GN7 */
        if (ix->sizes[n - q + k] != in->sizes[n - r + k])
            return set_rule_error(err, DMLREF_ERROR_SIZES, "GN7", "IndicesTensor", "Sizes",
                                  "%s: IndicesTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must equal InputTensor.Sizes[%" PRIu32
                                  "] (%" PRIu32 "): batch dimension %" PRIu32 " of BatchDimensionCount (%" PRIu32 ")",
                                  OP, n - q + k, ix->sizes[n - q + k], n - r + k, in->sizes[n - r + k], k, b);
    const uint32_t m = (q - 1) + (r - b - t);                                                   /* GN8 */
    if (m > n)
        return set_rule_error(err, DMLREF_ERROR_SIZES, "GN8", "OutputTensor", "DimensionCount",
                              "%s: OutputTensor would need %" PRIu32 " dimensions ((IndicesDimensionCount - 1) + "
                              "(InputDimensionCount%s - IndicesTensor.Sizes[%" PRIu32 "])), "
                              "more than DimensionCount (%" PRIu32 ")",
                              OP, m, gd->has_batch ? " - BatchDimensionCount" : "", n - 1, n);
    for (uint32_t d = 0; d < n; ++d) want[d] = 1;
    for (uint32_t k = 0; k + 1 < q; ++k) want[n - m + k] = ix->sizes[n - q + k];
    for (uint32_t e = 0; e < r - b - t; ++e) want[n - m + q - 1 + e] = in->sizes[n - r + b + t + e];
    return DMLREF_OK;
}

/* GN1: Indices and Output have Input's DimensionCount, allowed at the level; GN2: Input's DataType
 * allowed, Output's equal, Indices' an index type (compile_slots, check_input_slots) */
static const slot_rules rules = {"GN1", "GN2", 0, 1};

dmlref_status gather_nd_compile(op_t *op, const void *desc, const gather_nd_desc *gd, dmlref_error *err) {
    const char *OP = op->name;
    support_t s;
    /* the tensor rules; GN1: Indices and Output have Input's DimensionCount, allowed at the
     * level; GN2: Input's DataType allowed, Output's equal, Indices' an index type */
    TRY(compile_slots(op, desc, &rules, &s, err));
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];

    uint32_t want[MAX_DIMS];
    TRY(gather_nd_shape(OP, gd, in, ix, want, err)); /* GN3-GN8 */
    TRY(check_same_sizes(OP, "GN8", "OutputTensor", out, "the gathered shape", want, err));

    *OP_PARAMS(op, gather_nd_params) = (gather_nd_params){gd->r, gd->q, gd->b};
    op->oracle = gather_nd_oracle;
    op->check = gather_nd_check;
    return DMLREF_OK;
}

dmlref_status gather_nd_plan(op_t *op, dmlref_error *err) {
#if DMLREF_ORACLE_ONLY /* no plan hooks (core/registry.h): never called, and gather_fast.c is not built */
    (void)op, (void)err;
    return DMLREF_OK;
#else
    const gather_nd_params *g = OP_CPARAMS(op, gather_nd_params);
    return plan_gather_nd(op, g->r, g->q, g->b, err);
#endif
}

dmlref_status gather_nd_output_sizes(const op_t *op, const void *desc, const gather_nd_desc *gd, uint32_t *n,
                                     uint32_t *sizes, dmlref_error *err) {
    tensor_t t[2]; /* Input, Indices */
    TRY(check_input_slots(op, desc, &rules, t, err)); /* GN1, GN2 as compile checks the inputs */
    TRY(gather_nd_shape(op->name, gd, &t[0], &t[1], sizes, err));
    *n = t[0].n;
    return DMLREF_OK;
}
