/*
 * A small pthread pool behind dmlref_threadpool (include/dmlref.h): what an
 * integrator hands dmlref_options.threadpool, here for the unit tests
 * (tests/unit/test_threadpool.c), the bench program's --pool (bench/bench.c) and
 * `dmlref bench --pool` (cli/bench.c).
 *
 * A pool of `threads` runs up to that many tasks at once: threads - 1 persistent
 * worker threads, started once by pool_create and kept until pool_destroy, and
 * the thread that calls parallel_for, which takes tasks too.  parallel_for hands
 * out the indices [0, n) one at a time to whichever thread asks next and returns
 * when every task has returned.  Calls from several threads at once take turns
 * (one job at a time).  A pool of 1 thread starts no worker and runs the tasks
 * in order on the caller.
 */
#ifndef DMLREF_CASE_POOL_H
#define DMLREF_CASE_POOL_H

#include <stdint.h>

#include "dmlref.h"

typedef struct pool pool;

/* A pool of threads >= 1 (at most 1024), or NULL (out of memory, or a worker that
 * could not be started: then none is left running). */
pool *pool_create(uint32_t threads);
/* Stops and joins the workers (no parallel_for may be running) and frees p; NULL is ignored. */
void pool_destroy(pool *p);
/* The pool as dmlref_options.threadpool wants it: {parallel_for, p, threads}; valid until
 * pool_destroy. */
const dmlref_threadpool *pool_threadpool(const pool *p);

#endif
