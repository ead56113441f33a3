/*
 * What PADDING (op_padding.c) and PADDING1 (op_padding1.c) share
 * (docs/operators.md P5): their parameters, the rules both obey, the oracle
 * (padding.c) and the fast path (padding_fast.c).  The two operators differ
 * only in how the fill value is given: a FLOAT converted to the element type
 * (PADDING) or a DML_SCALAR_UNION copied bit for bit (PADDING1, rule PD5).
 *
 * For output coordinate o, per dimension d: i = o[d] - StartPadding[d],
 * n = Input.Sizes[d]; padding_source_index() maps i into [0, n) by the mode
 * (or says "outside" for CONSTANT), and Output[o] = Input[src] or the fill.
 */
#ifndef DMLREF_PADDING_H
#define DMLREF_PADDING_H

#include "core/internal.h"

typedef struct padding_params {
    uint32_t mode;                            /* DMLREF_PADDING_MODE                      */
    uint32_t start[MAX_DIMS], end[MAX_DIMS];  /* StartPadding, EndPadding                 */
    unsigned char fill[8];                    /* CONSTANT: the fill element, host encoding */
} padding_params;

/* The desc fields both operators have. */
typedef struct padding_fields {
    const DMLREF_TENSOR_DESC *in, *out;
    uint32_t mode;        /* PaddingMode    */
    uint32_t dim_count;   /* DimensionCount */
    const uint32_t *start, *end;
} padding_fields;

/* The source index along one dimension of n input elements for i = o - start
 * (any integer in (-2^32, 2^32)): in [0, n), or -1 when CONSTANT reads the fill. */
int64_t padding_source_index(uint32_t mode, int64_t i, uint32_t n);

/* The first rules, in order: the tensor rules of Input and Output, PD1 (equal
 * DimensionCount, allowed at the level), PD2 (DataType allowed, equal) and PD4
 * (PaddingMode defined at the level).  op_name is "PADDING" or "PADDING1"; desc the
 * operator's desc (f->in and f->out are its InputTensor and OutputTensor, the slots). */
dmlref_status padding_compile_tensors(op_t *op, const char *op_name, const void *desc, const padding_fields *f,
                                      dmlref_error *err);

/* The rest, after the operator's own rules: PD1 (DimensionCount equals the
 * tensors', StartPadding and EndPadding not NULL) and PD3 (64-bit sizes).
 * Stores the parameters (fill left zero: the caller sets it) and the oracle. */
dmlref_status padding_compile_pads(op_t *op, const char *op_name, const padding_fields *f, dmlref_error *err);

/* The output's DimensionCount and Sizes (the classes' output_sizes hook): the input's rules,
 * PD4, PD1 and PD3 as compile checks them; f->out is not read. */
dmlref_status padding_output_sizes(const op_t *op, const padding_fields *f, uint32_t *n, uint32_t *sizes,
                                   dmlref_error *err);

/* The fast path of both operators (a class's plan hook; padding_fast.c). */
dmlref_status padding_plan(op_t *op, dmlref_error *err);

#endif
