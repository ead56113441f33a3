/*
 * Fast-path planning: the normalizer, the thread policy and plan-owned
 * scratch, used by the per-operator planners (src/ops/<family>/).
 */
#define DMLREF_PLAN_C /* plan.h: nest_rows_* and nest_offsets defined here under DMLREF_SMALL */
#include "plan.h"
#include "core/env.h"

#include <stdlib.h>

#ifndef __STDC_NO_ATOMICS__
#include <stdatomic.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

void nest_collapse(nest_t *nt, uint32_t k) {
    uint32_t m = 0;
    /* drop size-1 dims */
    for (uint32_t d = 0; d < nt->m; ++d) {
        if (nt->sizes[d] == 1) continue;
        nt->sizes[m] = nt->sizes[d];
        for (uint32_t t = 0; t < NEST_K; ++t) nt->st[t][m] = t < k ? nt->st[t][d] : 0;
        ++m;
    }
    /* merge a dim into the next inner one when adjacent in every tensor */
    uint32_t w = 0;
    for (uint32_t d = 0; d < m; ++d) {
        if (w > 0) {
            int adj = 1;
            for (uint32_t t = 0; t < k; ++t)
                if (!nest_adjacent(nt->st[t][w - 1], nt->st[t][d], nt->sizes[d])) adj = 0;
            if (adj) {
                nt->sizes[w - 1] *= nt->sizes[d];
                for (uint32_t t = 0; t < NEST_K; ++t) nt->st[t][w - 1] = nt->st[t][d];
                continue;
            }
        }
        nt->sizes[w] = nt->sizes[d];
        for (uint32_t t = 0; t < NEST_K; ++t) nt->st[t][w] = nt->st[t][d];
        ++w;
    }
    if (w == 0) {
        nt->sizes[0] = 1;
        for (uint32_t t = 0; t < NEST_K; ++t) nt->st[t][0] = 0;
        w = 1;
    }
    nt->m = w;
    nt->points = 1;
    for (uint32_t d = 0; d < w; ++d) nt->points *= nt->sizes[d];
}

uint64_t nest_fold(nest_t *nt, uint32_t k, uint64_t esize, const int *want) {
    const uint32_t i = nt->m - 1;
    if (nt->sizes[i] == 1) return esize; /* a scalar nest */
    for (uint32_t t = 0; t < k; ++t)
        if (nt->st[t][i] != (want[t] ? esize : 0)) return esize;
    const uint64_t block = esize * nt->sizes[i];
    /* the points without dim i: the product of the others, not a division (a tiny compile's
     * few divisions each cost more than these multiplications) */
    if (nt->m == 1) {
        nt->sizes[0] = 1;
        for (uint32_t t = 0; t < NEST_K; ++t) nt->st[t][0] = 0;
    } else {
        nt->m--;
    }
    nt->points = 1;
    for (uint32_t d = 0; d < nt->m; ++d) nt->points *= nt->sizes[d];
    return block;
}

/* A pool's task i: the part i of n, the same range OpenMP's schedule(static) gives thread i. */
typedef struct pool_job {
    range_fn fn;
    const void *ctx;
    uint64_t units;
    uint32_t n;
} pool_job;

static void pool_task(void *arg, uint32_t i) {
    const pool_job *j = arg;
    j->fn(j->ctx, j->units * (uint64_t)i / j->n, j->units * (uint64_t)(i + 1) / j->n, i);
}

#ifdef _OPENMP
/* The OpenMP team, in a function of its own: clang asks libomp for the thread's id on entry
 * to any function holding a parallel region, which starts libomp's runtime (it allocates,
 * and LLVM's libomp spins forever when that allocation fails) even on the serial path. */
static DMLREF_NOINLINE void run_omp(int n, uint64_t units, range_fn fn, const void *ctx) {
#pragma omp parallel for schedule(static) num_threads(n)
    for (int t = 0; t < n; ++t)
        fn(ctx, units * (uint64_t)t / (uint64_t)n, units * (uint64_t)(t + 1) / (uint64_t)n, (uint32_t)t);
}
#endif

void run_ranges(const op_t *op, uint32_t nth, uint64_t units, range_fn fn, const void *ctx) {
    const dmlref_threadpool *tp = op->options.threadpool;
    if (nth > 1 && units > 1 && tp) {
        const pool_job job = {fn, ctx, units, (uint32_t)(units < nth ? units : nth)};
        tp->parallel_for(tp->ctx, job.n, pool_task, (void *)(uintptr_t)&job);
        return;
    }
#ifdef _OPENMP
    if (nth > 1 && units > 1) {
        run_omp((int)(units < nth ? units : nth), units, fn, ctx);
        return;
    }
#endif
    fn(ctx, 0, units, 0);
}

int scratch_init(scratch_t *s, const dmlref_allocator *al, uint32_t parts, size_t part_bytes) {
    s->mem = NULL;
    s->parts = 0;
    s->part_bytes = 0;
#ifndef __STDC_NO_ATOMICS__
    atomic_init(&s->busy, 0);
    if (parts == 0 || part_bytes == 0 || part_bytes > SIZE_MAX / parts) return 0;
    s->mem = mem_alloc(al, (size_t)parts * part_bytes);
    if (!s->mem) return -1;
    s->parts = parts;
    s->part_bytes = part_bytes;
    return 1;
#else
    (void)al;
    (void)parts;
    (void)part_bytes;
    return 0;
#endif
}

void scratch_free(scratch_t *s, const dmlref_allocator *al) {
    mem_free(al, s->mem);
    s->mem = NULL;
}

dmlref_status plan_out_of_memory(const op_t *op, dmlref_error *err) {
    return set_error(err, DMLREF_ERROR_OUT_OF_MEMORY, "%s: out of memory for its fast path's plan", op->name);
}

unsigned char *scratch_claim(const scratch_t *s) {
#ifndef __STDC_NO_ATOMICS__
    /* The flag is the one mutable field of a plan; the plan was allocated
     * without const, so writing it through this cast is defined. */
    _Atomic int *busy = (_Atomic int *)(uintptr_t)&s->busy;
    if (!s->mem || atomic_exchange_explicit(busy, 1, memory_order_acquire) != 0) return NULL;
    return s->mem;
#else
    (void)s;
    return NULL;
#endif
}

void scratch_release(const scratch_t *s) {
#ifndef __STDC_NO_ATOMICS__
    atomic_store_explicit((_Atomic int *)(uintptr_t)&s->busy, 0, memory_order_release);
#else
    (void)s;
#endif
}

/* Below this much work per thread, extra threads cost more than they save.
 * DMLREF_PAR_GRAIN (bytes, read once: src/core/env.c) overrides it; the tests set it
 * low to run the partitions on small tensors. */
#define PAR_GRAIN_DEFAULT (UINT64_C(128) << 10)

/* Destinations of at least this many bytes may be written with streaming
 * stores (DMLREF_STREAM_MIN overrides it, read once: src/core/env.c): about a last-level
 * cache, above which a result cannot stay cached anyway (glibc's
 * non-temporal threshold is 14 MiB on the benchmark machine). */
#define STREAM_MIN_DEFAULT (UINT64_C(16) << 20)

#if DMLREF_SIMD /* SIMD=0: inline in plan.h */
int plan_stream(uint64_t dst_bytes) { return dst_bytes >= env_bytes(ENV_STREAM_MIN, STREAM_MIN_DEFAULT); }
#endif

uint32_t plan_threads(const op_t *op, uint64_t work_bytes) {
    const dmlref_threadpool *tp = op->options.threadpool;
    uint64_t nth = op->options.threads;
    uint64_t grain = env_bytes(ENV_PAR_GRAIN, PAR_GRAIN_DEFAULT);
    if (grain == 0) grain = 1;
    /* too little work for two parts (work / grain < 2, told without dividing): serial, and
     * OpenMP's runtime is not asked (its lazy start-up allocates, and LLVM's libomp spins
     * forever when that allocation fails) */
    if (nth == 1 || grain > UINT64_MAX / 2 || work_bytes < 2 * grain) return 1;
    const uint64_t by_work = work_bytes / grain;
    if (tp) { /* the caller's pool (compile checked threads <= tp->threads): no OpenMP */
        if (nth == 0) nth = tp->threads;
    } else {
#ifdef _OPENMP
        if (nth == 0) nth = (uint64_t)omp_get_max_threads();
#else
        return 1;
#endif
    }
    if (nth > by_work) nth = by_work;
    if (nth > 256) nth = 256;
    return nth < 1 ? 1 : (uint32_t)nth;
}
