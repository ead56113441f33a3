/*
 * dmlref bench: times dmlref_execute alone.
 *
 * The case is parsed and its buffers built (inputs from data/npy/random,
 * outputs written once by the 0xCD fill, so no page faults remain), the
 * operator compiled once, executed `warmup` times, then executed `repeat`
 * times, each timed with clock_gettime(CLOCK_MONOTONIC) around the
 * dmlref_execute call only.  The median is reported.
 *
 * bytes_moved = 2 x output bytes + index bytes (docs/performance.md): every
 * output element is written once and read once from its source (the input,
 * or for SCATTER_ND the input or an update; overwritten input is not
 * counted), plus every index element read once.  Output bytes
 * count the elements (product of Sizes x element size), not the padding of
 * the buffer.  GB/s = bytes_moved / median_ns (1 GB = 1e9 bytes).
 */
#include "args.h"
#include "case/case.h"
#include "cli.h"
#include "execute.h"
#include "load.h"
#include "case/json_out.h"
#include "case/pool.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage_bench[] =
    "usage: dmlref bench CASE.json [--repeat N] [--threads T] [--pool P] [--warmup W] [--batch B] [--run]\n"
    "\n"
    "Builds the case's buffers (use `random` inputs for large tensors), compiles once,\n"
    "executes W times (default 2) to warm up, then times N executions (default 11) of\n"
    "dmlref_execute alone and prints JSON:\n"
    "  {\"operator\", \"median_ns\", \"min_ns\", \"bytes_moved\", \"gb_per_s\", \"repeat\", \"threads\",\n"
    "   \"pool\", \"batch\", \"timed\", \"kernel\"}\n"
    "bytes_moved = 2 x output bytes + index bytes; gb_per_s = bytes_moved / median_ns.\n"
    "Tiny operators: --batch B times B consecutive calls per sample (default 1) and reports\n"
    "the time per call; --run times dmlref_run (compile, execute and release) instead of\n"
    "dmlref_execute (\"timed\": \"run\" or \"execute\").\n"
    "--pool P runs the operator through a pthread pool of P threads (dmlref_options.threadpool,\n"
    "P from 1 to 1024; no OpenMP) instead of OpenMP's threads (\"pool\": P, 0 without);\n"
    "--threads T then asks for at most T <= P parts (0: P).\n"
    "Out-of-range indices are clamped silently (benchmarks do not check indices).\n"
    "\n"
    "exit status: 0 ok, 2 descriptor invalid, 3 case file unreadable or malformed,\n"
    "4 bad command line or a bad DMLREF_* variable, 5 execution failed, 6 a buffer larger than\n"
    "this host addresses, 7 cannot verify the descriptor, 8 out of memory\n";

static int cmp_u64(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One timed call: dmlref_execute of the compiled operator, or (run) dmlref_run of the case. */
static dmlref_status one_call(const dmlref_case *c, const dmlref_operator *op, const dmlref_options *o, int run,
                              dmlref_error *err) {
    if (run)
        return dmlref_run(&c->desc, c->feature_level, o, c->in_bufs, c->n_inputs, c->out_bufs, c->n_outputs, err);
    return dmlref_execute(op, c->in_bufs, c->n_inputs, c->out_bufs, c->n_outputs, err);
}

int cmd_bench(int argc, char **argv) {
    const char *path = NULL, *v;
    uint64_t repeat = 11, threads = 0, warmup = 2, batch = 1, pool_threads = 0;
    int time_run = 0;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        size_t n = 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_bench, stdout);
            return 0;
        }
        uint64_t *target = NULL, max = 0, min = 0;
        if (strncmp(a, "--repeat", n = 8) == 0) target = &repeat, max = 1000000, min = 1;
        else if (strncmp(a, "--threads", n = 9) == 0) target = &threads, max = UINT32_MAX, min = 0;
        else if (strncmp(a, "--pool", n = 6) == 0) target = &pool_threads, max = 1024, min = 1;
        else if (strncmp(a, "--warmup", n = 8) == 0) target = &warmup, max = 1000000, min = 0;
        else if (strncmp(a, "--batch", n = 7) == 0) target = &batch, max = 1000000, min = 1;
        if (strcmp(a, "--run") == 0) {
            time_run = 1;
            continue;
        }
        if (target && (a[n] == '\0' || a[n] == '=')) {
            v = a[n] == '=' ? a + n + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v || cli_parse_u64(v, max, target) || *target < min) {
                fprintf(stderr, "dmlref bench: %.*s needs a number in [%" PRIu64 ", %" PRIu64 "] (dmlref bench --help)\n",
                        (int)n, a, min, max);
                return CASE_USAGE;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "dmlref bench: unknown option '%s' (dmlref bench --help)\n", a);
            return CASE_USAGE;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "dmlref bench: unexpected argument '%s' (dmlref bench --help)\n", a);
            return CASE_USAGE;
        }
    }
    if (!path) {
        fprintf(stderr, "dmlref bench: missing CASE.json (dmlref bench --help)\n");
        return CASE_USAGE;
    }
    pool *tp = NULL;
    if (pool_threads && !(tp = pool_create((uint32_t)pool_threads))) {
        fprintf(stderr, "dmlref bench: cannot start a pool of %" PRIu64 " threads\n", pool_threads);
        return CASE_SYSTEM;
    }
    dmlref_case c;
    int rc = cli_load_case(path, 0, &c, 0);
    if (rc) {
        pool_destroy(tp);
        return rc;
    }

    const dmlref_options o = {.flags = 0, .threads = (uint32_t)threads, .threadpool = tp ? pool_threadpool(tp) : NULL};
    dmlref_operator *op = NULL;
    dmlref_error err;
    uint64_t *times = malloc((size_t)repeat * sizeof *times);
    dmlref_status st = times ? dmlref_compile(&c.desc, c.feature_level, &o, &op, &err) : DMLREF_ERROR_OUT_OF_MEMORY;
    if (!times) snprintf(err.message, sizeof err.message, "out of memory for %" PRIu64 " timings", repeat);
    /* every output page was written by the 0xCD fill; touch once more to be sure */
    for (uint32_t k = 0; k < c.n_outputs && st == DMLREF_OK; ++k) memset(c.outputs[k].data, 0xCD, c.outputs[k].bytes);
    for (uint64_t i = 0; i < warmup && st == DMLREF_OK; ++i)
        st = one_call(&c, op, &o, time_run, &err);
    for (uint64_t i = 0; i < repeat && st == DMLREF_OK; ++i) {
        const uint64_t t0 = now_ns();
        for (uint64_t b = 0; b < batch && st == DMLREF_OK; ++b) st = one_call(&c, op, &o, time_run, &err);
        times[i] = (now_ns() - t0) / batch;
    }
    if (st != DMLREF_OK) {
        fprintf(stderr, "dmlref: %s: %s\n", path, err.message);
        /* as run: a bad DMLREF_* variable 4, a host limit 6, cannot verify 7, out of memory 8;
         * anything else (the case validated when it was read) is an execution failure, 5 */
        rc = cli_exit_status(st);
        if (rc == CASE_INVALID) rc = CASE_SYSTEM;
    } else {
        qsort(times, (size_t)repeat, sizeof *times, cmp_u64);
        const uint64_t median = repeat % 2 ? times[repeat / 2] : (times[repeat / 2 - 1] + times[repeat / 2]) / 2;
        const uint64_t moved = case_bytes_moved(&c); /* the case's bytes_moved, or 2 x output + index bytes */
        printf("{\"operator\": \"%s\", \"median_ns\": %" PRIu64 ", \"min_ns\": %" PRIu64 ", \"bytes_moved\": %" PRIu64
               ", \"gb_per_s\": %.3f, \"repeat\": %" PRIu64 ", \"threads\": %" PRIu64 ", \"pool\": %" PRIu64
               ", \"batch\": %" PRIu64 ", \"timed\": \"%s\", \"kernel\": ",
               c.op_name, median, times[0], moved, median ? (double)moved / (double)median : 0.0, repeat, threads,
               pool_threads, batch, time_run ? "run" : "execute");
        jout_string(stdout, dmlref_kernel_name(op));
        printf("}\n");
    }
    dmlref_release(op);
    free(times);
    case_free(&c);
    pool_destroy(tp);
    return rc;
}
