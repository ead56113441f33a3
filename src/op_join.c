/*
 * JOIN (spec section 6).
 *   base = 0; for each input k: out[c + base along Axis] = in_k[c]; base += In_k.Sizes[Axis]
 */
#include "concat.h"

static dmlref_status join_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    (void)err;
    return concat_oracle(op, x, 0);
}

dmlref_status join_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_JOIN_OPERATOR_DESC *d = desc;
    TRY(concat_compile(op, "OutputTensor", d->OutputTensor, "InputCount", d->InputCount, "InputTensors",
                       d->InputTensors, d->Axis, 0, err));
    op->oracle = join_oracle;
    return DMLREF_OK;
}
