/*
 * TILE (docs/operators.md, P4).  Output[o] = Input[o mod Input.Sizes], per
 * dimension: the input repeated Repeats[i] times along every dimension i.
 *
 *   TI1  RepeatsCount == Input.DimensionCount (Repeats not NULL); Output has
 *        the same DimensionCount, allowed at the feature level
 *   TI2  every Repeats[i] > 0
 *   TI3  Output.Sizes[i] == Input.Sizes[i] * Repeats[i] (a 64-bit product:
 *        one above 2^32 - 1 matches no size, it is never wrapped)
 *   TI4  Input.DataType == Output.DataType, in the feature level's set (4_1
 *        on: T10, the 64-bit integers but not FLOAT64)
 *
 * The fast path (tile.block, tile.x*, tile.doubling) is tile_fast.c.
 */
#include "tile_fast.h"
#include "core/registry.h"

#include <inttypes.h>

#define OP "TILE"

/* T10 = T11 without FLOAT64 (docs/operators.md P0.3: the 4_1 table has no FLOAT64). */
#define DT_T10 (DT_T11 & ~DT(FLOAT64))

typedef struct tile_params {
    uint32_t repeats[MAX_DIMS]; /* Repeats[0 .. DimensionCount) */
} tile_params;

/* For every output coordinate o: out[o] = in[o mod Input.Sizes]. */
static dmlref_status tile_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[1] = {out->bstrides};
    uint32_t ic[MAX_DIMS];
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        for (uint32_t d = 0; d < out->n; ++d) ic[d] = it.coord[d] % in->sizes[d];
        memcpy(dst + it.offset[0], src + tensor_offset(in, ic), out->esize);
    }
    return DMLREF_OK;
}

/* Rules TI1 (RepeatsCount, Repeats) and TI2 for an n-dimensional input; the output is then
 * Input.Sizes[i] * Repeats[i] (TI3).  Shared by compile and output_sizes. */
static dmlref_status tile_repeats_rules(const DMLREF_TILE_OPERATOR_DESC *d, uint32_t n, dmlref_error *err) {
    if (d->RepeatsCount != n)                                                              /* TI1 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "TI1", "RepeatsCount", NULL,
                              OP ": RepeatsCount (%" PRIu32 ") must equal InputTensor.DimensionCount (%" PRIu32 ")",
                              d->RepeatsCount, n);
    if (!d->Repeats)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "TI1", "Repeats", NULL,
                              OP ": Repeats is NULL (RepeatsCount is %" PRIu32 ")", d->RepeatsCount);
    for (uint32_t i = 0; i < n; ++i)                                                       /* TI2 */
        if (d->Repeats[i] == 0)
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "TI2", "Repeats", NULL,
                                  OP ": Repeats[%" PRIu32 "] is 0; every repeat must be greater than 0", i);
    return DMLREF_OK;
}

static dmlref_status tile_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_TILE_OPERATOR_DESC *d = desc;
    static const slot_rules rules = {"TI1", "TI4", 0, 0};
    support_t s;
    /* the tensor rules; TI1: Output has Input's DimensionCount, allowed at the level; TI4:
     * Input's DataType allowed, Output's equal */
    TRY(compile_slots(op, desc, &rules, &s, err));
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];

    const uint32_t n = in->n;
    TRY(tile_repeats_rules(d, n, err)); /* TI1, TI2 */
    for (uint32_t i = 0; i < n; ++i) {                                                     /* TI3 */
        const uint64_t want = (uint64_t)in->sizes[i] * d->Repeats[i]; /* < 2^64: no overflow */
        if (want > UINT32_MAX)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "TI3", "OutputTensor", "Sizes",
                                  OP ": OutputTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must equal InputTensor.Sizes[%" PRIu32
                                  "] * Repeats[%" PRIu32 "] = %" PRIu32 " * %" PRIu32 " = %" PRIu64
                                  ", which is above 2^32 - 1: no tensor size can hold it",
                                  i, out->sizes[i], i, i, in->sizes[i], d->Repeats[i], want);
        if (out->sizes[i] != want)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "TI3", "OutputTensor", "Sizes",
                                  OP ": OutputTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must equal InputTensor.Sizes[%" PRIu32
                                  "] * Repeats[%" PRIu32 "] = %" PRIu32 " * %" PRIu32 " = %" PRIu64,
                                  i, out->sizes[i], i, i, in->sizes[i], d->Repeats[i], want);
    }

    tile_params *p = OP_PARAMS(op, tile_params);
    for (uint32_t i = 0; i < n; ++i) p->repeats[i] = d->Repeats[i];
    op->oracle = tile_oracle;
    return DMLREF_OK;
}

/* ---- the class ------------------------------------------------------------- */

/* The fast path (tile_fast.c). */
static dmlref_status tile_plan_hook(op_t *op, dmlref_error *err) {
    return plan_tile(op, OP_CPARAMS(op, tile_params)->repeats, err);
}

/* ---- the class ------------------------------------------------------------- */

static dmlref_status tile_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n, uint32_t *sizes,
                                       dmlref_error *err) {
    const DMLREF_TILE_OPERATOR_DESC *d = desc;
    tensor_t in;
    uint64_t want[MAX_DIMS];
    (void)output;
    TRY(shape_input(op, "InputTensor", d->InputTensor, 0, "TI1", "TI4", &in, err)); /* TI1, TI4 */
    TRY(tile_repeats_rules(d, in.n, err));                                         /* TI1, TI2 */
    for (uint32_t i = 0; i < in.n; ++i) want[i] = (uint64_t)in.sizes[i] * d->Repeats[i]; /* TI3 */
    TRY(shape_fit(op, "TI3", "OutputTensor", in.n, want, sizes, err));
    *n = in.n;
    return DMLREF_OK;
}

#define D DMLREF_TILE_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_COUNT(D, RepeatsCount), PARAM_UINT_ARRAY(D, Repeats, RepeatsCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 4, DT_F32F16, 0}},
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_3_1, {1, 8, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T10, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_TILE, OP, sizeof(D), DMLREF_FEATURE_LEVEL_1_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class tile_class = {&schema, support, N_OF(support), tile_compile, PLAN_HOOK(tile_plan_hook), tile_output_sizes};
