/*
 * A tensor's logical view: its elements row-major over Sizes, each at element
 * slot sum(c[d] * Strides[d]) of its buffer (packed strides when the case gave
 * none).  The slot map (one uint64 slot per element, in the logical shape) is
 * what a harness needs to gather a dense array from a buffer or scatter one
 * into it; the gathered view holds only the addressed elements, so stride gaps
 * and the rounding tail (0xCD in dmlref's outputs) never reach a comparison.
 */
#ifndef DMLREF_CLI_LOGICAL_H
#define DMLREF_CLI_LOGICAL_H

#include "case.h"

#include <stdint.h>

/* The number of elements (product of Sizes). */
uint64_t logical_count(const case_tensor *t);

/* The element strides: the case's, or packed row-major ones.  strides has room for DimensionCount. */
void logical_strides(const case_tensor *t, uint64_t *strides);

/* Each element's slot, row-major over Sizes, into slots (logical_count entries). */
void logical_slots(const case_tensor *t, uint64_t *slots);

/* The elements of buf (a buffer in t's layout) row-major over Sizes into out
 * (logical_count * esize bytes); buf must hold the span (IndexOfLastElement + 1 slots). */
void logical_gather(const case_tensor *t, const unsigned char *buf, unsigned char *out);

/* logical_gather into memory it allocates (NULL when out of memory or too large). */
unsigned char *logical_gather_alloc(const case_tensor *t, const unsigned char *buf);

/* The Sizes as uint64 (a .npy shape). */
void logical_shape(const case_tensor *t, uint64_t *shape);

#endif
