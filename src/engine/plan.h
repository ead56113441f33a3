/*
 * The planning engine: loop nests, the thread policy, plan-owned scratch
 * (plan.c) and strided copies (copy_plan.c), which the operators' fast paths
 * (the *_fast.c and class files of each src/ops/ family) build on.
 *
 * plan_fast_path() runs once at compile time: it turns the operator's tensors
 * into collapsed loop nests (size-1 dims dropped, dims adjacent in every
 * tensor merged, the innermost contiguous run folded into one block of bytes),
 * picks a kernel per operator and block shape, and the number of threads.  A
 * plan's fields do not change after compile, except its scratch memory
 * (scratch_t below: GATHER_ELEMENTS slabs, the SCATTER_ND target bitmap), which
 * one execution at a time claims through an atomic flag and writes; so one
 * compiled operator may execute on several threads at once.  The fast kernels
 * allocate nothing at execute (the scratch was allocated at compile time); the
 * checking option's SCATTER and SCATTER_ND duplicate detection (an oracle
 * pre-pass, not a plan) does allocate a temporary array (op_exec_alloc).
 * Every allocation goes through the operator's allocator (op->alloc); a
 * planner whose allocation fails fails the compile (plan_out_of_memory).
 */
#ifndef DMLREF_PLAN_H
#define DMLREF_PLAN_H

#include "core/env.h" /* env_force_oracle, env_bytes: the environment, read once */
#include "core/internal.h"


/* ---- loop nests (the normalizer) ------------------------------------------ */

#define COPY_CHUNK (UINT64_C(256) << 10) /* bytes per unit when a copy's block is split */

#define NEST_K 3u /* tracked tensors: 0 = destination, 1 = source, 2 = indices */

/*
 * Strides are byte strides in two's complement: a view that walks its buffer
 * backwards (a negative stride s, see "views" below) stores (uint64_t)s, and
 * every offset a nest computes (nest_rows_*, nest_offsets) is a sum taken
 * modulo 2^64.  Such an offset is only meaningful added to its view's base
 * offset, as an integer (base + off), never as a pointer step.  Strides below
 * 2^63, which every tensor's own bstrides are, read the same either way.
 */
typedef struct nest {
    uint32_t m;                    /* dimensions, >= 1 (a scalar is {1})     */
    uint64_t sizes[MAX_DIMS];
    uint64_t st[NEST_K][MAX_DIMS]; /* byte strides of each tracked tensor    */
    uint64_t points;               /* product of sizes                       */
} nest_t;

/* 1 when a nest stride is negative (two's complement, above). */
static inline int nest_st_negative(uint64_t s) { return (s >> 63) != 0; }

/* Drops size-1 dims and merges dim d into d+1 when st[t][d] == st[t][d+1] *
 * sizes[d+1] for every tracked tensor t < k (nest_adjacent: both strides
 * non-negative, or both negative, and the product exact).  Keeps m >= 1. */
void nest_collapse(nest_t *nt, uint32_t k);

/* Folds the innermost dim into a block when st[t][m-1] == want[t] * esize for
 * every t < k (want[t] is 1 for tensors the block is contiguous in, 0 for those
 * that stay put, e.g. the index of a gathered row).  Returns the block size in
 * bytes (esize when nothing folds).  Keeps m >= 1. */
uint64_t nest_fold(nest_t *nt, uint32_t k, uint64_t esize, const int *want);

/* One coordinate of a row-major index q: q % size, leaving q / size in *q, with no division
 * while q < size (a serial walk starts at 0, and a tiny tensor's indices are small): the
 * step of every index-to-coordinates loop. */
static inline uint64_t coord_step(uint64_t *q, uint64_t size) {
    const uint64_t v = *q;
    if (v < size) {
        *q = 0;
        return v;
    }
    *q = v / size;
    return v % size;
}

/* Row-wise walk over the points [lo, hi) of a nest: each step is a segment of
 * the innermost dim starting at offsets off[] with len points. */
typedef struct nest_it {
    uint64_t c[MAX_DIMS];
    uint64_t off[NEST_K];
    uint64_t left, len;
} nest_it;

/* nest_rows_begin, nest_rows_next, nest_offsets: inline, or with DMLREF_SMALL one
 * copy of each in engine/plan.c (not one per fast-path file). */
#if DMLREF_SMALL
int nest_rows_begin(const nest_t *nt, nest_it *it, uint64_t lo, uint64_t hi);
int nest_rows_next(const nest_t *nt, nest_it *it);
void nest_offsets(const nest_t *nt, uint64_t p, uint64_t *off);
#define NEST_WALK_FN
#else
#define NEST_WALK_FN static inline
#endif
#if !DMLREF_SMALL || defined(DMLREF_PLAN_C)
NEST_WALK_FN int nest_rows_begin(const nest_t *nt, nest_it *it, uint64_t lo, uint64_t hi) {
    uint64_t p = lo;
    for (uint32_t t = 0; t < NEST_K; ++t) it->off[t] = 0;
    for (uint32_t d = nt->m; d-- > 0;) {
        it->c[d] = coord_step(&p, nt->sizes[d]);
        for (uint32_t t = 0; t < NEST_K; ++t) it->off[t] += it->c[d] * nt->st[t][d];
    }
    it->left = hi > lo ? hi - lo : 0;
    const uint64_t room = nt->sizes[nt->m - 1] - it->c[nt->m - 1];
    it->len = it->left < room ? it->left : room;
    return it->left != 0;
}

NEST_WALK_FN int nest_rows_next(const nest_t *nt, nest_it *it) {
    const uint32_t m = nt->m;
    it->left -= it->len;
    if (!it->left) return 0;
    for (uint32_t t = 0; t < NEST_K; ++t) it->off[t] -= it->c[m - 1] * nt->st[t][m - 1];
    it->c[m - 1] = 0;
    for (uint32_t d = m - 1; d-- > 0;) {
        for (uint32_t t = 0; t < NEST_K; ++t) it->off[t] += nt->st[t][d];
        if (++it->c[d] < nt->sizes[d]) break;
        for (uint32_t t = 0; t < NEST_K; ++t) it->off[t] -= nt->sizes[d] * nt->st[t][d];
        it->c[d] = 0;
    }
    it->len = it->left < nt->sizes[m - 1] ? it->left : nt->sizes[m - 1];
    return 1;
}

/* Byte offsets of point p (row-major over the nest). */
NEST_WALK_FN void nest_offsets(const nest_t *nt, uint64_t p, uint64_t *off) {
    for (uint32_t t = 0; t < NEST_K; ++t) off[t] = 0;
    for (uint32_t d = nt->m; d-- > 0 && p != 0;) { /* 0 once p is: the other coordinates are 0 */
        const uint64_t c = coord_step(&p, nt->sizes[d]);
        for (uint32_t t = 0; t < NEST_K; ++t) off[t] += c * nt->st[t][d];
    }
}
#endif

/* ---- threads -------------------------------------------------------------- */

/* Runs fn(ctx, lo, hi, part) over a static partition of [0, units) into
 * n = min(nth, units) contiguous ranges, part p = [units * p / n, units * (p + 1) / n),
 * p = 0 .. n-1: through the operator's thread pool (options.threadpool: one
 * parallel_for of n tasks, task p the range p) when it has one, else an OpenMP
 * parallel for, schedule(static), one range per thread (the same ranges);
 * serial (fn(ctx, 0, units, 0)) when n is 1, or without a pool in a build
 * without OpenMP.  The one place the library's work is split across threads:
 * with a pool set no OpenMP function or region is entered. */
typedef void (*range_fn)(const void *ctx, uint64_t lo, uint64_t hi, uint32_t part);
void run_ranges(const op_t *op, uint32_t nth, uint64_t units, range_fn fn, const void *ctx);

/* Threads to use for work_bytes of work: 1 below the grain, else at most
 * the operator's thread option (0 = the pool's threads with a thread pool,
 * else OpenMP's default; 1 without either), and at most 256. */
uint32_t plan_threads(const op_t *op, uint64_t work_bytes);

/* 1 when a destination of dst_bytes is large enough for streaming stores
 * (simd_copy_stream); never in a SIMD=0 build, where it is inline, so that the
 * streaming paths fold away (and their kernels' names with them). */
/* PLAN_STREAM_ANY: 0 when plan_stream is never 1 (a plan state that only it leads to
 * can then be folded away where the kernel tests it). */
#if DMLREF_SIMD
#define PLAN_STREAM_ANY 1
int plan_stream(uint64_t dst_bytes);
#else
#define PLAN_STREAM_ANY 0
static inline int plan_stream(uint64_t dst_bytes) {
    (void)dst_bytes; /* simd_copy_stream is memcpy */
    return 0;
}
#endif

/* The tuning overrides of docs/environment.md: env_bytes() in src/core/env.h. */

/* ---- scratch memory --------------------------------------------------------- */

/* Working memory a plan owns (allocated at compile time) and lends to one
 * execution at a time, in `parts` slices of part_bytes (one per thread part).
 * An execution that finds it taken, because the same compiled operator is
 * running on another thread, runs the kernel's scratch-free variant, which
 * writes the same bytes: execute still allocates nothing and stays
 * thread-safe.  Without C11 atomics there is never any scratch. */
typedef struct scratch {
    unsigned char *mem; /* parts * part_bytes, or NULL */
    size_t part_bytes;
    uint32_t parts;
#ifndef __STDC_NO_ATOMICS__
    _Atomic int busy;
#endif
} scratch_t;

/* Allocates the slices through al: 1; 0 when there is to be no scratch (none
 * asked, parts * part_bytes overflows, no C11 atomics); -1 when the allocation
 * failed (the plan then fails: plan_out_of_memory).  Either way s can be freed. */
int scratch_init(scratch_t *s, const dmlref_allocator *al, uint32_t parts, size_t part_bytes);
void scratch_free(scratch_t *s, const dmlref_allocator *al);

/* A planner's failed allocation: DMLREF_ERROR_OUT_OF_MEMORY naming the operator.
 * (The planner frees what it had allocated; compile then fails.) */
dmlref_status plan_out_of_memory(const op_t *op, dmlref_error *err);
/* The memory for one execution, or NULL (none, or in use); give it back with
 * scratch_release.  Both write the flag (and the caller the memory) through a
 * const plan: the plan is allocated non-const, so this is defined; every other
 * field stays unchanged after compile. */
unsigned char *scratch_claim(const scratch_t *s);
void scratch_release(const scratch_t *s);

/* ---- views: a tensor seen through a window (signed strides) ---------------- */

/*
 * A view reads (or writes) a buffer at byte offset
 *     base + sum_d c[d] * st[d]
 * for each coordinate c of the view's sizes: a window of a tensor, taken every
 * step-th element, forwards (st > 0), backwards (st < 0) or broadcast (st = 0).
 * SLICE and SLICE1 are one view of their input copied to the output;
 * REVERSE_SUBSEQUENCES' reversed runs, PADDING's reflected borders are views
 * with negative strides.  Every offset a view addresses must lie inside its
 * buffer (the operator's rules see to that); base is then itself one of them
 * (coordinate 0).
 */
typedef struct view {
    uint64_t base;         /* byte offset of coordinate 0                   */
    int64_t st[MAX_DIMS];  /* byte stride per view dimension, any sign      */
} view_t;

/* The tensor as it is: base 0, st = t->bstrides. */
void view_of_tensor(view_t *v, const tensor_t *t);

/* The window of t whose coordinate c is t's element start + step (.) c, for
 * c < sizes (n = t->n dims): base = sum start[d] * bstrides[d], st[d] =
 * step[d] * bstrides[d], and st[d] = 0 where sizes[d] == 1 (such a step is
 * never taken, and may be huge).  The caller has checked that every element
 * the window reaches exists (start[d] + step[d] * (sizes[d] - 1) in [0,
 * t->sizes[d])).  Returns 1, or 0 when a byte stride does not fit in int64_t
 * (a valid but unaddressable tensor: then make no plan, the oracle stays). */
int view_window(view_t *v, const tensor_t *t, const uint32_t *sizes, const int64_t *start, const int64_t *step);

/* ---- strided copies (copy_plan.c) ----------------------------------------- */

/* dst[point] <- src[point], `block` bytes at every point of the nest
 * (st[0] = dst, st[1] = src, two's complement), the points at base[0] and
 * base[1] + the nest's offsets.  Blocks larger than chunk are split into
 * chunk-sized units so that a few huge blocks still spread over threads. */
typedef struct copy_plan {
    nest_t nest;
    uint64_t base[2];       /* dst, src: byte offset of the first point (views) */
    uint64_t block;
    uint64_t chunk, chunks; /* bytes per unit of one block, units per block */
    uint64_t units;         /* nest.points * chunks (COPY_T_*: tiles)      */
    int kind;               /* COPY_*                                      */
    /* COPY_T_* (copy_plan_transpose): the destination is contiguous along nest dim tp, the
     * source along tq; tiles of TILE_Q x TILE_P points over (tq, tp), tiles_q x tiles_p of
     * them per point of the other dims, consecutive units along tq. */
    uint32_t tp, tq;
    uint64_t tiles_p, tiles_q;
    int stream; /* COPY_T_*, COPY_SMALL, COPY_BLOCK: streaming stores (plan_stream of the bytes copied) */
    int avx2;   /* COPY_T_*: the staged tiles transposed in AVX2 (transpose_avx2.c)              */
} copy_plan;

/* The row kernels.  COPY_REV_*: the source's innermost stride is negative (a
 * reversed row, each block still copied forwards); a row of single elements
 * contiguous on both sides is reversed with the SIMD primitives
 * (simd_reverse_xN). */
enum {
    COPY_BLOCK, COPY_X1, COPY_X2, COPY_X4, COPY_X8, COPY_X16, COPY_SMALL,
    COPY_REV_X1, COPY_REV_X2, COPY_REV_X4, COPY_REV_X8, COPY_REV_X16, COPY_REV_SMALL, COPY_REV_BLOCK,
    COPY_T_X1, COPY_T_X2, COPY_T_X4, COPY_T_X8
};

/* "block", "x4", "rev_x4", ...: the kind's part of a kernel name. */
const char *copy_kind_part(int kind);

/* Builds the plan for a copy over n dims with the given sizes and byte strides
 * (tensors' own strides: non-negative, base 0). */
void copy_plan_init(copy_plan *cp, uint32_t n, const uint64_t *sizes, const uint64_t *dst_bstrides,
                    const uint64_t *src_bstrides, uint64_t esize);

/*
 * The copy dst view <- src view over n dims of the given sizes, for views with
 * strides of any sign (the API for negative-stride views).  Dimensions whose
 * destination stride is negative are walked backwards (both views flipped:
 * base moved to the last point, strides negated), so the plan's destination
 * strides are all >= 0 and only the source may walk backwards; the points
 * copied, and so the bytes written, are the same.  (Only the order changes:
 * destinations must be distinct points, as every output's are.)  Then as
 * copy_plan_init: size-1 dims dropped, adjacent dims merged (nest_adjacent),
 * the innermost run folded into one block when contiguous and forwards on both
 * sides.  copy_plan_run adds the bases.
 */
void copy_plan_init_view(copy_plan *cp, uint32_t n, const uint64_t *sizes, const view_t *dst, const view_t *src,
                         uint64_t esize);
/*
 * Opt-in, after copy_plan_init: a transposing copy (elements of 1, 2, 4 or 8 bytes, no block
 * folded) whose destination is contiguous along one nest dim and whose source is contiguous
 * along another, each strided by at least a cache line along the other's dim, becomes a tiled
 * copy (COPY_T_*, "transpose_x4"): tiles over those two dims, so that both sides stay in
 * cache while a tile is copied, instead of rows that read one element per cache line.
 * The points copied, and so the bytes written, are the same; units become tiles.  Returns 1
 * when the plan changed.  Unless baseline (DMLREF_OPTION_BASELINE_ISA), the tiles are
 * transposed in AVX2 where the CPU has it (cp->avx2; run-time dispatch, simd.h).
 */
#if DMLREF_SMALL
/* A small target: never (0), so that the tiles' code is not linked; the tiles are
 * for the caches, the row kernels copy the same points. */
static inline int copy_plan_transpose(copy_plan *cp, int baseline) {
    (void)cp;
    (void)baseline;
    return 0;
}
#else
int copy_plan_transpose(copy_plan *cp, int baseline);
#endif
/* A staged tile of copy_plan.c's transposes in AVX2 (transpose_avx2.c; DMLREF_X86_AVX2 builds,
 * taken only where simd_cpu_avx2()): `in` holds 128/W rows of 64 bytes, `out` receives 64/W
 * rows of 128 bytes, out[a][b] = in[b][a] for elements of W = 1, 2, 4, 8 bytes. */
void transpose_tile_avx2_x1(unsigned char *out, const unsigned char *in);
void transpose_tile_avx2_x2(unsigned char *out, const unsigned char *in);
void transpose_tile_avx2_x4(unsigned char *out, const unsigned char *in);
void transpose_tile_avx2_x8(unsigned char *out, const unsigned char *in);
/* Copies the units [lo, hi). */
void copy_plan_run(const copy_plan *cp, unsigned char *dst, const unsigned char *src, uint64_t lo, uint64_t hi);

/* ---- zeroing a tensor's elements (zero_plan.c) --------------------------------
 * A nest over the tensor's strides (st[0]: its byte strides), the innermost run
 * folded into blocks of `block` bytes, each cut into `chunks` of at most
 * COPY_CHUNK; `units` = points x chunks, the work run_ranges splits. */
typedef struct zero_plan {
    nest_t nest;
    uint64_t block, chunk, chunks, units;
} zero_plan;

void zero_plan_init(zero_plan *z, const tensor_t *t);
/* Zeroes the units [lo, hi): points of the nest, or chunks of a block larger than COPY_CHUNK. */
void zero_plan_run(const zero_plan *z, unsigned char *dst, uint64_t lo, uint64_t hi);

/* bytes of d (a power of two, a multiple of es) filled with the es-byte element elem repeated:
 * the element once, then doubled (a fill value's pattern, built at compile or per execute). */
static inline void fill_pattern(unsigned char *d, size_t bytes, const unsigned char *elem, size_t es) {
    memcpy(d, elem, es);
    for (size_t len = es; len < bytes; len *= 2) memcpy(d + len, d, len);
}

/* n bytes zeroed, n usually small (a tiny tensor's run): up to 16 bytes as fixed-size
 * stores the compiler inlines (two overlapping 8- or 4-byte stores), memset above; a call
 * costs more than a run of a few elements.  (Copies: simd_copy_block, simd/simd.h.) */
static inline void zero_bytes(unsigned char *d, size_t n) {
    static const uint64_t zero = 0;
    if (n > 16) {
        memset(d, 0, n);
    } else if (n >= 8) {
        memcpy(d, &zero, 8);
        memcpy(d + n - 8, &zero, 8);
    } else if (n >= 4) {
        memcpy(d, &zero, 4);
        memcpy(d + n - 4, &zero, 4);
    } else {
        for (size_t i = 0; i < n; ++i) d[i] = 0;
    }
}

/* 1 when a dimension of stride `outer` directly encloses one of `size`
 * elements at stride `inner` (outer == inner * size), without overflowing:
 * the test of every dimension merge (nest_collapse, the JOIN/SPLIT outer dims). */
static inline int stride_adjacent(uint64_t outer, uint64_t inner, uint64_t size) {
    if (size != 0 && inner > UINT64_MAX / size) return 0; /* the product exceeds any stride */
    return outer == inner * size;
}

/* stride_adjacent on two's complement nest strides: two non-negative strides
 * as they are (so every tensor's own strides merge exactly as before), two
 * negative ones by their magnitudes (a view reversed in both dims merges into
 * one reversed run); a negative and a non-negative stride never. */
static inline int nest_adjacent(uint64_t outer, uint64_t inner, uint64_t size) {
    if (!nest_st_negative(outer) && !nest_st_negative(inner)) return stride_adjacent(outer, inner, size);
    if (nest_st_negative(outer) && nest_st_negative(inner)) return stride_adjacent(0 - outer, 0 - inner, size);
    return 0;
}

/* Index values: index_load_clamp() and the policy's one definition are in
 * index.h (included through internal.h). */

/* Software prefetches into L2, not L1 (locality 2: prefetcht1 on x86, PLDL2KEEP on Arm): a
 * line wanted a few rows later need not sit in L1 yet, and on the Zen 4 measured L1 prefetches
 * queue behind its few L1 miss buffers, L2 ones do not.  Against locality 3 (prefetcht0), 4 to
 * 8 alternated rounds: gather_rows 1.55-1.64x with 1 thread, 1.27-1.49x with 2; gather_nd_rows
 * 1.40-1.53x, 1.34-1.39x; gather_rows_f16 1.38-1.47x, 1.27-1.34x; scatter_nd_elems (the write
 * prefetch) 1.20x, 1.14x; gather_elements_first 1.17-1.18x; slice_window 1.10x; the others
 * within noise. */
#if defined(__GNUC__)
#define PREFETCH_W(p) __builtin_prefetch((p), 1, 2)
#define PREFETCH_R(p) __builtin_prefetch((p), 0, 2)
#else
#define PREFETCH_W(p) ((void)(p))
#define PREFETCH_R(p) ((void)(p))
#endif

/* PREFETCH_R of every line of the bytes [p, p + bytes), bytes >= 1, each once, from the line p
 * lies on: a range that does not start on a line touches one line more than bytes / 64 (a 1 KiB
 * row 16 bytes past a line, as numpy's arrays sit, has 17: prefetching 16 from p, random rows
 * took 6.0-6.4 ms a 64 MiB gather on 4 KiB pages against 4.0-4.3 with all 17).  The addresses
 * are integers: the first lies before p on p's line (a buffer does not end in the address
 * space's top 64 bytes, so q cannot wrap).  Kept in this form on purpose: gcc 12 treats a
 * function whose only effects are prefetches, in loops it can prove finite, as free of effects
 * and deletes calls to it, so a counted loop here (or a test on p choosing a last prefetch) left
 * the gathers with no prefetch at all; q <= last is not provably finite, and gcc keeps it.
 * Forcing it inline kept the prefetches but read 0.73-0.87x on malloc's buffers in alternated
 * rounds, for reasons not found.  (A 17th prefetch at p + bytes - 1, a duplicate when p is on a
 * line, cost gather_rows a fifth on aligned rows.) */
#define PREFETCH_RANGE_FN(name, PF)                                                                       \
    static inline void name(const unsigned char *p, uint64_t bytes) {                                     \
        const uintptr_t last = (uintptr_t)p + (uintptr_t)(bytes - 1);                                    \
        for (uintptr_t q = (uintptr_t)p & ~(uintptr_t)63; q <= last; q += 64) PF((const void *)q);        \
    }
PREFETCH_RANGE_FN(prefetch_range, PREFETCH_R)
PREFETCH_RANGE_FN(prefetch_range_w, PREFETCH_W) /* the same for lines about to be written */

#endif
