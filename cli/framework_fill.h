/*
 * The fill values and numpy type names of the framework forms (framework.c):
 * DIAGONAL_MATRIX(1)'s Value and PADDING(1)'s PaddingValue as one element's
 * bits, the output's type as numpy names it.  Nothing of its own: the library's
 * conversion (run through its public API) and its data-type names, the case
 * library's element loads.
 */
#ifndef DMLREF_CLI_FRAMEWORK_FILL_H
#define DMLREF_CLI_FRAMEWORK_FILL_H

#include "framework.h"

#include <stdint.h>

/*
 * The FLOAT fill v of operator `op` (DMLREF_OPERATOR_DIAGONAL_MATRIX or
 * DMLREF_OPERATOR_PADDING) as one element of type dt, its bits in the low bytes:
 * the library's own conversion (docs/operators.md, "Fill values": FLOAT16
 * rounded to nearest even, a NaN quieted with its payload's top bits; integers
 * truncated toward zero and saturated, NaN -> 0), read from the element the
 * operator writes with v on a one-element case (a 1x1 matrix; a 1-D input padded
 * by one) at the newest feature level.  0, -1 when the library refuses it, or
 * CASE_OUT_OF_MEMORY when it ran out of memory (no verdict on the fill).
 */
int fw_fill_from_float(DMLREF_OPERATOR_TYPE op, DMLREF_TENSOR_DATA_TYPE dt, float v, uint64_t *bits);

/* A DML_SCALAR_UNION's element of esize bytes (DIAGONAL_MATRIX1's Value, PADDING1's
 * PaddingValue) as an unsigned integer of its width: the union holds it in host byte order
 * (include/dmlref.h), so it is loaded by size (value_load_bits), never assembled from bytes.
 * 0, or -1 for a size no type has. */
int fw_fill_from_union(const DMLREF_SCALAR_UNION *u, uint32_t esize, uint64_t *bits);

/* form->dtype: dt's numpy name ("float32", "uint8": dmlref_data_type_name in lower case),
 * kept in form->dtype_name; NULL (and form->dtype NULL) for a type without a byte size. */
const char *fw_set_dtype(fw_form *form, DMLREF_TENSOR_DATA_TYPE dt);

#endif
