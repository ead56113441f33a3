/*
 * ELEMENT_WISE_IF's fast path (select_fast.h), bit-identical to the oracle in
 * op_element_wise_if.c and tested against it on random cases.
 *
 * The four tensors (output, condition, A, B) are one loop nest: size-1 dims
 * dropped, a dim merged into the next inner one where all four allow it.  When
 * the innermost dim is contiguous in all four (condition stride 1 byte, the
 * others one element), each row is a SIMD select (element_wise_if.rows): 16
 * condition bytes compared with zero give a byte mask, widened by unpacking to
 * the element size, and out = (B & mask) | (A & ~mask) -- bytes, never values.
 * Any other layout (broadcast condition or data, gaps, permutations) takes the
 * element-by-element walk (element_wise_if.strided).  Threads take contiguous
 * ranges of elements in row-major order.
 */
#include "ops/kernels.h"
#include "select_fast.h"

#include "simd/simd.h"

#include <string.h>

#define SEL_K 4u /* tracked tensors: 0 output, 1 condition, 2 A, 3 B */

typedef struct select_plan {
    uint32_t m, es, nth, rows; /* dims after collapsing (>= 1); rows: the SIMD row kernel applies */
    uint64_t sizes[MAX_DIMS];
    uint64_t st[SEL_K][MAX_DIMS];
    uint64_t points;
} select_plan;

/* One element: the condition byte picks A's or B's es bytes. */
static inline void select_one(uint32_t es, unsigned char *o, unsigned char c, const unsigned char *a,
                              const unsigned char *b) {
    const unsigned char *s = c ? a : b;
    switch (es) {
    case 1: *o = *s; return;
    case 2: memcpy(o, s, 2); return;
    case 4: memcpy(o, s, 4); return;
    default: memcpy(o, s, 8); return;
    }
}

#if DMLREF_SIMD
#define LD(p) simde_mm_loadu_si128((const simde__m128i *)(const void *)(p))
#define ST(p, v) simde_mm_storeu_si128((simde__m128i *)(void *)(p), (v))

/* The byte mask of 16 elements (0xFF where the condition is 0) widened to es bytes per element:
 * es vectors, in memory order. */
static inline void select_masks(uint32_t es, simde__m128i m, simde__m128i *w) {
    w[0] = m;
    if (es == 1) return;
    w[0] = simde_mm_unpacklo_epi8(m, m);
    w[1] = simde_mm_unpackhi_epi8(m, m);
    if (es == 2) return;
    const simde__m128i t0 = w[0], t1 = w[1];
    w[0] = simde_mm_unpacklo_epi16(t0, t0);
    w[1] = simde_mm_unpackhi_epi16(t0, t0);
    w[2] = simde_mm_unpacklo_epi16(t1, t1);
    w[3] = simde_mm_unpackhi_epi16(t1, t1);
    if (es == 4) return;
    for (int k = 3; k >= 0; --k) {
        const simde__m128i t = w[k];
        w[2 * k] = simde_mm_unpacklo_epi32(t, t);
        w[2 * k + 1] = simde_mm_unpackhi_epi32(t, t);
    }
}
#endif

/* n elements, every tensor contiguous. */
static void select_row(uint32_t es, unsigned char *o, const unsigned char *c, const unsigned char *a,
                       const unsigned char *b, uint64_t n) {
    uint64_t i = 0;
#if DMLREF_SIMD
    const simde__m128i z = simde_mm_setzero_si128();
    simde__m128i w[8];
    for (; i + 16 <= n; i += 16) {
        select_masks(es, simde_mm_cmpeq_epi8(LD(c + i), z), w);
        const uint64_t base = i * es;
        for (uint32_t k = 0; k < es; ++k) {
            const simde__m128i va = LD(a + base + 16 * k), vb = LD(b + base + 16 * k);
            ST(o + base + 16 * k, simde_mm_or_si128(simde_mm_and_si128(w[k], vb), simde_mm_andnot_si128(w[k], va)));
        }
    }
#endif
    for (; i < n; ++i) select_one(es, o + i * es, c[i], a + i * es, b + i * es);
}

typedef struct select_ctx {
    const select_plan *p;
    const exec_args *x;
} select_ctx;

/* Elements [lo, hi) in row-major order over the collapsed nest, a row segment at a time. */
static void select_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const select_ctx *cx = vc;
    const select_plan *p = cx->p;
    const uint32_t m = p->m, es = p->es;
    const uint64_t W = p->sizes[m - 1];
    unsigned char *out = OUT_DATA(cx->x, 0);
    const unsigned char *base[SEL_K - 1] = {IN_DATA(cx->x, 0), IN_DATA(cx->x, 1), IN_DATA(cx->x, 2)};
    (void)part;
    for (uint64_t u = lo; u < hi;) {
        uint64_t q = u / W, off[SEL_K] = {0, 0, 0, 0};
        const uint64_t at = u % W, len = hi - u < W - at ? hi - u : W - at;
        for (uint32_t d = m - 1; d-- > 0;) {
            const uint64_t cd = coord_step(&q, p->sizes[d]);
            for (uint32_t t = 0; t < SEL_K; ++t) off[t] += cd * p->st[t][d];
        }
        for (uint32_t t = 0; t < SEL_K; ++t) off[t] += at * p->st[t][m - 1];
        unsigned char *o = out + off[0];
        const unsigned char *c = base[0] + off[1], *a = base[1] + off[2], *b = base[2] + off[3];
        if (p->rows) {
            select_row(es, o, c, a, b, len);
        } else {
            const uint64_t so = p->st[0][m - 1], sc = p->st[1][m - 1], sa = p->st[2][m - 1], sb = p->st[3][m - 1];
            for (uint64_t i = 0; i < len; ++i) select_one(es, o + i * so, c[i * sc], a + i * sa, b + i * sb);
        }
        u += len;
    }
}

static dmlref_status select_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const select_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->points, select_range, &c);
    return DMLREF_OK;
}

static void select_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

dmlref_status plan_element_wise_if(op_t *op, dmlref_error *err) {
    const tensor_t *out = &op->outputs[0];
    const tensor_t *tt[SEL_K] = {out, &op->inputs[0], &op->inputs[1], &op->inputs[2]};
    select_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    /* size-1 dims dropped; dim d merged into the kept inner one when every tensor's strides allow
     * (st[d] == st[inner] * size[inner]; the products stay below the tensors' spans) */
    uint32_t m = 0;
    for (uint32_t d = 0; d < out->n; ++d) {
        if (out->sizes[d] == 1) continue;
        p->sizes[m] = out->sizes[d];
        for (uint32_t t = 0; t < SEL_K; ++t) p->st[t][m] = tt[t]->bstrides[d];
        ++m;
    }
    uint32_t w = 0;
    for (uint32_t k = 0; k < m; ++k) {
        int merge = w > 0;
        for (uint32_t t = 0; merge && t < SEL_K; ++t) merge = p->st[t][w - 1] == p->st[t][k] * p->sizes[k];
        if (merge) {
            p->sizes[w - 1] *= p->sizes[k];
            for (uint32_t t = 0; t < SEL_K; ++t) p->st[t][w - 1] = p->st[t][k];
            continue;
        }
        p->sizes[w] = p->sizes[k];
        for (uint32_t t = 0; t < SEL_K; ++t) p->st[t][w] = p->st[t][k];
        ++w;
    }
    if (w == 0) {
        w = 1;
        p->sizes[0] = 1;
        for (uint32_t t = 0; t < SEL_K; ++t) p->st[t][0] = 0;
    }
    p->m = w;
    p->es = out->esize;
    p->points = out->elements;
    p->rows = p->st[0][w - 1] == p->es && p->st[1][w - 1] == 1 && p->st[2][w - 1] == p->es &&
              p->st[3][w - 1] == p->es;
    p->nth = plan_threads(op, out->elements * (3u * out->esize + 1u));
    op->plan = p;
    op->plan_free = select_free;
    op->kernel = select_kernel;
    op->kernel_name = p->rows ? KERNEL_NAME(ELEMENT_WISE_IF_ROWS) : KERNEL_NAME(ELEMENT_WISE_IF_STRIDED);
    return DMLREF_OK;
}
