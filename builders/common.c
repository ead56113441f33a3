/*
 * The builders' shared helpers (builder.h): random sizes, layouts with gaps and
 * broadcast, data-type picks, value and index fills, binding a case's desc by
 * the schema.  (The list of builders, one per operator of src/core/operators.def, is
 * builders/list.c.)
 * Moved from cli/gen.c as they were: the same PRNG calls in the same order, so
 * `dmlref gen` writes the same files.
 */
#include "builder.h"

#include "case/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const DMLREF_TENSOR_DATA_TYPE bld_data_types[11] = {
    DMLREF_TENSOR_DATA_TYPE_FLOAT64, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
    DMLREF_TENSOR_DATA_TYPE_INT64,   DMLREF_TENSOR_DATA_TYPE_INT32,   DMLREF_TENSOR_DATA_TYPE_INT16,
    DMLREF_TENSOR_DATA_TYPE_INT8,    DMLREF_TENSOR_DATA_TYPE_UINT64,  DMLREF_TENSOR_DATA_TYPE_UINT32,
    DMLREF_TENSOR_DATA_TYPE_UINT16,  DMLREF_TENSOR_DATA_TYPE_UINT8};
const DMLREF_TENSOR_DATA_TYPE bld_index_types[4] = {
    DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_INT32, DMLREF_TENSOR_DATA_TYPE_UINT64,
    DMLREF_TENSOR_DATA_TYPE_UINT32};

bld_settings bld_opts;
int bld_out_of_memory;

uint32_t bld_rnd(prng *r, uint32_t n) { return (uint32_t)prng_below(r, n); }

uint64_t bld_product(const uint32_t *s, uint32_t n) {
    uint64_t p = 1;
    for (uint32_t i = 0; i < n; ++i) p *= s[i];
    return p;
}

uint64_t bld_cap(uint64_t base) {
    const uint64_t m = bld_opts.max_elements;
    if (!m) return base;
    const uint64_t c = base <= BLD_SMALL_CAP ? base * m / BLD_SMALL_CAP : m;
    return c > base ? c : base;
}

/* The largest g >= 1 with g^k <= x (x >= 1, k >= 1), in integers (the same on every host). */
static uint64_t iroot(uint64_t x, uint32_t k) {
    uint64_t lo = 1, hi = x;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        uint64_t p = 1;
        int over = 0;
        for (uint32_t i = 0; i < k && !over; ++i) {
            if (p > x / mid) over = 1;
            else p *= mid;
        }
        if (over) hi = mid - 1;
        else lo = mid;
    }
    return lo;
}

/* The large flavour's sizes: a target product in (cap / 8, cap], shared out over the
 * dimensions (in the random order) around its k-th root, some dimensions 1. */
static void large_sizes(prng *r, uint32_t n, uint32_t *s, uint64_t cap, const uint32_t *order) {
    if (cap > UINT32_MAX) cap = UINT32_MAX;
    if (cap < 1) cap = 1;
    const uint64_t target = cap - prng_below(r, cap - cap / 8);
    uint64_t p = 1;
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t left = n - k;
        const uint64_t rem = target / p ? target / p : 1;
        uint64_t v = rem;
        if (left > 1) {
            v = bld_rnd(r, 6) == 0 ? 1 : 1 + prng_below(r, 2 * iroot(rem, left));
        }
        if (v > cap / p) v = cap / p;
        if (v < 1) v = 1;
        s[order[k]] = (uint32_t)v;
        p *= v;
    }
}

void bld_rand_sizes(prng *r, uint32_t n, uint32_t *s, uint64_t cap) {
    uint32_t order[8];
    for (uint32_t i = 0; i < n; ++i) order[i] = i, s[i] = 1;
    for (uint32_t i = n; i > 1; --i) {
        const uint32_t j = bld_rnd(r, i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    if (bld_opts.max_elements) {
        large_sizes(r, n, s, cap, order);
        return;
    }
    uint64_t p = 1;
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t v = 1 + bld_rnd(r, 4);
        if (p * v <= cap) {
            s[order[k]] = v;
            p *= v;
        }
    }
}

void bld_rand_dims(prng *r, uint32_t n, uint32_t *s, uint32_t maxv, uint64_t cap) {
    if (bld_opts.max_elements) {
        const uint32_t order[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        large_sizes(r, n, s, cap, order);
        return;
    }
    uint64_t p = 1;
    for (uint32_t d = 0; d < n; ++d) {
        const uint32_t v = 1 + bld_rnd(r, maxv);
        s[d] = 1;
        if (p * v <= cap) s[d] = v, p *= v;
    }
}

void bld_tensor_init(case_tensor *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes) {
    bld_tensor_free(t);
    t->buf.DataType = dt;
    t->esize = dmlref_data_type_size(dt);
    t->index = -1;
    t->sizes = calloc(8, sizeof *t->sizes);
    t->strides = calloc(8, sizeof *t->strides);
    if (!t->sizes || !t->strides) { /* DimensionCount 0 and no data: the caller's out-of-memory check */
        bld_out_of_memory = 1;
        return;
    }
    t->buf.DimensionCount = n;
    memcpy(t->sizes, sizes, n * sizeof *sizes);
}

void bld_tensor_free(case_tensor *t) {
    free(t->sizes);
    free(t->strides);
    free(t->data);
    free(t->expected);
    free(t->any_nan);
    free(t->undefined);
    memset(t, 0, sizeof *t);
}

/* Strides and buffer size: packed, explicit packed, or a permuted bld_layout with gaps; broadcast for some inputs. */
void bld_layout(prng *r, case_tensor *t, int allow_broadcast) {
    const int packed = bld_opts.packed; /* no draw of a non-packed choice: the plain flavour draws as before */
    const uint32_t mode = packed ? 0 : bld_rnd(r, 10);
    if (!t->strides) return; /* bld_tensor_init ran out of memory: no data, the caller's check */
    uint32_t order[8];
    for (uint32_t i = 0; i < t->buf.DimensionCount; ++i) order[i] = i;
    if (mode >= 5)
        for (uint32_t i = t->buf.DimensionCount; i > 1; --i) {
            const uint32_t j = bld_rnd(r, i), x = order[i - 1];
            order[i - 1] = order[j];
            order[j] = x;
        }
    uint64_t cur = 1;
    for (uint32_t k = t->buf.DimensionCount; k-- > 0;) { /* order[n-1] innermost */
        const uint32_t d = order[k];
        t->strides[d] = (uint32_t)cur;
        cur = cur * t->sizes[d] + (mode >= 5 && bld_rnd(r, 3) == 0 ? bld_rnd(r, 3) : 0);
    }
    int has_strides = mode >= 4;
    if (allow_broadcast && !packed && bld_rnd(r, 4) == 0) {
        for (uint32_t d = 0; d < t->buf.DimensionCount; ++d)
            if (t->sizes[d] > 1 && bld_rnd(r, 2) == 0) t->strides[d] = 0;
        has_strides = 1;
    }
    uint64_t last = 0;
    for (uint32_t d = 0; d < t->buf.DimensionCount; ++d) last += (uint64_t)(t->sizes[d] - 1) * t->strides[d];
    t->span_slots = last + 1;
    uint64_t bytes = (t->span_slots * t->esize + 3) & ~UINT64_C(3);
    if (!packed && bld_rnd(r, 4) == 0) {
        bytes += 4 * bld_rnd(r, 3);
        t->total_given = 1;
    }
    t->total_slots = bytes / t->esize;
    t->buf = (DMLREF_BUFFER_TENSOR_DESC){t->buf.DataType, DMLREF_TENSOR_FLAG_NONE, t->buf.DimensionCount, t->sizes,
                                         has_strides ? t->strides : NULL, bytes, 0};
    t->data = calloc((size_t)bytes, 1);
    if (!t->data) bld_out_of_memory = 1;
    t->bytes = (size_t)bytes;
    t->whole = bld_rnd(r, 3) == 0;
    t->nested = !has_strides && t->buf.DimensionCount > 1 && bld_rnd(r, 3) == 0;
}

static void bits_value(prng *r, DMLREF_TENSOR_DATA_TYPE dt, unsigned char *p);

void bld_rand_value(prng *r, DMLREF_TENSOR_DATA_TYPE dt, unsigned char *p) {
    if (bld_opts.bits && bld_rnd(r, 10) >= 3) {
        bits_value(r, dt, p);
        return;
    }
    const uint32_t k = bld_rnd(r, 100);
    uint64_t bits = prng_next(r);
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16:
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32:
    case DMLREF_TENSOR_DATA_TYPE_FLOAT64: {
        const int es = (int)dmlref_data_type_size(dt);
        const int ebits = es == 2 ? 5 : es == 4 ? 8 : 11, mbits = es * 8 - 1 - ebits;
        const uint64_t emax = (UINT64_C(1) << ebits) - 1, sign = (uint64_t)(bits >> 63) << (es * 8 - 1);
        uint64_t v;
        if (k < 60) { /* a multiple of 1/8 in [-125, 125]: exact in every float type */
            const double d = ((double)bld_rnd(r, 2001) - 1000.0) / 8.0;
            if (es == 8) memcpy(&v, &d, 8);
            else if (es == 4) {
                const float f = (float)d;
                uint32_t u;
                memcpy(&u, &f, 4);
                v = u;
            } else {
                /* exact: |d| <= 125 with 1/8 steps fits in 11 bits */
                v = 0;
                if (d != 0) {
                    double a = d < 0 ? -d : d;
                    int e = 0;
                    while (a >= 2) a /= 2, ++e;
                    while (a < 1) a *= 2, --e;
                    v = (uint64_t)(d < 0) << 15 | (uint64_t)(e + 15) << 10 | (uint64_t)((a - 1) * 1024);
                }
            }
        } else if (k < 92) { /* any normal number */
            const uint64_t e = 1 + prng_below(r, emax - 1);
            v = sign | e << mbits | (bits & ((UINT64_C(1) << mbits) - 1));
        } else if (k < 96) {
            v = sign; /* +-0 */
        } else if (k < 99) {
            v = sign | emax << mbits; /* +-inf */
        } else {
            v = emax << mbits | UINT64_C(1) << (mbits - 1); /* the canonical quiet NaN */
        }
        value_store_bits(p, (uint32_t)es, v);
        return;
    }
    default: {
        const uint32_t es = dmlref_data_type_size(dt);
        const int is_signed = dt == DMLREF_TENSOR_DATA_TYPE_INT8 || dt == DMLREF_TENSOR_DATA_TYPE_INT16 ||
                              dt == DMLREF_TENSOR_DATA_TYPE_INT32 || dt == DMLREF_TENSOR_DATA_TYPE_INT64;
        if (k < 12) { /* edges: 0, max, min, -1 / 1 */
            const uint64_t top = UINT64_C(1) << (es * 8 - 1);
            const uint64_t edges[4] = {0, is_signed ? top - 1 : top * 2 - 1, is_signed ? top : 0,
                                       is_signed ? UINT64_MAX : 1};
            bits = edges[k % 4];
        } else if (k < 40) {
            bits = prng_below(r, 201) - 100; /* small values, both signs (unsigned: wraps to large) */
        }
        value_store_bits(p, es, bits); /* the low es bytes' worth, as an integer of that width (any host) */
        return;
    }
    }
}

/* The bits flavour's values (70% of its draws; the rest are the plain ones). */
static void bits_value(prng *r, DMLREF_TENSOR_DATA_TYPE dt, unsigned char *p) {
    const uint32_t k = bld_rnd(r, 100);
    const uint64_t bits = prng_next(r);
    const uint32_t es = dmlref_data_type_size(dt);
    const int nbits = (int)es * 8;
    const uint64_t ones = es == 8 ? UINT64_MAX : (UINT64_C(1) << nbits) - 1;
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16 || dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32 ||
        dt == DMLREF_TENSOR_DATA_TYPE_FLOAT64) {
        const int ebits = es == 2 ? 5 : es == 4 ? 8 : 11, mbits = nbits - 1 - ebits;
        const uint64_t sign = (bits >> 63) << (nbits - 1), man = (UINT64_C(1) << mbits) - 1,
                       quiet = UINT64_C(1) << (mbits - 1), emax = (UINT64_C(1) << ebits) - 1,
                       payload = bits & (quiet - 1); /* below the quiet bit */
        uint64_t v;
        if (k < 30) { /* a subnormal: exponent 0, significand not 0 */
            v = sign | ((bits & man) ? bits & man : 1);
        } else if (k < 42) { /* the edges: smallest and largest subnormal, smallest normal, largest finite */
            const uint32_t w = bld_rnd(r, 4);
            v = sign | (w == 0 ? 1 : w == 1 ? man : w == 2 ? man + 1 : ((emax - 1) << mbits | man));
        } else if (k < 60) { /* a signalling NaN: quiet bit clear, payload not 0 */
            v = sign | emax << mbits | (payload ? payload : 1);
        } else if (k < 76) { /* a quiet NaN with a payload, or the negative canonical one */
            v = sign | emax << mbits | quiet | payload;
            if (v == (emax << mbits | quiet)) v |= UINT64_C(1) << (nbits - 1);
        } else if (k < 88) {
            v = sign; /* +-0 */
        } else if (k < 97) {
            v = sign | emax << mbits; /* +-inf */
        } else {
            v = emax << mbits | quiet; /* the canonical quiet NaN */
        }
        value_store_bits(p, es, v);
        return;
    }
    const int is_signed = dt == DMLREF_TENSOR_DATA_TYPE_INT8 || dt == DMLREF_TENSOR_DATA_TYPE_INT16 ||
                          dt == DMLREF_TENSOR_DATA_TYPE_INT32 || dt == DMLREF_TENSOR_DATA_TYPE_INT64;
    const uint64_t top = UINT64_C(1) << (nbits - 1);
    uint64_t v;
    if (k < 70) { /* extremes and their neighbours, 0, +-1, alternating and single-byte patterns */
        const uint64_t max = is_signed ? top - 1 : ones, min = is_signed ? top : 0;
        const uint64_t edges[12] = {max, min, max - 1, min + 1, 0, 1, ones, top,
                                    UINT64_C(0x5555555555555555) & ones, UINT64_C(0xAAAAAAAAAAAAAAAA) & ones,
                                    UINT64_C(0xFF) << (nbits - 8), 0xFF};
        v = edges[k % 12];
    } else {
        v = bits & ones; /* any pattern */
    }
    value_store_bits(p, es, v);
}

void bld_fill_random(prng *r, case_tensor *t) {
    for (uint64_t i = 0; t->data && i < t->total_slots; ++i) bld_rand_value(r, t->buf.DataType, t->data + i * t->esize);
}

void bld_store_index(case_tensor *t, uint64_t slot, int64_t v) {
    if (t->data) value_store_bits(t->data + slot * t->esize, t->esize, (uint64_t)v);
}

int bld_is_signed_index(const case_tensor *t) {
    if (bld_opts.no_negative_indices) return 0;
    return t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_INT32 || t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_INT64;
}

/* An index for a dimension of size n: in [0, n), or in [-n, 0) for signed types now and then. */
int64_t bld_rand_index(prng *r, const case_tensor *idx, uint32_t n) {
    const int64_t v = (int64_t)bld_rnd(r, n);
    return bld_is_signed_index(idx) && bld_rnd(r, 3) == 0 ? v - (int64_t)n : v;
}

/* Slot of logical coordinate c. */
uint64_t bld_slot_of(const case_tensor *t, const uint32_t *c) {
    uint64_t s = 0;
    for (uint32_t d = 0; d < t->buf.DimensionCount; ++d) s += (uint64_t)c[d] * t->strides[d];
    return s;
}

int bld_next_coord(const uint32_t *sizes, uint32_t n, uint32_t *c) {
    for (uint32_t d = n; d-- > 0;) {
        if (++c[d] < sizes[d]) return 1;
        c[d] = 0;
    }
    return 0;
}

/* ---- per-operator shapes ------------------------------------------------------------ */

static int type_in(uint32_t mask, DMLREF_TENSOR_DATA_TYPE t) { return mask == 0 || (mask >> (unsigned)t & 1u); }

static int pick_allowed(const DMLREF_TENSOR_DATA_TYPE *v, DMLREF_TENSOR_DATA_TYPE t) {
    if (v == bld_data_types) return type_in(bld_opts.data_types, t);
    if (v == bld_index_types) return type_in(bld_opts.index_types, t);
    const int index_type = t == DMLREF_TENSOR_DATA_TYPE_INT32 || t == DMLREF_TENSOR_DATA_TYPE_INT64 ||
                           t == DMLREF_TENSOR_DATA_TYPE_UINT32 || t == DMLREF_TENSOR_DATA_TYPE_UINT64;
    return type_in(bld_opts.data_types, t) || (index_type && type_in(bld_opts.index_types, t));
}

DMLREF_TENSOR_DATA_TYPE bld_pick(prng *r, const DMLREF_TENSOR_DATA_TYPE *v, uint32_t n) {
    if (!bld_opts.data_types && !bld_opts.index_types) return v[bld_rnd(r, n)];
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; ++i) m += (uint32_t)pick_allowed(v, v[i]);
    if (m == 0) return v[bld_rnd(r, n)]; /* nothing allowed: gen rejects the case */
    uint32_t k = bld_rnd(r, m);
    for (uint32_t i = 0;; ++i)
        if (pick_allowed(v, v[i]) && k-- == 0) return v[i];
}

/* Splits total into k >= 1 positive parts, unequal when possible. */
void bld_partition(prng *r, uint32_t total, uint32_t k, uint32_t *parts) {
    for (uint32_t i = 0; i < k; ++i) parts[i] = 1;
    for (uint32_t left = total - k; left > 0; --left) ++parts[bld_rnd(r, k)];
}

int bld_split_join(prng *r, dmlref_case *g, int is_split) {
    const uint32_t N = 1 + bld_rnd(r, 8), a = bld_rnd(r, N), k = 1 + bld_rnd(r, 6);
    uint32_t whole[8], parts[6];
    if (!bld_opts.max_elements) {
        bld_rand_sizes(r, N, whole, bld_cap(24));
        whole[a] = k + bld_rnd(r, 6);
    } else { /* large: the axis drawn with the rest (24 * 11: the small cases' largest whole) */
        bld_rand_sizes(r, N, whole, bld_cap(24 * 11));
        if (whole[a] < k) whole[a] = k;
    }
    bld_partition(r, whole[a], k, parts);
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    bld_set_param(g, "Axis", a);
    case_tensor *pieces = is_split ? g->outputs : g->inputs, *one = is_split ? &g->inputs[0] : &g->outputs[0];
    bld_tensor_init(one, dt, N, whole);
    bld_layout(r, one, is_split);
    for (uint32_t i = 0; i < k; ++i) {
        uint32_t s[8];
        memcpy(s, whole, sizeof s);
        s[a] = parts[i];
        bld_tensor_init(&pieces[i], dt, N, s);
        bld_layout(r, &pieces[i], !is_split);
    }
    g->n_inputs = is_split ? 1 : k;
    g->n_outputs = is_split ? k : 1;
    for (uint32_t i = 0; i < g->n_inputs; ++i) bld_fill_random(r, &g->inputs[i]);
    return 0;
}

/* The desc's tensor fields by the schema (desc_bind: single slots one tensor each, in
 * binding order; an array slot the rest, its count field set). */
void bld_bind(dmlref_case *g) {
    for (uint32_t i = 0; i < g->n_inputs; ++i) {
        g->in_descs[i] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &g->inputs[i].buf};
        g->in_bufs[i] = (dmlref_cbuffer){g->inputs[i].data, g->inputs[i].bytes};
    }
    for (uint32_t i = 0; i < g->n_outputs; ++i) {
        g->out_descs[i] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &g->outputs[i].buf};
        g->out_bufs[i] = (dmlref_buffer){g->outputs[i].data, g->outputs[i].bytes};
        g->outputs[i].is_output = 1;
    }
    (void)desc_bind(g->schema, g->desc_mem, g->in_descs, g->n_inputs, g->out_descs, g->n_outputs); /* validation reports a misfit */
    g->desc = (DMLREF_OPERATOR_DESC){g->type, g->desc_mem};
    /* the tensors' names, as the reader gives them ("InputTensors[2]") */
    const dmlref_schema *s = g->schema;
    for (uint32_t k = 0; k < s->n_slots; ++k) {
        const dmlref_tensor_slot *sl = &s->slots[k];
        const DMLREF_TENSOR_DESC *first;
        memcpy(&first, bld_desc(g) + sl->offset, sizeof first);
        if (!first) continue;
        const uint32_t cnt = sl->is_array ? desc_get_u32(g->desc_mem, sl->count_offset) : 1;
        case_tensor *t = sl->is_output ? g->outputs + (first - g->out_descs) : g->inputs + (first - g->in_descs);
        for (uint32_t j = 0; j < cnt; ++j) {
            t[j].slot = sl->name;
            t[j].index = sl->is_array ? (int32_t)j : -1;
            if (sl->is_array) snprintf(t[j].name, sizeof t[j].name, "%s[%u]", sl->name, (unsigned)j);
            else snprintf(t[j].name, sizeof t[j].name, "%s", sl->name);
        }
    }
}

int bld_case_init(dmlref_case *g, DMLREF_OPERATOR_TYPE type) {
    memset(g, 0, sizeof *g);
    bld_out_of_memory = 0;
    const dmlref_schema *s = dmlref_operator_schema(type);
    if (!s) return -1;
    g->type = type;
    g->schema = s;
    g->op_name = s->name;
    g->feature_level = DMLREF_FEATURE_LEVEL_LATEST;
    g->inputs = calloc(GEN_MAX_TENSORS, sizeof *g->inputs);
    g->outputs = calloc(GEN_MAX_TENSORS, sizeof *g->outputs);
    g->in_descs = calloc(GEN_MAX_TENSORS, sizeof *g->in_descs);
    g->out_descs = calloc(GEN_MAX_TENSORS, sizeof *g->out_descs);
    g->in_bufs = calloc(GEN_MAX_TENSORS, sizeof *g->in_bufs);
    g->out_bufs = calloc(GEN_MAX_TENSORS, sizeof *g->out_bufs);
    g->desc_mem = desc_alloc(s);
    if (!g->inputs || !g->outputs || !g->in_descs || !g->out_descs || !g->in_bufs || !g->out_bufs || !g->desc_mem) {
        bld_case_free(g);
        bld_out_of_memory = 1;
        return -1;
    }
    return 0;
}

void bld_case_free(dmlref_case *g) {
    if (g->inputs) g->n_inputs = GEN_MAX_TENSORS; /* every tensor a builder may have started */
    if (g->outputs) g->n_outputs = GEN_MAX_TENSORS;
    case_free(g);
}

unsigned char *bld_desc(dmlref_case *g) { return g->desc_mem; }

/* Sets the UINT parameter `name` of the case's desc (through the schema). */
void bld_set_param(dmlref_case *g, const char *name, uint32_t v) {
    const dmlref_param *p = desc_param(g->schema, name);
    if (p) desc_set_u32(g->desc_mem, p->offset, v);
}

void bld_set_array(dmlref_case *g, const char *name, const uint32_t *v, uint32_t n) {
    const dmlref_param *p = desc_param(g->schema, name);
    uint32_t *a = p && n <= 8 ? fields_store_alloc(&g->store, 8 * sizeof *a) : NULL;
    if (p && n <= 8 && !a) bld_out_of_memory = 1;
    if (!a) return; /* validation reports what is missing */
    memcpy(a, v, n * sizeof *v);
    memcpy(bld_desc(g) + p->offset, &a, sizeof a);
    if (p->count_name) desc_set_u32(g->desc_mem, p->count_offset, n);
}

void bld_set_float_array(dmlref_case *g, const char *name, const float *v, uint32_t n) {
    const dmlref_param *p = desc_param(g->schema, name);
    float *a = p && n <= 8 ? fields_store_alloc(&g->store, 8 * sizeof *a) : NULL;
    if (p && n <= 8 && !a) bld_out_of_memory = 1;
    if (!a) return; /* validation reports what is missing */
    memcpy(a, v, n * sizeof *v);
    memcpy(bld_desc(g) + p->offset, &a, sizeof a);
    if (p->count_name) desc_set_u32(g->desc_mem, p->count_offset, n);
}

const DMLREF_TENSOR_DESC *bld_shape_init(bld_shape *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes) {
    t->buf = (DMLREF_BUFFER_TENSOR_DESC){dt, DMLREF_TENSOR_FLAG_NONE, n, sizes, NULL,
                                         dmlref_calc_buffer_tensor_size(dt, n, sizes, NULL), 0};
    t->desc = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &t->buf};
    return &t->desc;
}

int bld_output_sizes(DMLREF_OPERATOR_TYPE type, const void *desc, uint32_t n, uint32_t *out) {
    const DMLREF_OPERATOR_DESC d = {type, desc};
    uint32_t got_n = 0, got[8];
    if (dmlref_output_sizes(&d, DMLREF_FEATURE_LEVEL_LATEST, 0, &got_n, got, NULL) != DMLREF_OK || got_n != n)
        return -1;
    memcpy(out, got, n * sizeof *out);
    return 0;
}
