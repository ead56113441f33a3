/*
 * DIAGONAL_MATRIX and DIAGONAL_MATRIX1: the oracle they share (diagonal.h;
 * docs/operators.md P10); their fast path is diagonal_fast.c.
 */
#include "diagonal.h"

/* For every output coordinate [..., y, x]: the value on the band, else the
 * input's element (DIAGONAL_MATRIX1 with an InputTensor) or zero bytes. */
static dmlref_status diagonal_oracle(const op_t *op, const exec_args *a, dmlref_error *err) {
    static const unsigned char zero[8];
    const diagonal_params *p = OP_CPARAMS(op, diagonal_params);
    const tensor_t *out = &op->outputs[0];
    const unsigned char *src = p->has_input ? IN_DATA(a, 0) : NULL;
    unsigned char *dst = OUT_DATA(a, 0);
    const uint64_t *bs[2] = {out->bstrides, p->has_input ? op->inputs[0].bstrides : NULL};
    const uint32_t n = out->n; /* >= 2 (DM1, DG1) */
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, n, out->sizes, 2, bs); !it.done; nd_iter_next(&it)) {
        const int64_t y = it.coord[n - 2], x = it.coord[n - 1];
        const unsigned char *v = diagonal_use(p->begin, p->end, x - y) ? p->fill : src ? src + it.offset[1] : zero;
        memcpy(dst + it.offset[0], v, out->esize);
    }
    return DMLREF_OK;
}

void diagonal_setup(op_t *op, int64_t begin, int64_t end, const unsigned char *fill) {
    diagonal_params *p = OP_PARAMS(op, diagonal_params);
    p->begin = begin;
    p->end = end;
    memcpy(p->fill, fill, sizeof p->fill);
    p->has_input = op->n_inputs;
    op->oracle = diagonal_oracle;
}
