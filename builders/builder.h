/*
 * Random valid cases, one builder per operator (builders/<name>.c, listed by
 * src/core/operators.def's X-macro): `dmlref gen` draws its golden suites through
 * them.  A builder draws shapes, data types, layouts and values from a
 * splitmix64 stream (case/prng.h) and fills a case (case/case.h's dmlref_case,
 * the model the case reader fills too):
 * its tensors in binding order and its parameters in the desc (bld_set_param);
 * bld_bind() then points the desc's tensor fields at them by the schema.
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

#include "case/case.h"
#include "case/descbuf.h"
#include "case/prng.h"

#include <stddef.h>
#include <stdint.h>

/* The most tensors a builder gives a case on either side (inputs, outputs). */
#define GEN_MAX_TENSORS 8

/* A builder: fills c (made by bld_case_init: type, schema and desc set, the rest
 * zero, room for GEN_MAX_TENSORS inputs and outputs) from r: c->n_inputs and
 * c->n_outputs, the tensors in binding order, the parameters in the desc
 * (bld_set_param, bld_set_array; anything else the desc points at in c->store);
 * 0, or -1 to draw again (a shape that does not fit).  Tensor data is calloc'd
 * (NULL: out of memory, bld_out_of_memory set, the caller checks). */
typedef struct builder {
    DMLREF_OPERATOR_TYPE type;
    int (*build)(prng *r, dmlref_case *c);
} builder;

/* The builder of an operator this build holds, or NULL. */
const builder *builder_find(DMLREF_OPERATOR_TYPE type);

/* An empty case of the operator for a builder (see builder above); 0, or -1 when
 * out of memory or the operator is not built in (c then holds nothing to free). */
int bld_case_init(dmlref_case *c, DMLREF_OPERATOR_TYPE type);
/* Points the desc's tensor fields at c's tensors by the schema (single slots one
 * tensor each, in binding order; an array slot, at most one per direction, the
 * rest, its count field set), sets c->desc, the tensors' names and slots, and
 * the buffers (in_bufs, out_bufs). */
void bld_bind(dmlref_case *c);
/* Frees what c holds (every tensor a builder may have started). */
void bld_case_free(dmlref_case *c);
/* The desc's bytes. */
unsigned char *bld_desc(dmlref_case *c);
/* Sets the UINT parameter `name` of c's desc (through the schema). */
void bld_set_param(dmlref_case *c, const char *name, uint32_t v);
/* Sets the array parameter `name` (UINT_ARRAY, or INT_ARRAY given as the int32_t
 * values' bits) to n <= 8 values kept in c->store, and its count field to n. */
void bld_set_array(dmlref_case *c, const char *name, const uint32_t *v, uint32_t n);
/* Sets the FLOAT_ARRAY parameter `name` to n <= 8 floats kept in c->store, and its count field to n. */
void bld_set_float_array(dmlref_case *c, const char *name, const float *v, uint32_t n);

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

/* Set when an allocation failed while a case was drawn (a tensor's sizes, strides or data,
 * an array parameter, a builder's scratch); bld_case_init clears it.  The case is then
 * incomplete (a tensor without data, a parameter unset): gen stops with "out of memory"
 * instead of drawing again, which would give another case than the arguments name.  The
 * helpers leave a tensor without data alone (no fill, no index stored). */
extern int bld_out_of_memory;

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
/* t: type dt, sizes[0..n) (n <= 8), no layout yet; what t held before is freed (t zeroed or
 * initialised before). */
void bld_tensor_init(case_tensor *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes);
/* Frees what bld_tensor_init and bld_layout gave t. */
void bld_tensor_free(case_tensor *t);
/* Strides and buffer size: packed, explicit packed, or a permuted layout with gaps;
 * broadcast for some inputs when allowed.  Allocates the data.  Under
 * bld_opts.packed: packed only (no Strides, no broadcast, minimal size). */
void bld_layout(prng *r, case_tensor *t, int allow_broadcast);
/* One element of type dt at p: edges, small values, exact floats, specials.  Bits
 * flavour: also subnormals, signalling NaNs, NaN payloads (either sign), the
 * float edges (largest finite, smallest normal, ...), integer extremes and bit
 * patterns, more often. */
void bld_rand_value(prng *r, DMLREF_TENSOR_DATA_TYPE dt, unsigned char *p);
/* Every slot of t's buffer: values of its type (edges, small values, specials). */
void bld_fill_random(prng *r, case_tensor *t);
void bld_store_index(case_tensor *t, uint64_t slot, int64_t v);
/* Whether the case may hold negative values in index tensor t: a signed index type
 * (INT32, INT64), and not under bld_opts.no_negative_indices. */
int bld_is_signed_index(const case_tensor *t);
/* An index for a dimension of size n: in [0, n), or in [-n, 0) now and then where
 * bld_is_signed_index allows. */
int64_t bld_rand_index(prng *r, const case_tensor *idx, uint32_t n);
/* Slot of logical coordinate c. */
uint64_t bld_slot_of(const case_tensor *t, const uint32_t *c);
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
int bld_split_join(prng *r, dmlref_case *c, int is_split);

#endif
