/* A pthread pool behind dmlref_threadpool (pool.h). */
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* How long a thread spins, reading one atomic, before it sleeps on a condition variable:
 * a worker waiting for the next job, the caller waiting for the workers' last tasks.
 * Back-to-back executes (the common case in a runtime) then start and end without a
 * futex wake-up, as OpenMP's threads do (libgomp spins too before it sleeps). */
#define POOL_SPIN 20000

static inline void spin_pause(void) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __asm__ __volatile__("pause");
#elif defined(__GNUC__) && defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

struct pool {
    dmlref_threadpool api;      /* {pool_parallel_for, this pool, threads}            */
    pthread_mutex_t turn;       /* held by the parallel_for running: one job at a time */
    pthread_mutex_t mu;         /* guards the job's fields below                      */
    pthread_cond_t work;        /* a new job, or stop                                 */
    pthread_cond_t done;        /* the job's last task returned                       */
    _Atomic uint64_t generation; /* jobs started so far (written under mu)            */
    void (*task)(void *arg, uint32_t i);
    void *arg;
    uint32_t n, next;           /* the job's tasks, the next index to hand out        */
    _Atomic uint32_t unfinished; /* tasks of the job not yet returned (written under mu) */
    atomic_int stop;            /* written under mu                                   */
    uint32_t workers;           /* started (threads - 1 once pool_create succeeds)    */
    pthread_t *tid;
};

/* Runs the job's tasks until none is left to hand out; called and returns with mu held. */
static void take_tasks(pool *p) {
    while (p->next < p->n) {
        const uint32_t i = p->next++;
        void (*const task)(void *, uint32_t) = p->task;
        void *const arg = p->arg;
        pthread_mutex_unlock(&p->mu);
        task(arg, i);
        pthread_mutex_lock(&p->mu);
        if (atomic_fetch_sub(&p->unfinished, 1) == 1) pthread_cond_broadcast(&p->done);
    }
}

static void *worker_main(void *arg) {
    pool *p = arg;
    pthread_mutex_lock(&p->mu);
    uint64_t seen = atomic_load(&p->generation);
    for (;;) {
        pthread_mutex_unlock(&p->mu);
        for (int k = 0; k < POOL_SPIN && atomic_load_explicit(&p->generation, memory_order_relaxed) == seen &&
                        !atomic_load_explicit(&p->stop, memory_order_relaxed);
             ++k)
            spin_pause();
        pthread_mutex_lock(&p->mu);
        while (!atomic_load(&p->stop) && atomic_load(&p->generation) == seen) pthread_cond_wait(&p->work, &p->mu);
        if (atomic_load(&p->stop)) break;
        seen = atomic_load(&p->generation);
        take_tasks(p);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void pool_parallel_for(void *ctx, uint32_t n, void (*task)(void *arg, uint32_t i), void *arg) {
    pool *p = ctx;
    if (n == 0) return;
    if (p->workers == 0) { /* 1 thread: in order, here */
        for (uint32_t i = 0; i < n; ++i) task(arg, i);
        return;
    }
    pthread_mutex_lock(&p->turn);
    pthread_mutex_lock(&p->mu);
    p->task = task;
    p->arg = arg;
    p->n = n;
    p->next = 0;
    atomic_store(&p->unfinished, n);
    atomic_fetch_add(&p->generation, 1);
    pthread_cond_broadcast(&p->work);
    take_tasks(p);
    if (atomic_load(&p->unfinished)) { /* the workers' last tasks: spin, then sleep */
        pthread_mutex_unlock(&p->mu);
        for (int k = 0; k < POOL_SPIN && atomic_load_explicit(&p->unfinished, memory_order_relaxed); ++k)
            spin_pause();
        pthread_mutex_lock(&p->mu);
        while (atomic_load(&p->unfinished)) pthread_cond_wait(&p->done, &p->mu);
    }
    p->task = NULL;
    p->arg = NULL;
    p->n = p->next = 0;
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->turn);
}

/* Stops and joins the started workers, frees p. */
static void stop_and_free(pool *p) {
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->stop, 1);
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t k = 0; k < p->workers; ++k) pthread_join(p->tid[k], NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->turn);
    free(p->tid);
    free(p);
}

pool *pool_create(uint32_t threads) {
    if (threads < 1 || threads > 1024) return NULL;
    pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->tid = threads > 1 ? calloc(threads - 1, sizeof *p->tid) : NULL;
    if (threads > 1 && !p->tid) {
        free(p);
        return NULL;
    }
    atomic_init(&p->generation, 0);
    atomic_init(&p->unfinished, 0);
    atomic_init(&p->stop, 0);
    pthread_mutex_init(&p->turn, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->api.parallel_for = pool_parallel_for;
    p->api.ctx = p;
    p->api.threads = threads;
    for (uint32_t k = 0; k + 1 < threads; ++k) {
        if (pthread_create(&p->tid[k], NULL, worker_main, p) != 0) {
            stop_and_free(p);
            return NULL;
        }
        p->workers = k + 1;
    }
    return p;
}

void pool_destroy(pool *p) {
    if (p) stop_and_free(p);
}

const dmlref_threadpool *pool_threadpool(const pool *p) { return &p->api; }
