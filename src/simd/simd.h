/*
 * Small SIMD building blocks of the fast paths (see README.md in this
 * directory), written with SIMDe.  The default build is 128-bit (SSE2, any
 * x86-64; SIMDe's portable C elsewhere).  Where the compiler flags allow AVX2
 * (CFLAGS=-mavx2 or -march=native), SIMDe reports it as native and the
 * primitives below use 256-bit vectors as well; 256-bit types are never used
 * otherwise (in a file built without AVX they would trip clang's -Wpsabi).
 * With DMLREF_SIMD=0 each primitive is the plain C it stands for.  No
 * primitive reads or writes outside [p, p + n).
 */
#ifndef DMLREF_SIMD_H
#define DMLREF_SIMD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef DMLREF_SIMD
#define DMLREF_SIMD 1
#endif

#if DMLREF_SIMD
#include <simde/x86/sse2.h>
#if defined(SIMDE_X86_AVX2_NATIVE)
#include <simde/x86/avx2.h>
#define DMLREF_SIMD_AVX2 1
#endif
#endif
#ifndef DMLREF_SIMD_AVX2
#define DMLREF_SIMD_AVX2 0
#endif

/* The instruction set the primitives were built for, the last part of every
 * fast kernel's name (README.md): "avx2", "sse2", "neon", "wasm" (SIMDe on its
 * native 128-bit vectors), "portable" (SIMDe's portable C, e.g. with
 * -DSIMDE_NO_NATIVE or on other targets), "scalar" (DMLREF_SIMD=0: plain C). */
#if !DMLREF_SIMD
#define DMLREF_ISA "scalar"
#elif DMLREF_SIMD_AVX2
#define DMLREF_ISA "avx2"
#elif defined(SIMDE_X86_SSE2_NATIVE)
#define DMLREF_ISA "sse2"
#elif defined(SIMDE_ARM_NEON_A32V7_NATIVE) || defined(SIMDE_ARM_NEON_A64V8_NATIVE)
#define DMLREF_ISA "neon"
#elif defined(SIMDE_WASM_SIMD128_NATIVE)
#define DMLREF_ISA "wasm"
#else
#define DMLREF_ISA "portable"
#endif

/* DMLREF_UNROLL before a loop of a constant trip count of at most 16: unroll it whole. */
#if defined(__clang__)
#define DMLREF_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define DMLREF_UNROLL _Pragma("GCC unroll 16")
#else
#define DMLREF_UNROLL
#endif

/* Run-time dispatch (src/simd/cpu.c): kernels built for an instruction set
 * beyond the build's baseline, in functions marked with that set's target
 * attribute, taken at plan time only when the CPU has it.  DMLREF_X86_F16C: this
 * build holds the F16C kernels (x86-64, SIMD, gcc or clang, not SMALL;
 * src/ops/cast/cast_f16c_fast.c, its functions marked target("avx,f16c")).
 * simd_cpu_f16c(): 1 when the CPU has AVX and F16C and the OS saves the AVX
 * registers (CPUID and XGETBV, asked once: the answer is cached in an atomic
 * int, a fact of the machine rather than state); 0 otherwise or without
 * DMLREF_X86_F16C.  A planner asks it unless DMLREF_OPTION_BASELINE_ISA.  Not
 * with SIMDE_NO_NATIVE (make test-portable: SIMDe's portable C, which is not the
 * instruction) nor with -DDMLREF_NO_DISPATCH. */
#if DMLREF_SIMD && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !DMLREF_SMALL && \
    !defined(DMLREF_NO_DISPATCH) && !defined(SIMDE_NO_NATIVE)
#define DMLREF_X86_F16C 1
#else
#define DMLREF_X86_F16C 0
#endif
int simd_cpu_f16c(void);
/* The same for the AVX2 kernels (the same builds; src/ops/argminmax/argminmax_avx2_fast.c and
 * src/engine/transpose_avx2.c, their functions marked target("avx2")): simd_cpu_avx2() is 1 when the CPU has AVX2 and the
 * OS saves the AVX registers, asked with the same CPUID and XGETBV, once. */
#define DMLREF_X86_AVX2 DMLREF_X86_F16C
int simd_cpu_avx2(void);

/* Bit helpers of the mask-driven kernels (TOP_K's screen, NONZERO_COORDINATES' emit):
 * the count of set bits, and the index of the lowest set bit of m != 0 (32 and 64 bits). */
#if defined(__GNUC__)
static inline uint32_t simd_popcount32(uint32_t m) { return (uint32_t)__builtin_popcount(m); }
static inline uint32_t simd_ctz32(uint32_t m) { return (uint32_t)__builtin_ctz(m); }
static inline uint32_t simd_ctz64(uint64_t m) { return (uint32_t)__builtin_ctzll(m); }
#else
static inline uint32_t simd_popcount32(uint32_t m) {
    uint32_t c = 0;
    for (; m; m &= m - 1) ++c;
    return c;
}
static inline uint32_t simd_ctz32(uint32_t m) {
    uint32_t c = 0;
    for (; !(m & 1u); m >>= 1) ++c;
    return c;
}
static inline uint32_t simd_ctz64(uint64_t m) {
    uint32_t c = 0;
    for (; !(m & 1u); m >>= 1) ++c;
    return c;
}
#endif

/* 16 bytes, one unaligned 128-bit load and store. */
static inline void simd_copy16(unsigned char *d, const unsigned char *s) {
#if DMLREF_SIMD
    simde_mm_storeu_si128((simde__m128i *)(void *)d, simde_mm_loadu_si128((const simde__m128i *)(const void *)s));
#else
    memcpy(d, s, 16);
#endif
}

/* 32 bytes, one unaligned 256-bit load and store (AVX2 builds only). */
#if DMLREF_SIMD_AVX2
static inline void simd_copy32(unsigned char *d, const unsigned char *s) {
    simde_mm256_storeu_si256((simde__m256i *)(void *)d, simde_mm256_loadu_si256((const simde__m256i *)(const void *)s));
}
#endif

/* n bytes (any n) with 16-byte moves (32-byte in AVX2 builds) and an
 * overlapping last move instead of a byte tail.  Source and destination must
 * not overlap (the library's outputs never overlap its inputs), so rewriting
 * a byte writes the same value. */
static inline void simd_copy_small(unsigned char *d, const unsigned char *s, size_t n) {
#if DMLREF_SIMD_AVX2
    if (n >= 32) {
        size_t i = 0;
        for (; i + 32 <= n; i += 32) simd_copy32(d + i, s + i);
        if (i < n) simd_copy32(d + n - 32, s + n - 32);
        return;
    }
#endif
    if (n >= 16) {
        size_t i = 0;
        for (; i + 16 <= n; i += 16) simd_copy16(d + i, s + i);
        if (i < n) simd_copy16(d + n - 16, s + n - 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n >= 2) {
        uint16_t a, b;
        memcpy(&a, s, 2);
        memcpy(&b, s + n - 2, 2);
        memcpy(d, &a, 2);
        memcpy(d + n - 2, &b, 2);
    } else if (n == 1) {
        d[0] = s[0];
    }
}

/* A block of any size: the small copy below 256 bytes, memcpy above. */
static inline void simd_copy_block(unsigned char *d, const unsigned char *s, size_t n) {
    if (n < 256) simd_copy_small(d, s, n);
    else memcpy(d, s, n);
}

/*
 * n bytes with non-temporal (streaming) stores: the destination lines are
 * written without first being read for ownership, which saves a third of the
 * memory traffic of a copy whose blocks are too small for memcpy's own
 * no-read-for-ownership strategies (rep movsb, non-temporal stores) and whose
 * result is not read back soon.  The unaligned head and the tail are ordinary
 * overlapping 16-byte moves, so nothing outside [d, d + n) is touched.
 * Streaming stores are weakly ordered: the thread must call
 * simd_stream_fence() before anyone else may read what it wrote.  Below 64
 * bytes this is simd_copy_small.
 */
static inline void simd_copy_stream(unsigned char *d, const unsigned char *s, size_t n) {
#if DMLREF_SIMD
    if (n < 64) {
        simd_copy_small(d, s, n);
        return;
    }
    const size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    if (head) simd_copy16(d, s); /* bytes [0, head) now written; [head, 16) again below */
    size_t i = head;
    for (; i + 16 <= n; i += 16)
        simde_mm_stream_si128((simde__m128i *)(void *)(d + i),
                              simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + i)));
    if (i < n) simd_copy16(d + n - 16, s + n - 16);
#else
    memcpy(d, s, n);
#endif
}

/* n bytes of value c at d with streaming stores (the unaligned head and the tail as ordinary
 * stores; simd_stream_fence() afterwards, as for simd_copy_stream); memset without SIMD. */
static inline void simd_fill_stream(unsigned char *d, unsigned char c, size_t n) {
#if DMLREF_SIMD
    const size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    if (n < 64 || head >= n) {
        memset(d, c, n);
        return;
    }
    memset(d, c, head);
    const simde__m128i v = simde_mm_set1_epi8((char)c);
    size_t i = head;
    for (; i + 16 <= n; i += 16) simde_mm_stream_si128((simde__m128i *)(void *)(d + i), v);
    memset(d + i, c, n - i);
#else
    memset(d, c, n);
#endif
}

/* One 16-byte store, streaming (non-temporal) or not. */
#if DMLREF_SIMD
static inline void simd_store16(unsigned char *d, simde__m128i v, int stream) {
    if (stream) simde_mm_stream_si128((simde__m128i *)(void *)d, v);
    else simde_mm_storeu_si128((simde__m128i *)(void *)d, v);
}
#endif

/*
 * Transposed blocks (copy_plan_transpose's tiles): the K x K block of elements of W bytes
 * whose row k (k < K) is the K contiguous elements at s + k * sp is stored with its column
 * j as the K contiguous elements at d + j * dq: d[j][k] = s[k][j].  K = 4 for W = 4 (SSE2
 * 32- and 64-bit unpacks), K = 2 for W = 8 (K = 8 for W = 2 and 16 for W = 1 below).  stream: streaming stores (d and dq multiples of
 * 16; simd_stream_fence() afterwards, as for simd_copy_stream).  Bytes move unchanged.
 */
static inline void simd_transpose_x4(unsigned char *d, size_t dq, const unsigned char *s, size_t sp, int stream) {
#if DMLREF_SIMD
    const simde__m128i r0 = simde_mm_loadu_si128((const simde__m128i *)(const void *)s);
    const simde__m128i r1 = simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + sp));
    const simde__m128i r2 = simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + 2 * sp));
    const simde__m128i r3 = simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + 3 * sp));
    const simde__m128i t0 = simde_mm_unpacklo_epi32(r0, r1), t1 = simde_mm_unpacklo_epi32(r2, r3);
    const simde__m128i t2 = simde_mm_unpackhi_epi32(r0, r1), t3 = simde_mm_unpackhi_epi32(r2, r3);
    const simde__m128i c[4] = {simde_mm_unpacklo_epi64(t0, t1), simde_mm_unpackhi_epi64(t0, t1),
                               simde_mm_unpacklo_epi64(t2, t3), simde_mm_unpackhi_epi64(t2, t3)};
    for (int j = 0; j < 4; ++j) simd_store16(d + j * dq, c[j], stream);
#else
    (void)stream;
    for (size_t j = 0; j < 4; ++j)
        for (size_t k = 0; k < 4; ++k) memcpy(d + j * dq + k * 4, s + k * sp + j * 4, 4);
#endif
}

static inline void simd_transpose_x8(unsigned char *d, size_t dq, const unsigned char *s, size_t sp, int stream) {
#if DMLREF_SIMD
    const simde__m128i r0 = simde_mm_loadu_si128((const simde__m128i *)(const void *)s);
    const simde__m128i r1 = simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + sp));
    const simde__m128i c0 = simde_mm_unpacklo_epi64(r0, r1), c1 = simde_mm_unpackhi_epi64(r0, r1);
    simd_store16(d, c0, stream);
    simd_store16(d + dq, c1, stream);
#else
    (void)stream;
    for (size_t j = 0; j < 2; ++j)
        for (size_t k = 0; k < 2; ++k) memcpy(d + j * dq + k * 8, s + k * sp + j * 8, 8);
#endif
}

/* The same for W = 2 (K = 8: 16-, 32- and 64-bit unpacks) and W = 1 (K = 16: 8- to 64-bit
 * unpacks): each of the K source rows one 16-byte load, each destination row one store.  Their
 * loops are unrolled whole (DMLREF_UNROLL): rolled, as gcc -O2 leaves them, the register arrays
 * live on the stack, and a 16 x 16 byte block took 119 cycles in L1 instead of 42. */
static inline void simd_transpose_x2(unsigned char *d, size_t dq, const unsigned char *s, size_t sp, int stream) {
#if DMLREF_SIMD
    simde__m128i r[8], a[8], b[8];
    DMLREF_UNROLL for (int k = 0; k < 8; ++k) r[k] = simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + (size_t)k * sp));
    DMLREF_UNROLL for (int g = 0; g < 4; ++g) { /* rows 2g, 2g + 1: a[2g] columns 0-3, a[2g + 1] columns 4-7 */
        a[2 * g] = simde_mm_unpacklo_epi16(r[2 * g], r[2 * g + 1]);
        a[2 * g + 1] = simde_mm_unpackhi_epi16(r[2 * g], r[2 * g + 1]);
    }
    DMLREF_UNROLL for (int h = 0; h < 2; ++h) { /* rows 4h to 4h + 3: b[4h + k] columns 2k, 2k + 1 */
        b[4 * h] = simde_mm_unpacklo_epi32(a[4 * h], a[4 * h + 2]);
        b[4 * h + 1] = simde_mm_unpackhi_epi32(a[4 * h], a[4 * h + 2]);
        b[4 * h + 2] = simde_mm_unpacklo_epi32(a[4 * h + 1], a[4 * h + 3]);
        b[4 * h + 3] = simde_mm_unpackhi_epi32(a[4 * h + 1], a[4 * h + 3]);
    }
    DMLREF_UNROLL for (int j = 0; j < 8; ++j) { /* column j: rows 0-3 from b[j / 2], rows 4-7 from b[4 + j / 2] */
        const simde__m128i c = j & 1 ? simde_mm_unpackhi_epi64(b[j >> 1], b[4 + (j >> 1)])
                                     : simde_mm_unpacklo_epi64(b[j >> 1], b[4 + (j >> 1)]);
        simd_store16(d + (size_t)j * dq, c, stream);
    }
#else
    (void)stream;
    for (size_t j = 0; j < 8; ++j)
        for (size_t k = 0; k < 8; ++k) memcpy(d + j * dq + k * 2, s + k * sp + j * 2, 2);
#endif
}

static inline void simd_transpose_x1(unsigned char *d, size_t dq, const unsigned char *s, size_t sp, int stream) {
#if DMLREF_SIMD
    simde__m128i r[16], a[16], b[16], c[16];
    DMLREF_UNROLL for (int k = 0; k < 16; ++k) r[k] = simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + (size_t)k * sp));
    DMLREF_UNROLL for (int g = 0; g < 8; ++g) { /* rows 2g, 2g + 1: a[2g] columns 0-7, a[2g + 1] columns 8-15 */
        a[2 * g] = simde_mm_unpacklo_epi8(r[2 * g], r[2 * g + 1]);
        a[2 * g + 1] = simde_mm_unpackhi_epi8(r[2 * g], r[2 * g + 1]);
    }
    DMLREF_UNROLL for (int g = 0; g < 4; ++g) { /* rows 4g to 4g + 3: b[4g + k] columns 4k to 4k + 3 */
        b[4 * g] = simde_mm_unpacklo_epi16(a[4 * g], a[4 * g + 2]);
        b[4 * g + 1] = simde_mm_unpackhi_epi16(a[4 * g], a[4 * g + 2]);
        b[4 * g + 2] = simde_mm_unpacklo_epi16(a[4 * g + 1], a[4 * g + 3]);
        b[4 * g + 3] = simde_mm_unpackhi_epi16(a[4 * g + 1], a[4 * g + 3]);
    }
    DMLREF_UNROLL for (int h = 0; h < 2; ++h) /* rows 8h to 8h + 7: c[8h + 2k] columns 4k, 4k + 1, c[8h + 2k + 1] 4k + 2, 4k + 3 */
        DMLREF_UNROLL for (int k = 0; k < 4; ++k) {
            c[8 * h + 2 * k] = simde_mm_unpacklo_epi32(b[8 * h + k], b[8 * h + 4 + k]);
            c[8 * h + 2 * k + 1] = simde_mm_unpackhi_epi32(b[8 * h + k], b[8 * h + 4 + k]);
        }
    DMLREF_UNROLL for (int j = 0; j < 16; ++j) { /* column j: rows 0-7 from c[j / 2], rows 8-15 from c[8 + j / 2] */
        const simde__m128i v = j & 1 ? simde_mm_unpackhi_epi64(c[j >> 1], c[8 + (j >> 1)])
                                     : simde_mm_unpacklo_epi64(c[j >> 1], c[8 + (j >> 1)]);
        simd_store16(d + (size_t)j * dq, v, stream);
    }
#else
    (void)stream;
    for (size_t j = 0; j < 16; ++j)
        for (size_t k = 0; k < 16; ++k) d[j * dq + k] = s[k * sp + j];
#endif
}

/* Orders this thread's streaming stores before its later stores (sfence). */
static inline void simd_stream_fence(void) {
#if DMLREF_SIMD
    simde_mm_sfence();
#endif
}

/*
 * Reversed runs: d receives the n elements of W bytes at s in reverse order,
 * element i of d = element n - 1 - i of s (s is the run's lowest address; the
 * two do not overlap).  SLICE1's stride -1 rows.  A 128-bit vector at a time
 * (16 / W elements): loaded from the end of s, its lanes reversed with SSE2
 * shuffles (W = 1 also swaps the bytes of each 16-bit lane with two shifts),
 * stored at the start of d; the remaining n mod (16 / W) elements one by one.
 * Bytes move unchanged, so every build writes the same bytes.
 */
#if DMLREF_SIMD
/* The 4 32-bit lanes of v in reverse order, then (W = 2, 1) each lane's 16-bit halves swapped,
 * then (W = 1) each 16-bit lane's bytes swapped. */
static inline simde__m128i simd_rev32_(simde__m128i v) { return simde_mm_shuffle_epi32(v, 0x1B); }
static inline simde__m128i simd_rev16_(simde__m128i v) {
    v = simd_rev32_(v);
    return simde_mm_shufflehi_epi16(simde_mm_shufflelo_epi16(v, 0xB1), 0xB1);
}
static inline simde__m128i simd_rev8_(simde__m128i v) {
    v = simd_rev16_(v);
    return simde_mm_or_si128(simde_mm_slli_epi16(v, 8), simde_mm_srli_epi16(v, 8));
}
#define SIMD_REVERSE_(W, T, REV)                                                                               \
    static inline void simd_reverse_x##W(unsigned char *d, const unsigned char *s, size_t n) {                 \
        size_t i = 0;                                                                                          \
        for (; i + 16 / W <= n; i += 16 / W)                                                                   \
            simde_mm_storeu_si128((simde__m128i *)(void *)(d + i * W),                                         \
                                  REV(simde_mm_loadu_si128(                                                    \
                                      (const simde__m128i *)(const void *)(s + (n - i - 16 / W) * W))));       \
        for (; i < n; ++i) {                                                                                   \
            T v;                                                                                               \
            memcpy(&v, s + (n - 1 - i) * W, W);                                                                \
            memcpy(d + i * W, &v, W);                                                                          \
        }                                                                                                      \
    }
static inline simde__m128i simd_rev64_(simde__m128i v) { return simde_mm_shuffle_epi32(v, 0x4E); }
SIMD_REVERSE_(1, uint8_t, simd_rev8_)
SIMD_REVERSE_(2, uint16_t, simd_rev16_)
SIMD_REVERSE_(4, uint32_t, simd_rev32_)
SIMD_REVERSE_(8, uint64_t, simd_rev64_)
#undef SIMD_REVERSE_
#else
#define SIMD_REVERSE_(W, T)                                                                                    \
    static inline void simd_reverse_x##W(unsigned char *d, const unsigned char *s, size_t n) {                 \
        for (size_t i = 0; i < n; ++i) {                                                                       \
            T v;                                                                                               \
            memcpy(&v, s + (n - 1 - i) * W, W);                                                                \
            memcpy(d + i * W, &v, W);                                                                          \
        }                                                                                                      \
    }
SIMD_REVERSE_(1, uint8_t)
SIMD_REVERSE_(2, uint16_t)
SIMD_REVERSE_(4, uint32_t)
SIMD_REVERSE_(8, uint64_t)
#undef SIMD_REVERSE_
#endif

/*
 * Repeated elements: d receives the n elements of W bytes at s, each written r
 * times in a row (element j of s at d's elements j*r .. j*r + r - 1; the two do
 * not overlap).  Nearest-neighbour upscaling's rows (UPSAMPLE_2D, the RESAMPLE
 * family's integer repeats).  r = 2: a 128-bit vector of s at a time, its lanes
 * interleaved with themselves (unpacklo / unpackhi) into two vectors of d;
 * otherwise, and for the last n mod (16 / W) elements, element by element.
 * Bytes move unchanged, so every build writes the same bytes.
 */
#define SIMD_REPEAT_TAIL_(W, T)                                                                                \
    for (; i < n; ++i) {                                                                                       \
        T v;                                                                                                   \
        memcpy(&v, s + i * W, W);                                                                              \
        for (size_t t = 0; t < r; ++t) memcpy(d + (i * r + t) * W, &v, W);                                     \
    }
#if DMLREF_SIMD
#define SIMD_REPEAT_(W, T, LO, HI)                                                                             \
    static inline void simd_repeat_x##W(unsigned char *d, const unsigned char *s, size_t n, size_t r) {        \
        size_t i = 0;                                                                                          \
        if (r == 2)                                                                                            \
            for (; i + 16 / W <= n; i += 16 / W) {                                                             \
                const simde__m128i v = simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + i * W));  \
                simde_mm_storeu_si128((simde__m128i *)(void *)(d + 2 * i * W), LO(v, v));                      \
                simde_mm_storeu_si128((simde__m128i *)(void *)(d + 2 * i * W + 16), HI(v, v));                 \
            }                                                                                                  \
        SIMD_REPEAT_TAIL_(W, T)                                                                                \
    }
SIMD_REPEAT_(1, uint8_t, simde_mm_unpacklo_epi8, simde_mm_unpackhi_epi8)
SIMD_REPEAT_(2, uint16_t, simde_mm_unpacklo_epi16, simde_mm_unpackhi_epi16)
SIMD_REPEAT_(4, uint32_t, simde_mm_unpacklo_epi32, simde_mm_unpackhi_epi32)
SIMD_REPEAT_(8, uint64_t, simde_mm_unpacklo_epi64, simde_mm_unpackhi_epi64)
#undef SIMD_REPEAT_
#else
#define SIMD_REPEAT_(W, T)                                                                                     \
    static inline void simd_repeat_x##W(unsigned char *d, const unsigned char *s, size_t n, size_t r) {        \
        size_t i = 0;                                                                                          \
        SIMD_REPEAT_TAIL_(W, T)                                                                                \
    }
SIMD_REPEAT_(1, uint8_t)
SIMD_REPEAT_(2, uint16_t)
SIMD_REPEAT_(4, uint32_t)
SIMD_REPEAT_(8, uint64_t)
#undef SIMD_REPEAT_
#endif
#undef SIMD_REPEAT_TAIL_

/* simd_repeat_x<W> for an element size W of 1, 2, 4 or 8 bytes (others element by element). */
static inline void simd_repeat_row(unsigned char *d, const unsigned char *s, size_t n, size_t r, size_t w) {
    switch (w) {
    case 1: simd_repeat_x1(d, s, n, r); return;
    case 2: simd_repeat_x2(d, s, n, r); return;
    case 4: simd_repeat_x4(d, s, n, r); return;
    case 8: simd_repeat_x8(d, s, n, r); return;
    default:
        for (size_t i = 0; i < n; ++i)
            for (size_t t = 0; t < r; ++t) memcpy(d + (i * r + t) * w, s + i * w, w);
    }
}

/*
 * out[i] = norm(index at ix + i * js) for i < n: docs/operators.md 1.8's normalization with
 * the default clamp (index.h's index_norm, INDEX_CLAMP: its one definition),
 * A = the axis size (>= 1).  For contiguous 32-bit indices, groups of lanes (8
 * in AVX2 builds, else 4) that are all in range are copied as they are; any
 * other group, and 64-bit indices, go through index_load_clamp lane by lane.
 * Defined in index_norm.c.
 */
void simd_index_norm(const unsigned char *ix, uint64_t js, uint32_t dtype, uint64_t A, uint64_t n, uint32_t *out);

/* Which implementation simd_index_norm uses for a dtype ("avx2" / "sse2" / "scalar"). */
const char *simd_index_norm_impl(uint32_t dtype, uint64_t js, uint64_t A);

#endif
