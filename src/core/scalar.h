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

/* binary32 -> binary16, round to nearest even (exposed for the tests).  A NaN
 * keeps its sign and the top 10 payload bits, quiet bit forced (so
 * 0x7FC0BEEF -> 0x7E05): CAST's rule (docs/operators.md, CAST). */
uint16_t scalar_f32_to_f16(float f);
/* The same on the binary32 bits (no float value passes through the FPU, so a
 * signalling NaN reaches it as it is on every host, x87 included). */
uint16_t scalar_f32_bits_to_f16(uint32_t x);

/* binary16 -> binary32 bits, exact (every binary16 value is a binary32 value;
 * subnormals become normals, a NaN keeps its sign and payload, a signalling one
 * stays signalling).  Bits, not a float: on x87 a float return would quiet a
 * signalling NaN. */
uint32_t scalar_f16_to_f32_bits(uint16_t h);

/*
 * CAST's conversion of one element (docs/operators.md, CAST, "Semantics"):
 * src holds an element of type st, dst receives one of type dt, both in host
 * encoding.  Same type: the bits.  int -> int: the value modulo 2^w.  int ->
 * float and float -> float: one rounding to nearest even from the exact value,
 * overflow to +-Inf, subnormals exact, -0 kept; a NaN keeps its sign, its
 * mantissa shifted (m >> (ms - md) narrowing, m << (md - ms) widening), quiet
 * bit forced.  float -> int: NaN 0, +-Inf max / min, else truncated toward zero
 * and saturated.  Integer arithmetic on the bits only: the same result on every
 * host (no x87 excess precision, no FPU NaN propagation).
 */
void scalar_cast(DMLREF_TENSOR_DATA_TYPE dt, void *dst, DMLREF_TENSOR_DATA_TYPE st, const void *src);

/*
 * The total order of TOP_K, TOP_K1, ARGMIN and ARGMAX (docs/operators.md, TOP_K,
 * "Order"): an unsigned key whose integer order is the value order of the element
 * at src (type dt, host encoding).  Floats: -Inf < ... < -0 == +0 < ... < +Inf,
 * each non-NaN key strictly between 0 and UINT64_MAX; every NaN has the same key,
 * UINT64_MAX (above +Inf) or, with nan_low, 0 (below -Inf: ARGMIN's "a NaN wins").
 * Integers: their value (signed ones offset by 2^63).  Bits only: no float value
 * passes through the FPU.
 */
uint64_t scalar_order_key(DMLREF_TENSOR_DATA_TYPE dt, const void *src, int nan_low);

#endif
