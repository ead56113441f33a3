/*
 * The caller's threads (dmlref_options.threadpool, include/dmlref.h).
 *
 * threadpool_every_operator: random valid cases of every operator, drawn by the
 * case builders (builders/, `dmlref gen`'s), half in gen's large flavour, each
 * compiled with a tiny DMLREF_PAR_GRAIN (and slabs and streaming stores at any
 * size) so that small tensors split into parts, run
 *   serially (threads 1), through OpenMP (threads 0 and 3; serial without OpenMP),
 *   through the pthread pool of case/pool.c with 1, 2, 3 and 7 threads,
 *   through a pool that runs the tasks serially in reverse order (order dependence),
 *   through a pool that records every call (n >= 2, n <= its threads, every i in
 *   [0, n) exactly once, and no call at all with options.threads 1),
 *   and through the 3-thread pool with the checking option,
 * into outputs pre-filled with one sentinel; every output must equal the serial
 * one byte for byte, stride gaps included.
 *
 * threadpool_is_parallel: a case large enough at the default grain calls the
 * pool with n > 1, in any build (OPENMP=0 too: `make test-tsan` runs it under
 * ThreadSanitizer with real worker threads), and one compiled operator executed
 * from 3 pthreads at once through one shared pool gives the serial bytes.
 *
 * threadpool_enters_no_openmp: in a gcc OPENMP=1 build the unit tests are linked
 * with -Wl,--wrap for every OpenMP symbol the library references (GOMP_parallel,
 * the entry `#pragma omp parallel` compiles to, and omp_get_max_threads,
 * omp_get_num_threads, omp_get_thread_num; the Makefile fails the link when the
 * library references any other omp_* / GOMP_* / __kmpc_* symbol); the trap
 * versions below count their calls.  The test checks that the counts move for
 * an OpenMP run (the trap is live), then that they do not move at all while
 * every operator's random cases compile and execute with a pool set.
 *
 * threadpool_refused: compile's checks of the pool, and the copy it keeps.
 */
#include <pthread.h>
#include <stdlib.h>

#include "builders/builder.h"
#include "case/pool.h"
#include "check.h"
#include "core/env.h"

#define FL DMLREF_FEATURE_LEVEL_6_4

/* ---- the OpenMP trap (DMLREF_OMP_TRAP: the Makefile links with --wrap) ------------- */

#ifdef DMLREF_OMP_TRAP
static unsigned long omp_calls; /* calls of the trap versions */
void __real_GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
int __real_omp_get_max_threads(void);
int __real_omp_get_num_threads(void);
int __real_omp_get_thread_num(void);
void __wrap_GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
int __wrap_omp_get_max_threads(void);
int __wrap_omp_get_num_threads(void);
int __wrap_omp_get_thread_num(void);

static void omp_count(void) { __atomic_add_fetch(&omp_calls, 1, __ATOMIC_RELAXED); }
void __wrap_GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags) {
    omp_count();
    __real_GOMP_parallel(fn, data, num_threads, flags);
}
int __wrap_omp_get_max_threads(void) {
    omp_count();
    return __real_omp_get_max_threads();
}
int __wrap_omp_get_num_threads(void) {
    omp_count();
    return __real_omp_get_num_threads();
}
int __wrap_omp_get_thread_num(void) {
    omp_count();
    return __real_omp_get_thread_num();
}
static unsigned long omp_count_now(void) { return __atomic_load_n(&omp_calls, __ATOMIC_RELAXED); }
#endif

/* ---- test pools ------------------------------------------------------------------- */

/* Runs the tasks serially, last index first. */
static void reverse_parallel_for(void *ctx, uint32_t n, void (*task)(void *, uint32_t), void *arg) {
    (void)ctx;
    for (uint32_t i = n; i-- > 0;) task(arg, i);
}

/* Records every call and forwards it to an inner pool (or runs serially in order): each
 * task marks its index; after the call every index of [0, n) must be marked exactly once. */
typedef struct recorder {
    const dmlref_threadpool *inner; /* NULL: serial */
    uint32_t threads;               /* what it told dmlref */
    unsigned long calls, tasks, bad_n, bad_marks, parallel_calls;
    uint32_t max_n;
} recorder;

typedef struct rec_call {
    void (*task)(void *, uint32_t);
    void *arg;
    uint32_t *marks; /* n counters */
} rec_call;

static void rec_task(void *a, uint32_t i) {
    rec_call *c = a;
    __atomic_add_fetch(&c->marks[i], 1, __ATOMIC_RELAXED);
    c->task(c->arg, i);
}

static void rec_parallel_for(void *ctx, uint32_t n, void (*task)(void *, uint32_t), void *arg) {
    recorder *r = ctx;
    rec_call c = {task, arg, calloc(n ? n : 1, sizeof(uint32_t))};
    if (!c.marks) abort();
    if (r->inner) r->inner->parallel_for(r->inner->ctx, n, rec_task, &c);
    else
        for (uint32_t i = 0; i < n; ++i) rec_task(&c, i);
    __atomic_add_fetch(&r->calls, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&r->tasks, n, __ATOMIC_RELAXED);
    if (n < 2 || n > r->threads) __atomic_add_fetch(&r->bad_n, 1, __ATOMIC_RELAXED);
    if (n > 1) __atomic_add_fetch(&r->parallel_calls, 1, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < n; ++i)
        if (c.marks[i] != 1) __atomic_add_fetch(&r->bad_marks, 1, __ATOMIC_RELAXED);
    uint32_t m = __atomic_load_n(&r->max_n, __ATOMIC_RELAXED);
    while (n > m && !__atomic_compare_exchange_n(&r->max_n, &m, n, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    free(c.marks);
}

/* ---- random valid cases (the builders) -------------------------------------------- */

/* Draws a valid case of `type` into c; 0, or -1 (c holds nothing) when none came. */
static int draw(DMLREF_OPERATOR_TYPE type, prng *r, dmlref_case *c) {
    const builder *b = builder_find(type);
    if (!b) return -1;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        if (bld_case_init(c, type)) return -1;
        int rc = b->build(r, c);
        for (uint32_t k = 0; rc == 0 && k < c->n_inputs; ++k) rc = c->inputs[k].data ? 0 : -1;
        for (uint32_t k = 0; rc == 0 && k < c->n_outputs; ++k) rc = c->outputs[k].data ? 0 : -1;
        if (rc == 0) {
            bld_bind(c);
            if (dmlref_validate(&c->desc, FL, NULL) == DMLREF_OK) return 0;
        }
        bld_case_free(c);
    }
    return -1;
}

static void tiny_grain(int on) {
    if (on) {
        setenv("DMLREF_PAR_GRAIN", "64", 1);
        setenv("DMLREF_SLAB_MIN", "0", 1);
        setenv("DMLREF_STREAM_MIN", "0", 1);
    } else {
        unsetenv("DMLREF_PAR_GRAIN");
        unsetenv("DMLREF_SLAB_MIN");
        unsetenv("DMLREF_STREAM_MIN");
    }
    env_reload(); /* the library reads the variables once: read them again */
}

/* Compiles c with o (tiny grain) and executes it into fresh outputs pre-filled with
 * 0xA5 (out[k], c->out_bufs[k].size bytes each, the caller frees them); the status. */
static dmlref_status run_into(const dmlref_case *c, const dmlref_options *o, int grain, unsigned char **out,
                              dmlref_error *err) {
    dmlref_operator *op = NULL;
    if (grain) tiny_grain(1);
    dmlref_status st = dmlref_compile(&c->desc, FL, o, &op, err);
    if (grain) tiny_grain(0);
    dmlref_buffer ob[GEN_MAX_TENSORS];
    for (uint32_t k = 0; k < c->n_outputs; ++k) {
        const size_t n = c->out_bufs[k].size;
        out[k] = malloc(n ? n : 1);
        if (!out[k]) abort();
        memset(out[k], 0xA5, n);
        ob[k].data = out[k];
        ob[k].size = n;
    }
    if (st == DMLREF_OK) st = dmlref_execute(op, c->in_bufs, c->n_inputs, ob, c->n_outputs, err);
    dmlref_release(op);
    return st;
}

static void free_outs(unsigned char **out, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k) free(out[k]);
}

#define POOL_SIZES 4
static const uint32_t pool_sizes[POOL_SIZES] = {1, 2, 3, 7};

/* Every operator's random cases through every mode above; with omp_only_check, only the
 * pool modes (for the OpenMP trap, which counts around them).  Returns the cases run. */
static unsigned long every_operator(uint64_t seed, int per_op, pool *const *pools, recorder *rec,
                                    unsigned long *ops_split, int pools_only) {
    static const uint32_t omp_threads[3] = {1, 0, 3};
    unsigned long run = 0;
    *ops_split = 0;
    for (uint32_t s = 0; dmlref_operator_schema_at(s); ++s) {
        const dmlref_schema *sc = dmlref_operator_schema_at(s);
        const unsigned long before = rec->parallel_calls;
        for (int i = 0; i < per_op; ++i) {
            prng r = {test_case_seed(seed, (uint64_t)s * 1000 + (uint64_t)i)};
            bld_opts = (bld_settings){0};
            if (i % 2) bld_opts.max_elements = 4096; /* gen's large flavour */
            dmlref_case c;
            const int drawn = draw(sc->type, &r, &c);
            bld_opts = (bld_settings){0};
            if (drawn) {
                test_fail(__FILE__, __LINE__, "%s: no valid case drawn (case %d)", sc->name, i);
                continue;
            }
            unsigned char *ref[GEN_MAX_TENSORS], *got[GEN_MAX_TENSORS];
            dmlref_error err;
            const dmlref_options serial = {.flags = 0, .threads = 1};
            dmlref_status st = run_into(&c, &serial, 1, ref, &err);
            if (st != DMLREF_OK) {
                test_fail(__FILE__, __LINE__, "%s case %d serial: %s", sc->name, i, err.message);
                free_outs(ref, c.n_outputs);
                bld_case_free(&c);
                continue;
            }
            /* the modes: OpenMP, the pthread pools, the reverse pool, the recorder, checking */
            for (int m = 0; m < 3 + POOL_SIZES + 4; ++m) {
                dmlref_options o = {.flags = 0, .threads = 0};
                dmlref_threadpool rev = {reverse_parallel_for, NULL, 5};
                dmlref_threadpool recp = {rec_parallel_for, rec, rec->threads};
                char what[64];
                if (m < 3) {
                    if (pools_only) continue;
                    o.threads = omp_threads[m];
                    snprintf(what, sizeof what, "OpenMP, threads %u", o.threads);
                } else if (m < 3 + POOL_SIZES) {
                    if (!pools[m - 3]) continue;
                    o.threadpool = pool_threadpool(pools[m - 3]);
                    snprintf(what, sizeof what, "pthread pool of %u", pool_sizes[m - 3]);
                } else if (m == 3 + POOL_SIZES) {
                    o.threadpool = &rev;
                    snprintf(what, sizeof what, "reverse-order pool");
                } else if (m == 4 + POOL_SIZES) {
                    o.threadpool = &recp;
                    snprintf(what, sizeof what, "recording pool");
                } else if (m == 5 + POOL_SIZES) {
                    o.threadpool = &recp;
                    o.threads = 1; /* serial: the pool is never called */
                    snprintf(what, sizeof what, "recording pool, threads 1");
                } else {
                    if (!pools[2]) continue;
                    o.threadpool = pool_threadpool(pools[2]);
                    o.flags = DMLREF_OPTION_CHECK_INDICES;
                    snprintf(what, sizeof what, "pthread pool of 3, checking");
                }
                const unsigned long calls = rec->calls;
                st = run_into(&c, &o, 1, got, &err);
                if (st != DMLREF_OK)
                    test_fail(__FILE__, __LINE__, "%s case %d (%s): %s", sc->name, i, what, err.message);
                for (uint32_t k = 0; st == DMLREF_OK && k < c.n_outputs; ++k)
                    if (memcmp(ref[k], got[k], c.out_bufs[k].size) != 0)
                        test_fail(__FILE__, __LINE__, "%s case %d (%s): output %u differs from the serial run",
                                  sc->name, i, what, k);
                if (m == 5 + POOL_SIZES && rec->calls != calls)
                    test_fail(__FILE__, __LINE__, "%s case %d: options.threads 1 called the pool", sc->name, i);
                free_outs(got, c.n_outputs);
            }
            free_outs(ref, c.n_outputs);
            bld_case_free(&c);
            ++run;
        }
        if (rec->parallel_calls > before) ++*ops_split;
        else if (getenv("DMLREF_POOL_VERBOSE"))
            fprintf(stderr, "  %s: no case split into parts\n", sc->name);
    }
    return run;
}

static void make_pools(pool **pools) {
    for (int k = 0; k < POOL_SIZES; ++k) pools[k] = pool_create(pool_sizes[k]);
}

static void free_pools(pool **pools) {
    for (int k = 0; k < POOL_SIZES; ++k) pool_destroy(pools[k]);
}

/* Whether this build can start a thread at all (wasm32 without -pthread cannot). */
static int pools_available(pool **pools) {
    for (int k = 0; k < POOL_SIZES; ++k)
        if (!pools[k]) return 0;
    return 1;
}

TEST(threadpool_every_operator) {
    const uint64_t seed = test_seed(20261127);
    pool *pools[POOL_SIZES];
    make_pools(pools);
    if (!pools_available(pools)) {
        free_pools(pools);
        TEST_SKIP("this build cannot create threads (pthread_create fails)");
        return;
    }
    recorder rec = {NULL, 4, 0, 0, 0, 0, 0, 0}; /* serial, in order: it checks the indices */
    unsigned long split = 0;
    const unsigned long run = every_operator(seed, 12, pools, &rec, &split, 0);
    free_pools(pools);
    uint32_t n_ops = 0;
    while (dmlref_operator_schema_at(n_ops)) ++n_ops;
    CHECK_EQ_U64(run, (uint64_t)n_ops * 12);
    CHECK(rec.calls > 0);
    CHECK_EQ_U64(rec.bad_n, 0);     /* every call: 2 <= n <= the pool's threads */
    CHECK_EQ_U64(rec.bad_marks, 0); /* every index of [0, n) exactly once */
    CHECK(rec.max_n == 4);          /* the split reaches the pool's threads */
    /* every operator with a fast path splits some case into parts (all of them) */
    CHECK_EQ_U64(split, n_ops);
}

TEST(threadpool_enters_no_openmp) {
#ifndef DMLREF_OMP_TRAP
#ifdef _OPENMP
    TEST_SKIP("no OpenMP trap in this build (the Makefile wraps libgomp's symbols only with gcc)");
#else
    TEST_SKIP("a build without OpenMP (OPENMP=0) cannot enter it");
#endif
    return;
#else
    pool *pools[POOL_SIZES];
    make_pools(pools);
    if (!pools_available(pools)) {
        free_pools(pools);
        TEST_SKIP("this build cannot create threads (pthread_create fails)");
        return;
    }
    /* the trap is live: an OpenMP run of a case that splits counts */
    {
        prng r = {7};
        dmlref_case c;
        bld_opts = (bld_settings){.max_elements = 4096};
        const int drawn = draw(DMLREF_OPERATOR_GATHER, &r, &c);
        bld_opts = (bld_settings){0};
        CHECK(drawn == 0);
        if (drawn == 0) {
            unsigned char *out[GEN_MAX_TENSORS];
            dmlref_error err;
            const dmlref_options o = {.flags = 0, .threads = 2};
            const unsigned long before = omp_count_now();
            CHECK_STATUS(run_into(&c, &o, 1, out, &err), err, DMLREF_OK, NULL);
            CHECK(omp_count_now() > before);
            free_outs(out, c.n_outputs);
            bld_case_free(&c);
        }
    }
    recorder rec = {NULL, 4, 0, 0, 0, 0, 0, 0};
    unsigned long split = 0;
    const unsigned long before = omp_count_now();
    every_operator(test_seed(20261127) + 1, 4, pools, &rec, &split, 1);
    CHECK_EQ_U64(omp_count_now() - before, 0); /* no OpenMP function or region while a pool is set */
    CHECK(rec.parallel_calls > 0);
    free_pools(pools);
#endif
}

/* ---- parallel for real, and from several threads at once -------------------------- */

typedef struct shared_run {
    const dmlref_operator *op;
    const dmlref_case *c;
    unsigned char *out[GEN_MAX_TENSORS];
    dmlref_status st;
} shared_run;

static void *shared_worker(void *a) {
    shared_run *w = a;
    dmlref_buffer ob[GEN_MAX_TENSORS];
    for (uint32_t k = 0; k < w->c->n_outputs; ++k) ob[k] = (dmlref_buffer){w->out[k], w->c->out_bufs[k].size};
    w->st = DMLREF_OK;
    for (int it = 0; it < 4 && w->st == DMLREF_OK; ++it)
        w->st = dmlref_execute(w->op, w->c->in_bufs, w->c->n_inputs, ob, w->c->n_outputs, NULL);
    return NULL;
}

TEST(threadpool_is_parallel) {
    pool *p = pool_create(3);
    if (!p) {
        TEST_SKIP("this build cannot create threads (pthread_create fails)");
        return;
    }
    /* GATHER of 1024 rows of 1 KiB: 2 MiB of work, 8 parts' worth at the default grain */
    uint32_t in_sizes[2] = {1024, 256}, ix_sizes[2] = {1, 1024}, out_sizes[2] = {1024, 256};
    DMLREF_BUFFER_TENSOR_DESC bi = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, 0, 2, in_sizes, NULL, 1024 * 1024, 0};
    DMLREF_BUFFER_TENSOR_DESC bx = {DMLREF_TENSOR_DATA_TYPE_UINT32, 0, 2, ix_sizes, NULL, 4096, 0};
    DMLREF_BUFFER_TENSOR_DESC bo = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, 0, 2, out_sizes, NULL, 1024 * 1024, 0};
    DMLREF_TENSOR_DESC ti = {DMLREF_TENSOR_TYPE_BUFFER, &bi}, tx = {DMLREF_TENSOR_TYPE_BUFFER, &bx},
                       to = {DMLREF_TENSOR_TYPE_BUFFER, &bo};
    DMLREF_GATHER_OPERATOR_DESC g = {&ti, &tx, &to, 0, 1};
    dmlref_case c;
    memset(&c, 0, sizeof c);
    c.desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_GATHER, &g};
    c.n_inputs = 2;
    c.n_outputs = 1;
    unsigned char *in = malloc(1024 * 1024);
    uint32_t *ix = malloc(4096);
    if (!in || !ix) abort();
    for (uint32_t i = 0; i < 1024 * 1024; ++i) in[i] = (unsigned char)(i * 2654435761u >> 13);
    for (uint32_t i = 0; i < 1024; ++i) ix[i] = (i * 37 + 11) % 1024;
    dmlref_cbuffer ins[2] = {{in, 1024 * 1024}, {ix, 4096}};
    dmlref_buffer outs[1] = {{NULL, 1024 * 1024}};
    c.in_bufs = ins;
    c.out_bufs = outs;

    unsigned char *ref[1], *got[1];
    dmlref_error err;
    const dmlref_options serial = {.flags = 0, .threads = 1};
    CHECK_STATUS(run_into(&c, &serial, 0, ref, &err), err, DMLREF_OK, NULL);
    recorder rec = {pool_threadpool(p), 3, 0, 0, 0, 0, 0, 0};
    const dmlref_threadpool recp = {rec_parallel_for, &rec, 3};
    const dmlref_options po = {.flags = 0, .threads = 0, .threadpool = &recp};
    CHECK_STATUS(run_into(&c, &po, 0, got, &err), err, DMLREF_OK, NULL);
    CHECK(memcmp(ref[0], got[0], 1024 * 1024) == 0);
    CHECK(rec.parallel_calls > 0); /* parallel, OPENMP=0 or not */
    CHECK(rec.max_n == 3);
    CHECK_EQ_U64(rec.bad_n + rec.bad_marks, 0);
    free(got[0]);

    /* one compiled operator, one pool, three executing threads */
    dmlref_operator *op = NULL;
    CHECK_STATUS(dmlref_compile(&c.desc, FL, &po, &op, &err), err, DMLREF_OK, NULL);
    shared_run w[3];
    pthread_t tid[3];
    int started[3];
    for (int t = 0; t < 3; ++t) {
        w[t].op = op;
        w[t].c = &c;
        w[t].out[0] = malloc(1024 * 1024);
        if (!w[t].out[0]) abort();
        memset(w[t].out[0], 0xA5, 1024 * 1024);
        w[t].st = DMLREF_ERROR_NULL_POINTER;
    }
    for (int t = 0; op && t < 3; ++t) started[t] = pthread_create(&tid[t], NULL, shared_worker, &w[t]) == 0;
    for (int t = 0; op && t < 3; ++t) {
        CHECK(started[t]);
        if (!started[t]) continue;
        pthread_join(tid[t], NULL);
        CHECK_EQ_U64(w[t].st, DMLREF_OK);
        CHECK(memcmp(ref[0], w[t].out[0], 1024 * 1024) == 0);
    }
    for (int t = 0; t < 3; ++t) free(w[t].out[0]);
    CHECK_EQ_U64(rec.bad_n + rec.bad_marks, 0);
    dmlref_release(op);
    free(ref[0]);
    free(in);
    free(ix);
    pool_destroy(p);
}

/* ---- compile's checks, and the copy it keeps --------------------------------------- */

static unsigned long trap_calls;
static void trap_parallel_for(void *ctx, uint32_t n, void (*task)(void *, uint32_t), void *arg) {
    (void)ctx;
    ++trap_calls;
    for (uint32_t i = 0; i < n; ++i) task(arg, i);
}

TEST(threadpool_refused) {
    uint32_t sizes[1] = {4096};
    uint32_t strides[1] = {2}; /* a strided output: a copy of single elements, split into parts */
    DMLREF_BUFFER_TENSOR_DESC b = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, 0, 1, sizes, NULL, 4 * 4096, 0};
    DMLREF_BUFFER_TENSOR_DESC bo = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, 0, 1, sizes, strides, 4 * 8192, 0};
    DMLREF_TENSOR_DESC t = {DMLREF_TENSOR_TYPE_BUFFER, &b}, to = {DMLREF_TENSOR_TYPE_BUFFER, &bo};
    DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {&t, &to, NULL};
    const DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, &id};
    dmlref_operator *op = NULL;
    dmlref_error err;

    dmlref_threadpool tp = {NULL, NULL, 2};
    dmlref_options o = {.flags = 0, .threads = 0, .threadpool = &tp};
    CHECK_STATUS(dmlref_compile(&d, FL, &o, &op, &err), err, DMLREF_ERROR_OPTIONS, "threadpool->parallel_for is NULL");
    CHECK(op == NULL);
    tp = (dmlref_threadpool){trap_parallel_for, NULL, 0};
    CHECK_STATUS(dmlref_compile(&d, FL, &o, &op, &err), err, DMLREF_ERROR_OPTIONS, "threadpool->threads is 0");
    tp.threads = 2;
    o.threads = 3;
    CHECK_STATUS(dmlref_compile(&d, FL, &o, &op, &err), err, DMLREF_ERROR_OPTIONS,
                 "options.threads (3) exceeds options.threadpool->threads (2)");
    /* dmlref_run checks the same */
    float *x = calloc(4096, sizeof *x), *y = calloc(8192, sizeof *y);
    if (!x || !y) abort();
    const dmlref_cbuffer in[1] = {{x, 4 * 4096}};
    const dmlref_buffer out[1] = {{y, 4 * 8192}};
    CHECK_STATUS(dmlref_run(&d, FL, &o, in, 1, out, 1, &err), err, DMLREF_ERROR_OPTIONS, "exceeds");

    /* accepted: threads equal to the pool's; compile keeps a copy of the struct */
    o.threads = 2;
    setenv("DMLREF_PAR_GRAIN", "64", 1);
    env_reload();
    CHECK_STATUS(dmlref_compile(&d, FL, &o, &op, &err), err, DMLREF_OK, NULL);
    unsetenv("DMLREF_PAR_GRAIN");
    env_reload();
    tp = (dmlref_threadpool){NULL, NULL, 0}; /* the caller's struct is gone: the copy runs */
    trap_calls = 0;
    if (op) CHECK_STATUS(dmlref_execute(op, in, 1, out, 1, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(trap_calls, 1);
    dmlref_release(op);
    free(x);
    free(y);
}
