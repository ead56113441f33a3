/*
 * ARGMIN's and ARGMAX's fast path (argminmax.h; the rules and the oracle are
 * argminmax.c), bit-identical to the oracle and tested against it on random cases.
 *
 * The reduced axes (increasing) must merge into one strided run: each nonsingular
 * reduced dim adjacent to the next one (stride = next stride * next size), so that
 * candidate j sits at j * rs bytes from the run's start; else the oracle runs.  The
 * kept dims are one loop nest (output and input strides, collapsed).
 *
 *   argminmax.rows_x4     the run contiguous, FLOAT32 / INT32 / UINT32: per output
 *                         element, two passes over its row (it stays in cache): the
 *                         largest (ARGMAX) or smallest (ARGMIN) 32-bit key and whether a
 *                         NaN is there (4 lanes a step), then the first (INCREASING) or last
 *                         (DECREASING) element that is the best (cmpeq, movemask);
 *                         FLOAT32 keeps the lane maxima of up to AM_BLOCKS blocks of the
 *                         row in pass 1, and pass 2 looks only in the first (last) block
 *                         holding the best (while pass 2 ran over the whole row, memory
 *                         waited: 2.1 ms of reading took 3.0-3.3)
 *   argminmax.rows_x2     the same for FLOAT16 / INT16 / UINT16 (16-bit keys, 8 lanes)
 *   argminmax.rows        any other type or a strided run: scalar_order_key per element
 *   argminmax.columns_x4  the run strided (the reduced axis outer) and the innermost kept
 *                         dim contiguous in the input, FLOAT32 / INT32 / UINT32: a chunk of
 *                         ARGMINMAX_CW columns at a time, the running best key and index per
 *                         column updated row by row (4 lanes a step: cmpgt; the key and index
 *                         stored only where a lane improved), one pass; FLOAT32 whole rows of
 *                         ARGMINMAX_CW_F32 columns in memory order, 8 rows reduced by maxps /
 *                         minps before a compare with the running best (cols_f32_rows);
 *                         a chunk holding a NaN done again as argminmax.columns does it
 *   argminmax.columns     the same for every other type, scalar_order_key per element
 *
 * The keys (below): floats' sign-magnitude made two's complement, so that -0 and +0 are
 * both 0; integers their value.  A NaN has no place in that order: pass 1 notes that one was
 * seen and pass 2 then looks for NaNs (a NaN wins in both operators, all NaNs equal).  The
 * strict or non-strict comparison of INCREASING or DECREASING is the oracle's.  Threads take
 * contiguous ranges of output elements (rows) or of (outer point, column chunk) units.
 */
#include "argminmax.h"
#include "core/scalar.h"
#include "ops/kernels.h"

#include "simd/simd.h"

#include <string.h>

/* columns per unit of the columns kernels (their best keys and indices: stack arrays of 8 KiB
 * each, 128 B in a DMLREF_SMALL build) */
#define ARGMINMAX_CW (DMLREF_SMALL ? 32u : 2048u)
/* FLOAT32's columns kernel: whole rows of up to 4096 columns, read in memory order (two stack
 * arrays of 16 KiB; 128 B in a DMLREF_SMALL build) */
#define ARGMINMAX_CW_F32 (DMLREF_SMALL ? 32u : 4096u)
#define ARGMINMAX_AHEAD 2u /* columns kernels: rows prefetched ahead */

enum { K_FLOAT, K_SIGNED, K_UNSIGNED };

/* The loops below take is_max and last (and the type's kind) as parameters and are called with
 * constants: inlined, each call is a loop of its own without those tests. */
enum { M_ROWS_X4, M_ROWS_X2, M_ROWS, M_COLS_X4, M_COLS };

typedef struct am_plan {
    nest_t kept;        /* rows: the kept dims; columns: the kept dims but the innermost */
    uint64_t count, rs; /* reduced elements, their byte stride                          */
    uint64_t inner, ost, chunks, units, cw; /* cw: columns per chunk */
    uint32_t mode, es, oes, dt, kind, nth;
    uint32_t last, nan_low, f32; /* f32: FLOAT32 columns through cols_f32 */
    uint32_t avx2;               /* M_ROWS_X4 FLOAT32: pass 1 in AVX2 (argminmax.rows_f32.avx2) */
    argminmax_params prm;
} am_plan;

typedef struct am_ctx {
    const am_plan *p;
    const exec_args *x;
} am_ctx;

/* ---- keys --------------------------------------------------------------------- */

/*
 * The vector kernels work on a signed key whose order is the values' order, apart from NaN:
 * floats: sign-magnitude made two's complement (k = x >= 0 ? |x| : -|x|, so -0 and +0 are both
 * 0 and a NaN is beyond the infinities on its sign's side); integers: their value (unsigned
 * ones offset by 2^31 or 2^15).  Pass 1 takes the largest (ARGMAX) or smallest (ARGMIN) key
 * and notes whether any NaN was seen; pass 2 finds the first or last element that is the best:
 * a NaN when one was seen (a NaN wins in both operators), a zero of either sign when the best
 * key is 0, else the element whose bits are the best key's (the key is one-to-one elsewhere).
 */
#define F32_ABS 0x7FFFFFFFu
#define F32_INF 0x7F800000u
#define F16_ABS 0x7FFFu
#define F16_INF 0x7C00u

static inline int32_t key32(uint32_t x, uint32_t kind) {
    if (kind == K_FLOAT) {
        const uint32_t a = x & F32_ABS, s = 0u - (x >> 31);
        return (int32_t)((a ^ s) - s);
    }
    return (int32_t)(kind == K_UNSIGNED ? x ^ 0x80000000u : x);
}

static inline int16_t key16(uint16_t x, uint32_t kind) {
    if (kind == K_FLOAT) {
        const uint32_t a = x & F16_ABS, s = 0u - (uint32_t)(x >> 15);
        return (int16_t)(uint16_t)((a ^ s) - s);
    }
    return (int16_t)(uint16_t)(kind == K_UNSIGNED ? x ^ 0x8000u : x);
}

static inline uint32_t load32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline uint16_t load16(const unsigned char *p) {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

/* What pass 2 looks for: 0 the bits `bits`, 1 a zero of either sign, 2 a NaN. */
enum { FIND_BITS, FIND_ZERO, FIND_NAN };

/* The element bits of a non-NaN float key k (w-bit), or of an integer key. */
static inline uint32_t bits_of32(int32_t k, uint32_t kind) {
    if (kind == K_FLOAT) return k >= 0 ? (uint32_t)k : 0x80000000u | (0u - (uint32_t)k);
    return kind == K_UNSIGNED ? (uint32_t)k ^ 0x80000000u : (uint32_t)k;
}
static inline uint16_t bits_of16(int16_t k, uint32_t kind) {
    if (kind == K_FLOAT) return (uint16_t)(k >= 0 ? (uint32_t)k : 0x8000u | ((0u - (uint32_t)k) & 0x7FFFu));
    return (uint16_t)(kind == K_UNSIGNED ? (uint16_t)k ^ 0x8000u : (uint16_t)k);
}

static inline int match32(uint32_t x, int find, uint32_t bits) {
    return find == FIND_NAN ? (x & F32_ABS) > F32_INF : find == FIND_ZERO ? (x & F32_ABS) == 0 : x == bits;
}
static inline int match16(uint16_t x, int find, uint16_t bits) {
    return find == FIND_NAN ? (x & F16_ABS) > F16_INF : find == FIND_ZERO ? (x & F16_ABS) == 0 : x == bits;
}

#if DMLREF_SIMD
#define LD(p) simde_mm_loadu_si128((const simde__m128i *)(const void *)(p))
#define ST(p, v) simde_mm_storeu_si128((simde__m128i *)(void *)(p), (v))
#define BLEND(m, a, b) simde_mm_or_si128(simde_mm_and_si128((m), (a)), simde_mm_andnot_si128((m), (b)))

static DMLREF_ALWAYS_INLINE simde__m128i vkey32(simde__m128i x, uint32_t kind, simde__m128i *nan) {
    if (kind == K_FLOAT) {
        const simde__m128i a = simde_mm_and_si128(x, simde_mm_set1_epi32((int32_t)F32_ABS));
        const simde__m128i s = simde_mm_srai_epi32(x, 31);
        *nan = simde_mm_or_si128(*nan, simde_mm_cmpgt_epi32(a, simde_mm_set1_epi32((int32_t)F32_INF)));
        return simde_mm_sub_epi32(simde_mm_xor_si128(a, s), s);
    }
    return kind == K_UNSIGNED ? simde_mm_xor_si128(x, simde_mm_set1_epi32(INT32_MIN)) : x;
}

static DMLREF_ALWAYS_INLINE simde__m128i vkey16(simde__m128i x, uint32_t kind, simde__m128i *nan) {
    if (kind == K_FLOAT) {
        const simde__m128i a = simde_mm_and_si128(x, simde_mm_set1_epi16((int16_t)F16_ABS));
        const simde__m128i s = simde_mm_srai_epi16(x, 15);
        *nan = simde_mm_or_si128(*nan, simde_mm_cmpgt_epi16(a, simde_mm_set1_epi16((int16_t)F16_INF)));
        return simde_mm_sub_epi16(simde_mm_xor_si128(a, s), s);
    }
    return kind == K_UNSIGNED ? simde_mm_xor_si128(x, simde_mm_set1_epi16(INT16_MIN)) : x;
}

/* The larger (is_max) or smaller of a and b, lane by lane. */
static DMLREF_ALWAYS_INLINE simde__m128i vbest32(simde__m128i a, simde__m128i b, int is_max) {
    const simde__m128i m = is_max ? simde_mm_cmpgt_epi32(a, b) : simde_mm_cmpgt_epi32(b, a);
    return BLEND(m, a, b);
}

/* movemask of the lanes matching `find` (4-byte lanes: 4 mask bits each). */
static DMLREF_ALWAYS_INLINE uint32_t vmatch32(simde__m128i x, int find, simde__m128i t) {
    simde__m128i m;
    if (find == FIND_BITS) m = simde_mm_cmpeq_epi32(x, t);
    else {
        const simde__m128i a = simde_mm_and_si128(x, simde_mm_set1_epi32((int32_t)F32_ABS));
        m = find == FIND_ZERO ? simde_mm_cmpeq_epi32(a, simde_mm_setzero_si128())
                              : simde_mm_cmpgt_epi32(a, simde_mm_set1_epi32((int32_t)F32_INF));
    }
    return (uint32_t)simde_mm_movemask_epi8(m);
}
static DMLREF_ALWAYS_INLINE uint32_t vmatch16(simde__m128i x, int find, simde__m128i t) {
    simde__m128i m;
    if (find == FIND_BITS) m = simde_mm_cmpeq_epi16(x, t);
    else {
        const simde__m128i a = simde_mm_and_si128(x, simde_mm_set1_epi16((int16_t)F16_ABS));
        m = find == FIND_ZERO ? simde_mm_cmpeq_epi16(a, simde_mm_setzero_si128())
                              : simde_mm_cmpgt_epi16(a, simde_mm_set1_epi16((int16_t)F16_INF));
    }
    return (uint32_t)simde_mm_movemask_epi8(m);
}
#endif

#if DMLREF_SIMD /* used by the vector loops only (clang: -Wunused-function without SIMD) */
/* The lowest / highest lane set in a movemask_epi8 mask of lanes of w bytes. */
static inline uint32_t lane_low(uint32_t mask, uint32_t w) {
    uint32_t i = 0;
    while (!(mask >> (i * w) & 1u)) ++i;
    return i;
}
static inline uint32_t lane_high(uint32_t mask, uint32_t w) {
    uint32_t i = 16 / w - 1;
    while (!(mask >> (i * w) & 1u)) --i;
    return i;
}
#endif

/* ---- rows ---------------------------------------------------------------------- */

/* Pass 2 over n >= 1 contiguous 4-byte elements: the first (or, last, the last) match. */
static uint64_t find32(const unsigned char *row, uint64_t n, int last, int find, uint32_t bits) {
    uint64_t i;
#if DMLREF_SIMD
    const simde__m128i t = simde_mm_set1_epi32((int32_t)bits);
#endif
    if (!last) {
        i = 0;
#if DMLREF_SIMD
        for (; i + 4 <= n; i += 4) {
            const uint32_t m = vmatch32(LD(row + 4 * i), find, t);
            if (m) return i + lane_low(m, 4);
        }
#endif
        for (; i < n; ++i)
            if (match32(load32(row + 4 * i), find, bits)) return i;
        return 0; /* not reached: some element is the best */
    }
    i = n;
#if DMLREF_SIMD
    for (; i % 4; --i)
        if (match32(load32(row + 4 * (i - 1)), find, bits)) return i - 1;
    for (; i >= 4; i -= 4) {
        const uint32_t m = vmatch32(LD(row + 4 * (i - 4)), find, t);
        if (m) return i - 4 + lane_high(m, 4);
    }
#endif
    for (; i > 0; --i)
        if (match32(load32(row + 4 * (i - 1)), find, bits)) return i - 1;
    return 0;
}

static uint64_t find16(const unsigned char *row, uint64_t n, int last, int find, uint16_t bits) {
    uint64_t i;
#if DMLREF_SIMD
    const simde__m128i t = simde_mm_set1_epi16((int16_t)bits);
#endif
    if (!last) {
        i = 0;
#if DMLREF_SIMD
        for (; i + 8 <= n; i += 8) {
            const uint32_t m = vmatch16(LD(row + 2 * i), find, t);
            if (m) return i + lane_low(m, 2);
        }
#endif
        for (; i < n; ++i)
            if (match16(load16(row + 2 * i), find, bits)) return i;
        return 0;
    }
    i = n;
#if DMLREF_SIMD
    for (; i % 8; --i)
        if (match16(load16(row + 2 * (i - 1)), find, bits)) return i - 1;
    for (; i >= 8; i -= 8) {
        const uint32_t m = vmatch16(LD(row + 2 * (i - 8)), find, t);
        if (m) return i - 8 + lane_high(m, 2);
    }
#endif
    for (; i > 0; --i)
        if (match16(load16(row + 2 * (i - 1)), find, bits)) return i - 1;
    return 0;
}

/* Pass 1 over n >= 1 contiguous 4-byte elements: the best key, and whether a NaN was seen. */
static DMLREF_ALWAYS_INLINE int32_t best32(const unsigned char *row, uint64_t n, uint32_t kind, int is_max, int *nan_seen) {
    int32_t best = key32(load32(row), kind);
    uint64_t i = 0;
    int nan = 0;
#if DMLREF_SIMD
    if (n >= 8) {
        simde__m128i n0 = simde_mm_setzero_si128(), n1 = n0;
        simde__m128i m0 = vkey32(LD(row), kind, &n0), m1 = m0;
        for (i = 0; i + 8 <= n; i += 8) {
            m0 = vbest32(vkey32(LD(row + 4 * i), kind, &n0), m0, is_max);
            m1 = vbest32(vkey32(LD(row + 4 * i + 16), kind, &n1), m1, is_max);
        }
        int32_t l[4];
        ST(l, vbest32(m0, m1, is_max));
        for (int k = 0; k < 4; ++k)
            if (is_max ? l[k] > best : l[k] < best) best = l[k];
        nan = simde_mm_movemask_epi8(simde_mm_or_si128(n0, n1)) != 0;
    }
#endif
    for (; i < n; ++i) {
        const uint32_t x = load32(row + 4 * i);
        const int32_t k = key32(x, kind);
        if (is_max ? k > best : k < best) best = k;
        if (kind == K_FLOAT && (x & F32_ABS) > F32_INF) nan = 1;
    }
    *nan_seen = nan;
    return best;
}

static DMLREF_ALWAYS_INLINE int16_t best16(const unsigned char *row, uint64_t n, uint32_t kind, int is_max, int *nan_seen) {
    int16_t best = key16(load16(row), kind);
    uint64_t i = 0;
    int nan = 0;
#if DMLREF_SIMD
    if (n >= 16) {
        simde__m128i n0 = simde_mm_setzero_si128(), n1 = n0;
        simde__m128i m0 = vkey16(LD(row), kind, &n0), m1 = m0;
        for (i = 0; i + 16 <= n; i += 16) {
            const simde__m128i k0 = vkey16(LD(row + 2 * i), kind, &n0), k1 = vkey16(LD(row + 2 * i + 16), kind, &n1);
            m0 = is_max ? simde_mm_max_epi16(m0, k0) : simde_mm_min_epi16(m0, k0);
            m1 = is_max ? simde_mm_max_epi16(m1, k1) : simde_mm_min_epi16(m1, k1);
        }
        int16_t l[8];
        ST(l, is_max ? simde_mm_max_epi16(m0, m1) : simde_mm_min_epi16(m0, m1));
        for (int k = 0; k < 8; ++k)
            if (is_max ? l[k] > best : l[k] < best) best = l[k];
        nan = simde_mm_movemask_epi8(simde_mm_or_si128(n0, n1)) != 0;
    }
#endif
    for (; i < n; ++i) {
        const uint16_t x = load16(row + 2 * i);
        const int16_t k = key16(x, kind);
        if (is_max ? k > best : k < best) best = k;
        if (kind == K_FLOAT && (x & F16_ABS) > F16_INF) nan = 1;
    }
    *nan_seen = nan;
    return best;
}

#if DMLREF_SIMD
/* FLOAT32 rows: the most blocks whose maxima (or minima) pass 1 keeps (a 16-byte vector each on
 * the stack: 256 B).  16 beat 64 (each block's reduction and store cost more than pass 2's
 * longer block: argmax_last with 1 thread 1.93 -> 1.84 ms, faster in 6 of 8 alternated rounds),
 * 8 was the same as 16, 4 slower. */
#define AM_BLOCKS 16u

/* The blocks of pass 1 (best32f) over a row's first n16 elements (a multiple of 16): block k
 * is the elements [k * size, min((k + 1) * size, n16)); v[k] its 4 lane maxima (or minima),
 * each bit for bit one of the block's elements.  count 0: none kept. */
typedef struct am_blocks {
    simde__m128i v[AM_BLOCKS];
    uint64_t size, n16;
    uint32_t count;
} am_blocks;

/*
 * Pass 1 of FLOAT32 rows in the float domain: maxps / minps (one instruction a vector) and
 * cmpunord for NaNs.  The lanes' results are then compared by their keys (exactly), the tail
 * too.  A float compare may read subnormals as zero (DAZ, or a flush-to-zero mode on other
 * hosts); that cannot change a best that is a normal number or an infinity (a subnormal or
 * zero is beyond it on the other side of every normal), so only a best whose exponent bits are
 * 0 (a zero or a subnormal: the float domain may have got it wrong) is done again on the keys
 * (best32).  Returns what best32 returns.
 * The row goes in at most AM_BLOCKS blocks, each block's lane maxima kept in *bl: pass 2
 * (row_x4) then looks for the best in the one block whose lanes hold it instead of in the whole
 * row.  Kept (bl->count > 0) only when pass 2 looks for bits that no other float value has (no
 * NaN, a best that is not zero or subnormal): a lane then holds the best's bits exactly when
 * its block holds an element equal to it.
 */
static DMLREF_ALWAYS_INLINE int32_t best32f(const unsigned char *row, uint64_t n, int is_max, int avx2, int *nan_seen, am_blocks *bl) {
    bl->count = 0;
    if (n < 16) return best32(row, n, K_FLOAT, is_max, nan_seen);
    const uint64_t n16 = n & ~(uint64_t)15, per = (n16 / 16 + AM_BLOCKS - 1) / AM_BLOCKS;
    simde__m128 acc = simde_mm_loadu_ps((const float *)(const void *)row);
    simde__m128 u0 = simde_mm_setzero_ps(), u1 = u0;
    uint64_t i = 0;
    uint32_t k = 0;
    bl->size = 16 * per;
    bl->n16 = n16;
    int nan = 0;
#if DMLREF_X86_AVX2
    if (avx2) { /* the same blocks, lane maxima and NaN test, 32 bytes a vector */
        k = argminmax_avx2_blocks(row, n16, bl->size, is_max, (unsigned char *)(void *)bl->v,
                                  (unsigned char *)(void *)&acc, &nan);
        i = n16;
    }
#else
    (void)avx2;
#endif
    for (; i < n16; ++k) {
        const uint64_t end = n16 - i < bl->size ? n16 : i + bl->size;
        simde__m128 a0 = simde_mm_loadu_ps((const float *)(const void *)(row + 4 * i)), a1 = a0, a2 = a0, a3 = a0;
        for (; i < end; i += 16) {
            const simde__m128 x0 = simde_mm_loadu_ps((const float *)(const void *)(row + 4 * i));
            const simde__m128 x1 = simde_mm_loadu_ps((const float *)(const void *)(row + 4 * i + 16));
            const simde__m128 x2 = simde_mm_loadu_ps((const float *)(const void *)(row + 4 * i + 32));
            const simde__m128 x3 = simde_mm_loadu_ps((const float *)(const void *)(row + 4 * i + 48));
            a0 = is_max ? simde_mm_max_ps(a0, x0) : simde_mm_min_ps(a0, x0);
            a1 = is_max ? simde_mm_max_ps(a1, x1) : simde_mm_min_ps(a1, x1);
            a2 = is_max ? simde_mm_max_ps(a2, x2) : simde_mm_min_ps(a2, x2);
            a3 = is_max ? simde_mm_max_ps(a3, x3) : simde_mm_min_ps(a3, x3);
            /* cmpunord(a, b): a NaN in either (two vectors a compare) */
            u0 = simde_mm_or_ps(u0, simde_mm_cmpunord_ps(x0, x1));
            u1 = simde_mm_or_ps(u1, simde_mm_cmpunord_ps(x2, x3));
        }
        const simde__m128 b = is_max ? simde_mm_max_ps(simde_mm_max_ps(a0, a1), simde_mm_max_ps(a2, a3))
                                     : simde_mm_min_ps(simde_mm_min_ps(a0, a1), simde_mm_min_ps(a2, a3));
        bl->v[k] = simde_mm_castps_si128(b);
        acc = is_max ? simde_mm_max_ps(acc, b) : simde_mm_min_ps(acc, b);
    }
    nan |= simde_mm_movemask_ps(simde_mm_or_ps(u0, u1)) != 0;
    uint32_t l[4];
    ST(l, simde_mm_castps_si128(acc));
    int32_t best = key32(l[0], K_FLOAT);
    for (int q = 1; q < 4; ++q) {
        const int32_t c = key32(l[q], K_FLOAT);
        if (is_max ? c > best : c < best) best = c;
    }
    for (; i < n; ++i) {
        const uint32_t x = load32(row + 4 * i);
        const int32_t c = key32(x, K_FLOAT);
        if (is_max ? c > best : c < best) best = c;
        if ((x & F32_ABS) > F32_INF) nan = 1;
    }
    if (!nan && (bits_of32(best, K_FLOAT) & F32_INF) == 0) return best32(row, n, K_FLOAT, is_max, nan_seen);
    *nan_seen = nan;
    if (!nan) bl->count = k;
    return best;
}

/* Pass 2 through the blocks (best32f): the first (or last) element whose bits are bits, looked
 * for in the tail past the blocks and the first (last) block whose lanes hold them. */
static uint64_t find32_blocks(const am_blocks *bl, const unsigned char *row, uint64_t n, int last, uint32_t bits) {
    const simde__m128i t = simde_mm_set1_epi32((int32_t)bits);
    if (last && n > bl->n16) {
        const uint64_t j = find32(row + 4 * bl->n16, n - bl->n16, 1, FIND_BITS, bits);
        if (load32(row + 4 * (bl->n16 + j)) == bits) return bl->n16 + j;
    }
    for (uint32_t q = 0; q < bl->count; ++q) {
        const uint32_t k = last ? bl->count - 1 - q : q;
        if (!simde_mm_movemask_epi8(simde_mm_cmpeq_epi32(bl->v[k], t))) continue;
        const uint64_t lo = k * bl->size, hi = bl->n16 - lo < bl->size ? bl->n16 : lo + bl->size;
        return lo + find32(row + 4 * lo, hi - lo, last, FIND_BITS, bits);
    }
    if (!last && n > bl->n16) return bl->n16 + find32(row + 4 * bl->n16, n - bl->n16, 0, FIND_BITS, bits);
    return find32(row, n, last, FIND_BITS, bits); /* not reached: a lane or the tail holds the best */
}
#endif

/* The best position of n >= 1 contiguous 4-byte elements. */
static uint64_t row_x4(const am_plan *p, const unsigned char *row, uint64_t n) {
    int nan;
#if DMLREF_SIMD
    if (p->kind == K_FLOAT) {
        am_blocks bl;
        const int32_t best = p->prm.is_max ? best32f(row, n, 1, (int)p->avx2, &nan, &bl) : best32f(row, n, 0, (int)p->avx2, &nan, &bl);
        if (bl.count) return find32_blocks(&bl, row, n, (int)p->last, bits_of32(best, K_FLOAT));
        const int find = nan ? FIND_NAN : best == 0 ? FIND_ZERO : FIND_BITS;
        return find32(row, n, (int)p->last, find, bits_of32(best, K_FLOAT));
    }
#endif
    const int32_t best = p->prm.is_max ? best32(row, n, p->kind, 1, &nan) : best32(row, n, p->kind, 0, &nan);
    const int find = nan ? FIND_NAN : p->kind == K_FLOAT && best == 0 ? FIND_ZERO : FIND_BITS;
    return find32(row, n, (int)p->last, find, bits_of32(best, p->kind));
}

/* The same for 2-byte elements. */
static uint64_t row_x2(const am_plan *p, const unsigned char *row, uint64_t n) {
    int nan;
    const int16_t best = p->prm.is_max ? best16(row, n, p->kind, 1, &nan) : best16(row, n, p->kind, 0, &nan);
    const int find = nan ? FIND_NAN : p->kind == K_FLOAT && best == 0 ? FIND_ZERO : FIND_BITS;
    return find16(row, n, (int)p->last, find, bits_of16(best, p->kind));
}

/* Any type, any stride: the oracle's comparison on scalar_order_key. */
static uint64_t row_generic(const am_plan *p, const unsigned char *row, uint64_t n) {
    const DMLREF_TENSOR_DATA_TYPE dt = (DMLREF_TENSOR_DATA_TYPE)p->dt;
    uint64_t best = scalar_order_key(dt, row, (int)p->nan_low), at = 0;
    for (uint64_t j = 1; j < n; ++j) {
        const uint64_t k = scalar_order_key(dt, row + j * p->rs, (int)p->nan_low);
        if (argminmax_better(&p->prm, k, best)) {
            best = k;
            at = j;
        }
    }
    return at;
}

static void rows_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const am_ctx *cx = vc;
    const am_plan *p = cx->p;
    const unsigned char *src = IN_DATA(cx->x, 0);
    unsigned char *dst = OUT_DATA(cx->x, 0);
    (void)part;
    nest_it it;
    if (!nest_rows_begin(&p->kept, &it, lo, hi)) return;
    const uint64_t sin = p->kept.st[1][p->kept.m - 1], sout = p->kept.st[0][p->kept.m - 1];
    do {
        for (uint64_t q = 0; q < it.len; ++q) {
            const unsigned char *row = src + it.off[1] + q * sin;
            const uint64_t j = p->mode == M_ROWS_X4   ? row_x4(p, row, p->count)
                               : p->mode == M_ROWS_X2 ? row_x2(p, row, p->count)
                                                      : row_generic(p, row, p->count);
            argminmax_store(dst + it.off[0] + q * sout, p->oes, j);
        }
    } while (nest_rows_next(&p->kept, &it));
}

/* ---- columns ------------------------------------------------------------------- */

#if DMLREF_SIMD
/* The lanes of k that beat b (the operator's comparison, non-strict for DECREASING). */
static DMLREF_ALWAYS_INLINE simde__m128i vbeats(simde__m128i k, simde__m128i b, int is_max, int last) {
    const simde__m128i ones = simde_mm_set1_epi32(-1);
    if (is_max) return last ? simde_mm_xor_si128(simde_mm_cmpgt_epi32(b, k), ones) : simde_mm_cmpgt_epi32(k, b);
    return last ? simde_mm_xor_si128(simde_mm_cmpgt_epi32(k, b), ones) : simde_mm_cmpgt_epi32(b, k);
}
#endif

static DMLREF_ALWAYS_INLINE int beats(int32_t k, int32_t b, int is_max, int last) {
    return is_max ? (last ? k >= b : k > b) : (last ? k <= b : k < b);
}

/* The rows a few steps ahead of row j, every line of the chunk, into L2 (plan.h's PREFETCH_R:
 * the rows of a column chunk are a multiple of 4 KiB apart, so in L1 they would evict one
 * another before they are read): each row's chunk starts in another page, where the hardware
 * prefetchers do not follow. */
static inline void cols_prefetch(const am_plan *p, const unsigned char *in, uint64_t j, uint64_t w) {
    if (j + ARGMINMAX_AHEAD >= p->count) return;
    prefetch_range(in + (j + ARGMINMAX_AHEAD) * p->rs, 4 * w);
}

/* Rows 1 .. count-1 of columns [0, w) (in: row 0's first column) into the running best keys
 * and indices, two rows a step (when neither beats a lane's best, that lane is left as it is:
 * the common case after the first rows, with no store); returns nonzero when a NaN was seen
 * (the keys are then not the order there). */
static DMLREF_ALWAYS_INLINE int cols_x4_rows(const am_plan *p, uint32_t kind, const unsigned char *in, uint64_t w, int32_t *best,
                                             uint32_t *idx, int is_max, int last) {
    int nan = 0;
    uint64_t j = 1;
#if DMLREF_SIMD
    simde__m128i vn = simde_mm_setzero_si128();
#endif
    for (; j + 1 < p->count; j += 2) {
        const unsigned char *r0 = in + j * p->rs, *r1 = r0 + p->rs;
        uint64_t i = 0;
        cols_prefetch(p, in, j, w);
        cols_prefetch(p, in, j + 1, w);
#if DMLREF_SIMD
        const simde__m128i v0 = simde_mm_set1_epi32((int32_t)(uint32_t)j), v1 = simde_mm_set1_epi32((int32_t)(uint32_t)(j + 1));
        for (; i + 4 <= w; i += 4) {
            const simde__m128i k0 = vkey32(LD(r0 + 4 * i), kind, &vn), k1 = vkey32(LD(r1 + 4 * i), kind, &vn);
            const simde__m128i b = LD(best + i);
            if (simde_mm_movemask_epi8(simde_mm_or_si128(vbeats(k0, b, is_max, last), vbeats(k1, b, is_max, last)))) {
                const simde__m128i m0 = vbeats(k0, b, is_max, last), b0 = BLEND(m0, k0, b);
                const simde__m128i x0 = BLEND(m0, v0, LD(idx + i));
                const simde__m128i m1 = vbeats(k1, b0, is_max, last);
                ST(best + i, BLEND(m1, k1, b0));
                ST(idx + i, BLEND(m1, v1, x0));
            }
        }
#endif
        for (; i < w; ++i)
            for (uint64_t q = 0; q < 2; ++q) {
                const uint32_t x = load32((q ? r1 : r0) + 4 * i);
                const int32_t k = key32(x, kind);
                if (kind == K_FLOAT && (x & F32_ABS) > F32_INF) nan = 1;
                if (beats(k, best[i], is_max, last)) {
                    best[i] = k;
                    idx[i] = (uint32_t)(j + q);
                }
            }
    }
    for (; j < p->count; ++j) { /* the last row when count - 1 is odd */
        const unsigned char *row = in + j * p->rs;
        uint64_t i = 0;
#if DMLREF_SIMD
        const simde__m128i vj = simde_mm_set1_epi32((int32_t)(uint32_t)j);
        for (; i + 4 <= w; i += 4) {
            const simde__m128i k = vkey32(LD(row + 4 * i), kind, &vn), b = LD(best + i);
            const simde__m128i m = vbeats(k, b, is_max, last);
            if (simde_mm_movemask_epi8(m)) {
                ST(best + i, BLEND(m, k, b));
                ST(idx + i, BLEND(m, vj, LD(idx + i)));
            }
        }
#endif
        for (; i < w; ++i) {
            const uint32_t x = load32(row + 4 * i);
            const int32_t k = key32(x, kind);
            if (kind == K_FLOAT && (x & F32_ABS) > F32_INF) nan = 1;
            if (beats(k, best[i], is_max, last)) {
                best[i] = k;
                idx[i] = (uint32_t)j;
            }
        }
    }
#if DMLREF_SIMD
    nan |= simde_mm_movemask_epi8(vn) != 0;
#endif
    return nan;
}

#if DMLREF_SIMD
#define AM_BLOCK 8u /* FLOAT32 columns: rows per block */

/* The lanes of x that beat b in float compares (non-strict for DECREASING). */
static DMLREF_ALWAYS_INLINE simde__m128 vbeats_f(simde__m128 x, simde__m128 b, int is_max, int last) {
    if (is_max) return last ? simde_mm_cmpge_ps(x, b) : simde_mm_cmpgt_ps(x, b);
    return last ? simde_mm_cmple_ps(x, b) : simde_mm_cmplt_ps(x, b);
}

/* Rows [j, j + r) of the 4 columns at q (row j's) into the running best bf and indices ix. */
static DMLREF_ALWAYS_INLINE void cols_f32_rescan(const am_plan *p, const unsigned char *q, uint64_t j, uint64_t r, float *bf, uint32_t *ix,
                                                 int is_max, int last) {
    simde__m128 b = simde_mm_loadu_ps(bf);
    simde__m128i v = LD(ix);
    for (uint64_t t = 0; t < r; ++t) {
        const simde__m128 x = simde_mm_loadu_ps((const float *)(const void *)(q + t * p->rs));
        const simde__m128i u = simde_mm_castps_si128(vbeats_f(x, b, is_max, last));
        b = simde_mm_castsi128_ps(BLEND(u, simde_mm_castps_si128(x), simde_mm_castps_si128(b)));
        v = BLEND(u, simde_mm_set1_epi32((int32_t)(uint32_t)(j + t)), v);
    }
    simde_mm_storeu_ps(bf, b);
    ST(ix, v);
}

/* FLOAT32 columns [0, w) (w a multiple of 4), rows 1 .. count-1, in blocks of AM_BLOCK rows: a
 * block's lane extreme (maxps / minps: one of the block's elements) is compared with the running
 * best, and only a lane that may improve is gone through row by row; the common case after the
 * first blocks reads each element once with two vector operations.  Float compares order the
 * non-NaN values as the keys do (+-0 equal); returns nonzero (the caller then redoes the chunk
 * exactly, cols_generic) when a NaN was seen or a best is a zero or subnormal, the values a
 * denormals-are-zero mode may compare wrongly. */
static DMLREF_ALWAYS_INLINE int cols_f32_rows(const am_plan *p, const unsigned char *in, uint64_t w, float *bf, uint32_t *ix, int is_max,
                                              int last) {
    simde__m128 vnan = simde_mm_setzero_ps();
    uint64_t j = 1;
    for (; j + AM_BLOCK <= p->count; j += AM_BLOCK) {
        const unsigned char *row = in + j * p->rs;
        const int ahead = j + 3 * AM_BLOCK <= p->count;
        for (uint64_t i = 0; i < w; i += 4) {
            const unsigned char *q = row + 4 * i;
            /* the rows two blocks ahead, a line of each per 16 columns: spread over the block
             * (all at the block's start, the prefetches waited: 3.5-3.8 -> 2.4-2.7 ms for the
             * argmax_first workload) */
            if (ahead && (i & 15) == 0)
                for (uint64_t t = 0; t < AM_BLOCK; ++t) PREFETCH_R(q + (2 * AM_BLOCK + t) * p->rs);
            /* a pair of rows a step; cmpunord(a, b): a NaN in either of the pair */
            simde__m128 x0 = simde_mm_loadu_ps((const float *)(const void *)q);
            simde__m128 x1 = simde_mm_loadu_ps((const float *)(const void *)(q + p->rs));
            simde__m128 m = is_max ? simde_mm_max_ps(x0, x1) : simde_mm_min_ps(x0, x1), nn = simde_mm_cmpunord_ps(x0, x1);
            for (uint64_t t = 2; t < AM_BLOCK; t += 2) {
                x0 = simde_mm_loadu_ps((const float *)(const void *)(q + t * p->rs));
                x1 = simde_mm_loadu_ps((const float *)(const void *)(q + (t + 1) * p->rs));
                m = is_max ? simde_mm_max_ps(simde_mm_max_ps(x0, x1), m) : simde_mm_min_ps(simde_mm_min_ps(x0, x1), m);
                nn = simde_mm_or_ps(nn, simde_mm_cmpunord_ps(x0, x1));
            }
            vnan = simde_mm_or_ps(vnan, nn);
            if (simde_mm_movemask_ps(vbeats_f(m, simde_mm_loadu_ps(bf + i), is_max, last)))
                cols_f32_rescan(p, q, j, AM_BLOCK, bf + i, ix + i, is_max, last);
        }
    }
    if (j < p->count) {
        const unsigned char *row = in + j * p->rs;
        for (uint64_t i = 0; i < w; i += 4) {
            for (uint64_t t = 0; j + t < p->count; ++t) {
                const simde__m128 x = simde_mm_loadu_ps((const float *)(const void *)(row + t * p->rs + 4 * i));
                vnan = simde_mm_or_ps(vnan, simde_mm_cmpunord_ps(x, x));
            }
            cols_f32_rescan(p, row + 4 * i, j, p->count - j, bf + i, ix + i, is_max, last);
        }
    }
    if (simde_mm_movemask_ps(vnan)) return 1;
    for (uint64_t i = 0; i < w; ++i) {
        uint32_t b;
        memcpy(&b, bf + i, 4);
        if ((b & F32_ABS) < 0x00800000u) return 1;
    }
    return 0;
}
#endif

static void cols_generic(const am_plan *p, const unsigned char *in, unsigned char *out, uint64_t w);

/* Columns [c0, c0 + w) of one outer point: in points at the first column of row 0, out at
 * its output element.  A chunk holding a NaN is done again by cols_generic (a NaN wins: the
 * keys here do not order it). */
static void cols_x4(const am_plan *p, const unsigned char *in, unsigned char *out, uint64_t w) {
    int32_t best[ARGMINMAX_CW];
    uint32_t idx[ARGMINMAX_CW];
    int nan = 0;
    for (uint64_t i = 0; i < w; ++i) {
        const uint32_t x = load32(in + 4 * i);
        best[i] = key32(x, p->kind);
        idx[i] = 0;
        if (p->kind == K_FLOAT && (x & F32_ABS) > F32_INF) nan = 1;
    }
    if (p->kind == K_FLOAT) {
        if (p->prm.is_max) nan |= p->last ? cols_x4_rows(p, K_FLOAT, in, w, best, idx, 1, 1) : cols_x4_rows(p, K_FLOAT, in, w, best, idx, 1, 0);
        else nan |= p->last ? cols_x4_rows(p, K_FLOAT, in, w, best, idx, 0, 1) : cols_x4_rows(p, K_FLOAT, in, w, best, idx, 0, 0);
    } else {
        const uint32_t k = p->kind;
        if (p->prm.is_max) nan |= p->last ? cols_x4_rows(p, k, in, w, best, idx, 1, 1) : cols_x4_rows(p, k, in, w, best, idx, 1, 0);
        else nan |= p->last ? cols_x4_rows(p, k, in, w, best, idx, 0, 1) : cols_x4_rows(p, k, in, w, best, idx, 0, 0);
    }
    if (nan) {
        cols_generic(p, in, out, w);
        return;
    }
    for (uint64_t i = 0; i < w; ++i) argminmax_store(out + i * p->ost, p->oes, idx[i]);
}

#if DMLREF_SIMD
/* FLOAT32 columns [0, w), w <= ARGMINMAX_CW_F32 (cols_f32_rows; a chunk it cannot order exactly
 * by cols_generic, the last w % 4 columns by cols_x4's 32-bit keys). */
static void cols_f32(const am_plan *p, const unsigned char *in, unsigned char *out, uint64_t w) {
    float bf[ARGMINMAX_CW_F32];
    uint32_t idx[ARGMINMAX_CW_F32];
    const uint64_t w4 = w & ~(uint64_t)3;
    if (w4) {
        int redo;
        memcpy(bf, in, 4 * w4); /* row 0: the first best */
        for (uint64_t i = 0; i < w4; ++i) idx[i] = 0;
        if (p->prm.is_max) redo = p->last ? cols_f32_rows(p, in, w4, bf, idx, 1, 1) : cols_f32_rows(p, in, w4, bf, idx, 1, 0);
        else redo = p->last ? cols_f32_rows(p, in, w4, bf, idx, 0, 1) : cols_f32_rows(p, in, w4, bf, idx, 0, 0);
        if (redo) cols_generic(p, in, out, w4);
        else
            for (uint64_t i = 0; i < w4; ++i) argminmax_store(out + i * p->ost, p->oes, idx[i]);
    }
    if (w > w4) cols_x4(p, in + 4 * w4, out + w4 * p->ost, w - w4);
}
#endif

/* Columns [0, w) of a chunk, ARGMINMAX_CW / 2 at a time (the 64-bit keys: the stack arrays stay
 * as large as cols_x4's). */
static void cols_generic(const am_plan *p, const unsigned char *in, unsigned char *out, uint64_t w) {
    uint64_t best[ARGMINMAX_CW / 2];
    uint32_t idx[ARGMINMAX_CW / 2];
    const DMLREF_TENSOR_DATA_TYPE dt = (DMLREF_TENSOR_DATA_TYPE)p->dt;
    for (uint64_t c0 = 0; c0 < w; c0 += ARGMINMAX_CW / 2) {
        const uint64_t n = w - c0 < ARGMINMAX_CW / 2 ? w - c0 : ARGMINMAX_CW / 2;
        const unsigned char *base = in + c0 * p->es;
        for (uint64_t i = 0; i < n; ++i) {
            best[i] = scalar_order_key(dt, base + i * p->es, (int)p->nan_low);
            idx[i] = 0;
        }
        for (uint64_t j = 1; j < p->count; ++j)
            for (uint64_t i = 0; i < n; ++i) {
                const uint64_t k = scalar_order_key(dt, base + j * p->rs + i * p->es, (int)p->nan_low);
                if (argminmax_better(&p->prm, k, best[i])) {
                    best[i] = k;
                    idx[i] = (uint32_t)j;
                }
            }
        for (uint64_t i = 0; i < n; ++i) argminmax_store(out + (c0 + i) * p->ost, p->oes, idx[i]);
    }
}

static void cols_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const am_ctx *cx = vc;
    const am_plan *p = cx->p;
    const unsigned char *src = IN_DATA(cx->x, 0);
    unsigned char *dst = OUT_DATA(cx->x, 0);
    (void)part;
    for (uint64_t u = lo; u < hi; ++u) {
        const uint64_t o = u / p->chunks, c0 = (u % p->chunks) * p->cw;
        const uint64_t w = p->inner - c0 < p->cw ? p->inner - c0 : p->cw;
        uint64_t off[NEST_K];
        nest_offsets(&p->kept, o, off);
        const unsigned char *in = src + off[1] + c0 * p->es;
        unsigned char *out = dst + off[0] + c0 * p->ost;
#if DMLREF_SIMD
        if (p->f32) cols_f32(p, in, out, w);
        else
#endif
        if (p->mode == M_COLS_X4) cols_x4(p, in, out, w);
        else cols_generic(p, in, out, w);
    }
}

static dmlref_status am_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const am_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->units, c.p->mode >= M_COLS_X4 ? cols_range : rows_range, &c);
    return DMLREF_OK;
}

static void am_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

static uint32_t kind_of(uint32_t dt) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32:
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: return K_FLOAT;
    case DMLREF_TENSOR_DATA_TYPE_INT32:
    case DMLREF_TENSOR_DATA_TYPE_INT16: return K_SIGNED;
    default: return K_UNSIGNED;
    }
}

static int simd_type(uint32_t dt, uint32_t es) {
    return (es == 4 || es == 2) && dt != DMLREF_TENSOR_DATA_TYPE_FLOAT64;
}

dmlref_status plan_argminmax(op_t *op, const argminmax_params *prm, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    (void)err;
    /* the reduced dims must merge into one run of stride rs */
    uint64_t rs = in->esize;
    int have = 0;
    uint32_t prev = 0;
    for (uint32_t k = 0; k < prm->n_red; ++k) {
        const uint32_t d = prm->red[k];
        if (in->sizes[d] == 1) continue;
        if (have && !stride_adjacent(in->bstrides[prev], in->bstrides[d], in->sizes[d])) return DMLREF_OK;
        prev = d;
        have = 1;
        rs = in->bstrides[d];
    }
    am_plan *p = mem_alloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    mem_zero(p, sizeof *p);
    p->prm = *prm;
    p->count = prm->count;
    p->rs = rs;
    p->es = in->esize;
    p->oes = out->esize;
    p->dt = in->dtype;
    p->kind = kind_of(in->dtype);
    p->last = prm->last;
    p->nan_low = !prm->is_max;
    nest_t *nt = &p->kept;
    nt->m = 0;
    for (uint32_t d = 0; d < in->n; ++d) {
        if (prm->reduced[d]) continue;
        nt->sizes[nt->m] = in->sizes[d];
        nt->st[0][nt->m] = out->bstrides[d];
        nt->st[1][nt->m] = in->bstrides[d];
        ++nt->m;
    }
    if (nt->m == 0) {
        nt->m = 1;
        nt->sizes[0] = 1;
    }
    nest_collapse(nt, 2);
    const uint32_t L = nt->m - 1;
    const int simd = simd_type(in->dtype, in->esize);
    if (p->count > 1 && rs != in->esize && nt->sizes[L] > 1 && nt->st[1][L] == in->esize) {
        /* columns: the innermost kept dim contiguous, split into chunks per outer point */
        p->mode = simd && in->esize == 4 ? M_COLS_X4 : M_COLS;
        p->inner = nt->sizes[L];
        p->ost = nt->st[0][L];
        nt->sizes[L] = 1; /* the outer points only */
        nt->st[0][L] = nt->st[1][L] = 0;
        nest_collapse(nt, 2);
        p->nth = plan_threads(op, in->elements * in->esize);
        /* chunks of cw columns; narrower when the outer points are fewer than the threads, so that
         * each thread has a chunk (a multiple of 4 columns) */
        /* FLOAT32 with SIMD: cols_f32 (cols_range), its wider chunks; else cols_x4 / cols_generic */
        p->f32 = DMLREF_SIMD && p->mode == M_COLS_X4 && in->dtype == DMLREF_TENSOR_DATA_TYPE_FLOAT32;
        p->cw = p->f32 ? ARGMINMAX_CW_F32 : ARGMINMAX_CW;
        if (nt->points < p->nth) {
            const uint64_t want = (p->nth + nt->points - 1) / nt->points;
            uint64_t per = ((p->inner + want - 1) / want + 3) & ~(uint64_t)3;
            if (per < p->cw) p->cw = per;
        }
        p->chunks = (p->inner + p->cw - 1) / p->cw;
        p->units = nt->points * p->chunks;
    } else {
        p->mode = p->count > 1 && rs == in->esize && simd ? (in->esize == 4 ? M_ROWS_X4 : M_ROWS_X2) : M_ROWS;
        p->units = nt->points;
        p->nth = plan_threads(op, in->elements * in->esize);
    }
    static const char *const ids[] = {kernel_name_ARGMINMAX_ROWS_X4, kernel_name_ARGMINMAX_ROWS_X2, kernel_name_ARGMINMAX_ROWS,
                                      kernel_name_ARGMINMAX_COLUMNS_X4, kernel_name_ARGMINMAX_COLUMNS};
    op->plan = p;
    op->plan_free = am_free;
    op->kernel = am_kernel;
    op->kernel_name = ids[p->mode];
#if DMLREF_X86_AVX2
    /* FLOAT32 rows of at least 16: pass 1 in AVX2 where the CPU has it (run-time dispatch) */
    if (p->mode == M_ROWS_X4 && p->kind == K_FLOAT && p->count >= 16 && !(op->options.flags & DMLREF_OPTION_BASELINE_ISA) &&
        simd_cpu_avx2()) {
        p->avx2 = 1;
        op->kernel_name = kernel_name_ARGMINMAX_ROWS_F32_AVX2;
    }
#endif
    return DMLREF_OK;
}
