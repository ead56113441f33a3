/*
 * Embedding dmlref: a tiny runtime that owns its memory and its threads
 * (docs/embedding.md is the guide; this file is meant to be copied).
 *
 *   - ONE static arena.  Every byte the library allocates comes from it, through
 *     dmlref_options.allocator: a bump part for the compiled operators, sized as
 *     the sum of dmlref_compile_memory over them, and one execute slot per
 *     application thread, each of the largest dmlref_execute_memory.  The sizes
 *     are measured at start-up and printed; a firmware would write them down
 *     once and size its buffer with them.
 *   - A 2-thread pthread pool with persistent workers behind
 *     dmlref_options.threadpool (a mutex and two condition variables): the
 *     library splits large work into parts and hands them to parallel_for, in
 *     any build (make OPENMP=0 too), and never enters OpenMP.
 *   - Three operators of different shapes, compiled once: GATHER (input and
 *     indices, large enough to be split across the pool), JOIN (a counted array
 *     of inputs) and SCATTER with DMLREF_OPTION_CHECK_INDICES (three inputs; its
 *     execute allocates the duplicate check's sort array, from an execute slot).
 *   - Two application threads execute all three, many times, at once, each with
 *     its own inputs and outputs, and check every output byte against values
 *     computed here, independently of the library.
 *   - Out of memory: a compile from an arena one aligned step too small, and an
 *     execute whose slot is one step too small, each fail with
 *     DMLREF_ERROR_OUT_OF_MEMORY, free what they took and (the execute) leave the
 *     output untouched.
 *
 * The program calls no malloc: its buffers are static.  It ends with
 * "embed: N passed, M failed" and exits 1 if anything failed.
 *
 *   make build/example_embed && build/example_embed
 *   cc -std=c11 -Iinclude examples/embed/embed.c build/libdmlref.a -pthread -fopenmp
 *   (-fopenmp only when the library was built with OpenMP, the default)
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <dmlref.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The arena                                                                */
/* ------------------------------------------------------------------------ */

#define ARENA_CAPACITY (16u * 1024u) /* the static buffer: at least the "used" line printed */
#define EXECUTORS 2                  /* application threads executing at once */

typedef struct arena {
    pthread_mutex_t mu;
    unsigned char *base;          /* DMLREF_ALLOC_ALIGNMENT-aligned                 */
    size_t limit, used;           /* the bump part: freed bytes are never reused    */
    int executing;                /* 0: requests bump (compile); 1: take a slot     */
    unsigned char *slot[EXECUTORS];
    size_t slot_bytes;            /* each slot's size                               */
    int slot_busy[EXECUTORS];
    unsigned long requests, frees, failed, slot_requests;
    long live;                    /* requests not yet freed                         */
    size_t slot_high;             /* the largest request a slot served              */
} arena;

static _Alignas(DMLREF_ALLOC_ALIGNMENT) unsigned char arena_buffer[ARENA_CAPACITY];

static void *arena_alloc(void *ctx, size_t size, size_t alignment) {
    arena *a = ctx;
    const size_t padded = DMLREF_ALLOC_PADDED(size); /* what the size queries count */
    void *p = NULL;
    pthread_mutex_lock(&a->mu);
    a->requests++;
    if (alignment <= DMLREF_ALLOC_ALIGNMENT && padded >= size) {
        if (!a->executing) {
            if (padded <= a->limit - a->used) {
                p = a->base + a->used;
                a->used += padded;
            }
        } else {
            for (int k = 0; k < EXECUTORS && !p; ++k)
                if (!a->slot_busy[k] && padded <= a->slot_bytes) {
                    a->slot_busy[k] = 1;
                    p = a->slot[k];
                    a->slot_requests++;
                    if (padded > a->slot_high) a->slot_high = padded;
                }
        }
    }
    if (p) a->live++;
    else a->failed++;
    pthread_mutex_unlock(&a->mu);
    return p;
}

static void arena_free(void *ctx, void *ptr) {
    arena *a = ctx;
    pthread_mutex_lock(&a->mu);
    a->frees++;
    a->live--;
    for (int k = 0; k < EXECUTORS; ++k)
        if (ptr == a->slot[k]) a->slot_busy[k] = 0;
    pthread_mutex_unlock(&a->mu);
}

/* Empties the bump part and gives it `limit` bytes (between compiles only). */
static void arena_reset(arena *a, size_t limit) {
    a->limit = limit;
    a->used = 0;
}

/* ------------------------------------------------------------------------ */
/* The thread pool: POOL_THREADS persistent workers; callers wait           */
/* ------------------------------------------------------------------------ */

#define POOL_THREADS 2

typedef struct pool_job { /* one parallel_for call, on its caller's stack */
    void (*task)(void *arg, uint32_t i);
    void *arg;
    uint32_t n, next, unfinished; /* tasks, the next index to hand out, not yet returned */
    struct pool_job *later;       /* the queue */
} pool_job;

typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t work;          /* a job was queued, or stop */
    pthread_cond_t done;          /* some job's last task returned */
    pool_job *queue;              /* jobs with indices left to hand out, oldest first */
    int stop;
    pthread_t tid[POOL_THREADS];
    struct worker { struct pool *p; int k; } worker[POOL_THREADS];
    unsigned long calls, tasks[POOL_THREADS];
} pool;

static void *pool_worker(void *arg) {
    const struct worker *w = arg;
    pool *p = w->p;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && !p->queue) pthread_cond_wait(&p->work, &p->mu);
        if (!p->queue) break; /* stop, nothing left */
        pool_job *j = p->queue;
        const uint32_t i = j->next++;
        if (j->next == j->n) p->queue = j->later; /* all handed out */
        pthread_mutex_unlock(&p->mu);
        j->task(j->arg, i);
        pthread_mutex_lock(&p->mu);
        p->tasks[w->k]++;
        if (--j->unfinished == 0) pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* dmlref_threadpool.parallel_for: may be called by several threads at once. */
static void pool_parallel_for(void *ctx, uint32_t n, void (*task)(void *arg, uint32_t i), void *arg) {
    pool *p = ctx;
    pool_job j = {task, arg, n, 0, n, NULL};
    if (n == 0) return;
    pthread_mutex_lock(&p->mu);
    pool_job **tail = &p->queue;
    while (*tail) tail = &(*tail)->later;
    *tail = &j;
    p->calls++;
    pthread_cond_broadcast(&p->work);
    while (j.unfinished) pthread_cond_wait(&p->done, &p->mu); /* the mutex makes the tasks' writes visible */
    pthread_mutex_unlock(&p->mu);
}

static int pool_start(pool *p) {
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int k = 0; k < POOL_THREADS; ++k) {
        p->worker[k].p = p;
        p->worker[k].k = k;
        if (pthread_create(&p->tid[k], NULL, pool_worker, &p->worker[k]) != 0) return -1;
    }
    return 0;
}

static void pool_stop(pool *p) {
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int k = 0; k < POOL_THREADS; ++k) pthread_join(p->tid[k], NULL);
}

/* ------------------------------------------------------------------------ */
/* The operators                                                            */
/* ------------------------------------------------------------------------ */

#define LEVEL DMLREF_FEATURE_LEVEL_4_1
#define ROUNDS 32

/* GATHER: input {GR, GC} FLOAT32, indices {1, GK} UINT32, axis 0 -> output {GK, GC}
 * (1.25 MiB of output: more than twice DMLREF_PAR_GRAIN, so it runs in 2 parts). */
enum { GR = 256, GC = 1024, GK = 320 };
static const uint32_t g_in_sizes[] = {GR, GC}, g_idx_sizes[] = {1, GK}, g_out_sizes[] = {GK, GC};
static const DMLREF_BUFFER_TENSOR_DESC g_in_buf = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_FLAG_NONE, 2,
                                                   g_in_sizes, NULL, 4u * GR * GC, 0};
static const DMLREF_BUFFER_TENSOR_DESC g_idx_buf = {DMLREF_TENSOR_DATA_TYPE_UINT32, DMLREF_TENSOR_FLAG_NONE, 2,
                                                    g_idx_sizes, NULL, 4u * GK, 0};
static const DMLREF_BUFFER_TENSOR_DESC g_out_buf = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_FLAG_NONE, 2,
                                                    g_out_sizes, NULL, 4u * GK * GC, 0};
static const DMLREF_TENSOR_DESC g_in = {DMLREF_TENSOR_TYPE_BUFFER, &g_in_buf};
static const DMLREF_TENSOR_DESC g_idx = {DMLREF_TENSOR_TYPE_BUFFER, &g_idx_buf};
static const DMLREF_TENSOR_DESC g_out = {DMLREF_TENSOR_TYPE_BUFFER, &g_out_buf};
static const DMLREF_GATHER_OPERATOR_DESC gather = {&g_in, &g_idx, &g_out, /*Axis*/ 0, /*IndexDimensions*/ 1};

/* JOIN: inputs {JR, 3}, {JR, 1}, {JR, 4} UINT16 along axis 1 -> output {JR, 8}. */
enum { JR = 4, JW = 8 };
static const uint32_t j_widths[3] = {3, 1, 4};
static const uint32_t j_s0[] = {JR, 3}, j_s1[] = {JR, 1}, j_s2[] = {JR, 4}, j_out_sizes[] = {JR, JW};
static const DMLREF_BUFFER_TENSOR_DESC j_bufs[3] = {
    {DMLREF_TENSOR_DATA_TYPE_UINT16, DMLREF_TENSOR_FLAG_NONE, 2, j_s0, NULL, 2u * JR * 3, 0},
    {DMLREF_TENSOR_DATA_TYPE_UINT16, DMLREF_TENSOR_FLAG_NONE, 2, j_s1, NULL, 2u * JR * 1, 0},
    {DMLREF_TENSOR_DATA_TYPE_UINT16, DMLREF_TENSOR_FLAG_NONE, 2, j_s2, NULL, 2u * JR * 4, 0}};
static const DMLREF_BUFFER_TENSOR_DESC j_out_buf = {DMLREF_TENSOR_DATA_TYPE_UINT16, DMLREF_TENSOR_FLAG_NONE, 2,
                                                    j_out_sizes, NULL, 2u * JR * JW, 0};
static const DMLREF_TENSOR_DESC j_ins[3] = {{DMLREF_TENSOR_TYPE_BUFFER, &j_bufs[0]},
                                            {DMLREF_TENSOR_TYPE_BUFFER, &j_bufs[1]},
                                            {DMLREF_TENSOR_TYPE_BUFFER, &j_bufs[2]}};
static const DMLREF_TENSOR_DESC j_out = {DMLREF_TENSOR_TYPE_BUFFER, &j_out_buf};
static const DMLREF_JOIN_OPERATOR_DESC join = {/*InputCount*/ 3, j_ins, &j_out, /*Axis*/ 1};

/* SCATTER: input {SR, SW} INT32, indices and updates {SR, SU} along axis 1 -> output {SR, SW};
 * with DMLREF_OPTION_CHECK_INDICES, SU >= 2 updates per row make its execute allocate. */
enum { SR = 4, SW = 8, SU = 3 };
static const uint32_t s_sizes[] = {SR, SW}, s_upd_sizes[] = {SR, SU};
static const DMLREF_BUFFER_TENSOR_DESC s_buf = {DMLREF_TENSOR_DATA_TYPE_INT32, DMLREF_TENSOR_FLAG_NONE, 2,
                                                s_sizes, NULL, 4u * SR * SW, 0};
static const DMLREF_BUFFER_TENSOR_DESC s_idx_buf = {DMLREF_TENSOR_DATA_TYPE_UINT32, DMLREF_TENSOR_FLAG_NONE, 2,
                                                    s_upd_sizes, NULL, 4u * SR * SU, 0};
static const DMLREF_BUFFER_TENSOR_DESC s_upd_buf = {DMLREF_TENSOR_DATA_TYPE_INT32, DMLREF_TENSOR_FLAG_NONE, 2,
                                                    s_upd_sizes, NULL, 4u * SR * SU, 0};
static const DMLREF_TENSOR_DESC s_t = {DMLREF_TENSOR_TYPE_BUFFER, &s_buf};
static const DMLREF_TENSOR_DESC s_idx = {DMLREF_TENSOR_TYPE_BUFFER, &s_idx_buf};
static const DMLREF_TENSOR_DESC s_upd = {DMLREF_TENSOR_TYPE_BUFFER, &s_upd_buf};
static const DMLREF_SCATTER_OPERATOR_DESC scatter = {&s_t, &s_idx, &s_upd, &s_t, /*Axis*/ 1};

enum { OP_GATHER, OP_JOIN, OP_SCATTER, N_OPS };
static const DMLREF_OPERATOR_DESC descs[N_OPS] = {
    {DMLREF_OPERATOR_GATHER, &gather}, {DMLREF_OPERATOR_JOIN, &join}, {DMLREF_OPERATOR_SCATTER, &scatter}};
static const uint32_t op_flags[N_OPS] = {0, 0, DMLREF_OPTION_CHECK_INDICES};

/* ------------------------------------------------------------------------ */
/* The runtime                                                              */
/* ------------------------------------------------------------------------ */

static arena the_arena = {.mu = PTHREAD_MUTEX_INITIALIZER, .base = arena_buffer};
static const dmlref_allocator allocator = {arena_alloc, arena_free, &the_arena};
static pool the_pool;
static dmlref_operator *ops[N_OPS];

static unsigned passed, failed;
static void check(int ok, const char *what) {
    if (ok) ++passed;
    else {
        ++failed;
        printf("FAILED: %s\n", what);
    }
}

static dmlref_options options_for(int k) {
    static dmlref_threadpool threadpool; /* compile copies it; the pool must outlive the executes */
    threadpool.parallel_for = pool_parallel_for;
    threadpool.ctx = &the_pool;
    threadpool.threads = POOL_THREADS;
    dmlref_options o = {op_flags[k], /*threads: the pool's*/ 0, &allocator, &threadpool};
    return o;
}

/* One application thread's buffers (static: this program calls no malloc). */
typedef struct app {
    int id;
    float g_in[GR * GC], g_out[GK * GC], g_want[GK * GC];
    uint32_t g_idx[GK];
    uint16_t j_in0[JR * 3], j_in1[JR * 1], j_in2[JR * 4], j_out[JR * JW], j_want[JR * JW];
    int32_t s_in[SR * SW], s_upd[SR * SU], s_out[SR * SW], s_want[SR * SW];
    uint32_t s_idx[SR * SU];
    unsigned long executes, failures, bad_bytes;
    dmlref_error err; /* the last failure */
} app;
static app apps[EXECUTORS];

/* Round r's inputs of thread a, and the outputs they must give, computed here. */
static void make_round(app *a, int r) {
    for (uint32_t k = 0; k < GK; ++k) {
        a->g_idx[k] = (k * 37u + (uint32_t)r * 11u + (uint32_t)a->id * 5u) % GR;
        memcpy(&a->g_want[k * GC], &a->g_in[a->g_idx[k] * GC], sizeof(float) * GC);
    }
    uint16_t *const j_ins_[3] = {a->j_in0, a->j_in1, a->j_in2};
    for (uint32_t row = 0, col = 0; row < JR; ++row, col = 0)
        for (int t = 0; t < 3; ++t)
            for (uint32_t c = 0; c < j_widths[t]; ++c, ++col) {
                const uint16_t v = (uint16_t)(a->id << 14 | r << 6 | row << 3 | col);
                j_ins_[t][row * j_widths[t] + c] = v;
                a->j_want[row * JW + col] = v;
            }
    static const uint32_t offsets[SU] = {0, 3, 5}; /* distinct mod SW: no duplicates */
    for (uint32_t row = 0; row < SR; ++row) {
        for (uint32_t c = 0; c < SW; ++c)
            a->s_want[row * SW + c] = a->s_in[row * SW + c] = a->id * 100000 + r * 100 + (int32_t)(row * SW + c);
        for (uint32_t u = 0; u < SU; ++u) {
            const uint32_t col = (row + (uint32_t)r + offsets[u]) % SW;
            a->s_idx[row * SU + u] = col;
            a->s_upd[row * SU + u] = -(a->id * 1000 + r * 10 + (int32_t)u) - 1;
            a->s_want[row * SW + col] = a->s_upd[row * SU + u];
        }
    }
}

/* Executes op k with thread a's buffers; 1 if every output byte is as wanted. */
static int run_op(app *a, int k) {
    dmlref_cbuffer in[3];
    dmlref_buffer out;
    const void *want;
    uint32_t n_in;
    if (k == OP_GATHER) {
        in[0] = (dmlref_cbuffer){a->g_in, sizeof a->g_in};
        in[1] = (dmlref_cbuffer){a->g_idx, sizeof a->g_idx};
        out = (dmlref_buffer){a->g_out, sizeof a->g_out};
        want = a->g_want;
        n_in = 2;
    } else if (k == OP_JOIN) {
        in[0] = (dmlref_cbuffer){a->j_in0, sizeof a->j_in0};
        in[1] = (dmlref_cbuffer){a->j_in1, sizeof a->j_in1};
        in[2] = (dmlref_cbuffer){a->j_in2, sizeof a->j_in2};
        out = (dmlref_buffer){a->j_out, sizeof a->j_out};
        want = a->j_want;
        n_in = 3;
    } else {
        in[0] = (dmlref_cbuffer){a->s_in, sizeof a->s_in};
        in[1] = (dmlref_cbuffer){a->s_idx, sizeof a->s_idx};
        in[2] = (dmlref_cbuffer){a->s_upd, sizeof a->s_upd};
        out = (dmlref_buffer){a->s_out, sizeof a->s_out};
        want = a->s_want;
        n_in = 3;
    }
    memset(out.data, 0xA5, out.size); /* so that a byte left unwritten shows */
    a->executes++;
    if (dmlref_execute(ops[k], in, n_in, &out, 1, &a->err) != DMLREF_OK) {
        a->failures++;
        return 0;
    }
    const unsigned char *got = out.data, *w = want;
    unsigned long bad = 0;
    for (size_t b = 0; b < out.size; ++b) bad += got[b] != w[b];
    a->bad_bytes += bad;
    return bad == 0;
}

static void *app_main(void *arg) {
    app *a = arg;
    for (uint32_t i = 0; i < GR * GC; ++i) a->g_in[i] = (float)(a->id * GR * GC + (int)i);
    for (int r = 0; r < ROUNDS; ++r) {
        make_round(a, r);
        for (int k = 0; k < N_OPS; ++k) run_op(a, k);
    }
    return NULL;
}

int main(void) {
    dmlref_error err;
    size_t compile_bytes[N_OPS], execute_bytes[N_OPS], compile_total = 0, execute_slot = 0;

    if (pool_start(&the_pool) != 0) {
        fprintf(stderr, "embed: cannot start the pool's threads\n");
        return 2;
    }

    /* 1. Size the arena.  dmlref_compile_memory runs the compile through the
     *    allocator it is given and releases it: handed this arena (empty, at full
     *    capacity), nothing calls malloc even now.  Same options as the real
     *    compile (threads: the pool's 2), so the same number. */
    for (int k = 0; k < N_OPS; ++k) {
        const dmlref_options o = options_for(k);
        arena_reset(&the_arena, ARENA_CAPACITY);
        if (dmlref_compile_memory(&descs[k], LEVEL, &o, &compile_bytes[k], &err) != DMLREF_OK) {
            fprintf(stderr, "embed: sizing %s: %s\n", dmlref_operator_name(descs[k].Type), err.message);
            return 2;
        }
        compile_total += compile_bytes[k];
    }

    /* 2. Out of memory: GATHER's compile from one aligned step less than it needs. */
    arena_reset(&the_arena, compile_bytes[OP_GATHER] - DMLREF_ALLOC_ALIGNMENT);
    {
        const dmlref_options o = options_for(OP_GATHER);
        dmlref_operator *op = NULL;
        const dmlref_status st = dmlref_compile(&descs[OP_GATHER], LEVEL, &o, &op, &err);
        printf("out of memory, compile from %zu bytes: %s: %s\n", the_arena.limit, dmlref_status_name(st),
               err.message);
        check(st == DMLREF_ERROR_OUT_OF_MEMORY && op == NULL, "GATHER's compile from too small an arena fails");
        check(the_arena.live == 0, "a failed compile frees everything it allocated");
    }

    /* 3. Compile the three operators from exactly the measured bytes. */
    const unsigned long requests_before = the_arena.requests;
    arena_reset(&the_arena, compile_total);
    for (int k = 0; k < N_OPS; ++k) {
        const dmlref_options o = options_for(k);
        if (dmlref_compile(&descs[k], LEVEL, &o, &ops[k], &err) != DMLREF_OK) {
            fprintf(stderr, "embed: compiling %s: %s\n", dmlref_operator_name(descs[k].Type), err.message);
            return 2;
        }
        execute_bytes[k] = dmlref_execute_memory(ops[k]);
        if (execute_bytes[k] > execute_slot) execute_slot = execute_bytes[k];
    }
    const unsigned long compile_requests = the_arena.requests - requests_before;
    check(the_arena.used == compile_total, "the compiles use exactly the sum of dmlref_compile_memory");
    check(execute_bytes[OP_SCATTER] > 0, "SCATTER with index checking allocates at execute");

    /* 4. The execute slots, after the bump part: one per application thread. */
    const size_t arena_total = compile_total + EXECUTORS * execute_slot;
    if (arena_total > ARENA_CAPACITY) {
        fprintf(stderr, "embed: the arena needs %zu bytes; ARENA_CAPACITY is %u\n", arena_total, ARENA_CAPACITY);
        return 2;
    }
    for (int e = 0; e < EXECUTORS; ++e) the_arena.slot[e] = arena_buffer + compile_total + (size_t)e * execute_slot;
    the_arena.executing = 1;

    printf("arena: %u static bytes, %zu used: compile %zu + %d executes x %zu\n", ARENA_CAPACITY, arena_total,
           compile_total, EXECUTORS, execute_slot);
    for (int k = 0; k < N_OPS; ++k)
        printf("  %-8s compile %6zu bytes, execute %4zu bytes, kernel %s\n", dmlref_operator_name(descs[k].Type),
               compile_bytes[k], execute_bytes[k], dmlref_kernel_name(ops[k]));

    /* 5. Out of memory at execute: SCATTER's slot one aligned step too small. */
    {
        app *a = &apps[0];
        make_round(a, 0);
        memset(a->s_out, 0x5A, sizeof a->s_out);
        const dmlref_cbuffer in[3] = {{a->s_in, sizeof a->s_in}, {a->s_idx, sizeof a->s_idx},
                                      {a->s_upd, sizeof a->s_upd}};
        const dmlref_buffer out = {a->s_out, sizeof a->s_out};
        the_arena.slot_bytes = execute_slot - DMLREF_ALLOC_ALIGNMENT;
        const dmlref_status st = dmlref_execute(ops[OP_SCATTER], in, 3, &out, 1, &err);
        printf("out of memory, execute from %zu bytes: %s: %s\n", the_arena.slot_bytes, dmlref_status_name(st),
               err.message);
        int untouched = 1;
        for (size_t b = 0; b < sizeof a->s_out; ++b) untouched &= ((unsigned char *)a->s_out)[b] == 0x5A;
        check(st == DMLREF_ERROR_OUT_OF_MEMORY, "SCATTER's execute from too small a slot fails");
        check(untouched, "a failed execute leaves its output untouched");
        the_arena.slot_bytes = execute_slot;
    }

    /* 6. Two application threads, each executing the three operators ROUNDS times. */
    const unsigned long slot_requests_before = the_arena.slot_requests;
    pthread_t tid[EXECUTORS];
    for (int e = 0; e < EXECUTORS; ++e) {
        apps[e].id = e;
        if (pthread_create(&tid[e], NULL, app_main, &apps[e]) != 0) {
            fprintf(stderr, "embed: cannot start an application thread\n");
            return 2;
        }
    }
    unsigned long executes = 0, failures = 0, bad_bytes = 0;
    for (int e = 0; e < EXECUTORS; ++e) {
        pthread_join(tid[e], NULL);
        executes += apps[e].executes;
        failures += apps[e].failures;
        bad_bytes += apps[e].bad_bytes;
        if (apps[e].failures) printf("thread %d: %s\n", e, apps[e].err.message);
    }
    printf("executes: %d threads x %d rounds x %d operators = %lu, %lu failed, %lu wrong bytes\n", EXECUTORS,
           ROUNDS, N_OPS, executes, failures, bad_bytes);
    check(failures == 0, "every execute succeeds");
    check(bad_bytes == 0, "every output byte is as computed here");
    printf("pool: %d workers, %lu parallel_for calls, parts run by worker 0: %lu, worker 1: %lu\n", POOL_THREADS,
           the_pool.calls, the_pool.tasks[0], the_pool.tasks[1]);
    check(the_pool.calls > 0, "GATHER's executes are split across the pool");
    const unsigned long scatter_executes = (unsigned long)EXECUTORS * ROUNDS;
    check(the_arena.slot_requests - slot_requests_before == scatter_executes &&
              the_arena.slot_high == execute_bytes[OP_SCATTER],
          "each SCATTER execute takes one slot of dmlref_execute_memory bytes");

    /* 7. Release; every request the library made came back. */
    for (int k = 0; k < N_OPS; ++k) dmlref_release(ops[k]);
    pool_stop(&the_pool);
    printf("allocator: %lu requests (%lu for the 3 compiles, %lu from execute slots), %lu frees, %lu refused, "
           "%ld live\n",
           the_arena.requests, compile_requests, the_arena.slot_requests, the_arena.frees, the_arena.failed,
           the_arena.live);
    check(the_arena.live == 0 && the_arena.frees == the_arena.requests - the_arena.failed,
          "every allocation is freed");

    printf("embed: %u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
