/*
 * ELEMENT_WISE_IF (docs/operators.md Q3): out[c] = ConditionTensor[c] != 0 ?
 * ATensor[c] : BTensor[c], the selected element's bytes copied (NaN payloads,
 * -0 kept).  Any nonzero condition byte is true (dmlref's decision: not bit 0
 * only).  No implicit broadcasting: callers broadcast with zero strides.
 *
 *   IF1  Condition, A, B and Output: the same DimensionCount and Sizes
 *   IF2  that DimensionCount allowed at the feature level (4 at 2_0, 1 to 8 from 3_0)
 *   IF3  ConditionTensor.DataType == UINT8
 *   IF4  A, B and Output: the same DataType
 *   IF5  that DataType in the feature level's set (2_0: FLOAT16 only; 3_0: T8; 5_0: T11)
 *
 * The fast path (element_wise_if.rows, element_wise_if.strided) is select_fast.c.
 */
#include "select_fast.h"
#include "core/registry.h"

#include <inttypes.h>

#define OP "ELEMENT_WISE_IF"

/* For every coordinate c: out[c] = cond[c] != 0 ? A[c] : B[c] (bytes). */
static dmlref_status element_wise_if_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *out = &op->outputs[0];
    const unsigned char *cond = IN_DATA(x, 0), *a = IN_DATA(x, 1), *b = IN_DATA(x, 2);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[4] = {out->bstrides, op->inputs[0].bstrides, op->inputs[1].bstrides, op->inputs[2].bstrides};
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 4, bs); !it.done; nd_iter_next(&it)) {
        const unsigned char *src = cond[it.offset[1]] != 0 ? a + it.offset[2] : b + it.offset[3];
        memcpy(dst + it.offset[0], src, out->esize);
    }
    return DMLREF_OK;
}

static dmlref_status element_wise_if_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC *d = desc;
    TRY(op_alloc_tensors(op, 3, 1, err));
    tensor_t *c = &op->inputs[0], *a = &op->inputs[1], *b = &op->inputs[2], *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(OP, "ConditionTensor", d->ConditionTensor, NULL, c, err));
    TRY(tensor_check(OP, "ATensor", d->ATensor, NULL, a, err));
    TRY(tensor_check(OP, "BTensor", d->BTensor, NULL, b, err));
    TRY(tensor_check(OP, "OutputTensor", d->OutputTensor, op, out, err));
    TRY(check_support(OP, "IF2", "IF5", "OutputTensor", out, &s, 0, op->feature_level, err)); /* IF2, IF5 */
    TRY(check_same_dims(OP, "IF1", "ConditionTensor", c, "OutputTensor", out, err));          /* IF1 */
    TRY(check_same_dims(OP, "IF1", "ATensor", a, "OutputTensor", out, err));                  /* IF1 */
    TRY(check_same_dims(OP, "IF1", "BTensor", b, "OutputTensor", out, err));                  /* IF1 */
    TRY(check_same_sizes(OP, "IF1", "ConditionTensor", c, "OutputTensor", out->sizes, err));  /* IF1 */
    TRY(check_same_sizes(OP, "IF1", "ATensor", a, "OutputTensor", out->sizes, err));          /* IF1 */
    TRY(check_same_sizes(OP, "IF1", "BTensor", b, "OutputTensor", out->sizes, err));          /* IF1 */
    if (c->dtype != DMLREF_TENSOR_DATA_TYPE_UINT8)                                            /* IF3 */
        return set_rule_error(err, DMLREF_ERROR_DATA_TYPE, "IF3", "ConditionTensor", "DataType",
                              OP ": ConditionTensor.DataType (%s) must be UINT8",
                              dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)c->dtype));
    TRY(check_same_type(OP, "IF4", "ATensor", a, "OutputTensor", out, err));                  /* IF4 */
    TRY(check_same_type(OP, "IF4", "BTensor", b, "OutputTensor", out, err));                  /* IF4 */
    op->oracle = element_wise_if_oracle;
    return DMLREF_OK;
}

/* IF1: the output is shaped like ATensor (checked as compile does: IF2, IF5). */
static dmlref_status element_wise_if_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                  uint32_t *sizes, dmlref_error *err) {
    const DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC *d = desc;
    (void)output;
    return shape_of_input(op, "ATensor", d->ATensor, "IF2", "IF5", n, sizes, err);
}

#define D DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, ConditionTensor), SLOT_IN(D, ATensor), SLOT_IN(D, BTensor),
                                           SLOT_OUT(D, OutputTensor)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_0, {4, 4, DT(FLOAT16), 0}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_5_0, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_ELEMENT_WISE_IF, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_0, 0,
                                     N_OF(slots), slots, 0, NULL};
#undef D

const op_class element_wise_if_class = {&schema, support, N_OF(support), element_wise_if_compile,
                                        PLAN_HOOK(plan_element_wise_if), element_wise_if_output_sizes};
