/*
 * PADDING and PADDING1 (docs/operators.md P5): the rules both obey and the
 * oracle (padding.h); the fast path is padding_fast.c.
 *
 *   PD1  DimensionCount == Input.DimensionCount == Output.DimensionCount (allowed
 *        at the level); StartPadding and EndPadding hold DimensionCount entries
 *   PD2  Input.DataType == Output.DataType (allowed at the level)
 *   PD3  Output.Sizes[d] == Input.Sizes[d] + StartPadding[d] + EndPadding[d] (64-bit)
 *   PD4  PaddingMode: CONSTANT, EDGE, REFLECTION; SYMMETRIC from 3_0; WRAP from 6_4
 *   PD5  (PADDING1, op_padding1.c) PaddingValueDataType == Output.DataType
 *   PD6  padding larger than the input is valid in every mode (periodic folding)
 */
#include "padding.h"

#include "core/registry.h"

#include <inttypes.h>
#include <string.h>

#if DMLREF_MESSAGES
static const char *const mode_names[] = {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"};
#else /* named only in a message's arguments, which are then never evaluated */
#define mode_names ((const char *const *)NULL)
#endif

/* i mod p in [0, p) for i in (-2^32, 2^32) (padding.h) and 0 < p < 2^34, with 32-bit
 * division only: |i| < 2^32, and it is divided only when p <= |i|, so that both fit
 * 32 bits; when p > |i| the remainder of |i| is |i| itself.  (A 32-bit target then
 * links no signed 64-bit division: __aeabi_ldivmod, 160 bytes on a Cortex-M.) */
static int64_t mod_nonneg(int64_t i, int64_t p) {
    const uint64_t a = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i, up = (uint64_t)p;
    const uint64_t r = a < up ? a : (uint32_t)a % (uint32_t)up;
    return (int64_t)(i < 0 && r != 0 ? up - r : r);
}

int64_t padding_source_index(uint32_t mode, int64_t i, uint32_t n) {
    const int64_t nn = n;
    int64_t p; /* the mode's period */
    if (i >= 0 && i < nn) return i;
    switch (mode) {
    case DMLREF_PADDING_MODE_EDGE: return i < 0 ? 0 : nn - 1;
    case DMLREF_PADDING_MODE_REFLECTION: /* the edge element is not repeated */
        if (nn == 1) return 0;
        p = 2 * (nn - 1);
        break;
    case DMLREF_PADDING_MODE_SYMMETRIC: p = 2 * nn; break; /* the edge element is repeated */
    case DMLREF_PADDING_MODE_WRAP: p = nn; break;
    default: return -1; /* CONSTANT */
    }
    /* one remainder for the three periodic modes: m in [0, p); WRAP's is < nn */
    const int64_t m = mod_nonneg(i, p);
    if (m < nn) return m;
    return mode == DMLREF_PADDING_MODE_REFLECTION ? p - m : p - 1 - m;
}

/* ---- the oracle ------------------------------------------------------------ */

/* Output[o] = Input[src] with src[d] = padding_source_index(o[d] - start[d]),
 * or the fill element when a dimension reads outside (CONSTANT). */
static dmlref_status padding_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const padding_params *p = OP_CPARAMS(op, padding_params);
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[1] = {out->bstrides};
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        uint64_t at = 0;
        int outside = 0;
        for (uint32_t d = 0; d < out->n && !outside; ++d) {
            const int64_t k = padding_source_index(p->mode, (int64_t)it.coord[d] - (int64_t)p->start[d], in->sizes[d]);
            if (k < 0) outside = 1;
            else at += (uint64_t)k * in->bstrides[d];
        }
        memcpy(dst + it.offset[0], outside ? p->fill : src + at, out->esize);
    }
    return DMLREF_OK;
}

/* ---- validation ------------------------------------------------------------ */

/* PD4: PaddingMode is a DML_PADDING_MODE defined at the feature level. */
static dmlref_status padding_check_mode(const char *name, uint32_t feature_level, uint32_t mode, dmlref_error *err) {
    const uint32_t m = mode;                                                                     /* PD4 */
    if (m > DMLREF_PADDING_MODE_WRAP)
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "PD4", "PaddingMode", NULL,
                              "%s: PaddingMode (%" PRIu32 ") is not a DML_PADDING_MODE: it must be CONSTANT (0), "
                              "EDGE (1), REFLECTION (2), SYMMETRIC (3) or WRAP (4)",
                              name, m);
    const uint32_t from = m == DMLREF_PADDING_MODE_SYMMETRIC ? DMLREF_FEATURE_LEVEL_3_0
                          : m == DMLREF_PADDING_MODE_WRAP    ? DMLREF_FEATURE_LEVEL_6_4
                                                             : DMLREF_FEATURE_LEVEL_1_0;
    if (feature_level < from)
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "PD4", "PaddingMode", NULL,
                              "%s: PaddingMode %s (%" PRIu32 ") is defined from feature level %s, not at %s", name,
                              mode_names[m], m, dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)from),
                              dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)feature_level));
    return DMLREF_OK;
}

/* PD1 (DimensionCount, StartPadding, EndPadding), then the output's Sizes (PD3, 64-bit) into
 * want: the one shape computation of compile and output_sizes. */
static dmlref_status padding_shape(const char *name, const tensor_t *in, const padding_fields *f, uint64_t *want,
                                   dmlref_error *err) {
    const uint32_t n = in->n;
    if (f->dim_count != n)                                                                      /* PD1 */
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "PD1", "DimensionCount", NULL,
                              "%s: DimensionCount (%" PRIu32 ") must equal InputTensor.DimensionCount (%" PRIu32 ")",
                              name, f->dim_count, n);
    if (!f->start)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "PD1", "StartPadding", NULL,
                              "%s: StartPadding is NULL (it must hold DimensionCount = %" PRIu32 " entries)", name, n);
    if (!f->end)
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "PD1", "EndPadding", NULL,
                              "%s: EndPadding is NULL (it must hold DimensionCount = %" PRIu32 " entries)", name, n);
    for (uint32_t d = 0; d < n; ++d) want[d] = (uint64_t)in->sizes[d] + f->start[d] + f->end[d]; /* < 2^34 */
    return DMLREF_OK;
}

dmlref_status padding_compile_tensors(op_t *op, const char *name, const void *desc, const padding_fields *f,
                                      dmlref_error *err) {
    static const slot_rules rules = {"PD1", "PD2", 0, 0};
    support_t s;
    /* the tensor rules; PD1: Output has Input's DimensionCount, allowed at the level; PD2:
     * Input's DataType allowed, Output's equal */
    TRY(compile_slots(op, desc, &rules, &s, err));
    return padding_check_mode(name, op->feature_level, f->mode, err); /* PD4 */
}

dmlref_status padding_compile_pads(op_t *op, const char *name, const padding_fields *f, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const uint32_t n = in->n;
    uint64_t want[MAX_DIMS];
    TRY(padding_shape(name, in, f, want, err));                                                 /* PD1 */
    for (uint32_t d = 0; d < n; ++d) {                                                          /* PD3 */
        if (out->sizes[d] != want[d])
            return set_rule_error(err, DMLREF_ERROR_SIZES, "PD3", "OutputTensor", "Sizes",
                                  "%s: OutputTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") must equal InputTensor.Sizes[%" PRIu32
                                  "] + StartPadding[%" PRIu32 "] + EndPadding[%" PRIu32 "] = %" PRIu32 " + %" PRIu32
                                  " + %" PRIu32 " = %" PRIu64,
                                  name, d, out->sizes[d], d, d, d, in->sizes[d], f->start[d], f->end[d], want[d]);
    }
    padding_params *p = OP_PARAMS(op, padding_params);
    memset(p, 0, sizeof *p);
    p->mode = f->mode;
    for (uint32_t d = 0; d < n; ++d) {
        p->start[d] = f->start[d];
        p->end[d] = f->end[d];
    }
    op->oracle = padding_oracle;
    return DMLREF_OK;
}

dmlref_status padding_output_sizes(const op_t *op, const padding_fields *f, uint32_t *n, uint32_t *sizes,
                                   dmlref_error *err) {
    tensor_t in;
    uint64_t want[MAX_DIMS];
    TRY(shape_input(op, "InputTensor", f->in, 0, "PD1", "PD2", &in, err)); /* PD1, PD2 */
    TRY(padding_check_mode(op->name, op->feature_level, f->mode, err));    /* PD4 */
    TRY(padding_shape(op->name, &in, f, want, err));                       /* PD1, PD3 */
    TRY(shape_fit(op, "PD3", "OutputTensor", in.n, want, sizes, err));
    *n = in.n;
    return DMLREF_OK;
}
