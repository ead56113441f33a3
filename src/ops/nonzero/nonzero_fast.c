/*
 * NONZERO_COORDINATES's fast path (nonzero_fast.h), bit-identical to the oracle in
 * op_nonzero_coordinates.c and tested against it on random cases.
 *
 * nonzero_coordinates.packed: a packed input (row-major, no gaps).  Its elements are
 * scanned 16 at a time into a 16-bit mask of the nonzero ones: SIMD compares with zero
 * (floats after clearing the sign bit, so +-0 are zero and NaN is not), packed down to
 * bytes and movemask'ed (a last group of fewer than 16 a vector of 4 or 8 at a time, then
 * one by one); the coordinates are then emitted from the mask's set bits, a
 * running coordinate advanced from one nonzero element to the next (a carry across the
 * dimensions only when a row ends).  Across threads it is two passes over the same
 * static partition of 64-element blocks (run_ranges): each part counts its nonzero
 * elements, the counts' prefix sums give each part its first row, then each part writes
 * its rows and its share of the zero rows past the count (one part: no count pass, the rows
 * written as they come, then the rest zeroed).  nonzero_coordinates.packed_stream: the same,
 * large, the zero rows written with streaming stores (SIMD builds, from DMLREF_STREAM_MIN).
 * The per-part counts live on the kernel's stack (at most PLAN's 256 parts): execute
 * allocates nothing.  Any other input layout runs the oracle.
 */
#include "ops/kernels.h"
#include "nonzero_fast.h"

#include "simd/simd.h"

#include <string.h>

#define NZ_BLOCK 64u     /* elements per unit of the partition                 */
#define NZ_PARTS 256u    /* plan_threads' most                                 */

typedef struct nz_plan {
    uint32_t es, is_float, D, N, nth, cpacked, stream;
    uint32_t sizes[MAX_DIMS];
    uint64_t M, units, srow, scol; /* elements; blocks; OutputCoordinates' row and column byte strides */
} nz_plan;

typedef struct nz_ctx {
    const nz_plan *p;
    const exec_args *x;
    uint64_t *counts; /* per part: pass 1 writes, pass 2 reads its first row   */
    uint64_t total;
    int one_pass;     /* one part: pass 2 alone, counts[0] its end row, no tail */
} nz_ctx;


/* Bit k set when element k of the n (<= 16) at q is nonzero. */
static uint32_t nz_mask_scalar(const nz_plan *p, const unsigned char *q, uint32_t n) {
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; ++k) {
        const unsigned char *e = q + (size_t)k * p->es;
        uint32_t nz;
        if (p->es == 4) {
            uint32_t v;
            memcpy(&v, e, 4);
            nz = (p->is_float ? v & UINT32_C(0x7FFFFFFF) : v) != 0;
        } else if (p->es == 2) {
            uint16_t v;
            memcpy(&v, e, 2);
            nz = (p->is_float ? v & 0x7FFFu : v) != 0;
        } else {
            nz = *e != 0;
        }
        m |= nz << k;
    }
    return m;
}

#if DMLREF_SIMD
#define LD(p) simde_mm_loadu_si128((const simde__m128i *)(const void *)(p))

/* The mask of 16 elements at q. */
static inline uint32_t nz_mask16(const nz_plan *p, const unsigned char *q) {
    const simde__m128i z = simde_mm_setzero_si128();
    simde__m128i e;
    if (p->es == 1) {
        e = simde_mm_cmpeq_epi8(LD(q), z);
    } else if (p->es == 2) {
        const simde__m128i s = simde_mm_set1_epi16(p->is_float ? 0x7FFF : -1);
        const simde__m128i a = simde_mm_cmpeq_epi16(simde_mm_and_si128(LD(q), s), z);
        const simde__m128i b = simde_mm_cmpeq_epi16(simde_mm_and_si128(LD(q + 16), s), z);
        e = simde_mm_packs_epi16(a, b);
    } else {
        const simde__m128i s = simde_mm_set1_epi32(p->is_float ? 0x7FFFFFFF : -1);
        const simde__m128i a = simde_mm_cmpeq_epi32(simde_mm_and_si128(LD(q), s), z);
        const simde__m128i b = simde_mm_cmpeq_epi32(simde_mm_and_si128(LD(q + 16), s), z);
        const simde__m128i c = simde_mm_cmpeq_epi32(simde_mm_and_si128(LD(q + 32), s), z);
        const simde__m128i d = simde_mm_cmpeq_epi32(simde_mm_and_si128(LD(q + 48), s), z);
        e = simde_mm_packs_epi16(simde_mm_packs_epi32(a, b), simde_mm_packs_epi32(c, d));
    }
    return ~(uint32_t)simde_mm_movemask_epi8(e) & 0xFFFFu;
}

/* The mask of n < 16 elements at q (a part's last group, or a tiny input's only one): whole
 * vectors of 4-byte elements 4 at a time and of 2-byte ones 8 at a time, the rest one by one. */
static inline uint32_t nz_mask_part(const nz_plan *p, const unsigned char *q, uint32_t n) {
    const simde__m128i z = simde_mm_setzero_si128();
    uint32_t m = 0, k = 0;
    if (p->es == 4) {
        const simde__m128i s = simde_mm_set1_epi32(p->is_float ? 0x7FFFFFFF : -1);
        for (; k + 4 <= n; k += 4) {
            const simde__m128i e = simde_mm_cmpeq_epi32(simde_mm_and_si128(LD(q + 4 * k), s), z);
            m |= (~(uint32_t)simde_mm_movemask_ps(simde_mm_castsi128_ps(e)) & 0xFu) << k;
        }
    } else if (p->es == 2) {
        const simde__m128i s = simde_mm_set1_epi16(p->is_float ? 0x7FFF : -1);
        for (; k + 8 <= n; k += 8) {
            const simde__m128i e = simde_mm_cmpeq_epi16(simde_mm_and_si128(LD(q + 2 * k), s), z);
            m |= (~(uint32_t)simde_mm_movemask_epi8(simde_mm_packs_epi16(e, e)) & 0xFFu) << k;
        }
    }
    return k < n ? m | nz_mask_scalar(p, q + (size_t)k * p->es, n - k) << k : m;
}
#else
static inline uint32_t nz_mask16(const nz_plan *p, const unsigned char *q) { return nz_mask_scalar(p, q, 16); }
static inline uint32_t nz_mask_part(const nz_plan *p, const unsigned char *q, uint32_t n) {
    return nz_mask_scalar(p, q, n);
}
#endif

/* The mask of the n (<= 16) elements from element i. */
static inline uint32_t nz_mask(const nz_plan *p, const unsigned char *src, uint64_t i, uint32_t n) {
    const unsigned char *q = src + i * p->es;
    return n == 16 ? nz_mask16(p, q) : nz_mask_part(p, q, n);
}

/* The elements [e0, e1) of part [lo, hi) of the partition. */
static void nz_elems(const nz_plan *p, uint64_t lo, uint64_t hi, uint64_t *e0, uint64_t *e1) {
    *e0 = lo * NZ_BLOCK;
    *e1 = hi * NZ_BLOCK < p->M ? hi * NZ_BLOCK : p->M;
}

/* Pass 1: the part's nonzero elements. */
static void nz_count_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const nz_ctx *c = vc;
    const nz_plan *p = c->p;
    const unsigned char *src = IN_DATA(c->x, 0);
    uint64_t e0, e1, n = 0;
    nz_elems(p, lo, hi, &e0, &e1);
    for (uint64_t i = e0; i < e1; i += 16) n += simd_popcount32(nz_mask(p, src, i, e1 - i < 16 ? (uint32_t)(e1 - i) : 16));
    c->counts[part] = n;
}

static void nz_zero_rows(const nz_plan *p, unsigned char *dco, uint64_t r0, uint64_t r1);

/* Pass 2: the part's rows from row counts[part], then its share of the rows past the count
 * (one_pass: the only part, no count pass before it; it leaves its end row in counts[0]). */
static void nz_write_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const nz_ctx *c = vc;
    const nz_plan *p = c->p;
    const unsigned char *src = IN_DATA(c->x, 0);
    unsigned char *dco = OUT_DATA(c->x, 1);
    const uint32_t D = p->D, N = p->N, first = D - N;
    const uint64_t srow = p->srow, scol = p->scol;
    uint64_t e0, e1, row = c->counts[part];
    nz_elems(p, lo, hi, &e0, &e1);
    /* the coordinate of element cur */
    uint32_t co[MAX_DIMS];
    uint64_t cur = e0, q = e0;
    for (uint32_t d = D; d-- > 0;) {
        co[d] = (uint32_t)coord_step(&q, p->sizes[d]);
    }
    const uint32_t W = p->sizes[D - 1];
    for (uint64_t i = e0; i < e1; i += 64) { /* a 64-element block's mask: one loop exit per block */
        uint64_t m = 0;
        for (uint32_t g = 0; g < 64 && i + g < e1; g += 16)
            m |= (uint64_t)nz_mask(p, src, i + g, e1 - i - g < 16 ? (uint32_t)(e1 - i - g) : 16) << g;
        while (m) {
            const uint64_t at = i + simd_ctz64(m);
            m &= m - 1;
            /* advance co from cur to at */
            uint64_t step = at - cur, v = (uint64_t)co[D - 1] + step;
            cur = at;
            if (v < W) {
                co[D - 1] = (uint32_t)v;
            } else {
                /* the carry into the outer dims; a division only for a step past a whole row */
                uint64_t carry = 1;
                if (v < 2 * (uint64_t)W) co[D - 1] = (uint32_t)(v - W);
                else co[D - 1] = (uint32_t)(v % W), carry = v / W;
                for (uint32_t d = D - 1; carry && d-- > 0;) {
                    uint64_t w = (uint64_t)co[d] + carry;
                    co[d] = (uint32_t)coord_step(&w, p->sizes[d]);
                    carry = w;
                }
            }
            unsigned char *o = dco + row * srow;
            if (p->cpacked && N <= 2) { /* 4-byte moves: a wider load of co[] just stored would stall */
                memcpy(o, co + first, 4);
                if (N == 2) memcpy(o + 4, co + first + 1, 4);
            } else if (p->cpacked) { /* N 3 to 8: 4-byte moves, no call, the first 3 unrolled */
                memcpy(o, co + first, 4);
                memcpy(o + 4, co + first + 1, 4);
                memcpy(o + 8, co + first + 2, 4);
                for (uint32_t j = 3; j < N; ++j) memcpy(o + 4 * j, co + first + j, 4);
            } else {
                for (uint32_t j = 0; j < N; ++j) memcpy(o + j * scol, co + first + j, 4);
            }
            ++row;
        }
    }
    if (c->one_pass) {
        c->counts[0] = row; /* the count: the caller zeroes the rows past it */
        return;
    }
    nz_zero_rows(p, dco, c->total + (p->M - c->total) * lo / p->units, c->total + (p->M - c->total) * hi / p->units);
}

/* Rows [r0, r1) of the coordinates: all-zero bits. */
static void nz_zero_rows(const nz_plan *p, unsigned char *dco, uint64_t r0, uint64_t r1) {
    const uint64_t srow = p->srow, scol = p->scol;
    const uint32_t N = p->N;
    if (r1 <= r0) return;
    if (p->cpacked && p->stream) {
        simd_fill_stream(dco + r0 * srow, 0, (size_t)((r1 - r0) * srow));
        simd_stream_fence();
    } else if (p->cpacked) {
        memset(dco + r0 * srow, 0, (size_t)((r1 - r0) * srow));
    } else {
        static const unsigned char zero[4] = {0};
        for (uint64_t r = r0; r < r1; ++r)
            for (uint32_t j = 0; j < N; ++j) memcpy(dco + r * srow + j * scol, zero, 4);
    }
}

static dmlref_status nz_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const nz_plan *p = op->plan;
    uint64_t counts[NZ_PARTS];
    nz_ctx c = {p, x, counts, 0, 0};
    (void)err;
    const uint32_t parts = p->nth > 1 && p->units > 1 ? (uint32_t)(p->units < p->nth ? p->units : p->nth) : 1;
    if (parts == 1) { /* one pass: the rows as they come, then the zero rows past the count */
        counts[0] = 0;
        c.one_pass = 1;
        nz_write_range(&c, 0, p->units, 0);
        nz_zero_rows(p, OUT_DATA(x, 1), counts[0], p->M);
        const uint32_t n32 = (uint32_t)counts[0]; /* <= M <= 2^32 - 1 */
        memcpy(OUT_DATA(x, 0), &n32, 4);
        return DMLREF_OK;
    }
    memset(counts, 0, (size_t)parts * sizeof counts[0]); /* a part a serial run leaves out counts 0 */
    run_ranges(op, p->nth, p->units, nz_count_range, &c);
    uint64_t total = 0;
    for (uint32_t k = 0; k < parts; ++k) {
        const uint64_t n = counts[k];
        counts[k] = total;
        total += n;
    }
    c.total = total;
    run_ranges(op, p->nth, p->units, nz_write_range, &c);
    const uint32_t t32 = (uint32_t)total; /* <= M <= 2^32 - 1 */
    memcpy(OUT_DATA(x, 0), &t32, 4);
    return DMLREF_OK;
}

static void nz_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

dmlref_status plan_nonzero_coordinates(op_t *op, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *co = &op->outputs[1];
    /* packed input only: row-major element strides with no gaps */
    uint64_t want = in->esize;
    for (uint32_t d = in->n; d-- > 0;) {
        if (in->sizes[d] != 1 && in->bstrides[d] != want) return DMLREF_OK;
        want *= in->sizes[d];
    }
    nz_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    p->es = in->esize;
    p->is_float = in->dtype == DMLREF_TENSOR_DATA_TYPE_FLOAT32 || in->dtype == DMLREF_TENSOR_DATA_TYPE_FLOAT16;
    p->D = in->n;
    p->N = OP_CPARAMS(op, nonzero_params)->n;
    for (uint32_t d = 0; d < in->n; ++d) p->sizes[d] = in->sizes[d];
    p->M = in->elements;
    p->units = (p->M + NZ_BLOCK - 1) / NZ_BLOCK;
    p->srow = co->bstrides[co->n - 2];
    p->scol = co->bstrides[co->n - 1];
    p->cpacked = p->scol == 4 && p->srow == (uint64_t)p->N * 4;
    p->stream = p->cpacked && plan_stream(p->M * p->N * 4); /* the zero rows, most of a sparse input's */
    /* read twice, N * 4 bytes written per element */
    uint32_t nth = plan_threads(op, p->M * (2u * p->es + 4u * p->N));
    p->nth = nth > NZ_PARTS ? NZ_PARTS : nth;
    op->plan = p;
    op->plan_free = nz_free;
    op->kernel = nz_kernel;
    op->kernel_name = p->stream ? KERNEL_STREAM_NAME(NONZERO_COORDINATES_PACKED_STREAM) : KERNEL_NAME(NONZERO_COORDINATES_PACKED);
    return DMLREF_OK;
}
