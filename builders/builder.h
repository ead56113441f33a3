/*
 * Random valid cases, one builder per operator (builders/<name>.c, listed by
 * src/operators.def's X-macro): `dmlref gen` draws its golden suites through
 * them.  A builder draws shapes, data types, layouts and values from a
 * splitmix64 stream (cli/prng.h) and fills a gcase: its tensors in binding
 * order and its parameters in the desc (bld_set_param); bld_bind() then points
 * the desc's tensor fields at them by the schema.
 *
 * What cases contain: every data type, DimensionCount 1 to 8, packed layouts
 * and permuted layouts with gaps between rows, zero-stride (broadcast) inputs,
 * negative indices (signed index types), TotalTensorSizeInBytes sometimes above
 * the minimum, nested data for some packed inputs.  Never: out-of-range indices,
 * duplicate scatter targets, NaN payloads other than the canonical quiet NaN,
 * subnormals.  Tensors are small (at most a few hundred elements).
 *
 * Adding an operator: builders/<name>.c defining `const builder <name>_builder`.
 */
#ifndef DMLREF_BUILDERS_BUILDER_H
#define DMLREF_BUILDERS_BUILDER_H

#include "dmlref.h"

#include "../cli/descbuf.h"
#include "../cli/prng.h"

#include <stddef.h>
#include <stdint.h>

#define GEN_MAX_TENSORS 8

typedef struct gtensor {
    DMLREF_TENSOR_DATA_TYPE dt;
    uint32_t n, es;
    uint32_t sizes[8], strides[8];
    int has_strides, total_given, whole, nested;
    uint64_t span_slots, total_slots;
    unsigned char *data;
    DMLREF_BUFFER_TENSOR_DESC buf;
} gtensor;

#define GEN_MAX_DESC 512

typedef struct gcase {
    DMLREF_OPERATOR_TYPE type;
    const dmlref_schema *schema;
    uint32_t fl;
    uint32_t n_in, n_out; /* tensors in binding order (an array slot: all but the single slots) */
    gtensor in[GEN_MAX_TENSORS], out[GEN_MAX_TENSORS];
    DMLREF_TENSOR_DESC in_desc[GEN_MAX_TENSORS], out_desc[GEN_MAX_TENSORS];
    union {
        max_align_t align;
        unsigned char bytes[GEN_MAX_DESC];
    } u; /* the operator's desc: parameters set by the builder, tensors by bind() */
    DMLREF_OPERATOR_DESC desc;
} gcase;

/* A builder: fills g (g->type and g->schema set, the rest zero) from r; 0, or -1
 * to draw again (a shape that does not fit).  Tensor data is calloc'd (NULL:
 * out of memory, the caller checks). */
typedef struct builder {
    DMLREF_OPERATOR_TYPE type;
    int (*build)(prng *r, gcase *g);
} builder;

/* The builder of an operator this build holds, or NULL. */
const builder *builder_find(DMLREF_OPERATOR_TYPE type);

/* Points the desc's tensor fields at g's tensors by the schema (single slots one
 * tensor each, in binding order; an array slot, at most one per direction, the
 * rest, its count field set) and sets g->desc. */
void bld_bind(gcase *g);
/* Frees the tensors' data. */
void bld_gcase_free(gcase *g);
/* Sets the UINT parameter `name` of g's desc (through the schema). */
void bld_set_param(gcase *g, const char *name, uint32_t v);

/* ---- shared helpers ---- */

/* The 11 data types, and the 4 index types, in the order picks draw them. */
extern const DMLREF_TENSOR_DATA_TYPE bld_data_types[11];
extern const DMLREF_TENSOR_DATA_TYPE bld_index_types[4];

/* Uniform in [0, n). */
uint32_t bld_rnd(prng *r, uint32_t n);
uint64_t bld_product(const uint32_t *s, uint32_t n);
/* An element-count cap for a builder's shapes: base for the default small cases,
 * scaled up when gen draws large ones.  Every cap a builder uses goes through it. */
uint64_t bld_cap(uint64_t base);
/* Random sizes 1..4 (visiting dims in random order) keeping the product <= cap. */
void bld_rand_sizes(prng *r, uint32_t n, uint32_t *s, uint64_t cap);
void bld_tensor_init(gtensor *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes);
/* Strides and buffer size: packed, explicit packed, or a permuted layout with gaps;
 * broadcast for some inputs when allowed.  Allocates the data. */
void bld_layout(prng *r, gtensor *t, int allow_broadcast);
/* One element of type dt at p: edges, small values, exact floats, specials. */
void bld_rand_value(prng *r, DMLREF_TENSOR_DATA_TYPE dt, unsigned char *p);
/* Every slot of t's buffer: values of its type (edges, small values, specials). */
void bld_fill_random(prng *r, gtensor *t);
void bld_store_index(gtensor *t, uint64_t slot, int64_t v);
int bld_is_signed_index(const gtensor *t);
/* An index for a dimension of size n: in [0, n), or in [-n, 0) for signed types now and then. */
int64_t bld_rand_index(prng *r, const gtensor *idx, uint32_t n);
/* Slot of logical coordinate c. */
uint64_t bld_slot_of(const gtensor *t, const uint32_t *c);
/* The next coordinate in row-major order; 0 after the last. */
int bld_next_coord(const uint32_t *sizes, uint32_t n, uint32_t *c);
DMLREF_TENSOR_DATA_TYPE bld_pick(prng *r, const DMLREF_TENSOR_DATA_TYPE *v, uint32_t n);
/* Splits total into k >= 1 positive parts, unequal when possible. */
void bld_partition(prng *r, uint32_t total, uint32_t k, uint32_t *parts);
/* SPLIT (is_split) or JOIN: 1 to 6 pieces along a random axis. */
int bld_split_join(prng *r, gcase *g, int is_split);

#endif
