/*
 * MAX_UNPOOLING (docs/operators.md Q6): the inverse of a max pooling, a scatter of flat
 * indices into a zeroed output.
 *
 *   output = 0 (all-zero bits);
 *   for each coordinate c of Input, in row-major order:
 *       t = min(Indices[c], count - 1)           (count = Output's element count; clamped
 *                                                 by default, reported by the checking option)
 *       output.flat[t] = Input[c]                (flat: the row-major order of Output's logical
 *                                                 coordinates, mapped to memory through its
 *                                                 strides; a later c overwrites: the last wins)
 *
 *   MU1  InputTensor, IndicesTensor, OutputTensor exactly 4-D
 *   MU2  Indices.Sizes == Input.Sizes
 *   MU3  Input.DataType == Output.DataType, allowed at the level (F32/F16 at 3_0, T10 from 5_0)
 *   MU4  Indices.DataType: UINT32 at 3_0, UINT64 or UINT32 from 5_0
 * Output's Sizes are free (only its DimensionCount and DataType are checked).  With
 * DMLREF_OPTION_CHECK_INDICES, execute first reports an index out of range (N1), then two
 * inputs writing one output element (MU5), before any write.
 *
 * The fast path is max_unpooling_fast.c.
 */
#include "max_unpooling_fast.h"
#include "core/registry.h"

#include <inttypes.h>
#include <stdio.h>

#define OP "MAX_UNPOOLING"

/* T10 = T11 without FLOAT64 (from 5_0); U2 = {UINT64, UINT32} */
#define MU_T10 (DT_T11 & ~DT(FLOAT64))
#define MU_U2 (DT(UINT64) | DT(UINT32))

/* ---- the oracle ------------------------------------------------------------------ */

/* The byte offset in t of its row-major flat element f (< t->elements). */
static uint64_t flat_offset(const tensor_t *t, uint64_t f) {
    uint64_t off = 0;
    for (uint32_t d = t->n; d-- > 0;) {
        off += (f % t->sizes[d]) * t->bstrides[d];
        f /= t->sizes[d];
    }
    return off;
}

static dmlref_status max_unpooling_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    const unsigned char *src = IN_DATA(x, 0), *idx = IN_DATA(x, 1);
    unsigned char *dst = OUT_DATA(x, 0);
    static const unsigned char zero[16] = {0};
    nd_iter it;
    (void)err;
    const uint64_t *obs[1] = {out->bstrides};
    for (nd_iter_init(&it, out->n, out->sizes, 1, obs); !it.done; nd_iter_next(&it))
        memcpy(dst + it.offset[0], zero, out->esize);
    const uint64_t *bs[2] = {in->bstrides, ix->bstrides}; /* MU2: the same sizes */
    for (nd_iter_init(&it, in->n, in->sizes, 2, bs); !it.done; nd_iter_next(&it)) {
        int in_range;
        const uint64_t t = index_normalize(index_read(idx + it.offset[1], ix->dtype), out->elements, &in_range);
        memcpy(dst + flat_offset(out, t), src + it.offset[0], in->esize);
    }
    return DMLREF_OK;
}

/* ---- the checking option: N1, then MU5 ------------------------------------------- */

/* N1: the first index (row-major) at or above Output's element count. */
static DMLREF_NOINLINE dmlref_status range_check(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *ix = &op->inputs[1], *out = &op->outputs[0];
    const unsigned char *idx = IN_DATA(x, 1);
    const uint64_t *bs[1] = {ix->bstrides};
    nd_iter it;
    for (nd_iter_init(&it, ix->n, ix->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        const index_value v = index_read(idx + it.offset[0], ix->dtype);
        int ok;
        index_norm(v, out->elements, INDEX_ERROR, &ok);
        if (ok) continue;
#if !DMLREF_MESSAGES
        return set_rule_code(err, DMLREF_ERROR_INDEX_OUT_OF_RANGE, "N1", "IndicesTensor", NULL);
#else
        char pos[96], val[32];
        return set_rule_error(err, DMLREF_ERROR_INDEX_OUT_OF_RANGE, "N1", "IndicesTensor", NULL,
                              OP ": IndicesTensor%s = %s is out of range [0, %" PRIu64
                              ") for OutputTensor's element count (%" PRIu64 ")",
                              coord_str(pos, sizeof pos, it.coord, ix->n), index_str(val, sizeof val, v),
                              out->elements, out->elements);
#endif
    }
    return DMLREF_OK;
}

/* MU5: the first input (row-major) whose target an earlier one already took (a bitmap of
 * Output's elements: execute's one request), and that earlier one. */
static DMLREF_NOINLINE dmlref_status duplicate_check(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *ix = &op->inputs[1], *out = &op->outputs[0];
    const unsigned char *idx = IN_DATA(x, 1);
    unsigned char *marks = op_exec_alloc(op, "checking for duplicates", err);
    if (!marks) return DMLREF_ERROR_OUT_OF_MEMORY;
    memset(marks, 0, (size_t)op->exec_request);
    const uint64_t *bs[1] = {ix->bstrides};
    nd_iter it;
    uint32_t first[MAX_DIMS] = {0};
    uint64_t target = 0;
    int found = 0;
    for (nd_iter_init(&it, ix->n, ix->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        int ok;
        const uint64_t t = index_normalize(index_read(idx + it.offset[0], ix->dtype), out->elements, &ok);
        const unsigned char bit = (unsigned char)(1u << (t & 7));
        if (marks[t >> 3] & bit) {
            memcpy(first, it.coord, sizeof first);
            target = t;
            found = 1;
            break;
        }
        marks[t >> 3] |= bit;
    }
    mem_free(&op->alloc, marks);
    if (!found) return DMLREF_OK;
#if !DMLREF_MESSAGES
    (void)target;
    return set_rule_code(err, DMLREF_ERROR_DUPLICATE_INDEX, "MU5", "IndicesTensor", NULL);
#else
    uint32_t earlier[MAX_DIMS] = {0}; /* the first input with the same target */
    for (nd_iter_init(&it, ix->n, ix->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        int ok;
        if (index_normalize(index_read(idx + it.offset[0], ix->dtype), out->elements, &ok) == target) {
            memcpy(earlier, it.coord, sizeof earlier);
            break;
        }
    }
    char b1[96], b2[96];
    return set_rule_error(err, DMLREF_ERROR_DUPLICATE_INDEX, "MU5", "IndicesTensor", NULL,
                          OP ": IndicesTensor%s repeats the target of IndicesTensor%s (both write OutputTensor's "
                          "flat element %" PRIu64 "); two inputs writing one output element are invalid (MU5)",
                          coord_str(b1, sizeof b1, first, ix->n), coord_str(b2, sizeof b2, earlier, ix->n), target);
#endif
}

static dmlref_status max_unpooling_check(const op_t *op, const exec_args *x, dmlref_error *err) {
    TRY(range_check(op, x, err));
    return duplicate_check(op, x, err);
}

/* ---- validation -------------------------------------------------------------------- */

static dmlref_status max_unpooling_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_MAX_UNPOOLING_OPERATOR_DESC *g = desc;
    TRY(op_alloc_tensors(op, 2, 1, err));
    tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(OP, "InputTensor", g->InputTensor, NULL, in, err));
    TRY(tensor_check(OP, "IndicesTensor", g->IndicesTensor, NULL, ix, err));
    TRY(tensor_check(OP, "OutputTensor", g->OutputTensor, op, out, err));
    TRY(check_support(OP, "MU1", "MU3", "InputTensor", in, &s, 0, op->feature_level, err));       /* MU1, MU3 */
    TRY(check_same_dims(OP, "MU1", "IndicesTensor", ix, "InputTensor", in, err));                /* MU1 */
    TRY(check_same_dims(OP, "MU1", "OutputTensor", out, "InputTensor", in, err));                /* MU1 */
    TRY(check_same_type(OP, "MU3", "OutputTensor", out, "InputTensor", in, err));                /* MU3 */
    TRY(check_support(OP, "MU1", "MU4", "IndicesTensor", ix, &s, 1, op->feature_level, err));     /* MU4 */
    TRY(check_same_sizes(OP, "MU2", "IndicesTensor", ix, "InputTensor.Sizes", in->sizes, err));   /* MU2 */

    op->oracle = max_unpooling_oracle;
    op->check = max_unpooling_check;
    /* execute's one request: duplicate_check's bitmap of Output's elements */
    if (op->options.flags & DMLREF_OPTION_CHECK_INDICES) op->exec_request = (out->elements + 7) / 8;
    return DMLREF_OK;
}

/* ---- the class ---------------------------------------------------------------------- */

/* Output's Sizes are free (the unpooled shape is the caller's): read from OutputTensor
 * (shape_given), after the input's rules (MU1, MU3) and its 4 dimensions. */
static dmlref_status max_unpooling_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                uint32_t *sizes, dmlref_error *err) {
    const DMLREF_MAX_UNPOOLING_OPERATOR_DESC *d = desc;
    tensor_t in;
    uint32_t gn;
    (void)output;
    TRY(shape_input(op, "InputTensor", d->InputTensor, 0, "MU1", "MU3", &in, err)); /* MU1, MU3 */
    TRY(shape_given(op, "OutputTensor", d->OutputTensor, "the unpooled shape", &gn, sizes, err));
    if (gn != in.n)                                                                  /* MU1 */
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "MU1", "OutputTensor", "DimensionCount",
                              OP ": OutputTensor.DimensionCount (%" PRIu32 ") must equal InputTensor.DimensionCount (%" PRIu32
                              ")",
                              gn, in.n);
    *n = gn;
    return DMLREF_OK;
}

#define D DMLREF_MAX_UNPOOLING_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_INDICES(D, IndicesTensor),
                                           SLOT_OUT(D, OutputTensor)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_3_0, {4, 4, DT_F32F16, DT_IDXU32}}, /* the page (the header's 0x2000 block: Q0.1) */
    {DMLREF_FEATURE_LEVEL_5_0, {4, 4, MU_T10, MU_U2}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_MAX_UNPOOLING, OP, sizeof(D), DMLREF_FEATURE_LEVEL_3_0, 0,
                                     N_OF(slots), slots, 0, NULL};
#undef D

const op_class max_unpooling_class = {&schema, support, N_OF(support), max_unpooling_compile,
                                      PLAN_HOOK(plan_max_unpooling), max_unpooling_output_sizes};
