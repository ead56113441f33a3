/*
 * Fast-path planning (plan.c) and the fast kernels (fast_*.c).
 *
 * plan_fast_path() runs once at compile time: it turns the operator's tensors
 * into collapsed loop nests (size-1 dims dropped, dims adjacent in every
 * tensor merged, the innermost contiguous run folded into one block of bytes),
 * picks a kernel per operator and block shape, and the number of threads.  The
 * plan is read-only afterwards, so one compiled operator may execute on several
 * threads at once; execute allocates nothing.
 */
#ifndef DMLREF_PLAN_H
#define DMLREF_PLAN_H

#include "internal.h"


/* ---- loop nests (the normalizer) ------------------------------------------ */

#define NEST_K 3u /* tracked tensors: 0 = destination, 1 = source, 2 = indices */

typedef struct nest {
    uint32_t m;                    /* dimensions, >= 1 (a scalar is {1})     */
    uint64_t sizes[MAX_DIMS];
    uint64_t st[NEST_K][MAX_DIMS]; /* byte strides of each tracked tensor    */
    uint64_t points;               /* product of sizes                       */
} nest_t;

/* Drops size-1 dims and merges dim d into d+1 when st[t][d] == st[t][d+1] *
 * sizes[d+1] for every tracked tensor t < k.  Keeps m >= 1. */
void nest_collapse(nest_t *nt, uint32_t k);

/* Folds the innermost dim into a block when st[t][m-1] == want[t] * esize for
 * every t < k (want[t] is 1 for tensors the block is contiguous in, 0 for those
 * that stay put, e.g. the index of a gathered row).  Returns the block size in
 * bytes (esize when nothing folds).  Keeps m >= 1. */
uint64_t nest_fold(nest_t *nt, uint32_t k, uint64_t esize, const int *want);

/* Row-wise walk over the points [lo, hi) of a nest: each step is a segment of
 * the innermost dim starting at offsets off[] with len points. */
typedef struct nest_it {
    uint64_t c[MAX_DIMS];
    uint64_t off[NEST_K];
    uint64_t left, len;
} nest_it;

static inline int nest_rows_begin(const nest_t *nt, nest_it *it, uint64_t lo, uint64_t hi) {
    uint64_t p = lo;
    for (uint32_t t = 0; t < NEST_K; ++t) it->off[t] = 0;
    for (uint32_t d = nt->m; d-- > 0;) {
        it->c[d] = p % nt->sizes[d];
        p /= nt->sizes[d];
        for (uint32_t t = 0; t < NEST_K; ++t) it->off[t] += it->c[d] * nt->st[t][d];
    }
    it->left = hi > lo ? hi - lo : 0;
    const uint64_t room = nt->sizes[nt->m - 1] - it->c[nt->m - 1];
    it->len = it->left < room ? it->left : room;
    return it->left != 0;
}

static inline int nest_rows_next(const nest_t *nt, nest_it *it) {
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
static inline void nest_offsets(const nest_t *nt, uint64_t p, uint64_t *off) {
    for (uint32_t t = 0; t < NEST_K; ++t) off[t] = 0;
    for (uint32_t d = nt->m; d-- > 0;) {
        const uint64_t c = p % nt->sizes[d];
        p /= nt->sizes[d];
        for (uint32_t t = 0; t < NEST_K; ++t) off[t] += c * nt->st[t][d];
    }
}

/* ---- threads -------------------------------------------------------------- */

/* Runs fn(ctx, lo, hi, part) over a static partition of [0, units) into at
 * most nth contiguous ranges, part = 0, 1, ... (OpenMP parallel for,
 * schedule(static)); serial when nth is 1 or OpenMP is off. */
typedef void (*range_fn)(const void *ctx, uint64_t lo, uint64_t hi, uint32_t part);
void run_ranges(uint32_t nth, uint64_t units, range_fn fn, const void *ctx);

/* Threads to use for work_bytes of work: 1 below the grain, else at most
 * the operator's thread option (0 = OpenMP's default). */
uint32_t plan_threads(const op_t *op, uint64_t work_bytes);

/* 1 when a destination of dst_bytes is large enough for streaming stores
 * (simd_copy_stream); never in a SIMD=0 build. */
int plan_stream(uint64_t dst_bytes);

/* The environment variable `name` as a byte count (read at compile time,
 * for the tuning overrides of src/simd/README.md), else dflt. */
uint64_t plan_env_bytes(const char *name, uint64_t dflt);

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

/* Allocates the slices; returns 0 (and leaves none) when that fails. */
int scratch_init(scratch_t *s, uint32_t parts, size_t part_bytes);
void scratch_free(scratch_t *s);
/* The memory for one execution, or NULL (none, or in use); give it back with
 * scratch_release.  The plan stays const for everything else. */
unsigned char *scratch_claim(const scratch_t *s);
void scratch_release(const scratch_t *s);

/* ---- strided copies (fast_copy.c) ----------------------------------------- */

/* dst[point] <- src[point], `block` bytes at every point of the nest
 * (st[0] = dst, st[1] = src).  Blocks larger than chunk are split into
 * chunk-sized units so that a few huge blocks still spread over threads. */
typedef struct copy_plan {
    nest_t nest;
    uint64_t block;
    uint64_t chunk, chunks; /* bytes per unit of one block, units per block */
    uint64_t units;         /* nest.points * chunks                        */
    int kind;               /* COPY_*                                      */
} copy_plan;

enum { COPY_BLOCK, COPY_X1, COPY_X2, COPY_X4, COPY_X8, COPY_X16, COPY_SMALL };

/* Builds the plan for a copy over n dims with the given sizes and byte strides. */
void copy_plan_init(copy_plan *cp, uint32_t n, const uint64_t *sizes, const uint64_t *dst_bstrides,
                    const uint64_t *src_bstrides, uint64_t esize);
/* Copies the units [lo, hi). */
void copy_plan_run(const copy_plan *cp, unsigned char *dst, const unsigned char *src, uint64_t lo, uint64_t hi);
const char *copy_kind_name(int kind);

/* ---- per-operator planners (fast_*.c), called by the operators' classes ---- */

/* Each may replace op->kernel / op->kernel_name and set op->plan; the oracle
 * stays when no fast path applies (or no memory for a plan).  Called after
 * validation succeeded, with the operator's parameters. */
dmlref_status plan_concat(op_t *op, int split, uint32_t axis, dmlref_error *err);
dmlref_status plan_gather(op_t *op, int elements, uint32_t axis, uint32_t index_dims, dmlref_error *err);
dmlref_status plan_scatter_nd(op_t *op, uint32_t input_dim_count, uint32_t indices_dim_count, dmlref_error *err);

/* Normalized index (docs/operators.md 1.8, clamped) read from p: the library's normalizer. */
uint64_t index_load_norm(const unsigned char *p, uint32_t dtype, uint64_t n);

/* The same with the in-range test inline (one compare); only negative or
 * out-of-range values call the normalizer. */
static inline uint64_t index_norm_fast(const unsigned char *p, uint32_t dtype, uint64_t n) {
    switch (dtype) {
    case DMLREF_TENSOR_DATA_TYPE_INT32: {
        int32_t v;
        memcpy(&v, p, 4);
        if (v >= 0 && (uint64_t)v < n) return (uint64_t)v;
        break;
    }
    case DMLREF_TENSOR_DATA_TYPE_UINT32: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v < n ? v : n - 1;
    }
    case DMLREF_TENSOR_DATA_TYPE_INT64: {
        uint64_t v; /* negative values are huge as unsigned */
        memcpy(&v, p, 8);
        if (v < n) return v;
        break;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v < n ? v : n - 1;
    }
    }
    return index_load_norm(p, dtype, n);
}

#if defined(__GNUC__)
#define PREFETCH_W(p) __builtin_prefetch((p), 1)
#define PREFETCH_R(p) __builtin_prefetch((p), 0)
#else
#define PREFETCH_W(p) ((void)(p))
#define PREFETCH_R(p) ((void)(p))
#endif

#endif
