/*
 * ELEMENT_WISE_IDENTITY (docs/operators.md, P7).  output[c] = input[c] for
 * every coordinate c: a strided copy with the same sizes on both sides, which
 * is how DirectML changes a tensor's layout.  With ScaleBias,
 * output[c] = g(input[c]), g(x) = x * Scale + Bias: arithmetic.
 *
 *   ID1  Input and Output: same DataType, DimensionCount and Sizes
 *   ID2  DimensionCount and DataType allowed at the feature level
 *   ID3  strides free on both sides (input zero strides broadcast; output
 *        elements may not share memory: tensor rules)
 *   ID4  in place: the output may be bound to the input's very buffer; every
 *        input element is read before any output element is written
 *   ID5  ScaleBias only with FLOAT32 or FLOAT16 data
 *
 * ScaleBias's arithmetic (src/simd/scale_bias.h): FLOAT32 y = fl32(fl32(x *
 * Scale) + Bias), two roundings, no fused multiply-add; FLOAT16 widens x to
 * binary32 exactly, computes the same, and rounds once to binary16 (nearest
 * even); a NaN result is the canonical quiet NaN.  This file is compiled with
 * -ffp-contract=off (Makefile).
 *
 * Why the fast paths stay in this file (the other families keep theirs in
 * *_fast.c): ScaleBias's kernel and the oracle share sb_element, whose
 * arithmetic must be compiled with -ffp-contract=off, which the Makefile gives
 * this one file; both kernels also fall back to the oracle in place.  Keeping
 * all ScaleBias arithmetic here keeps that flag on exactly the code that needs
 * it, and the file is short (the class, the oracle, two kernels).
 */
#include "ops/kernels.h"
#include "engine/plan.h"
#include "core/registry.h"
#include "core/scalar.h"
#include "simd/scale_bias.h"
#include "simd/simd.h"

#include <stdlib.h>

#define OP "ELEMENT_WISE_IDENTITY"

typedef struct identity_params {
    int scale_bias; /* 1: ScaleBias given (FLOAT32 or FLOAT16 data) */
    float scale, bias;
} identity_params;

#define SB_NAN16 UINT16_C(0x7E00)

/* FLOAT16: widen exactly, the FLOAT32 arithmetic, one rounding to binary16. */
static inline uint16_t sb_f16_bits(uint16_t h, float scale, float bias) {
    const uint32_t y = sb_f32_bits(scalar_f16_to_f32_bits(h), scale, bias);
    if (y == SB_NAN32) return SB_NAN16; /* the only NaN sb_f32_bits returns */
    float f;
    memcpy(&f, &y, sizeof f);
    return scalar_f32_to_f16(f);
}

/* One element of ScaleBias from s to d (esize 4: FLOAT32, 2: FLOAT16). */
static inline void sb_element(unsigned char *d, const unsigned char *s, uint32_t esize, float scale, float bias) {
    if (esize == 4) {
        uint32_t x;
        memcpy(&x, s, 4);
        x = sb_f32_bits(x, scale, bias);
        memcpy(d, &x, 4);
    } else {
        uint16_t h;
        memcpy(&h, s, 2);
        h = sb_f16_bits(h, scale, bias);
        memcpy(d, &h, 2);
    }
}

/* out = in through the two views (with ScaleBias: g(in)).  In place with
 * another layout, the input is first copied aside (the one allocation of this
 * operator's execute: a snapshot is what in-place semantics need); in place
 * with the same layout each element is read before it is written over. */
static dmlref_status identity_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const identity_params *p = OP_CPARAMS(op, identity_params);
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0), *snapshot = NULL;
    if (src == dst && memcmp(in->bstrides, out->bstrides, sizeof in->bstrides) != 0) {
        snapshot = op_exec_alloc(op, "the in-place snapshot", err); /* in->span_bytes: identity_compile */
        if (!snapshot) return DMLREF_ERROR_OUT_OF_MEMORY;
        memcpy(snapshot, src, (size_t)in->span_bytes);
        src = snapshot;
    } else if (src == dst && !p->scale_bias) {
        return DMLREF_OK; /* every element onto itself */
    }
    const uint64_t *bs[2] = {out->bstrides, in->bstrides};
    nd_iter it;
    for (nd_iter_init(&it, out->n, out->sizes, 2, bs); !it.done; nd_iter_next(&it)) {
        if (p->scale_bias) sb_element(dst + it.offset[0], src + it.offset[1], out->esize, p->scale, p->bias);
        else memcpy(dst + it.offset[0], src + it.offset[1], out->esize);
    }
    mem_free(&op->alloc, snapshot);
    return DMLREF_OK;
}

static dmlref_status identity_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC *d = desc;
    support_t s;
    TRY(compile_slots(op, desc, NULL, &s, err)); /* ID3: the tensor rules */
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    TRY(check_same_dims(OP, "ID1", "OutputTensor", out, "InputTensor", in, err));             /* ID1 */
    TRY(check_support(OP, "ID2", "ID2", "InputTensor", in, &s, 0, op->feature_level, err));          /* ID2 */
    TRY(check_same_type(OP, "ID1", "OutputTensor", out, "InputTensor", in, err));             /* ID1 */
    TRY(check_same_sizes(OP, "ID1", "OutputTensor", out, "InputTensor.Sizes", in->sizes, err));
    if (d->ScaleBias && in->dtype != DMLREF_TENSOR_DATA_TYPE_FLOAT32 && in->dtype != DMLREF_TENSOR_DATA_TYPE_FLOAT16)
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "ID5", "ScaleBias", NULL,              /* ID5 */
                         OP ": ScaleBias is not supported for DataType %s: x * Scale + Bias is computed for FLOAT32 "
                         "and FLOAT16 only (give ScaleBias = NULL for the identity)",
                         dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)in->dtype));
    identity_params *p = OP_PARAMS(op, identity_params);
    p->scale_bias = d->ScaleBias != NULL;
    p->scale = d->ScaleBias ? d->ScaleBias->Scale : 1.0f;
    p->bias = d->ScaleBias ? d->ScaleBias->Bias : 0.0f;
    op->oracle = identity_oracle;
    /* execute's one request: the snapshot of an in-place execute with another layout */
    if (memcmp(in->bstrides, out->bstrides, sizeof in->bstrides) != 0) op->exec_request = in->span_bytes;
    return DMLREF_OK;
}

/* ---- the fast paths -------------------------------------------------------- */

/* Without ScaleBias: the coalesced strided copy (copy_plan; a permuted layout in tiles,
 * copy_plan_transpose).  With ScaleBias:
 * the same loop nest without folding (elements, not bytes), each row either
 * contiguous on both sides (simd_scale_bias_f32, or element by element for
 * FLOAT16) or strided (element by element; a broadcast row computes once). */
typedef struct identity_plan {
    copy_plan copy; /* no ScaleBias      */
    nest_t nest;    /* ScaleBias: dst, src */
    uint64_t units;
    uint32_t nth;
    float scale, bias;
} identity_plan;

/* The kernel's name: the copy's kind (or ScaleBias's type), then the instruction set. */
static const char *identity_name(int kind, int avx2) {
#if DMLREF_X86_AVX2 && !DMLREF_SMALL
    if (avx2) switch (kind) { /* the tiles transposed in AVX2 (copy_plan_transpose) */
        case COPY_T_X1: return KERNEL_NAME(IDENTITY_TRANSPOSE_AVX2_X1);
        case COPY_T_X2: return KERNEL_NAME(IDENTITY_TRANSPOSE_AVX2_X2);
        case COPY_T_X4: return KERNEL_NAME(IDENTITY_TRANSPOSE_AVX2_X4);
        case COPY_T_X8: return KERNEL_NAME(IDENTITY_TRANSPOSE_AVX2_X8);
        default: break;
        }
#else
    (void)avx2;
#endif
    switch (kind) {
    case COPY_BLOCK: return KERNEL_NAME(IDENTITY_BLOCK);
    case COPY_X1: return KERNEL_NAME(IDENTITY_X1);
    case COPY_X2: return KERNEL_NAME(IDENTITY_X2);
    case COPY_X4: return KERNEL_NAME(IDENTITY_X4);
    case COPY_X8: return KERNEL_NAME(IDENTITY_X8);
    case COPY_X16: return KERNEL_NAME(IDENTITY_B16);
#if !DMLREF_SMALL /* a small target plans no tiles (copy_plan_transpose) */
    case COPY_T_X1: return KERNEL_NAME(IDENTITY_TRANSPOSE_X1);
    case COPY_T_X2: return KERNEL_NAME(IDENTITY_TRANSPOSE_X2);
    case COPY_T_X4: return KERNEL_NAME(IDENTITY_TRANSPOSE_X4);
    case COPY_T_X8: return KERNEL_NAME(IDENTITY_TRANSPOSE_X8);
#endif
    default: return KERNEL_NAME(IDENTITY_SMALL);
    }
}

typedef struct identity_ctx {
    const identity_plan *p;
    const exec_args *x;
} identity_ctx;

static void identity_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const identity_ctx *c = vc;
    (void)part;
    copy_plan_run(&c->p->copy, OUT_DATA(c->x, 0), IN_DATA(c->x, 0), lo, hi);
}

static dmlref_status identity_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    if (IN_DATA(x, 0) == OUT_DATA(x, 0)) return identity_oracle(op, x, err); /* in place: a snapshot */
    const identity_ctx c = {op->plan, x};
    run_ranges(op, c.p->nth, c.p->copy.units, identity_range, &c);
    return DMLREF_OK;
}

/* ScaleBias over the output elements [lo, hi) of the nest, esize W bytes. */
#define SB_RANGE(W)                                                                                     \
    static void sb_range_x##W(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {              \
        const identity_ctx *c = vc;                                                                     \
        const identity_plan *p = c->p;                                                                  \
        const nest_t *nt = &p->nest;                                                                    \
        unsigned char *dst = OUT_DATA(c->x, 0);                                                         \
        const unsigned char *src = IN_DATA(c->x, 0);                                                    \
        const uint64_t ds = nt->st[0][nt->m - 1], ss = nt->st[1][nt->m - 1];                            \
        const float scale = p->scale, bias = p->bias;                                                   \
        nest_it it;                                                                                     \
        (void)part;                                                                                     \
        for (int more = nest_rows_begin(nt, &it, lo, hi); more; more = nest_rows_next(nt, &it)) {       \
            unsigned char *d = dst + it.off[0];                                                         \
            const unsigned char *s = src + it.off[1];                                                   \
            if (W == 4 && ds == 4 && ss == 4) {                                                         \
                simd_scale_bias_f32(d, s, (size_t)it.len, scale, bias);                                 \
            } else if (ss == 0 && it.len > 1) { /* a broadcast row: one value */                        \
                unsigned char v[W];                                                                     \
                sb_element(v, s, W, scale, bias);                                                       \
                for (uint64_t i = 0; i < it.len; ++i) memcpy(d + i * ds, v, W);                         \
            } else {                                                                                    \
                for (uint64_t i = 0; i < it.len; ++i) sb_element(d + i * ds, s + i * ss, W, scale, bias); \
            }                                                                                           \
        }                                                                                               \
    }
SB_RANGE(4)
SB_RANGE(2)

static dmlref_status sb_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const identity_plan *p = op->plan;
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    /* in place with another layout: the oracle's snapshot; with the same layout
     * each element is read before it is written over (the vector kernel loads
     * its 4 elements before storing them) */
    if (IN_DATA(x, 0) == OUT_DATA(x, 0) && memcmp(in->bstrides, out->bstrides, sizeof in->bstrides) != 0)
        return identity_oracle(op, x, err);
    const identity_ctx c = {p, x};
    run_ranges(op, p->nth, p->units, out->esize == 4 ? sb_range_x4 : sb_range_x2, &c);
    return DMLREF_OK;
}

static void identity_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

static dmlref_status identity_plan_hook(op_t *op, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const identity_params *ip = OP_CPARAMS(op, identity_params);
    (void)err;
    identity_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    uint64_t sizes[MAX_DIMS];
    for (uint32_t d = 0; d < out->n; ++d) sizes[d] = out->sizes[d];
    if (ip->scale_bias) {
        p->nest.m = out->n;
        for (uint32_t d = 0; d < out->n; ++d) {
            p->nest.sizes[d] = sizes[d];
            p->nest.st[0][d] = out->bstrides[d];
            p->nest.st[1][d] = in->bstrides[d];
        }
        nest_collapse(&p->nest, 2);
        p->units = p->nest.points;
        p->scale = ip->scale;
        p->bias = ip->bias;
        op->kernel = sb_kernel;
        op->kernel_name = out->esize == 4 ? KERNEL_NAME(IDENTITY_SCALE_BIAS_F32) : KERNEL_NAME(IDENTITY_SCALE_BIAS_F16);
    } else {
        copy_plan_init(&p->copy, out->n, sizes, out->bstrides, in->bstrides, out->esize);
        copy_plan_transpose(&p->copy, (op->options.flags & DMLREF_OPTION_BASELINE_ISA) != 0); /* a permuted layout: tiles */
        p->units = p->copy.units;
        op->kernel = identity_kernel;
        op->kernel_name = identity_name(p->copy.kind, p->copy.avx2);
    }
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    op->plan = p;
    op->plan_free = identity_free;
    return DMLREF_OK;
}

/* ---- the class ------------------------------------------------------------- */

static dmlref_status element_wise_identity_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                        uint32_t *sizes, dmlref_error *err) {
    const DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC *d = desc; /* ID1: Output.Sizes == Input.Sizes */
    (void)output;
    return shape_of_input(op, "InputTensor", d->InputTensor, "ID2", "ID2", n, sizes, err);
}

#define D DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC
static const char *const scale_bias_fields[] = {"Scale", "Bias"};
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_STRUCT(D, ScaleBias, DMLREF_SCALE_BIAS, scale_bias_fields)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 5, DT_F32F16, 0}},
    {DMLREF_FEATURE_LEVEL_2_1, {4, 5, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, OP, sizeof(D), DMLREF_FEATURE_LEVEL_1_0,
                                     DMLREF_SCHEMA_IN_PLACE, N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class element_wise_identity_class = {&schema, support, N_OF(support), identity_compile, PLAN_HOOK(identity_plan_hook), element_wise_identity_output_sizes};
