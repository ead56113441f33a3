/*
 * A descriptor held as bytes (schema->desc_size of them), walked by the
 * library's schema: field access by offset, lookup by name, and the tensor
 * binding rule.  No JSON here: the numpy driver and the builders use it too.
 */
#ifndef DMLREF_CLI_DESCBUF_H
#define DMLREF_CLI_DESCBUF_H

#include "dmlref.h"

#include <stdint.h>

/* A desc buffer: schema->desc_size zeroed bytes, aligned for any field (free() it). */
void *desc_alloc(const dmlref_schema *s);

/* The uint32_t at `offset` in a desc. */
uint32_t desc_get_u32(const void *desc, uint32_t offset);
void desc_set_u32(void *desc, uint32_t offset, uint32_t v);

/* The parameter called `name`, or NULL. */
const dmlref_param *desc_param(const dmlref_schema *s, const char *name);

/* 1 when `name` is the count field of a tensor array or of a parameter array of s. */
int desc_is_array_count(const dmlref_schema *s, const char *name);

/*
 * Points the desc's tensor fields at in[0..n_in) and out[0..n_out), given in
 * binding order: each single slot takes one tensor, an array slot (at most one
 * per direction) all that the single slots of its direction leave, and its
 * count field is set.  Optional slots take a tensor like the others; with
 * fewer tensors than single slots, the last optional single slots of that
 * direction are left NULL (DIAGONAL_MATRIX1 without its InputTensor: n_in 0).
 * Returns 0, or -1 when the counts do not fit the schema (too few tensors for
 * the required slots, or two array slots in one direction).
 */
int desc_bind(const dmlref_schema *s, void *desc, const DMLREF_TENSOR_DESC *in, uint32_t n_in,
              const DMLREF_TENSOR_DESC *out, uint32_t n_out);

#endif
