/*
 * DIAGONAL_MATRIX and DIAGONAL_MATRIX1 (docs/operators.md P10): what the two
 * operators share, below their op files (op_diagonal_matrix.c,
 * op_diagonal_matrix1.c): the oracle (diagonal.c) and the fast path
 * (diagonal_fast.c).  Both fill a stack of matrices (the last two
 * dims: y, x) with a band of diagonals:
 *
 *     topX = x - y;                                           (64-bit)
 *     use  = (End >= Begin) ^ (topX >= Begin) ^ (topX < End);
 *     out[..., y, x] = use ? value : (input ? in[..., y, x] : 0);
 *
 * DIAGONAL_MATRIX is the case Begin = Offset, End = Offset + 1 (in 64 bits).
 */
#ifndef DMLREF_DIAGONAL_H
#define DMLREF_DIAGONAL_H

#include "core/internal.h"

typedef struct diagonal_params {
    int64_t begin, end;    /* the band [begin, end) of x - y; its complement [end, begin) when end < begin */
    unsigned char fill[8]; /* the value as one output element (esize bytes used)                          */
    uint32_t has_input;    /* DIAGONAL_MATRIX1 with an InputTensor (op->inputs[0])                         */
} diagonal_params;

/* 1 when out[..., y, x] with x - y = topx takes the value. */
static inline int diagonal_use(int64_t begin, int64_t end, int64_t topx) {
    return (end >= begin) ^ (topx >= begin) ^ (topx < end);
}

/* After a successful validation: stores the parameters (the value already an
 * element of the output's type) and sets the oracle. */
void diagonal_setup(op_t *op, int64_t begin, int64_t end, const unsigned char *fill);

/* The fast path (both classes' plan hook; diagonal_fast.c): kernels diagonal.fill (no input)
 * and diagonal.copy (the input's rows around the band). */
dmlref_status diagonal_plan(op_t *op, dmlref_error *err);

#endif
