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
 * duplicate scatter targets.  In the plain flavour no NaN payloads other than the
 * canonical quiet NaN and no subnormals, and tensors are small (at most a few
 * hundred elements); the bits flavour adds special bit patterns, the large one
 * larger tensors (bld_opts below).
 *
 * Filters and flavours (bld_opts, set by gen): a builder need not look at them.
 * The helpers honour them -- bld_pick draws only allowed types, bld_layout only
 * packed layouts under `packed`, bld_rand_index and bld_is_signed_index no
 * negative indices under `no_negative_indices`, bld_rand_value special bit
 * patterns under `bits`, bld_cap and bld_rand_sizes larger shapes under
 * `max_elements`; `scale_bias` is ELEMENT_WISE_IDENTITY's builder's alone -- and gen rejects and redraws any case that still breaks a
 * filter (a type, DimensionCount, the feature level, a layout, a negative index,
 * an element count), so a builder that draws some of these itself stays correct,
 * only slower to meet a narrow filter.  With bld_opts all zero (no filter, no
 * flavour) every helper draws exactly as before, so gen's files do not change.
 *
 * Adding an operator: builders/<name>.c defining `const builder <name>_builder`.
 */
#ifndef DMLREF_BUILDERS_BUILDER_H
#define DMLREF_BUILDERS_BUILDER_H

#include "dmlref.h"

#include "case/descbuf.h"
#include "case/prng.h"

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
#define GEN_MAX_ARRAYS 4

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
    uint32_t arrays[GEN_MAX_ARRAYS][8]; /* what the desc's array parameters point to (bld_set_array) */
    uint32_t n_arrays;
    DMLREF_SCALE_BIAS scale_bias; /* what ELEMENT_WISE_IDENTITY's ScaleBias points at, when it does */
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
/* Sets the array parameter `name` (UINT_ARRAY, or INT_ARRAY given as the int32_t
 * values' bits) to n <= 8 values kept in g, and its count field to n. */
void bld_set_array(gcase *g, const char *name, const uint32_t *v, uint32_t n);

/* ---- what gen asks for: filters and flavours (all zero: the plain flavour) ---- */

typedef struct bld_settings {
    uint32_t data_types;     /* allowed types of non-index tensors, bit (1u << dt); 0: all       */
    uint32_t index_types;    /* allowed types of index tensors (schema slot is_index); 0: all    */
    int no_negative_indices; /* index values >= 0 only                                           */
    int packed;              /* no Strides, no gaps, no broadcast, minimal TotalTensorSizeInBytes */
    int bits;                /* the bits flavour: special bit patterns in the data               */
    uint64_t max_elements;   /* the large flavour (>= BLD_SMALL_CAP): caps scaled up to it; 0: off */
    int scale_bias;          /* ELEMENT_WISE_IDENTITY: FLOAT32/FLOAT16 cases with a ScaleBias (x *
                                Scale + Bias: arithmetic, so only when asked: gen --scale-bias)  */
} bld_settings;
extern bld_settings bld_opts;

/* The largest cap the small cases' builders use (an output's element count):
 * bld_cap scales caps by max_elements / BLD_SMALL_CAP. */
#define BLD_SMALL_CAP 256

/* ---- shared helpers ---- */

/* The 11 data types, and the 4 index types, in the order picks draw them. */
extern const DMLREF_TENSOR_DATA_TYPE bld_data_types[11];
extern const DMLREF_TENSOR_DATA_TYPE bld_index_types[4];

/* Uniform in [0, n). */
uint32_t bld_rnd(prng *r, uint32_t n);
uint64_t bld_product(const uint32_t *s, uint32_t n);

/* A packed FLOAT32 (or `dt`) tensor desc of the given sizes, for bld_output_sizes'
 * temporary descs (no data, no draws). */
typedef struct bld_shape {
    DMLREF_BUFFER_TENSOR_DESC buf;
    DMLREF_TENSOR_DESC desc;
} bld_shape;
const DMLREF_TENSOR_DESC *bld_shape_init(bld_shape *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes);
/* dmlref_output_sizes of output 0 of the operator desc (of `type`) at the newest level:
 * the library's shape rule, not the builder's; 0, or -1 when the library refuses it. */
int bld_output_sizes(DMLREF_OPERATOR_TYPE type, const void *desc, uint32_t n, uint32_t *out);
/* An element-count cap for a builder's shapes: base for the default small cases,
 * scaled up when gen draws large ones (bld_opts.max_elements = M: base * M / 256
 * for a base up to 256, M for a larger base, never below base).  Every cap a
 * builder uses goes through it. */
uint64_t bld_cap(uint64_t base);
/* Random sizes 1..4 (visiting dims in random order) keeping the product <= cap.
 * Large flavour: sizes of any magnitude, the product aimed at a target drawn in
 * (cap / 8, cap], never above cap nor below cap / 16. */
void bld_rand_sizes(prng *r, uint32_t n, uint32_t *s, uint64_t cap);
/* Sizes 1..maxv in dimension order, each kept while the product stays <= cap (else 1).
 * Large flavour: as bld_rand_sizes's. */
void bld_rand_dims(prng *r, uint32_t n, uint32_t *s, uint32_t maxv, uint64_t cap);
void bld_tensor_init(gtensor *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes);
/* Strides and buffer size: packed, explicit packed, or a permuted layout with gaps;
 * broadcast for some inputs when allowed.  Allocates the data.  Under
 * bld_opts.packed: packed only (no Strides, no broadcast, minimal size). */
void bld_layout(prng *r, gtensor *t, int allow_broadcast);
/* One element of type dt at p: edges, small values, exact floats, specials.  Bits
 * flavour: also subnormals, signalling NaNs, NaN payloads (either sign), the
 * float edges (largest finite, smallest normal, ...), integer extremes and bit
 * patterns, more often. */
void bld_rand_value(prng *r, DMLREF_TENSOR_DATA_TYPE dt, unsigned char *p);
/* Every slot of t's buffer: values of its type (edges, small values, specials). */
void bld_fill_random(prng *r, gtensor *t);
void bld_store_index(gtensor *t, uint64_t slot, int64_t v);
/* Whether the case may hold negative values in index tensor t: a signed index type
 * (INT32, INT64), and not under bld_opts.no_negative_indices. */
int bld_is_signed_index(const gtensor *t);
/* An index for a dimension of size n: in [0, n), or in [-n, 0) now and then where
 * bld_is_signed_index allows. */
int64_t bld_rand_index(prng *r, const gtensor *idx, uint32_t n);
/* Slot of logical coordinate c. */
uint64_t bld_slot_of(const gtensor *t, const uint32_t *c);
/* The next coordinate in row-major order; 0 after the last. */
int bld_next_coord(const uint32_t *sizes, uint32_t n, uint32_t *c);
/* One of v[0..n), uniformly.  Under a type filter only the allowed ones: for
 * bld_data_types those of bld_opts.data_types, for bld_index_types those of
 * index_types, for another list those either allows; when none is allowed, any
 * (gen then rejects the case). */
DMLREF_TENSOR_DATA_TYPE bld_pick(prng *r, const DMLREF_TENSOR_DATA_TYPE *v, uint32_t n);
/* Splits total into k >= 1 positive parts, unequal when possible. */
void bld_partition(prng *r, uint32_t total, uint32_t k, uint32_t *parts);
/* SPLIT (is_split) or JOIN: 1 to 6 pieces along a random axis. */
int bld_split_join(prng *r, gcase *g, int is_split);

#endif
