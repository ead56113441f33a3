/*
 * SPLIT (spec section 5).
 *   base = 0; for each output k: out_k[c] = in[c + base along Axis]; base += Out_k.Sizes[Axis]
 */
#include "concat.h"

static dmlref_status split_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    (void)err;
    return concat_oracle(op, x, 1);
}

dmlref_status split_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_SPLIT_OPERATOR_DESC *d = desc;
    TRY(concat_compile(op, "InputTensor", d->InputTensor, "OutputCount", d->OutputCount, "OutputTensors",
                       d->OutputTensors, d->Axis, 1, err));
    op->oracle = split_oracle;
    return DMLREF_OK;
}
