/*
 * ONE_HOT's fast path (one_hot_fast.h; the class, its rules and its oracle are
 * op_one_hot.c), bit-identical to the oracle and tested against it on random
 * cases.
 *
 * It writes each output sequence (line) once, in full:
 *   one_hot.rows         Axis is the innermost dim that is not 1 and a line is
 *                        contiguous: each line is one copy of D elements out of
 *                        a template [off x (D-1), on, off x D] built on the
 *                        stack at execute (the line of v starts at D-1-v, the
 *                        all-off line at D);
 *   one_hot.rows_stream  the same with streaming stores (large outputs): the
 *                        output is a pure write stream, never read for ownership;
 *   one_hot.long_rows    lines above 2 KiB: off-fill before v, on, off-fill after
 *                        (streamed for large outputs);
 *   one_hot.strided      lines not contiguous: element by element;
 *   one_hot.planes       dims after Axis: per outer point and chunk of up to 256
 *                        inner points, the indices normalized once, then each
 *                        position along Axis written as a run over the chunk.
 */
#include "ops/kernels.h"
#include "one_hot_fast.h"
#include "simd/simd.h"

#include <stdlib.h>
#include <string.h>

enum { OH_ROWS, OH_ROWS_STREAM, OH_LONG_ROWS, OH_LONG_ROWS_STREAM, OH_STRIDED, OH_PLANES };

#if DMLREF_SMALL          /* a small target: the stack buffers below 256 bytes each */
#define TMPL_ROW_MAX 64u
#define PAT_BYTES 64u
#define CHUNK 16u
#else
#define TMPL_ROW_MAX 2048u /* one_hot.rows: lines up to this many bytes (a template of twice that) */
#define PAT_BYTES 1024u    /* one_hot.long_rows: the off pattern, in pieces of this size          */
#define CHUNK 256u         /* one_hot.planes: inner points per unit                                */
#endif

typedef struct one_hot_plan {
    int mode;
    uint32_t nth;
    uint32_t ixtype;
    uint32_t es;
    uint64_t D;         /* Output.Sizes[Axis]                                         */
    uint64_t oas;       /* the output's byte stride along Axis                        */
    uint64_t on_offset; /* byte offset of the on value in Values                      */
    nest_t outer;       /* rows: every dim but Axis; planes: the dims before Axis     */
    nest_t inner;       /* planes: the dims after Axis (st[0] Output, st[1] Indices)  */
    uint64_t chunks;    /* planes: units per outer point                              */
    uint64_t units;
} one_hot_plan;

typedef struct one_hot_ctx {
    const one_hot_plan *p;
    const unsigned char *ix, *off, *on;
    unsigned char *out;
    const unsigned char *tmpl; /* rows: the template (stack of the executing call)    */
    const unsigned char *pat;  /* long rows: PAT_BYTES of off values                   */
} one_hot_ctx;

/* The index at q under ONE_HOT's rule, through index.h's one definition: in
 * [0, n) as normalized, n when out of range (the whole sequence off). */
static DMLREF_ALWAYS_INLINE uint64_t oh_index(const unsigned char *q, uint32_t dtype, uint64_t n) {
    int in_range;
    return index_load(q, dtype, n, INDEX_OPERATOR_RULE, &in_range);
}

static DMLREF_ALWAYS_INLINE void put_elem(unsigned char *d, const unsigned char *s, unsigned es) {
    switch (es) {
    case 1: d[0] = s[0]; break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    default: memcpy(d, s, 8); break;
    }
}

static DMLREF_ALWAYS_INLINE void put_bytes(unsigned char *d, const unsigned char *s, size_t n, int stream) {
    if (stream) simd_copy_stream(d, s, n);
    else simd_copy_block(d, s, n);
}

/* n bytes (a multiple of the element size) of off values from the pattern. */
static void fill_off(unsigned char *d, uint64_t n, const unsigned char *pat, int stream) {
    while (n) {
        const size_t k = n < PAT_BYTES ? (size_t)n : PAT_BYTES;
        put_bytes(d, pat, k, stream);
        d += k;
        n -= k;
    }
}

/* One contiguous line of D elements (es bytes each) at dst for the normalized
 * index v (D: none); tmpl: the template, else pat: the off pattern. */
static DMLREF_ALWAYS_INLINE void put_line(unsigned char *dst, uint64_t v, uint64_t D, uint64_t es, const unsigned char *tmpl,
                                          const unsigned char *pat, const unsigned char *on, int stream) {
    if (tmpl) {
        put_bytes(dst, tmpl + (v < D ? D - 1 - v : D) * es, (size_t)(D * es), stream);
        return;
    }
    if (v >= D) {
        fill_off(dst, D * es, pat, stream);
        return;
    }
    fill_off(dst, v * es, pat, stream);
    memcpy(dst + v * es, on, (size_t)es);
    fill_off(dst + (v + 1) * es, (D - 1 - v) * es, pat, stream);
}

/* Lines [lo, hi) of the outer nest (st[0] Output, st[1] Indices).  The plan's
 * fields are read into locals first: the stores through the output could alias
 * anything as far as the compiler knows, and would reload them every line. */
static DMLREF_ALWAYS_INLINE void rows_body(const one_hot_ctx *c, uint64_t lo, uint64_t hi, uint32_t dtype, int mode) {
    const one_hot_plan *p = c->p;
    const nest_t *nt = &p->outer;
    const uint64_t os = nt->st[0][nt->m - 1], xs = nt->st[1][nt->m - 1], D = p->D, oas = p->oas, es = p->es;
    const int stream = mode == OH_ROWS_STREAM || mode == OH_LONG_ROWS_STREAM;
    const unsigned char *const tmpl = mode == OH_ROWS || mode == OH_ROWS_STREAM ? c->tmpl : NULL;
    const unsigned char *const pat = c->pat, *const on = c->on, *const off = c->off;
    unsigned char *const out = c->out;
    const unsigned char *const ix = c->ix;
    nest_it it;
    for (int more = nest_rows_begin(nt, &it, lo, hi); more; more = nest_rows_next(nt, &it)) {
        unsigned char *o = out + it.off[0];
        const unsigned char *q = ix + it.off[1];
        const uint64_t len = it.len;
        for (uint64_t j = 0; j < len; ++j, o += os, q += xs) {
            const uint64_t v = oh_index(q, dtype, D);
            if (mode == OH_STRIDED) {
                for (uint64_t k = 0; k < D; ++k) put_elem(o + k * oas, k == v ? on : off, (unsigned)es);
            } else {
                put_line(o, v, D, es, tmpl, pat, on, stream);
            }
        }
    }
    if (stream) simd_stream_fence();
}

#if DMLREF_SMALL
/* A small target: one copy of the body, the index type and mode read at run time
 * (the same bytes; host builds: one copy per type and mode, below). */
static void rows_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const one_hot_ctx *c = vc;
    (void)part;
    rows_body(c, lo, hi, c->p->ixtype, c->p->mode);
}
#else
#define ROWS_FN(MODE, DT, NAME)                                                              \
    static void NAME(const one_hot_ctx *c, uint64_t lo, uint64_t hi) {                       \
        rows_body(c, lo, hi, DMLREF_TENSOR_DATA_TYPE_##DT, MODE);                             \
    }
#define ROWS_FNS(MODE, TAG)                                                                  \
    ROWS_FN(MODE, INT32, TAG##_i32)                                                          \
    ROWS_FN(MODE, UINT32, TAG##_u32)                                                         \
    ROWS_FN(MODE, INT64, TAG##_i64)                                                          \
    ROWS_FN(MODE, UINT64, TAG##_u64)
ROWS_FNS(OH_ROWS, rows)
ROWS_FNS(OH_ROWS_STREAM, rows_stream)
ROWS_FNS(OH_LONG_ROWS, long_rows)
ROWS_FNS(OH_LONG_ROWS_STREAM, long_rows_stream)
ROWS_FNS(OH_STRIDED, strided)

typedef void (*rows_fn)(const one_hot_ctx *c, uint64_t lo, uint64_t hi);

static rows_fn rows_pick(int mode, uint32_t dtype) {
    static const rows_fn fns[5][4] = {
        {rows_i32, rows_u32, rows_i64, rows_u64},
        {rows_stream_i32, rows_stream_u32, rows_stream_i64, rows_stream_u64},
        {long_rows_i32, long_rows_u32, long_rows_i64, long_rows_u64},
        {long_rows_stream_i32, long_rows_stream_u32, long_rows_stream_i64, long_rows_stream_u64},
        {strided_i32, strided_u32, strided_i64, strided_u64},
    };
    const int t = dtype == DMLREF_TENSOR_DATA_TYPE_INT32    ? 0
                  : dtype == DMLREF_TENSOR_DATA_TYPE_UINT32 ? 1
                  : dtype == DMLREF_TENSOR_DATA_TYPE_INT64  ? 2
                                                            : 3;
    return fns[mode][t];
}

static void rows_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const one_hot_ctx *c = vc;
    (void)part;
    rows_pick(c->p->mode, c->p->ixtype)(c, lo, hi);
}
#endif

/* one_hot.planes: unit u is chunk u % chunks of outer point u / chunks. */
static DMLREF_ALWAYS_INLINE void planes_body(const one_hot_ctx *c, uint64_t lo, uint64_t hi, unsigned es) {
    const one_hot_plan *p = c->p;
    const nest_t *in = &p->inner;
    const uint64_t ip = in->points, D = p->D, oas = p->oas;
    const uint64_t os = in->st[0][in->m - 1], xs = in->st[1][in->m - 1];
    uint64_t oo[CHUNK];
    uint32_t v[CHUNK];
    for (uint64_t u = lo; u < hi; ++u) {
        const uint64_t c0 = (u % p->chunks) * CHUNK, c1 = ip - c0 < CHUNK ? ip : c0 + CHUNK;
        uint64_t base[NEST_K];
        nest_offsets(&p->outer, u / p->chunks, base);
        const unsigned char *q0 = c->ix + base[1];
        uint32_t m = 0;
        nest_it it;
        for (int more = nest_rows_begin(in, &it, c0, c1); more; more = nest_rows_next(in, &it))
            for (uint64_t j = 0; j < it.len; ++j, ++m) {
                oo[m] = it.off[0] + j * os;
                v[m] = (uint32_t)oh_index(q0 + it.off[1] + j * xs, p->ixtype, D); /* <= D <= 2^32 - 1 */
            }
        unsigned char *o = c->out + base[0];
        for (uint64_t k = 0; k < D; ++k, o += oas)
            for (uint32_t i = 0; i < m; ++i) put_elem(o + oo[i], v[i] == k ? c->on : c->off, es);
    }
}

#if DMLREF_SMALL
static void planes_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const one_hot_ctx *c = vc;
    (void)part;
    planes_body(c, lo, hi, c->p->es);
}
#else
#define PLANES_FN(ES)                                                                        \
    static void planes_x##ES(const one_hot_ctx *c, uint64_t lo, uint64_t hi) { planes_body(c, lo, hi, ES); }
PLANES_FN(1)
PLANES_FN(2)
PLANES_FN(4)
PLANES_FN(8)

static void planes_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const one_hot_ctx *c = vc;
    (void)part;
    switch (c->p->es) {
    case 1: planes_x1(c, lo, hi); break;
    case 2: planes_x2(c, lo, hi); break;
    case 4: planes_x4(c, lo, hi); break;
    default: planes_x8(c, lo, hi); break;
    }
}
#endif

static dmlref_status one_hot_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const one_hot_plan *p = op->plan;
    const unsigned char *off = IN_DATA(x, 1);
    one_hot_ctx c = {p, IN_DATA(x, 0), off, off + p->on_offset, OUT_DATA(x, 0), NULL, NULL};
    unsigned char buf[2 * TMPL_ROW_MAX]; /* the template, or the off pattern */
    const uint64_t es = p->es;
    (void)err;
    if (p->mode == OH_ROWS || p->mode == OH_ROWS_STREAM) {
        /* [off x (D-1), on, off x D]: the line of index v is the D elements from D-1-v, the all-off line from D */
        for (uint64_t i = 0; i < 2 * p->D; ++i) put_elem(buf + i * es, i == p->D - 1 ? c.on : off, (unsigned)es);
        c.tmpl = buf;
    } else if (p->mode == OH_LONG_ROWS || p->mode == OH_LONG_ROWS_STREAM) {
        fill_pattern(buf, PAT_BYTES, off, (size_t)es);
        c.pat = buf;
    }
    run_ranges(op, p->nth, p->units, p->mode == OH_PLANES ? planes_range : rows_range, &c);
    return DMLREF_OK;
}

static void one_hot_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

/* Every dim of `out` in [d0, d1) but `skip`: sizes and strides (Output, Indices), collapsed. */
static void nest_dims(nest_t *nt, const tensor_t *out, const tensor_t *ix, uint32_t d0, uint32_t d1, uint32_t skip) {
    nt->m = 0;
    for (uint32_t d = d0; d < d1; ++d) {
        if (d == skip) continue;
        nt->sizes[nt->m] = out->sizes[d];
        nt->st[0][nt->m] = out->bstrides[d];
        nt->st[1][nt->m] = ix->bstrides[d];
        nt->st[2][nt->m] = 0;
        ++nt->m;
    }
    if (nt->m == 0) {
        nt->m = 1;
        nt->sizes[0] = 1;
        nt->st[0][0] = nt->st[1][0] = nt->st[2][0] = 0;
    }
    nest_collapse(nt, 2);
}

dmlref_status plan_one_hot(op_t *op, uint32_t a, uint32_t on_dim, dmlref_error *err) {
    const tensor_t *ix = &op->inputs[0], *va = &op->inputs[1], *out = &op->outputs[0];
    const uint32_t n = out->n;
    (void)err;
    one_hot_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    p->ixtype = ix->dtype;
    p->es = out->esize;
    p->D = out->sizes[a];
    p->oas = out->bstrides[a];
    p->on_offset = va->bstrides[on_dim];

    int rows = 1; /* Axis is the innermost dim that is not 1 */
    for (uint32_t d = a + 1; d < n; ++d)
        if (out->sizes[d] > 1) rows = 0;
    const uint64_t out_bytes = out->elements * p->es, line = p->D * p->es;
    if (rows) {
        nest_dims(&p->outer, out, ix, 0, n, a);
        const int stream = plan_stream(out_bytes);
        if (p->oas != p->es && p->D > 1) p->mode = OH_STRIDED;
        else if (line <= TMPL_ROW_MAX) p->mode = stream ? OH_ROWS_STREAM : OH_ROWS;
        else p->mode = stream ? OH_LONG_ROWS_STREAM : OH_LONG_ROWS;
        p->units = p->outer.points;
    } else {
        p->mode = OH_PLANES;
        nest_dims(&p->outer, out, ix, 0, a, UINT32_MAX);
        nest_dims(&p->inner, out, ix, a + 1, n, UINT32_MAX);
        p->chunks = (p->inner.points + CHUNK - 1) / CHUNK;
        p->units = p->outer.points * p->chunks;
    }
    const uint32_t nth = plan_threads(op, out_bytes + ix->elements * ix->esize);
    p->nth = p->units < nth ? (uint32_t)p->units : nth;

    static const char *const names[6] = {kernel_name_ONE_HOT_ROWS,      KERNEL_STREAM_NAME(ONE_HOT_ROWS_STREAM),
                                         kernel_name_ONE_HOT_LONG_ROWS, KERNEL_STREAM_NAME(ONE_HOT_LONG_ROWS_STREAM),
                                         kernel_name_ONE_HOT_STRIDED,   kernel_name_ONE_HOT_PLANES};
    op->kernel_name = names[p->mode];
    op->plan = p;
    op->plan_free = one_hot_free;
    op->kernel = one_hot_kernel;
    return DMLREF_OK;
}
