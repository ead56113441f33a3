/*
 * ELEMENT_WISE_IDENTITY (docs/operators.md, P7).  output[c] = input[c] for
 * every coordinate c: a strided copy with the same sizes on both sides, which
 * is how DirectML changes a tensor's layout.
 *
 *   ID1  Input and Output: same DataType, DimensionCount and Sizes
 *   ID2  DimensionCount and DataType allowed at the feature level
 *   ID3  strides free on both sides (input zero strides broadcast; output
 *        elements may not share memory: tensor rules)
 *   ID4  in place: the output may be bound to the input's very buffer; every
 *        input element is read before any output element is written
 *   ScaleBias (x * Scale + Bias) is arithmetic, not data movement: refused.
 */
#include "plan.h"
#include "registry.h"
#include "simd/simd.h"

#include <stdlib.h>

#define OP "ELEMENT_WISE_IDENTITY"

/* out = in through the two views, nothing else.  In place with another
 * layout, the input is first copied aside (the one allocation of this
 * operator's execute: a snapshot is what in-place semantics need). */
static dmlref_status identity_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0), *snapshot = NULL;
    if (src == dst) {
        if (memcmp(in->bstrides, out->bstrides, sizeof in->bstrides) == 0) return DMLREF_OK; /* every element onto itself */
        snapshot = malloc((size_t)in->span_bytes);
        if (!snapshot) return set_error(err, DMLREF_ERROR_OUT_OF_MEMORY, OP ": out of memory for the in-place snapshot");
        memcpy(snapshot, src, (size_t)in->span_bytes);
        src = snapshot;
    }
    const uint64_t *bs[2] = {out->bstrides, in->bstrides};
    nd_iter it;
    for (nd_iter_init(&it, out->n, out->sizes, 2, bs); !it.done; nd_iter_next(&it))
        memcpy(dst + it.offset[0], src + it.offset[1], out->esize);
    free(snapshot);
    return DMLREF_OK;
}

static dmlref_status identity_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC *d = desc;
    TRY(op_alloc_tensors(op, 1, 1, err));
    tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(OP, "InputTensor", d->InputTensor, 0, in, err));                  /* ID3 */
    TRY(tensor_check(OP, "OutputTensor", d->OutputTensor, 1, out, err));
    TRY(check_same_dims(OP, "ID1", "OutputTensor", out, "InputTensor", in, err));             /* ID1 */
    TRY(check_support(OP, "ID2", "ID2", "InputTensor", in, &s, 0, op->feature_level, err));          /* ID2 */
    TRY(check_same_type(OP, "ID1", "OutputTensor", out, "InputTensor", in, err));             /* ID1 */
    TRY(check_same_sizes(OP, "ID1", "OutputTensor", out, "InputTensor.Sizes", in->sizes, err));
    if (d->ScaleBias)
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "ID5", "ScaleBias", NULL,
                         OP ": ScaleBias is not supported: x * Scale + Bias is arithmetic, not data movement "
                         "(give ScaleBias = NULL for the identity)");
    op->oracle = identity_oracle;
    return DMLREF_OK;
}

/* ---- the fast path: the coalesced strided copy --------------------------- */

typedef struct identity_plan {
    copy_plan copy;
    uint32_t nth;
} identity_plan;

/* The kernel's name: the copy's kind, then the instruction set. */
static const char *identity_name(int kind) {
    switch (kind) {
    case COPY_BLOCK: return "identity.block." DMLREF_ISA;
    case COPY_X1: return "identity.x1." DMLREF_ISA;
    case COPY_X2: return "identity.x2." DMLREF_ISA;
    case COPY_X4: return "identity.x4." DMLREF_ISA;
    case COPY_X8: return "identity.x8." DMLREF_ISA;
    case COPY_X16: return "identity.b16." DMLREF_ISA;
    default: return "identity.small." DMLREF_ISA;
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
    run_ranges(c.p->nth, c.p->copy.units, identity_range, &c);
    return DMLREF_OK;
}

static void identity_free(void *p) { free(p); }

static dmlref_status identity_plan_hook(op_t *op, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    (void)err;
    identity_plan *p = calloc(1, sizeof *p);
    if (!p) return DMLREF_OK; /* no memory for a plan: the oracle stays */
    uint64_t sizes[MAX_DIMS];
    for (uint32_t d = 0; d < out->n; ++d) sizes[d] = out->sizes[d];
    copy_plan_init(&p->copy, out->n, sizes, out->bstrides, in->bstrides, out->esize);
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    op->plan = p;
    op->plan_free = identity_free;
    op->kernel = identity_kernel;
    op->kernel_name = identity_name(p->copy.kind);
    return DMLREF_OK;
}

/* ---- the class ------------------------------------------------------------- */

#define D DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC
static const char *const scale_bias_fields[] = {"Scale", "Bias"};
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_STRUCT(D, ScaleBias, DMLREF_SCALE_BIAS, scale_bias_fields)};
static const support_row support[] = {
    {0x1000, {4, 5, DT_F32F16, 0}},
    {0x2100, {4, 5, DT_T8, 0}},
    {0x3000, {1, 8, DT_T8, 0}},
    {0x4100, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, OP, sizeof(D), DMLREF_FEATURE_LEVEL_1_0,
                                     DMLREF_SCHEMA_IN_PLACE, N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class element_wise_identity_class = {&schema, support, N_OF(support), identity_compile, identity_plan_hook};
