/*
 * dmlref gen: N random valid cases with `expected` filled in by the scalar
 * oracle -- a golden suite for another backend.
 *
 * Every case is drawn from its own splitmix64 stream seeded from (seed,
 * operator, case number), so the same arguments give the same files on every
 * machine, and --count 5 writes the first 5 files of --count 50.  What a case
 * contains: every data type the chosen feature level allows, DimensionCount 1
 * to 8, packed layouts and permuted layouts with gaps between rows, zero-stride
 * (broadcast) inputs, negative indices (signed index types), JOIN/SPLIT with
 * 1 to 6 pieces of unequal sizes, TotalTensorSizeInBytes sometimes above the
 * minimum, nested data for some packed inputs.  Never: out-of-range indices,
 * duplicate scatter targets, index values beyond the int32 range, NaN payloads
 * other than the canonical quiet NaN, subnormals.  Tensors are small (at most
 * a few hundred elements).  Each case is written to memory, read back with
 * case_parse, re-executed and compared before its file is written.
 */
#include "args.h"
#include "case.h"
#include "fields.h"
#include "cli.h"
#include "file_atomic.h"
#include "json_out.h"
#include "prng.h"
#include "value.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GEN_MAX_TENSORS 8

static const char usage_gen[] =
    "usage: dmlref gen --operator OP --count N --seed S --out DIR\n"
    "\n"
    "Writes N random valid cases DIR/gen_<op>_<S>_<i>.json (i = 0 .. N-1) with `expected`\n"
    "filled in by the scalar oracle.  OP: GATHER, GATHER_ELEMENTS, SCATTER_ND, SPLIT, JOIN\n"
    "(or ALL: N cases of each).  S: a 64-bit unsigned seed; the same arguments give the\n"
    "same files.  DIR is created if missing.  Expected lists cover the whole output\n"
    "buffer: slots no output element addresses hold 0xCD bytes (a backend's comparer\n"
    "must mask them: DirectML may write there).\n"
    "\n"
    "exit status: 0 ok, 4 bad command line, 5 a file could not be written\n";

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

/* Sets the UINT parameter `name` of the case's desc. */
static void set_param(gcase *g, const char *name, uint32_t v) {
    const dmlref_param *p = fields_param(g->schema, name);
    if (p) fields_set_u32(g->u.bytes, p->offset, v);
}

static const DMLREF_TENSOR_DATA_TYPE data_types[11] = {
    DMLREF_TENSOR_DATA_TYPE_FLOAT64, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
    DMLREF_TENSOR_DATA_TYPE_INT64,   DMLREF_TENSOR_DATA_TYPE_INT32,   DMLREF_TENSOR_DATA_TYPE_INT16,
    DMLREF_TENSOR_DATA_TYPE_INT8,    DMLREF_TENSOR_DATA_TYPE_UINT64,  DMLREF_TENSOR_DATA_TYPE_UINT32,
    DMLREF_TENSOR_DATA_TYPE_UINT16,  DMLREF_TENSOR_DATA_TYPE_UINT8};
static const DMLREF_TENSOR_DATA_TYPE index_types[4] = {
    DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_INT32, DMLREF_TENSOR_DATA_TYPE_UINT64,
    DMLREF_TENSOR_DATA_TYPE_UINT32};
static const uint32_t all_levels[] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                      0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};

static uint32_t rnd(prng *r, uint32_t n) { return (uint32_t)prng_below(r, n); }

static uint64_t product(const uint32_t *s, uint32_t n) {
    uint64_t p = 1;
    for (uint32_t i = 0; i < n; ++i) p *= s[i];
    return p;
}

/* Random sizes 1..4 (visiting dims in random order) keeping the product <= cap. */
static void rand_sizes(prng *r, uint32_t n, uint32_t *s, uint64_t cap) {
    uint32_t order[8];
    for (uint32_t i = 0; i < n; ++i) order[i] = i, s[i] = 1;
    for (uint32_t i = n; i > 1; --i) {
        const uint32_t j = rnd(r, i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    uint64_t p = 1;
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t v = 1 + rnd(r, 4);
        if (p * v <= cap) {
            s[order[k]] = v;
            p *= v;
        }
    }
}

static void tensor_init(gtensor *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes) {
    memset(t, 0, sizeof *t);
    t->dt = dt;
    t->n = n;
    t->es = dmlref_data_type_size(dt);
    memcpy(t->sizes, sizes, n * sizeof *sizes);
}

/* Strides and buffer size: packed, explicit packed, or a permuted layout with gaps; broadcast for some inputs. */
static void layout(prng *r, gtensor *t, int allow_broadcast) {
    const uint32_t mode = rnd(r, 10);
    uint32_t order[8];
    for (uint32_t i = 0; i < t->n; ++i) order[i] = i;
    if (mode >= 5)
        for (uint32_t i = t->n; i > 1; --i) {
            const uint32_t j = rnd(r, i), x = order[i - 1];
            order[i - 1] = order[j];
            order[j] = x;
        }
    uint64_t cur = 1;
    for (uint32_t k = t->n; k-- > 0;) { /* order[n-1] innermost */
        const uint32_t d = order[k];
        t->strides[d] = (uint32_t)cur;
        cur = cur * t->sizes[d] + (mode >= 5 && rnd(r, 3) == 0 ? rnd(r, 3) : 0);
    }
    t->has_strides = mode >= 4;
    if (allow_broadcast && rnd(r, 4) == 0) {
        for (uint32_t d = 0; d < t->n; ++d)
            if (t->sizes[d] > 1 && rnd(r, 2) == 0) t->strides[d] = 0;
        t->has_strides = 1;
    }
    uint64_t last = 0;
    for (uint32_t d = 0; d < t->n; ++d) last += (uint64_t)(t->sizes[d] - 1) * t->strides[d];
    t->span_slots = last + 1;
    uint64_t bytes = (t->span_slots * t->es + 3) & ~UINT64_C(3);
    if (rnd(r, 4) == 0) {
        bytes += 4 * rnd(r, 3);
        t->total_given = 1;
    }
    t->total_slots = bytes / t->es;
    t->buf = (DMLREF_BUFFER_TENSOR_DESC){t->dt, DMLREF_TENSOR_FLAG_NONE, t->n, t->sizes,
                                         t->has_strides ? t->strides : NULL, bytes, 0};
    t->data = calloc((size_t)bytes, 1);
    t->whole = rnd(r, 3) == 0;
    t->nested = !t->has_strides && t->n > 1 && rnd(r, 3) == 0;
}

static void rand_value(prng *r, DMLREF_TENSOR_DATA_TYPE dt, unsigned char *p) {
    const uint32_t k = rnd(r, 100);
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
            const double d = ((double)rnd(r, 2001) - 1000.0) / 8.0;
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

static void fill_random(prng *r, gtensor *t) {
    for (uint64_t i = 0; i < t->total_slots; ++i) rand_value(r, t->dt, t->data + i * t->es);
}

static void store_index(gtensor *t, uint64_t slot, int64_t v) {
    value_store_bits(t->data + slot * t->es, t->es, (uint64_t)v);
}

static int is_signed_index(const gtensor *t) {
    return t->dt == DMLREF_TENSOR_DATA_TYPE_INT32 || t->dt == DMLREF_TENSOR_DATA_TYPE_INT64;
}

/* An index for a dimension of size n: in [0, n), or in [-n, 0) for signed types now and then. */
static int64_t rand_index(prng *r, const gtensor *idx, uint32_t n) {
    const int64_t v = (int64_t)rnd(r, n);
    return is_signed_index(idx) && rnd(r, 3) == 0 ? v - (int64_t)n : v;
}

/* Slot of logical coordinate c. */
static uint64_t slot_of(const gtensor *t, const uint32_t *c) {
    uint64_t s = 0;
    for (uint32_t d = 0; d < t->n; ++d) s += (uint64_t)c[d] * t->strides[d];
    return s;
}

static int next_coord(const uint32_t *sizes, uint32_t n, uint32_t *c) {
    for (uint32_t d = n; d-- > 0;) {
        if (++c[d] < sizes[d]) return 1;
        c[d] = 0;
    }
    return 0;
}

/* ---- per-operator shapes ------------------------------------------------------------ */

static DMLREF_TENSOR_DATA_TYPE pick(prng *r, const DMLREF_TENSOR_DATA_TYPE *v, uint32_t n) { return v[rnd(r, n)]; }

static int build_gather(prng *r, gcase *g) {
    const uint32_t N = 1 + rnd(r, 8), a = rnd(r, N), kmax = N < a + 1 ? N : a + 1, K = rnd(r, kmax + 1);
    uint32_t in[8], idx[8], out[8];
    rand_sizes(r, N, in, 48);
    for (uint32_t d = 0; d + 1 < K; ++d) in[d] = 1;
    for (uint32_t d = 0; d < N; ++d) idx[d] = 1;
    uint64_t p = 1;
    for (uint32_t d = N - K; d < N; ++d) {
        const uint32_t v = 1 + rnd(r, 3);
        if (p * v <= 12) idx[d] = v, p *= v;
    }
    for (uint32_t d = 0; d < N; ++d) out[d] = 1;
    for (uint32_t d = a + 1; d < N; ++d) out[d] = in[d];
    for (uint32_t t = 0; t < K; ++t) out[a - K + 1 + t] = idx[N - K + t];
    for (uint32_t s = 0; s < a; ++s) {
        const int od = (int)(a - K + 1) - 1 - (int)s;
        if (od >= 0) out[od] = in[a - 1 - s];
    }
    if (product(out, N) > 256) return -1;
    const DMLREF_TENSOR_DATA_TYPE dt = pick(r, data_types, 11);
    g->n_in = 2;
    g->n_out = 1;
    set_param(g, "Axis", a);
    set_param(g, "IndexDimensions", K);
    tensor_init(&g->in[0], dt, N, in);
    tensor_init(&g->in[1], pick(r, index_types, 4), N, idx);
    tensor_init(&g->out[0], dt, N, out);
    layout(r, &g->in[0], 1);
    layout(r, &g->in[1], 1);
    layout(r, &g->out[0], 0);
    fill_random(r, &g->in[0]);
    fill_random(r, &g->in[1]);
    uint32_t c[8] = {0};
    do store_index(&g->in[1], slot_of(&g->in[1], c), rand_index(r, &g->in[1], in[a]));
    while (next_coord(idx, N, c));
    return 0;
}

static int build_gather_elements(prng *r, gcase *g) {
    const uint32_t N = 1 + rnd(r, 8), a = rnd(r, N);
    uint32_t in[8], idx[8];
    rand_sizes(r, N, in, 48);
    memcpy(idx, in, sizeof in);
    idx[a] = 1 + rnd(r, 4);
    if (product(idx, N) > 256) return -1;
    const DMLREF_TENSOR_DATA_TYPE dt = pick(r, data_types, 11);
    g->n_in = 2;
    g->n_out = 1;
    set_param(g, "Axis", a);
    tensor_init(&g->in[0], dt, N, in);
    tensor_init(&g->in[1], pick(r, index_types, 4), N, idx);
    tensor_init(&g->out[0], dt, N, idx);
    layout(r, &g->in[0], 1);
    layout(r, &g->in[1], 1);
    layout(r, &g->out[0], 0);
    fill_random(r, &g->in[0]);
    fill_random(r, &g->in[1]);
    uint32_t c[8] = {0};
    do store_index(&g->in[1], slot_of(&g->in[1], c), rand_index(r, &g->in[1], in[a]));
    while (next_coord(idx, N, c));
    return 0;
}

static int build_scatter_nd(prng *r, gcase *g) {
    const uint32_t N = 1 + rnd(r, 8), R = 1 + rnd(r, N), Q = 1 + rnd(r, N), T = 1 + rnd(r, R);
    const uint32_t M = (Q - 1) + (R - T);
    if (M > N) return -1;
    uint32_t in[8], idx[8], upd[8], I[8], J[8];
    for (uint32_t d = 0; d < N; ++d) in[d] = idx[d] = upd[d] = 1;
    rand_sizes(r, R, I, 48);
    memcpy(in + (N - R), I, R * sizeof *I);
    rand_sizes(r, Q - 1, J, 8);
    J[Q - 1] = T;
    memcpy(idx + (N - Q), J, Q * sizeof *J);
    const uint64_t tuples = product(J, Q - 1), room = product(I, T);
    if (tuples > room) return -1;
    /* updates = J[0..Q-1) ++ I[T..R), right-aligned */
    uint32_t m = 0, u[8];
    for (uint32_t i = 0; i + 1 < Q; ++i) u[m++] = J[i];
    for (uint32_t i = T; i < R; ++i) u[m++] = I[i];
    memcpy(upd + (N - M), u, M * sizeof *u);
    const DMLREF_TENSOR_DATA_TYPE dt = pick(r, data_types, 11);
    g->n_in = 3;
    g->n_out = 1;
    set_param(g, "InputDimensionCount", R);
    set_param(g, "IndicesDimensionCount", Q);
    tensor_init(&g->in[0], dt, N, in);
    tensor_init(&g->in[1], pick(r, index_types, 4), N, idx);
    tensor_init(&g->in[2], dt, N, upd);
    tensor_init(&g->out[0], dt, N, in);
    layout(r, &g->in[0], 1);
    layout(r, &g->in[1], 0); /* a broadcast index tensor would repeat targets */
    layout(r, &g->in[2], 1);
    layout(r, &g->out[0], 0);
    for (int k = 0; k < 3; ++k) fill_random(r, &g->in[k]);
    /* distinct targets: the first `tuples` entries of a shuffled [0, room) */
    uint64_t *perm = malloc((size_t)room * sizeof *perm);
    if (!perm) return -1;
    for (uint64_t i = 0; i < room; ++i) perm[i] = i;
    for (uint64_t i = 0; i < tuples; ++i) {
        const uint64_t j = i + prng_below(r, room - i), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    uint32_t c[8] = {0};
    uint64_t b = 0;
    const uint32_t *isz = g->in[1].sizes;
    do {
        /* c[N-1] is the tuple component; the other coordinates enumerate tuples in row-major order */
        uint64_t flat = perm[b], rest = flat;
        uint32_t comp[8];
        for (uint32_t k = T; k-- > 0;) {
            comp[k] = (uint32_t)(rest % I[k]);
            rest /= I[k];
        }
        const uint32_t k = c[N - 1];
        int64_t v = comp[k];
        if (is_signed_index(&g->in[1]) && rnd(r, 3) == 0) v -= I[k];
        store_index(&g->in[1], slot_of(&g->in[1], c), v);
        if (k == T - 1) ++b;
    } while (next_coord(isz, N, c));
    free(perm);
    return 0;
}

/* Splits total into k >= 1 positive parts, unequal when possible. */
static void partition(prng *r, uint32_t total, uint32_t k, uint32_t *parts) {
    for (uint32_t i = 0; i < k; ++i) parts[i] = 1;
    for (uint32_t left = total - k; left > 0; --left) ++parts[rnd(r, k)];
}

static int build_split_join(prng *r, gcase *g, int is_split) {
    const uint32_t N = 1 + rnd(r, 8), a = rnd(r, N), k = 1 + rnd(r, 6);
    uint32_t whole[8], parts[6];
    rand_sizes(r, N, whole, 24);
    whole[a] = k + rnd(r, 6);
    partition(r, whole[a], k, parts);
    const DMLREF_TENSOR_DATA_TYPE dt = pick(r, data_types, 11);
    set_param(g, "Axis", a);
    gtensor *pieces = is_split ? g->out : g->in, *one = is_split ? &g->in[0] : &g->out[0];
    tensor_init(one, dt, N, whole);
    layout(r, one, is_split);
    for (uint32_t i = 0; i < k; ++i) {
        uint32_t s[8];
        memcpy(s, whole, sizeof s);
        s[a] = parts[i];
        tensor_init(&pieces[i], dt, N, s);
        layout(r, &pieces[i], !is_split);
    }
    g->n_in = is_split ? 1 : k;
    g->n_out = is_split ? k : 1;
    for (uint32_t i = 0; i < g->n_in; ++i) fill_random(r, &g->in[i]);
    return 0;
}

/* The desc's tensor fields: single slots take one tensor each, in binding order;
 * an array slot (at most one per direction) the rest, its count field set. */
static void bind(gcase *g) {
    const dmlref_schema *s = g->schema;
    for (uint32_t i = 0; i < g->n_in; ++i) g->in_desc[i] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &g->in[i].buf};
    for (uint32_t i = 0; i < g->n_out; ++i) g->out_desc[i] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &g->out[i].buf};
    uint32_t singles[2] = {0, 0}, next[2] = {0, 0};
    for (uint32_t i = 0; i < s->n_slots; ++i) singles[s->slots[i].is_output] += !s->slots[i].is_array;
    for (uint32_t i = 0; i < s->n_slots; ++i) {
        const dmlref_tensor_slot *sl = &s->slots[i];
        const int o = sl->is_output;
        const uint32_t total = o ? g->n_out : g->n_in;
        const uint32_t n = sl->is_array ? (total > singles[o] ? total - singles[o] : 0) : 1;
        const DMLREF_TENSOR_DESC *p = (o ? g->out_desc : g->in_desc) + next[o];
        next[o] += n;
        memcpy(g->u.bytes + sl->offset, &p, sizeof p);
        if (sl->is_array) fields_set_u32(g->u.bytes, sl->count_offset, n);
    }
    g->desc = (DMLREF_OPERATOR_DESC){g->type, &g->u};
}

static void gcase_free(gcase *g) {
    for (uint32_t i = 0; i < GEN_MAX_TENSORS; ++i) {
        free(g->in[i].data);
        free(g->out[i].data);
        g->in[i].data = g->out[i].data = NULL;
    }
}

/* ---- writing ---------------------------------------------------------------------------- */

static void write_nested(FILE *f, const gtensor *t, uint32_t d, uint64_t *slot) {
    if (d + 1 == t->n) {
        jout_values(f, t->data + *slot * t->es, t->sizes[d], t->dt, 0, 0);
        *slot += t->sizes[d];
        return;
    }
    fputc('[', f);
    for (uint32_t i = 0; i < t->sizes[d]; ++i) {
        if (i) fputs(", ", f);
        write_nested(f, t, d + 1, slot);
    }
    fputc(']', f);
}

static void write_tensor(FILE *f, const char *key, const gtensor *t, int with_data, unsigned indent) {
    if (key) fprintf(f, "  \"%s\": ", key);
    fprintf(f, "{\"DataType\": \"%s\", \"Sizes\": ", dmlref_data_type_name(t->dt));
    jout_u32_list(f, t->sizes, t->n);
    if (t->has_strides) {
        fputs(", \"Strides\": ", f);
        jout_u32_list(f, t->strides, t->n);
    }
    if (t->total_given) fprintf(f, ", \"TotalTensorSizeInBytes\": %" PRIu64, t->buf.TotalTensorSizeInBytes);
    if (with_data) {
        fprintf(f, ",\n%*s\"data\": ", (int)indent + 2, "");
        if (t->nested) {
            uint64_t slot = 0;
            write_nested(f, t, 0, &slot);
        } else {
            jout_values(f, t->data, t->whole ? t->total_slots : t->span_slots, t->dt, 0, 0);
        }
    }
    fputc('}', f);
}

/* `  "Name": tensor,\n`, or for an array slot `  "Name": [\n    tensor,\n    ...\n  ],\n`. */
static void write_slot(FILE *f, const dmlref_tensor_slot *sl, const gtensor *t, uint32_t n) {
    const int with_data = !sl->is_output;
    if (!sl->is_array) {
        write_tensor(f, sl->name, t, with_data, 2);
        fputs(",\n", f);
        return;
    }
    fprintf(f, "  \"%s\": [\n", sl->name);
    for (uint32_t k = 0; k < n; ++k) {
        fputs("    ", f);
        write_tensor(f, NULL, &t[k], with_data, 4);
        fputs(k + 1 < n ? ",\n" : "\n", f);
    }
    fputs("  ],\n", f);
}

/* The case file: its fields (fields_write_params), its tensors slot by slot (inputs with
 * data, outputs without), then `expected` (whole output buffers). */
static void write_case(FILE *f, const gcase *g, const char *name, uint64_t seed, uint64_t i) {
    const dmlref_schema *s = g->schema;
    const char *op = s->name;
    fprintf(f, "{\n  \"name\": \"%s\",\n", name);
    fprintf(f, "  \"comment\": \"dmlref gen --operator %s --seed %" PRIu64 ", case %" PRIu64 " (dmlref %s); expected "
               "lists cover whole output buffers: 0xCD slots are bytes no output element addresses\",\n",
            op, seed, i, DMLREF_VERSION_STRING);
    fprintf(f, "  \"operator\": \"%s\",\n  \"feature_level\": \"%s\",\n", op,
            dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)g->fl));
    fields_write_params(f, s, g->u.bytes, 2);
    for (int out = 0; out < 2; ++out)
        for (uint32_t k = 0; k < s->n_slots; ++k) {
            const dmlref_tensor_slot *sl = &s->slots[k];
            if (sl->is_output != out) continue;
            const DMLREF_TENSOR_DESC *first;
            memcpy(&first, g->u.bytes + sl->offset, sizeof first);
            const uint32_t at = (uint32_t)(first - (out ? g->out_desc : g->in_desc));
            write_slot(f, sl, (out ? g->out : g->in) + at, sl->is_array ? fields_get_u32(g->u.bytes, sl->count_offset) : 1);
        }
    fputs("  \"expected\": {", f);
    int first_out = 1;
    for (uint32_t k = 0; k < s->n_slots; ++k) {
        const dmlref_tensor_slot *sl = &s->slots[k];
        if (!sl->is_output) continue;
        const DMLREF_TENSOR_DESC *first;
        memcpy(&first, g->u.bytes + sl->offset, sizeof first);
        const gtensor *t = g->out + (first - g->out_desc);
        fprintf(f, "%s\"%s\": ", first_out ? "" : ", ", sl->name);
        first_out = 0;
        if (!sl->is_array) {
            jout_values(f, t->data, t->total_slots, t->dt, 0, 0);
            continue;
        }
        const uint32_t n = fields_get_u32(g->u.bytes, sl->count_offset);
        fputs("[\n", f);
        for (uint32_t j = 0; j < n; ++j) {
            fputs("    ", f);
            jout_values(f, t[j].data, t[j].total_slots, t[j].dt, 0, 0);
            fputs(j + 1 < n ? ",\n" : "\n", f);
        }
        fputs("  ]", f);
    }
    fputs("}\n}\n", f);
}

/* ---- one case ------------------------------------------------------------------------------- */

static int make_case(DMLREF_OPERATOR_TYPE type, uint64_t seed, uint64_t i, char **text, size_t *len, char *err,
                     size_t errcap) {
    prng r = {seed ^ (UINT64_C(0xD1B54A32D192ED03) * ((uint64_t)type + 1))};
    r.state += UINT64_C(0x9E3779B97F4A7C15) * (i + 1);
    (void)prng_next(&r);
    gcase g;
    dmlref_error derr;
    for (int attempt = 0;; ++attempt) {
        memset(&g, 0, sizeof g);
        g.type = type;
        g.schema = dmlref_operator_schema(type);
        int rc;
        switch (type) {
        case DMLREF_OPERATOR_GATHER: rc = build_gather(&r, &g); break;
        case DMLREF_OPERATOR_GATHER_ELEMENTS: rc = build_gather_elements(&r, &g); break;
        case DMLREF_OPERATOR_SCATTER_ND: rc = build_scatter_nd(&r, &g); break;
        case DMLREF_OPERATOR_SPLIT: rc = build_split_join(&r, &g, 1); break;
        default: rc = build_split_join(&r, &g, 0); break;
        }
        for (uint32_t k = 0; rc == 0 && k < g.n_in; ++k) rc = g.in[k].data ? 0 : -1;
        for (uint32_t k = 0; rc == 0 && k < g.n_out; ++k) rc = g.out[k].data ? 0 : -1;
        if (rc == 0) {
            bind(&g);
            if (dmlref_validate(&g.desc, DMLREF_FEATURE_LEVEL_6_4, &derr) == DMLREF_OK) break;
            if (attempt > 200) {
                snprintf(err, errcap, "internal: generated an invalid case: %s", derr.message);
                gcase_free(&g);
                return CASE_SYSTEM;
            }
        }
        gcase_free(&g);
        if (attempt > 1000) {
            snprintf(err, errcap, "internal: no valid case after 1000 attempts");
            return CASE_SYSTEM;
        }
    }
    /* feature level: the newest half of the time, else any level that accepts the case */
    g.fl = DMLREF_FEATURE_LEVEL_6_4;
    if (rnd(&r, 2)) {
        uint32_t ok[15], n = 0;
        for (size_t k = 0; k < sizeof all_levels / sizeof all_levels[0]; ++k)
            if (dmlref_validate(&g.desc, (DMLREF_FEATURE_LEVEL)all_levels[k], NULL) == DMLREF_OK) ok[n++] = all_levels[k];
        g.fl = ok[rnd(&r, n)];
    }
    /* outputs: 0xCD, then the oracle, with index checking as a guard */
    dmlref_cbuffer ib[GEN_MAX_TENSORS];
    dmlref_buffer ob[GEN_MAX_TENSORS];
    for (uint32_t k = 0; k < g.n_in; ++k) ib[k] = (dmlref_cbuffer){g.in[k].data, (size_t)g.in[k].buf.TotalTensorSizeInBytes};
    for (uint32_t k = 0; k < g.n_out; ++k) {
        memset(g.out[k].data, 0xCD, (size_t)g.out[k].buf.TotalTensorSizeInBytes);
        ob[k] = (dmlref_buffer){g.out[k].data, (size_t)g.out[k].buf.TotalTensorSizeInBytes};
    }
    const dmlref_options o = {DMLREF_OPTION_FORCE_ORACLE | DMLREF_OPTION_CHECK_INDICES, 1};
    if (dmlref_run(&g.desc, (DMLREF_FEATURE_LEVEL)g.fl, &o, ib, g.n_in, ob, g.n_out, &derr) != DMLREF_OK) {
        snprintf(err, errcap, "internal: the oracle failed on a generated case: %s", derr.message);
        gcase_free(&g);
        return CASE_SYSTEM;
    }
    char name[96];
    char lower[32];
    const char *op = dmlref_operator_name(type);
    size_t n = 0;
    for (; op[n] && n + 1 < sizeof lower; ++n) lower[n] = (char)(op[n] >= 'A' && op[n] <= 'Z' ? op[n] - 'A' + 'a' : op[n]);
    lower[n] = '\0';
    snprintf(name, sizeof name, "gen_%s_%" PRIu64 "_%" PRIu64, lower, seed, i);
    FILE *f = open_memstream(text, len);
    if (!f) {
        gcase_free(&g);
        snprintf(err, errcap, "out of memory");
        return CASE_SYSTEM;
    }
    write_case(f, &g, name, seed, i);
    fclose(f);
    gcase_free(&g);

    /* read it back as any user would, run it and compare */
    dmlref_case c;
    char perr[512];
    int rc = case_parse(*text, *len, NULL, &c, perr, sizeof perr);
    if (rc == CASE_OK) {
        const dmlref_options fo = {DMLREF_OPTION_FORCE_ORACLE, 1};
        if (dmlref_run(&c.desc, c.feature_level, &fo, c.in_bufs, c.n_inputs, c.out_bufs, c.n_outputs, &derr) != DMLREF_OK) {
            snprintf(perr, sizeof perr, "%s", derr.message);
            rc = CASE_INVALID;
        } else if (case_compare(&c, NULL, 0) != 0) {
            snprintf(perr, sizeof perr, "expected values do not read back");
            rc = CASE_DIFFER;
        }
        case_free(&c);
    }
    if (rc != CASE_OK) {
        snprintf(err, errcap, "internal: %s does not read back: %s", name, perr);
        free(*text);
        *text = NULL;
        return CASE_SYSTEM;
    }
    return CASE_OK;
}

int cmd_gen(int argc, char **argv) {
    const char *opname = NULL, *outdir = NULL;
    uint64_t count = 0, seed = 0;
    int have_count = 0, have_seed = 0;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i], *v = NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_gen, stdout);
            return 0;
        }
        static const char *const names[] = {"--operator", "--count", "--seed", "--out"};
        int which = -1;
        for (int k = 0; k < 4; ++k) {
            const size_t n = strlen(names[k]);
            if (strncmp(a, names[k], n) == 0 && (a[n] == '\0' || a[n] == '=')) {
                which = k;
                v = a[n] == '=' ? a + n + 1 : (i + 1 < argc ? argv[++i] : NULL);
            }
        }
        if (which < 0) {
            fprintf(stderr, "dmlref gen: unexpected argument '%s' (dmlref gen --help)\n", a);
            return CASE_USAGE;
        }
        if (!v) {
            fprintf(stderr, "dmlref gen: %s needs a value (dmlref gen --help)\n", names[which]);
            return CASE_USAGE;
        }
        if (which == 0) opname = v;
        else if (which == 3) outdir = v;
        else if (cli_parse_u64(v, which == 1 ? 1000000 : UINT64_MAX, which == 1 ? &count : &seed)) {
            fprintf(stderr, "dmlref gen: %s needs a non-negative integer%s, got '%s'\n", names[which],
                    which == 1 ? " <= 1000000" : "", v);
            return CASE_USAGE;
        } else if (which == 1) have_count = 1;
        else have_seed = 1;
    }
    if (!opname || !outdir || !have_count || !have_seed) {
        fprintf(stderr, "dmlref gen: --operator, --count, --seed and --out are required (dmlref gen --help)\n");
        return CASE_USAGE;
    }
    /* ALL: every operator of the schema list, in its order */
    DMLREF_OPERATOR_TYPE ops[64];
    int n_ops = 0;
    if (strcmp(opname, "ALL") == 0) {
        const dmlref_schema *sc;
        for (uint32_t k = 0; (sc = dmlref_operator_schema_at(k)) != NULL && n_ops < 64; ++k) ops[n_ops++] = sc->type;
    } else if ((ops[0] = case_operator_from_name(opname)) != 0) {
        n_ops = 1;
    } else {
        char names[512];
        fprintf(stderr, "dmlref gen: unknown operator '%s' (%s, ALL)\n", opname, case_operator_names(names, sizeof names));
        return CASE_USAGE;
    }
    if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "dmlref gen: cannot create %s: %s\n", outdir, strerror(errno));
        return CASE_SYSTEM;
    }
    const size_t dl = strlen(outdir);
    char *path = malloc(dl + 128);
    if (!path) return CASE_SYSTEM;
    char err[1024];
    int rc = CASE_OK;
    for (int k = 0; k < n_ops && rc == CASE_OK; ++k) {
        const char *op = dmlref_operator_name(ops[k]);
        char lower[32];
        size_t n = 0;
        for (; op[n] && n + 1 < sizeof lower; ++n) lower[n] = (char)(op[n] >= 'A' && op[n] <= 'Z' ? op[n] - 'A' + 'a' : op[n]);
        lower[n] = '\0';
        for (uint64_t i = 0; i < count && rc == CASE_OK; ++i) {
            char *text = NULL;
            size_t len = 0;
            rc = make_case(ops[k], seed, i, &text, &len, err, sizeof err);
            if (rc == CASE_OK) {
                snprintf(path, dl + 128, "%s/gen_%s_%" PRIu64 "_%" PRIu64 ".json", outdir, lower, seed, i);
                const file_part part = {text, len};
                if (file_write_atomic(path, &part, 1, err, sizeof err)) rc = CASE_SYSTEM;
            }
            free(text);
            if (rc != CASE_OK) fprintf(stderr, "dmlref gen: %s\n", err);
        }
    }
    free(path);
    return rc;
}
