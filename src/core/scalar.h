/*
 * Fill values of the phase-2 generators and paddings (docs/operators.md,
 * "Fill values"): an element of a given data type, in host encoding, made from
 *   - a FLOAT (PADDING's PaddingValue, DIAGONAL_MATRIX's Value): FLOAT32 as is,
 *     FLOAT64 widened exactly, FLOAT16 rounded to nearest even (a NaN stays a
 *     quiet NaN with the top payload bits), integers truncated toward zero then
 *     saturated to the type's range, NaN giving 0;
 *   - a DMLREF_SCALAR_UNION (PADDING1, DIAGONAL_MATRIX1): its first esize bytes,
 *     bit for bit (FLOAT16: the binary16 pattern as a host uint16_t).
 */
#ifndef DMLREF_SCALAR_H
#define DMLREF_SCALAR_H

#include <stdint.h>

#include "dmlref.h"

/* out: at least 8 bytes; the element's dmlref_data_type_size() bytes are written. */
void scalar_from_float(DMLREF_TENSOR_DATA_TYPE dt, float v, unsigned char *out);
void scalar_from_union(DMLREF_TENSOR_DATA_TYPE dt, const DMLREF_SCALAR_UNION *u, unsigned char *out);

/* binary32 -> binary16, round to nearest even (exposed for the tests). */
uint16_t scalar_f32_to_f16(float f);

/* binary16 -> binary32 bits, exact (every binary16 value is a binary32 value;
 * subnormals become normals, a NaN keeps its sign and payload, a signalling one
 * stays signalling).  Bits, not a float: on x87 a float return would quiet a
 * signalling NaN. */
uint32_t scalar_f16_to_f32_bits(uint16_t h);

#endif
