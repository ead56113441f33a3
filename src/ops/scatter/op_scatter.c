/*
 * SCATTER = SCATTER_ELEMENTS (docs/operators.md P2), the inverse of GATHER_ELEMENTS.
 *
 *   output = input;
 *   for each coordinate c of Indices, in row-major order:
 *       oc = c;  oc[Axis] = norm(indices[c], Input.Sizes[Axis]);    (1.8: clamped by default)
 *       output[oc] = updates[c];                                    (a later c overwrites: the last wins)
 *
 * Rules SC1-SC7 at compile; with DMLREF_OPTION_CHECK_INDICES, execute first
 * reports an index out of range (N1) or a repeated target (SC8) before any write.
 *
 * The fast path is scatter_fast.c.
 */
#include "scatter_fast.h"
#include "core/registry.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define OP "SCATTER"

typedef struct scatter_params {
    uint32_t axis; /* Axis */
} scatter_params;

/* ---- the oracle ------------------------------------------------------------- */

static dmlref_status scatter_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *up = &op->inputs[2], *out = &op->outputs[0];
    const unsigned char *in_data = IN_DATA(x, 0), *ix_data = IN_DATA(x, 1), *up_data = IN_DATA(x, 2);
    unsigned char *out_data = OUT_DATA(x, 0);
    const uint32_t a = OP_CPARAMS(op, scatter_params)->axis;
    uint32_t oc[MAX_DIMS];
    nd_iter it;
    (void)err;

    const uint64_t *copy_bs[2] = {out->bstrides, in->bstrides}; /* output = input */
    for (nd_iter_init(&it, out->n, out->sizes, 2, copy_bs); !it.done; nd_iter_next(&it))
        memcpy(out_data + it.offset[0], in_data + it.offset[1], in->esize);

    const uint64_t *up_bs[2] = {ix->bstrides, up->bstrides}; /* Indices.Sizes == Updates.Sizes (SC5) */
    for (nd_iter_init(&it, ix->n, ix->sizes, 2, up_bs); !it.done; nd_iter_next(&it)) {
        int in_range;
        memcpy(oc, it.coord, sizeof oc);
        const index_value v = index_read(ix_data + it.offset[0], ix->dtype);
        oc[a] = (uint32_t)index_normalize(v, in->sizes[a], &in_range);
        memcpy(out_data + tensor_offset(out, oc), up_data + it.offset[1], in->esize);
    }
    return DMLREF_OK;
}

/* ---- the checking option: N1, then SC8 ------------------------------------------ */

/* One update of a line: its normalized target along Axis and its k. */
typedef struct line_entry {
    uint64_t v;
    uint32_t k;
} line_entry;

static int cmp_entry(const void *pa, const void *pb) {
    const line_entry *a = pa, *b = pb;
    if (a->v != b->v) return a->v < b->v ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

/* 1 when coordinate a comes before b in row-major order. */
static int coord_before(const uint32_t *a, const uint32_t *b, uint32_t n) {
    for (uint32_t d = 0; d < n; ++d)
        if (a[d] != b[d]) return a[d] < b[d];
    return 0;
}

/* Out of range first (N1, the shared pre-pass), then duplicates (SC8): two
 * updates of one line whose indices normalize to the same target.  Each line
 * (all of Indices' coordinates but Axis) is sorted on its own (K entries of
 * scratch, allocated here: the checking option's one allocation); the error
 * names the first update in row-major order whose target an earlier one
 * already took, and that earlier one.  The range check, the duplicates' walk and the
 * message are functions of their own (not inlined), so that no two of their frames
 * are on the stack together. */
/* *found = 1 and the first duplicate's coordinate (first) and the earlier update's
 * index along Axis (*earlier_k) when there is one. */
static DMLREF_NOINLINE dmlref_status scatter_duplicates(const op_t *op, const exec_args *x, int *found_out,
                                                        uint32_t *first_out, uint32_t *earlier_out, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1];
    const uint32_t a = OP_CPARAMS(op, scatter_params)->axis, n = ix->n, K = ix->sizes[a];
    const unsigned char *ix_data = IN_DATA(x, 1);
    *found_out = 0;
    if (K < 2) return DMLREF_OK;
    line_entry *e = op_exec_alloc(op, "checking for duplicates", err); /* K entries: scatter_compile */
    if (!e) return DMLREF_ERROR_OUT_OF_MEMORY;

    uint32_t lines[MAX_DIMS], first[MAX_DIMS] = {0}, earlier_k = 0;
    int found = 0;
    memcpy(lines, ix->sizes, sizeof lines);
    lines[a] = 1;
    const uint64_t *bs[1] = {ix->bstrides};
    const uint64_t ks = ix->bstrides[a];
    nd_iter it;
    for (nd_iter_init(&it, n, lines, 1, bs); !it.done; nd_iter_next(&it)) {
        for (uint32_t k = 0; k < K; ++k) {
            int in_range;
            const index_value v = index_read(ix_data + it.offset[0] + k * ks, ix->dtype);
            e[k].v = index_normalize(v, in->sizes[a], &in_range); /* in range: N1 passed */
            e[k].k = k;
        }
        sort_items(e, K, sizeof *e, cmp_entry);
        /* the second entry of each group of equal targets repeats the first */
        uint32_t best = UINT32_MAX, prev = 0;
        for (uint32_t j = 1; j < K; ++j)
            if (e[j].v == e[j - 1].v && (j < 2 || e[j - 2].v != e[j].v) && e[j].k < best) {
                best = e[j].k;
                prev = e[j - 1].k;
            }
        if (best == UINT32_MAX) continue;
        uint32_t c[MAX_DIMS];
        memcpy(c, it.coord, sizeof c);
        c[a] = best;
        if (!found || coord_before(c, first, n)) {
            memcpy(first, c, sizeof first);
            earlier_k = prev;
            found = 1;
        }
    }
    mem_free(&op->alloc, e);
    *found_out = found;
    memcpy(first_out, first, sizeof first);
    *earlier_out = earlier_k;
    return DMLREF_OK;
}

/* SC8: the update at first repeats the target of the one at Axis index earlier_k. */
static DMLREF_NOINLINE dmlref_status duplicate_error(const op_t *op, const exec_args *x, const uint32_t *first,
                                                     uint32_t earlier_k, dmlref_error *err) {
#if !DMLREF_MESSAGES /* no message: the coordinates it would name are not formatted */
    (void)op;
    (void)x;
    (void)first;
    (void)earlier_k;
    return set_rule_code(err, DMLREF_ERROR_DUPLICATE_INDEX, "SC8", "IndicesTensor", NULL);
#else
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1];
    const uint32_t a = OP_CPARAMS(op, scatter_params)->axis, n = ix->n;
    const unsigned char *ix_data = IN_DATA(x, 1);
    char b1[96], b2[96], b3[96];
    uint32_t c[MAX_DIMS];
    coord_str(b1, sizeof b1, first, n);
    memcpy(c, first, sizeof c);
    c[a] = earlier_k;
    coord_str(b2, sizeof b2, c, n);
    int in_range;
    c[a] = (uint32_t)index_normalize(index_read(ix_data + tensor_offset(ix, c), ix->dtype), in->sizes[a], &in_range);
    coord_str(b3, sizeof b3, c, n);
    return set_rule_error(err, DMLREF_ERROR_DUPLICATE_INDEX, "SC8", "IndicesTensor", NULL,
                          OP ": IndicesTensor%s repeats the target of IndicesTensor%s (both write OutputTensor%s); "
                          "two updates writing one output element are invalid",
                          b1, b2, b3);
#endif
}

static dmlref_status scatter_check(const op_t *op, const exec_args *x, dmlref_error *err) {
    uint32_t first[MAX_DIMS], earlier_k = 0;
    int found = 0;
    TRY(check_indices_along_axis(op, OP_CPARAMS(op, scatter_params)->axis, x, err));
    TRY(scatter_duplicates(op, x, &found, first, &earlier_k, err));
    return found ? duplicate_error(op, x, first, earlier_k, err) : DMLREF_OK;
}

/* ---- validation ---------------------------------------------------------------- */

static dmlref_status scatter_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_SCATTER_OPERATOR_DESC *g = desc;
    static const slot_rules rules = {"SC1", "SC2", 0, 1};
    support_t s; /* SC7: the registry refuses levels before 2_0 */
    /* the tensor rules; SC1: Indices, Updates and Output have Input's DimensionCount, allowed at
     * the level; SC2: Input's DataType allowed, Updates' and Output's equal, Indices' an index type */
    TRY(compile_slots(op, desc, &rules, &s, err));
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *up = &op->inputs[2], *out = &op->outputs[0];
    TRY(check_same_sizes(OP, "SC3", "OutputTensor", out, "InputTensor.Sizes", in->sizes, err)); /* SC3 */

    const uint32_t n = in->n, a = g->Axis;
    if (a >= n)                                                                           /* SC6 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "SC6", "Axis", NULL,
                              OP ": Axis (%" PRIu32 ") must be in [0, OutputTensor.DimensionCount) = [0, %" PRIu32 ")",
                              a, n);
    TRY(check_sizes_but_axis(OP, "SC4", "IndicesTensor", ix, "InputTensor", in, a, err)); /* SC4 */
    TRY(check_same_sizes(OP, "SC5", "UpdatesTensor", up, "IndicesTensor.Sizes", ix->sizes, err)); /* SC5 */

    OP_PARAMS(op, scatter_params)->axis = a;
    op->oracle = scatter_oracle;
    op->check = scatter_check;
    /* execute's one request: scatter_check's K entries (< 2^37 bytes: no overflow) */
    if ((op->options.flags & DMLREF_OPTION_CHECK_INDICES) && ix->sizes[a] >= 2)
        op->exec_request = (uint64_t)ix->sizes[a] * sizeof(line_entry);
    return DMLREF_OK;
}

/* ---- the class ---------------------------------------------------------------------- */

/* The fast path (scatter_fast.c). */
static dmlref_status scatter_plan_hook(op_t *op, dmlref_error *err) {
    return plan_scatter(op, OP_CPARAMS(op, scatter_params)->axis, err);
}

static dmlref_status scatter_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                          uint32_t *sizes, dmlref_error *err) {
    const DMLREF_SCATTER_OPERATOR_DESC *d = desc; /* SC3: Output.Sizes == Input.Sizes */
    (void)output;
    return shape_of_input(op, "InputTensor", d->InputTensor, "SC1", "SC2", n, sizes, err);
}

#define D DMLREF_SCATTER_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_INDICES(D, IndicesTensor),
                                           SLOT_IN(D, UpdatesTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, Axis)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_0, {4, 4, DT_F32F16, DT_IDXU32}}, /* the page's "1_0" table, from 2_0 (SC7) */
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, DT_IDX4}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, DT_IDX4}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_SCATTER, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class scatter_class = {&schema, support, N_OF(support), scatter_compile, PLAN_HOOK(scatter_plan_hook), scatter_output_sizes};
