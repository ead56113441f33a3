/*
 * CAST's fast path (cast_fast.h; the class, its rules and its oracle are
 * op_cast.c), bit-identical to the oracle and tested against it on random
 * cases and on every special value.
 *
 * The tensors' dims are collapsed into a loop nest over the points (size-1
 * dims dropped, dims adjacent in both tensors merged).  When the innermost dim
 * is contiguous on both sides and the pair is one of the workloads' pairs, a
 * row kernel converts vectors of elements:
 *
 *   cast.f32_f16  FLOAT32 -> FLOAT16: integer operations on the bits (rounding
 *                 to nearest even by the add-and-shift of the rebiased bits,
 *                 Inf from 65520 up, the NaN rule); a vector holding a value
 *                 that becomes a binary16 subnormal goes through the scalar
 *                 conversion
 *   cast.f16_f32  FLOAT16 -> FLOAT32: rebias by integer add; a subnormal by one
 *                 exact binary32 subtraction (m * 2^-24, exact in any precision)
 *   cast.f32_i32  FLOAT32 -> INT32: truncating conversion of the in-range
 *                 lanes, the others replaced by their saturation (NaN 0)
 *   cast.u8_f32   UINT8 -> FLOAT32: zero extension and an exact conversion
 *   cast.f32_f16.f16c, cast.f16_f32.f16c
 *                 the first two with the CPU's conversion instructions
 *                 (cast_f16c_fast.c), where it has them (run-time dispatch:
 *                 simd_cpu_f16c, not with DMLREF_OPTION_BASELINE_ISA)
 *
 * Same types are a strided copy (cast.copy, copy_plan); every other case is
 * cast.generic, scalar_cast per element over the nest.  Large outputs are
 * written with streaming stores.  The vector code assumes x86's lane layout
 * when it widens lanes (16 -> 32 bits): on a big-endian host f16_f32 and
 * u8_f32 are their scalar loops (the same bytes).
 */
#include "ops/kernels.h"
#include "cast_fast.h"
#include "core/scalar.h"
#include "simd/simd.h"

#include <stdlib.h>
#include <string.h>

#if DMLREF_SIMD && defined(SIMDE_ENDIAN_ORDER) && SIMDE_ENDIAN_ORDER == SIMDE_ENDIAN_LITTLE
#define CAST_WIDEN 1 /* unpacks widen lanes as on x86 */
#else
#define CAST_WIDEN 0
#endif

enum { CK_GENERIC, CK_COPY, CK_F32_F16, CK_F16_F32, CK_F32_I32, CK_U8_F32, CK_F32_F16_F16C, CK_F16_F32_F16C };

typedef struct cast_plan {
    nest_t nest;    /* st[0] = output, st[1] = input, per point */
    copy_plan copy; /* CK_COPY                                 */
    uint64_t units;
    uint32_t nth;
    int kind, stream;
    DMLREF_TENSOR_DATA_TYPE dt, st;
} cast_plan;

/* ---- the scalar elements (tails, heads, the vectors the kernels leave out) ---- */

static inline void el_f32_f16(unsigned char *d, const unsigned char *s) {
    uint32_t x;
    memcpy(&x, s, 4);
    const uint16_t h = scalar_f32_bits_to_f16(x);
    memcpy(d, &h, 2);
}

static inline void el_f16_f32(unsigned char *d, const unsigned char *s) {
    uint16_t h;
    memcpy(&h, s, 2);
    uint32_t x = scalar_f16_to_f32_bits(h);
    if ((x & 0x7fffffffu) > 0x7f800000u) x |= 0x00400000u; /* a NaN: quiet bit forced */
    memcpy(d, &x, 4);
}

static inline void el_f32_i32(unsigned char *d, const unsigned char *s) {
    scalar_cast(DMLREF_TENSOR_DATA_TYPE_INT32, d, DMLREF_TENSOR_DATA_TYPE_FLOAT32, s);
}

static inline void el_u8_f32(unsigned char *d, const unsigned char *s) {
    const float f = (float)s[0]; /* exact */
    memcpy(d, &f, 4);
}

/* ---- vectors ------------------------------------------------------------------ */

#if DMLREF_SIMD
typedef simde__m128i v128;
static inline v128 v_ld(const unsigned char *p) { return simde_mm_loadu_si128((const simde__m128i *)(const void *)p); }
static inline void v_st(unsigned char *p, v128 v, int stream) {
    if (stream) simde_mm_stream_si128((simde__m128i *)(void *)p, v);
    else simde_mm_storeu_si128((simde__m128i *)(void *)p, v);
}
static inline v128 v_k(int32_t k) { return simde_mm_set1_epi32(k); }
/* m ? a : b, lane by lane (m all ones or all zeros) */
static inline v128 v_sel(v128 m, v128 a, v128 b) { return simde_mm_or_si128(simde_mm_and_si128(m, a), simde_mm_andnot_si128(m, b)); }

/* Four binary32 bit patterns -> four binary16 patterns in the low halves. */
static inline v128 v_f32_f16(v128 x) {
    const v128 sign = simde_mm_and_si128(simde_mm_srli_epi32(x, 16), v_k(0x8000));
    const v128 ax = simde_mm_and_si128(x, v_k(0x7fffffff));
    /* normal: rebias 127 -> 15 and drop 13 bits, rounding to nearest even (0xfff + the kept lsb) */
    const v128 lsb = simde_mm_and_si128(simde_mm_srli_epi32(ax, 13), v_k(1));
    v128 r = simde_mm_srli_epi32(simde_mm_add_epi32(simde_mm_add_epi32(ax, v_k((int32_t)0xc8000fffu)), lsb), 13);
    r = v_sel(simde_mm_cmpgt_epi32(ax, v_k(0x477fefff)), v_k(0x7c00), r); /* >= 65520: Inf */
    const v128 nan = simde_mm_or_si128(v_k(0x7e00), simde_mm_and_si128(simde_mm_srli_epi32(ax, 13), v_k(0x3ff)));
    r = v_sel(simde_mm_cmpgt_epi32(ax, v_k(0x7f800000)), nan, r);
    r = simde_mm_andnot_si128(simde_mm_cmplt_epi32(ax, v_k(0x33000001)), r); /* <= 2^-25: 0 */
    return simde_mm_or_si128(r, sign);
}

/* The lanes of x that become binary16 subnormals (2^-25 < |x| < 2^-14): all ones there. */
static inline v128 v_f16_subnormal(v128 x) {
    const v128 ax = simde_mm_and_si128(x, v_k(0x7fffffff));
    return simde_mm_and_si128(simde_mm_cmpgt_epi32(ax, v_k(0x33000000)), simde_mm_cmplt_epi32(ax, v_k(0x38800000)));
}

/* Four 32-bit lanes holding binary16 patterns -> four binary32 patterns. */
static inline v128 v_f16_f32(v128 h) {
    const v128 sign = simde_mm_slli_epi32(simde_mm_and_si128(h, v_k(0x8000)), 16);
    const v128 em = simde_mm_and_si128(h, v_k(0x7fff));
    const v128 sh = simde_mm_slli_epi32(em, 13);
    v128 o = simde_mm_add_epi32(sh, v_k(0x38000000)); /* rebias 15 -> 127 */
    o = simde_mm_add_epi32(o, simde_mm_and_si128(simde_mm_cmpgt_epi32(em, v_k(0x7bff)), v_k(0x38000000))); /* Inf, NaN */
    o = simde_mm_or_si128(o, simde_mm_and_si128(simde_mm_cmpgt_epi32(em, v_k(0x7c00)), v_k(0x00400000))); /* quiet */
    /* subnormal m * 2^-24: (2^-14 + m * 2^-24) - 2^-14, operands and result binary32 normals: exact */
    const v128 sub = simde_mm_castps_si128(simde_mm_sub_ps(simde_mm_castsi128_ps(simde_mm_add_epi32(sh, v_k(0x38800000))),
                                                           simde_mm_castsi128_ps(v_k(0x38800000))));
    o = v_sel(simde_mm_cmplt_epi32(em, v_k(0x0400)), sub, o);
    return simde_mm_or_si128(o, sign);
}

/* Four binary32 patterns -> INT32, truncated and saturated, NaN 0. */
static inline v128 v_f32_i32(v128 x) {
    const v128 ax = simde_mm_and_si128(x, v_k(0x7fffffff));
    const v128 big = simde_mm_cmpgt_epi32(ax, v_k(0x4effffff)); /* |x| >= 2^31, Inf, NaN */
    const v128 nan = simde_mm_cmpgt_epi32(ax, v_k(0x7f800000));
    const v128 r = simde_mm_cvttps_epi32(simde_mm_castsi128_ps(simde_mm_andnot_si128(big, x))); /* in range: exact */
    const v128 sat = simde_mm_andnot_si128(nan, simde_mm_xor_si128(v_k(0x7fffffff), simde_mm_srai_epi32(x, 31)));
    return v_sel(big, sat, r);
}
#endif

/* Streaming stores need a 16-byte aligned destination: up to `room` elements
 * converted one by one until d + i * des is aligned; returns whether it is. */
#define STREAM_HEAD(des, el)                                                                   \
    if (stream) {                                                                              \
        for (int k_ = 0; k_ < 16 && i < n && ((uintptr_t)(d + i * (des)) & 15); ++k_, ++i)      \
            el(d + i * (des), s + i * ses_);                                                   \
        stream = !((uintptr_t)(d + i * (des)) & 15);                                           \
    }

/* ---- row kernels: n elements contiguous on both sides --------------------------- */

static void row_f32_f16(unsigned char *d, const unsigned char *s, uint64_t n, int stream) {
    uint64_t i = 0;
#if DMLREF_SIMD
    const uint64_t ses_ = 4;
    STREAM_HEAD(2, el_f32_f16)
    for (; i + 8 <= n; i += 8) {
        const v128 a = v_ld(s + 4 * i), b = v_ld(s + 4 * i + 16);
        if (simde_mm_movemask_epi8(simde_mm_or_si128(v_f16_subnormal(a), v_f16_subnormal(b)))) { /* scalar then */
            for (uint64_t j = i; j < i + 8; ++j) el_f32_f16(d + 2 * j, s + 4 * j);
            continue;
        }
        /* the halves in the low 16 bits of each lane, sign-extended, packed with signed saturation: exact */
        const v128 ra = simde_mm_srai_epi32(simde_mm_slli_epi32(v_f32_f16(a), 16), 16);
        const v128 rb = simde_mm_srai_epi32(simde_mm_slli_epi32(v_f32_f16(b), 16), 16);
        v_st(d + 2 * i, simde_mm_packs_epi32(ra, rb), stream);
    }
#else
    (void)stream;
#endif
    for (; i < n; ++i) el_f32_f16(d + 2 * i, s + 4 * i);
}

static void row_f16_f32(unsigned char *d, const unsigned char *s, uint64_t n, int stream) {
    uint64_t i = 0;
#if CAST_WIDEN
    const uint64_t ses_ = 2;
    STREAM_HEAD(4, el_f16_f32)
    const v128 z = simde_mm_setzero_si128();
    for (; i + 8 <= n; i += 8) {
        const v128 h = v_ld(s + 2 * i);
        v_st(d + 4 * i, v_f16_f32(simde_mm_unpacklo_epi16(h, z)), stream);
        v_st(d + 4 * i + 16, v_f16_f32(simde_mm_unpackhi_epi16(h, z)), stream);
    }
#else
    (void)stream;
#endif
    for (; i < n; ++i) el_f16_f32(d + 4 * i, s + 2 * i);
}

static void row_f32_i32(unsigned char *d, const unsigned char *s, uint64_t n, int stream) {
    uint64_t i = 0;
#if DMLREF_SIMD
    const uint64_t ses_ = 4;
    STREAM_HEAD(4, el_f32_i32)
    for (; i + 8 <= n; i += 8) {
        v_st(d + 4 * i, v_f32_i32(v_ld(s + 4 * i)), stream);
        v_st(d + 4 * i + 16, v_f32_i32(v_ld(s + 4 * i + 16)), stream);
    }
#else
    (void)stream;
#endif
    for (; i < n; ++i) el_f32_i32(d + 4 * i, s + 4 * i);
}

static void row_u8_f32(unsigned char *d, const unsigned char *s, uint64_t n, int stream) {
    uint64_t i = 0;
#if CAST_WIDEN
    const uint64_t ses_ = 1;
    STREAM_HEAD(4, el_u8_f32)
    const v128 z = simde_mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        const v128 b = v_ld(s + i), lo = simde_mm_unpacklo_epi8(b, z), hi = simde_mm_unpackhi_epi8(b, z);
        const v128 w[4] = {simde_mm_unpacklo_epi16(lo, z), simde_mm_unpackhi_epi16(lo, z), simde_mm_unpacklo_epi16(hi, z),
                           simde_mm_unpackhi_epi16(hi, z)};
        for (int k = 0; k < 4; ++k) v_st(d + 4 * i + 16 * k, simde_mm_castps_si128(simde_mm_cvtepi32_ps(w[k])), stream);
    }
#else
    (void)stream;
#endif
    for (; i < n; ++i) el_u8_f32(d + 4 * i, s + i);
}

#if DMLREF_X86_F16C
/* The F16C kernels: the same head (to a 16-aligned destination for streaming)
 * and tail as the SSE2 rows, the vectors in cast_f16c_fast.c. */
static void row_f32_f16_f16c(unsigned char *d, const unsigned char *s, uint64_t n, int stream) {
    uint64_t i = 0;
    const uint64_t ses_ = 4;
    STREAM_HEAD(2, el_f32_f16)
    i += cast_f16c_f32_f16(d + 2 * i, s + 4 * i, n - i, stream);
    for (; i < n; ++i) el_f32_f16(d + 2 * i, s + 4 * i);
}

static void row_f16_f32_f16c(unsigned char *d, const unsigned char *s, uint64_t n, int stream) {
    uint64_t i = 0;
    const uint64_t ses_ = 2;
    STREAM_HEAD(4, el_f16_f32)
    i += cast_f16c_f16_f32(d + 4 * i, s + 2 * i, n - i, stream);
    for (; i < n; ++i) el_f16_f32(d + 4 * i, s + 2 * i);
}
#endif

typedef void (*row_fn)(unsigned char *d, const unsigned char *s, uint64_t n, int stream);

static row_fn cast_row(int kind) {
    switch (kind) {
    case CK_F32_F16: return row_f32_f16;
    case CK_F16_F32: return row_f16_f32;
    case CK_F32_I32: return row_f32_i32;
    case CK_U8_F32: return row_u8_f32;
#if DMLREF_X86_F16C
    case CK_F32_F16_F16C: return row_f32_f16_f16c;
    case CK_F16_F32_F16C: return row_f16_f32_f16c;
#endif
    default: return NULL;
    }
}

/* ---- running it ------------------------------------------------------------------ */

typedef struct cast_ctx {
    const cast_plan *p;
    const exec_args *x;
} cast_ctx;

/* Points (copy: units) [lo, hi). */
static void cast_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const cast_ctx *c = vc;
    const cast_plan *p = c->p;
    unsigned char *dst = OUT_DATA(c->x, 0);
    const unsigned char *src = IN_DATA(c->x, 0);
    (void)part;
    if (p->kind == CK_COPY) {
        copy_plan_run(&p->copy, dst, src, lo, hi); /* fences its own streaming stores */
        return;
    }
    const nest_t *nt = &p->nest;
    const uint64_t dst_st = nt->st[0][nt->m - 1], src_st = nt->st[1][nt->m - 1];
    const row_fn row = cast_row(p->kind);
    nest_it it;
    if (!nest_rows_begin(nt, &it, lo, hi)) return;
    do {
        unsigned char *d = dst + it.off[0];
        const unsigned char *s = src + it.off[1];
        if (row) {
            row(d, s, it.len, p->stream);
        } else {
            for (uint64_t i = 0; i < it.len; ++i) scalar_cast(p->dt, d + i * dst_st, p->st, s + i * src_st);
        }
    } while (nest_rows_next(nt, &it));
    if (p->stream) simd_stream_fence();
}

static dmlref_status cast_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const cast_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->units, cast_range, &c);
    return DMLREF_OK;
}

static void cast_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

dmlref_status plan_cast(op_t *op, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    cast_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    p->dt = (DMLREF_TENSOR_DATA_TYPE)out->dtype;
    p->st = (DMLREF_TENSOR_DATA_TYPE)in->dtype;
    p->nth = plan_threads(op, out->elements * (out->esize + in->esize));
    op->plan = p;
    op->plan_free = cast_free;
    op->kernel = cast_kernel;
    if (p->dt == p->st) { /* a bit copy */
        uint64_t sizes[MAX_DIMS];
        for (uint32_t d = 0; d < out->n; ++d) sizes[d] = out->sizes[d];
        copy_plan_init(&p->copy, out->n, sizes, out->bstrides, in->bstrides, out->esize);
        p->kind = CK_COPY;
        p->units = p->copy.units;
        op->kernel_name = KERNEL_NAME(CAST_COPY);
        return DMLREF_OK;
    }
    nest_t *nt = &p->nest;
    nt->m = out->n;
    for (uint32_t d = 0; d < out->n; ++d) {
        nt->sizes[d] = out->sizes[d];
        nt->st[0][d] = out->bstrides[d];
        nt->st[1][d] = in->bstrides[d];
    }
    nest_collapse(nt, 2);
    if (nt->m == 1 && nt->sizes[0] == 1) nt->st[0][0] = out->esize, nt->st[1][0] = in->esize; /* one element */
    nt->points = 1;
    for (uint32_t d = 0; d < nt->m; ++d) nt->points *= nt->sizes[d];
    p->units = nt->points;
    const int packed = nt->st[0][nt->m - 1] == out->esize && nt->st[1][nt->m - 1] == in->esize;
#define PAIR(a, b) (p->st == DMLREF_TENSOR_DATA_TYPE_##a && p->dt == DMLREF_TENSOR_DATA_TYPE_##b)
    p->kind = !packed              ? CK_GENERIC
              : PAIR(FLOAT32, FLOAT16) ? CK_F32_F16
              : PAIR(FLOAT16, FLOAT32) ? CK_F16_F32
              : PAIR(FLOAT32, INT32)   ? CK_F32_I32
              : PAIR(UINT8, FLOAT32)   ? CK_U8_F32
                                       : CK_GENERIC;
#undef PAIR
    if ((p->kind == CK_F32_F16 || p->kind == CK_F16_F32) && !(op->options.flags & DMLREF_OPTION_BASELINE_ISA) &&
        simd_cpu_f16c())
        p->kind = p->kind == CK_F32_F16 ? CK_F32_F16_F16C : CK_F16_F32_F16C;
    p->stream = p->kind != CK_GENERIC && plan_stream(out->elements * out->esize);
    switch (p->kind) {
    case CK_F32_F16: op->kernel_name = KERNEL_NAME(CAST_F32_F16); break;
    case CK_F16_F32: op->kernel_name = KERNEL_NAME(CAST_F16_F32); break;
    case CK_F32_I32: op->kernel_name = KERNEL_NAME(CAST_F32_I32); break;
    case CK_U8_F32: op->kernel_name = KERNEL_NAME(CAST_U8_F32); break;
    case CK_F32_F16_F16C: op->kernel_name = KERNEL_NAME(CAST_F32_F16_F16C); break;
    case CK_F16_F32_F16C: op->kernel_name = KERNEL_NAME(CAST_F16_F32_F16C); break;
    default: op->kernel_name = KERNEL_NAME(CAST_GENERIC); break;
    }
    return DMLREF_OK;
}
