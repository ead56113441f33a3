/*
 * What a drawn case uses -- data and index types, DimensionCount, the oldest
 * feature level that accepts it, negative indices, strides, broadcast, gaps,
 * padded buffers, special values -- for the "features" object of gen's files and
 * for gen's filters.
 */
#ifndef DMLREF_BUILDERS_FEATURES_H
#define DMLREF_BUILDERS_FEATURES_H

#include "case/case.h"

#include <stdint.h>
#include <stdio.h>

/* The special values, in the order "special_values" lists them. */
enum { SV_NEGATIVE_ZERO, SV_INFINITY, SV_NAN, SV_NAN_PAYLOAD, SV_SIGNALING_NAN, SV_SUBNORMAL, SV_INT_EXTREMES, SV_N };

typedef struct features {
    uint32_t data_types, index_types; /* bit (1u << dt) */
    uint32_t max_dims, min_level;
    int negative_indices, strides, broadcast, gaps, padded_total;
    uint32_t special; /* bit (1u << SV_*) */
} features;

/* The feature levels, oldest first. */
extern const uint32_t features_levels[15];

/* One tensor of a case with its slot. */
typedef struct slot_tensor {
    const dmlref_tensor_slot *sl;
    const case_tensor *t;
} slot_tensor;

/* c's tensors in slot order (an array slot: each), at most cap of them; their number. */
uint32_t features_tensors(const dmlref_case *c, slot_tensor *out, uint32_t cap);
/* 1 for a slot whose data type the operator itself fixes (ELEMENT_WISE_IF's UINT8
 * ConditionTensor, TOP_K's UINT32 / UINT64 OutputIndexTensor, NONZERO_COORDINATES' UINT32
 * outputs): neither a data nor an index tensor for the features' type lists and
 * gen's --data-types / --index-types filters, which choose the types a backend is asked
 * about, not the operator's own. */
int features_fixed_type(const dmlref_tensor_slot *sl);

/* What c (a builder's case: its strides always at hand) uses; bld_out_of_memory set when an
 * allocation failed on the way (then ft is incomplete). */
void features_of(const dmlref_case *c, features *ft);

/* Whether an index tensor's elements (its addressed slots) hold a negative value. */
int features_has_negative(const case_tensor *t);

/* The smallest TotalTensorSizeInBytes of t: its span's bytes rounded up to 4. */
uint64_t features_min_total_bytes(const case_tensor *t);

/* `  "features": {...},\n`: one line (docs/case-format.md; readers ignore it). */
void features_write(FILE *f, const features *ft);

#endif
