/*
 * SCATTER_ND (docs/operators.md section 4).
 *   N = DimensionCount, R = InputDimensionCount, Q = IndicesDimensionCount,
 *   T = Indices.Sizes[N-1], I = Input.Sizes[N-R..N), J = Indices.Sizes[N-Q..N),
 *   M = (Q-1) + (R-T),  Updates.Sizes = {1.., J[0..Q-1), I[T..R)}.
 *
 *   output = input;
 *   for each u of Updates, in row-major order:      (so the last duplicate wins)
 *       jb = u[..Q-1), s = u[Q-1..M)
 *       output[0.., norm(indices[0.., jb, 0..T)), s] = updates[u]
 */
#include "scatter_nd_fast.h"
#include "core/registry.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define OP "SCATTER_ND"

typedef struct scatter_nd_params {
    uint32_t r; /* InputDimensionCount   */
    uint32_t q; /* IndicesDimensionCount */
} scatter_nd_params;

/* Maps the meaningful updates coordinate to indices coordinate j (last dim left 0)
 * and output coordinate o (index part left 0). */
static void scatter_map(const op_t *op, const uint32_t *u, uint32_t *j, uint32_t *o) {
    const scatter_nd_params *sp = OP_CPARAMS(op, scatter_nd_params);
    const uint32_t n = op->inputs[0].n, r = sp->r, q = sp->q;
    const uint32_t t = op->inputs[1].sizes[n - 1], m = (q - 1) + (r - t);
    const uint32_t *mu = u + (n - m); /* meaningful part of u: jb then s */
    for (uint32_t d = 0; d < n; ++d) j[d] = o[d] = 0;
    for (uint32_t b = 0; b + 1 < q; ++b) j[n - q + b] = mu[b];
    for (uint32_t e = 0; e < r - t; ++e) o[n - r + t + e] = mu[q - 1 + e];
}

static dmlref_status scatter_nd_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *up = &op->inputs[2];
    const tensor_t *out = &op->outputs[0];
    const unsigned char *in_data = IN_DATA(x, 0), *ix_data = IN_DATA(x, 1), *up_data = IN_DATA(x, 2);
    unsigned char *out_data = OUT_DATA(x, 0);
    const uint32_t n = in->n, r = OP_CPARAMS(op, scatter_nd_params)->r, t = ix->sizes[n - 1];
    uint32_t j[MAX_DIMS], o[MAX_DIMS];
    nd_iter it;
    (void)err;

    const uint64_t *copy_bs[2] = {out->bstrides, in->bstrides};
    for (nd_iter_init(&it, n, out->sizes, 2, copy_bs); !it.done; nd_iter_next(&it))
        memcpy(out_data + it.offset[0], in_data + it.offset[1], in->esize);

    const uint64_t *up_bs[1] = {up->bstrides};
    for (nd_iter_init(&it, n, up->sizes, 1, up_bs); !it.done; nd_iter_next(&it)) {
        scatter_map(op, it.coord, j, o);
        for (uint32_t c = 0; c < t; ++c) {
            int in_range;
            j[n - 1] = c;
            const index_value v = index_read(ix_data + tensor_offset(ix, j), ix->dtype);
            o[n - r + c] = (uint32_t)index_normalize(v, in->sizes[n - r + c], &in_range);
        }
        memcpy(out_data + tensor_offset(out, o), up_data + it.offset[0], in->esize);
    }
    return DMLREF_OK;
}

/* One index tuple: its target (flattened over I[0..T)) and its row-major position. */
typedef struct tuple_target {
    uint64_t flat, pos;
} tuple_target;

static int cmp_target(const void *pa, const void *pb) {
    const tuple_target *a = pa, *b = pb;
    if (a->flat != b->flat) return a->flat < b->flat ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Position number p of the tuple grid J[0..Q-1) back to an indices coordinate. */
static void tuple_coord(const tensor_t *ix, uint32_t q, uint64_t p, uint32_t *j) {
    const uint32_t n = ix->n;
    for (uint32_t d = 0; d < n; ++d) j[d] = 0;
    for (uint32_t d = n - 1; d-- > n - q;) {
        j[d] = (uint32_t)(p % ix->sizes[d]);
        p /= ix->sizes[d];
    }
}

/* Duplicates: two tuples normalizing to the same target write the same
 * output elements.  Sort (target, position) pairs; report the earliest
 * update (in row-major order) whose target an earlier one already took.
 * Not inlined: its frame and the range check's are never on the stack together. */
static DMLREF_NOINLINE dmlref_status scatter_nd_duplicates(const op_t *op, const exec_args *x, const uint64_t *bounds,
                                                           dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1];
    const unsigned char *ix_data = IN_DATA(x, 1);
    const scatter_nd_params *sp = OP_CPARAMS(op, scatter_nd_params);
    const uint32_t n = in->n, q = sp->q, t = ix->sizes[n - 1];
    const uint64_t count = ix->elements / t;
    tuple_target *tt = op_exec_alloc(op, "checking for duplicates", err); /* count entries: scatter_nd_compile */
    if (!tt) return DMLREF_ERROR_OUT_OF_MEMORY;
    uint32_t j[MAX_DIMS];
    for (uint64_t p = 0; p < count; ++p) {
        uint64_t flat = 0;
        tuple_coord(ix, q, p, j);
        for (uint32_t c = 0; c < t; ++c) {
            int in_range;
            j[n - 1] = c;
            const index_value v = index_read(ix_data + tensor_offset(ix, j), ix->dtype);
            flat = flat * bounds[c] + index_normalize(v, bounds[c], &in_range);
        }
        tt[p].flat = flat;
        tt[p].pos = p;
    }
    sort_items(tt, (size_t)count, sizeof *tt, cmp_target);
    uint64_t first = UINT64_MAX, earlier = 0;
    for (uint64_t p = 1; p < count; ++p)
        if (tt[p].flat == tt[p - 1].flat && (p < 2 || tt[p - 2].flat != tt[p].flat) && tt[p].pos < first) {
            first = tt[p].pos;
            earlier = tt[p - 1].pos;
        }
    mem_free(&op->alloc, tt);
    if (first == UINT64_MAX) return DMLREF_OK;
#if !DMLREF_MESSAGES /* no message: the tuples it would name are not formatted */
    (void)earlier;
    return set_rule_code(err, DMLREF_ERROR_DUPLICATE_INDEX, "S9", "IndicesTensor", NULL);
#else
    char a[96], b[96];
    tuple_coord(ix, q, earlier, j);
    coord_str(a, sizeof a, j, n - 1);
    tuple_coord(ix, q, first, j);
    coord_str(b, sizeof b, j, n - 1);
    return set_rule_error(err, DMLREF_ERROR_DUPLICATE_INDEX, "S9", "IndicesTensor", NULL,
                     OP ": IndicesTensor%s repeats the target of IndicesTensor%s; "
                     "two updates writing one output element are invalid",
                     b, a);
#endif
}

static dmlref_status scatter_nd_check(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1];
    const scatter_nd_params *sp = OP_CPARAMS(op, scatter_nd_params);
    const uint32_t n = in->n, r = sp->r, t = ix->sizes[n - 1];
    uint64_t bounds[MAX_DIMS] = {0};
    for (uint32_t c = 0; c < t; ++c) bounds[c] = in->sizes[n - r + c];
    TRY(check_indices_in_range(op, ix, IN_DATA(x, 1), "IndicesTensor", t, bounds, n - r, err));
    return scatter_nd_duplicates(op, x, bounds, err);
}

static dmlref_status scatter_nd_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_SCATTER_ND_OPERATOR_DESC *g = desc;
    static const slot_rules rules = {"S1", "S2", 0, 1};
    support_t s;
    /* the tensor rules; S1: Indices, Updates and Output have Input's DimensionCount, allowed at
     * the level; S2: Input's DataType allowed, Updates' and Output's equal, Indices' an index type */
    TRY(compile_slots(op, desc, &rules, &s, err));
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *up = &op->inputs[2], *out = &op->outputs[0];
    TRY(check_same_sizes(OP, "S3", "OutputTensor", out, "InputTensor.Sizes", in->sizes, err));  /* S3 */

    const uint32_t n = in->n, r = g->InputDimensionCount, q = g->IndicesDimensionCount;
    if (r < 1 || r > n)                                                                   /* S4 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "S4", "InputDimensionCount", NULL,
                         OP ": InputDimensionCount (%" PRIu32 ") must be in [1, InputTensor.DimensionCount] = [1, %" PRIu32 "]",
                         r, n);
    if (q < 1 || q > n)                                                                   /* S5 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "S5", "IndicesDimensionCount", NULL,
                         OP ": IndicesDimensionCount (%" PRIu32 ") must be in [1, IndicesTensor.DimensionCount] = [1, %" PRIu32 "]",
                         q, n);
    for (uint32_t d = 0; d < n - r; ++d)                                                  /* S6 */
        if (in->sizes[d] != 1)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "S6", "InputTensor", "Sizes",
                             OP ": InputTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must be 1: only the trailing "
                             "InputDimensionCount (%" PRIu32 ") dimensions are meaningful",
                             d, in->sizes[d], r);
    for (uint32_t d = 0; d < n - q; ++d)
        if (ix->sizes[d] != 1)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "S6", "IndicesTensor", "Sizes",
                             OP ": IndicesTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must be 1: only the trailing "
                             "IndicesDimensionCount (%" PRIu32 ") dimensions are meaningful",
                             d, ix->sizes[d], q);
    const uint32_t t = ix->sizes[n - 1];
    if (t > r)                                                                            /* S7 */
        return set_rule_error(err, DMLREF_ERROR_SIZES, "S7", "IndicesTensor", "Sizes",
                         OP ": IndicesTensor.Sizes[%" PRIu32 "] (%" PRIu32 "), the length of an index tuple, "
                         "must be <= InputDimensionCount (%" PRIu32 ")",
                         n - 1, t, r);
    const uint32_t m = (q - 1) + (r - t);
    if (m > n)                                                                            /* S8 */
        return set_rule_error(err, DMLREF_ERROR_SIZES, "S8", "UpdatesTensor", "DimensionCount",
                         OP ": UpdatesTensor would need %" PRIu32 " dimensions ((IndicesDimensionCount - 1) + "
                         "(InputDimensionCount - IndicesTensor.Sizes[%" PRIu32 "])), more than DimensionCount (%" PRIu32 ")",
                         m, n - 1, n);
    uint32_t want[MAX_DIMS];
    for (uint32_t d = 0; d < n; ++d) want[d] = 1;
    for (uint32_t b = 0; b + 1 < q; ++b) want[n - m + b] = ix->sizes[n - q + b];
    for (uint32_t e = 0; e < r - t; ++e) want[n - m + q - 1 + e] = in->sizes[n - r + t + e];
    TRY(check_same_sizes(OP, "S8", "UpdatesTensor", up, "the scattered slice shape", want, err));

    *OP_PARAMS(op, scatter_nd_params) = (scatter_nd_params){r, q};
    op->oracle = scatter_nd_oracle;
    op->check = scatter_nd_check;
    /* execute's one request: scatter_nd_check's array, one entry per index tuple (< 2^37 bytes) */
    if (op->options.flags & DMLREF_OPTION_CHECK_INDICES)
        op->exec_request = ix->elements / t * sizeof(tuple_target);
    return DMLREF_OK;
}

static dmlref_status scatter_nd_plan(op_t *op, dmlref_error *err) {
    const scatter_nd_params *sp = OP_CPARAMS(op, scatter_nd_params);
    return plan_scatter_nd(op, sp->r, sp->q, err);
}

static dmlref_status scatter_nd_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                             uint32_t *sizes, dmlref_error *err) {
    const DMLREF_SCATTER_ND_OPERATOR_DESC *d = desc; /* S3: Output.Sizes == Input.Sizes */
    (void)output;
    return shape_of_input(op, "InputTensor", d->InputTensor, "S1", "S2", n, sizes, err);
}

#define D DMLREF_SCATTER_ND_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_INDICES(D, IndicesTensor),
                                           SLOT_IN(D, UpdatesTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, InputDimensionCount), PARAM_UINT(D, IndicesDimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, DT_IDX4}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, DT_IDX4}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_SCATTER_ND, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_1, 0,
                                              N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class scatter_nd_class = {&schema, support, N_OF(support), scatter_nd_compile, PLAN_HOOK(scatter_nd_plan), scatter_nd_output_sizes};
