/*
 * dmlref benchmark: the workloads of docs/performance.md, each a case file
 * (bench/workloads/<name>.json, docs/case-format.md) named in
 * bench/workloads/workloads.txt, plus a 64 MiB memcpy and a 64 MiB streaming fill
 * (the write-only ceiling), each with 1 thread and with all threads, in one run; with --pool P also with P OpenMP threads and
 * through a pthread pool of P threads (dmlref_options.threadpool, case/pool.c).
 *
 *   bench [--repeat N] [--oracle] [--no-hugepages] [--pool P] [--workloads DIR] [FILTER]
 *   bench --check [--pool P] [--workloads DIR] [FILTER]
 *   bench --help
 *
 * Prints per workload and thread count: median ms over N timed runs (default
 * 11), effective GB/s (bytes moved: the case's bytes_moved, by default 2 x
 * output bytes + index bytes, as docs/performance.md counts them), the memcpy
 * limit measured just before the workload (the better of memcpy 1T and memcpy
 * all-threads: the machine's bandwidth drifts over minutes) and the ratio to
 * it.  Each case is read by the case library (case_parse_ex: descriptor,
 * validation, buffers, `random` / `distinct` fills, outputs written once)
 * before anything is timed; one untimed warm-up run precedes the timed ones.
 * The last lines compare a small GATHER (small_gather.json: 16 rows of 64
 * bytes) with the oracle, which must not pay for threads.  --check runs every
 * workload once through the fast path and once through the oracle and
 * compares the outputs byte for byte (with --pool P, the fast path through
 * the pool too).
 *
 * --pool P: the issue 24 comparison of the caller's threads with OpenMP's.  Each
 * workload gets two more lines, timed one after the other in the same run:
 * "omp P" (OpenMP, options.threads = P) and "pool P" (the pthread pool of P
 * threads, options.threadpool; no OpenMP), whose kernel column ends with
 * "pool/omp R", R = the pool's median / OpenMP's (1.05: 5% slower).
 */
#define _DEFAULT_SOURCE /* madvise */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <sys/mman.h>

#include "case/case.h"
#include "case/pool.h"
#include "dmlref.h"
#include "simd/simd.h" /* the write-only reference's streaming stores */

static int repeat = 11;
static int hugepages = 1;
static const char *dir = "bench/workloads";
static pool *the_pool;      /* --pool P: the pthread pool, or NULL */
static uint32_t pool_threads;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_d(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Buffers of 2 MiB and more are 2 MiB-aligned and advised to use transparent
 * huge pages (what numpy does for its large arrays) before their first touch;
 * --no-hugepages turns the advice off.  The case library's allocator
 * (case_options.alloc), and the memcpy's. */
static void *xalloc(size_t n, size_t align, void *user) {
    void *p = NULL;
    (void)user;
    if (n >= ((size_t)2 << 20)) {
        const size_t al = (size_t)2 << 20;
        if (posix_memalign(&p, al, (n + al - 1) / al * al) != 0) return NULL;
#ifdef MADV_HUGEPAGE
        if (hugepages) madvise(p, (n + al - 1) / al * al, MADV_HUGEPAGE);
#endif
    } else if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, n) != 0) {
        return NULL;
    }
    return p;
}

static void *xmalloc(size_t n) {
    void *p = xalloc(n, 64, NULL);
    if (!p) {
        fprintf(stderr, "bench: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

/* ---- one workload: its case file ------------------------------------------ */

enum { LOAD_OK, LOAD_NOT_BUILT };

/* Reads DIR/<id>.json into c; LOAD_NOT_BUILT when this build lacks its operator. Exits on any other failure. */
static int load(const char *id, dmlref_case *c) {
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/%s.json", dir, id);
    char *text = NULL;
    size_t len = 0;
    if (case_read_file(path, (size_t)1 << 20, &text, &len, err, sizeof err)) {
        fprintf(stderr, "bench: %s: %s (run from the source tree, or give --workloads DIR)\n", path, err);
        exit(3);
    }
    const case_options o = {dir, 0, 0, NULL, NULL, xalloc, NULL};
    const int rc = case_parse_ex(text, len, &o, c, err, sizeof err);
    free(text);
    if (rc == CASE_MALFORMED && strstr(err, "is not built into this dmlref")) return LOAD_NOT_BUILT;
    if (rc) {
        fprintf(stderr, "bench: %s: %s\n", path, err);
        exit(strstr(err, "cannot allocate") ? 2 : 3);
    }
    return LOAD_OK;
}

/* threads: options.threads; with_pool: through the --pool pool (options.threadpool). */
static dmlref_operator *compile(const char *id, const dmlref_case *c, uint32_t threads, uint32_t flags,
                                int with_pool) {
    dmlref_operator *op = NULL;
    dmlref_error err;
    const dmlref_options o = {.flags = flags, .threads = threads,
                              .threadpool = with_pool ? pool_threadpool(the_pool) : NULL};
    if (dmlref_compile(&c->desc, c->feature_level, &o, &op, &err) != DMLREF_OK) {
        fprintf(stderr, "%s: compile failed: %s\n", id, err.message);
        exit(1);
    }
    return op;
}

static void execute(const char *id, const dmlref_case *c, const dmlref_operator *op) {
    dmlref_error err;
    if (dmlref_execute(op, c->in_bufs, c->n_inputs, c->out_bufs, c->n_outputs, &err) != DMLREF_OK) {
        fprintf(stderr, "%s: execute failed: %s\n", id, err.message);
        exit(1);
    }
}

/* n timed executions of op into t (after one untimed). */
static void time_runs(const char *id, const dmlref_case *c, const dmlref_operator *op, double *t, int n) {
    for (int i = -1; i < n; ++i) {
        const double t0 = now_ms();
        execute(id, c, op);
        if (i >= 0) t[i] = now_ms() - t0;
    }
}

/* Median ms of `repeat` executions of the compiled op. */
static double time_op(const char *id, const dmlref_case *c, uint32_t threads, uint32_t flags, int with_pool,
                      const char **kernel) {
    dmlref_operator *op = compile(id, c, threads, flags, with_pool);
    if (kernel) *kernel = dmlref_kernel_name(op);
    double t[256];
    const int n = repeat < 256 ? repeat : 256;
    time_runs(id, c, op, t, n);
    dmlref_release(op);
    return median(t, n);
}

/* ---- memcpy reference ---------------------------------------------------- */

/* The 64 MiB source and destination, filled and touched once (mc_init) and reused by every
 * measurement. */
static unsigned char *mc_src, *mc_dst;

static void mc_init(void) {
    const size_t n = (size_t)64 << 20;
    mc_src = xmalloc(n);
    mc_dst = xmalloc(n);
    uint64_t s = 0x12345678;
    for (size_t i = 0; i < n; i += 8) { /* xorshift bytes */
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        memcpy(mc_src + i, &s, 8);
    }
    memset(mc_dst, 1, n);
}

/* n bytes of 0x5A at d with streaming stores (simd_fill_stream; memset without SIMD): the fastest
 * way to only write memory here (glibc's memset reads the lines for ownership at these sizes).
 * Not zeros: zero lines written this way measured twice as fast as any other bytes on the
 * benchmark machine, which would make the ceiling one no data-writing operator can reach. */
static void stream_fill(unsigned char *d, size_t n) {
    simd_fill_stream(d, 0x5A, n);
    simd_stream_fence();
}

/* gather_rows' bound (docs/performance.md): the 65536 rows of 1 KiB of gather_rows, each from a
 * random row of the 64 MiB source (uniform, a fixed xorshift), copied in order to the 64 MiB
 * destination by a hand loop doing what gather.rows does per row: the row ROWS_AHEAD ahead
 * prefetched into L2 (as plan.h's PREFETCH_R), the row copied with streaming stores.  What the kernel adds is its index reads,
 * its clamp and its nest walk. */
#define ROWS_BYTES 1024u
#define ROWS_COUNT ((size_t)64 << 10)
#define ROWS_AHEAD 8u
static uint32_t *rows_idx;

static void rows_init(void) {
    rows_idx = xmalloc(ROWS_COUNT * sizeof *rows_idx);
    uint64_t s = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < ROWS_COUNT; ++i) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        rows_idx[i] = (uint32_t)(s >> 48); /* [0, 65535] */
    }
}

static void rows_copy(size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) {
        if (i + ROWS_AHEAD < hi) {
            const unsigned char *nx = mc_src + (size_t)rows_idx[i + ROWS_AHEAD] * ROWS_BYTES;
            for (size_t b = 0; b < ROWS_BYTES; b += 64) {
#if defined(__GNUC__)
                __builtin_prefetch(nx + b, 0, 2);
#else
                (void)nx;
#endif
            }
        }
        simd_copy_stream(mc_dst + i * ROWS_BYTES, mc_src + (size_t)rows_idx[i] * ROWS_BYTES, ROWS_BYTES);
    }
    simd_stream_fence();
}

/* The reads of identity_transpose_u8 alone ([4096,4096] bytes, the first 16 MiB of the source):
 * one load of every 64-byte line, in the order its tiles read them (copy_plan.c: a tile is 128
 * source rows by one line of each, the tiles of a band of 128 rows one after another along the
 * rows), nothing written.  Against identity_transpose_u8's own line: how much of its time its
 * read pattern alone takes. */
#define TILES_N 4096u
#define TILES_BAND 128u
static volatile unsigned char tiles_sink;

static void tiles_read(size_t lo, size_t hi) { /* bands [lo, hi) */
    unsigned acc = 0;
    for (size_t band = lo; band < hi; ++band)
        for (size_t q = 0; q < TILES_N; q += 64)
            for (size_t r = 0; r < TILES_BAND; ++r) acc |= mc_src[(band * TILES_BAND + r) * TILES_N + q];
    tiles_sink = (unsigned char)acc;
}

/* What a reference line times: a 64 MiB memcpy, a 64 MiB streaming fill of mc_dst (the ceiling
 * of an operator that only writes, such as FILL_VALUE_SEQUENCE), gather_rows' bound, or the
 * byte transpose's reads. */
enum { REF_MEMCPY, REF_FILL, REF_ROWS, REF_TILES };

/* Part [lo, hi) of n (bytes, rows for REF_ROWS, bands for REF_TILES). */
static void reference_part(int kind, size_t lo, size_t hi) {
    if (kind == REF_TILES) tiles_read(lo, hi);
    else if (kind == REF_ROWS) rows_copy(lo, hi);
    else if (kind == REF_FILL) stream_fill(mc_dst + lo, hi - lo);
    else memcpy(mc_dst + lo, mc_src + lo, hi - lo);
}

/* The median ms of a reference, on one thread or one part per thread. */
static double time_reference(int all_threads, int min_reps, int kind) {
    const size_t n = kind == REF_ROWS ? ROWS_COUNT : kind == REF_TILES ? TILES_N / TILES_BAND : (size_t)64 << 20;
    double t[256];
    const int reps = repeat < min_reps ? min_reps : repeat > 256 ? 256 : repeat;
    for (int i = -1; i < reps; ++i) {
        const double t0 = now_ms();
#ifdef _OPENMP
        if (all_threads) {
#pragma omp parallel
            {
                const size_t nt = (size_t)omp_get_num_threads(), id = (size_t)omp_get_thread_num();
                reference_part(kind, n * id / nt, n * (id + 1) / nt);
            }
        } else
#endif
            reference_part(kind, 0, n);
        if (i >= 0) t[i] = now_ms() - t0;
    }
    (void)all_threads;
    return median(t, reps);
}

static double time_memcpy(int all_threads, int min_reps) { return time_reference(all_threads, min_reps, REF_MEMCPY); }

#define MEMCPY_MOVED (2.0 * (double)((size_t)64 << 20))

/* One reference line: name, threads, median ms, bytes moved, the memcpy limit (GB/s), what it is. */
static void print_reference(const char *name, int threads, double ms, double moved, double best_gbs, const char *what) {
    printf("%-24s %5d %9.3f %8.1f %8.1f %6.2f  %s\n", name, threads, ms, moved / ms * 1e-6, best_gbs,
           moved / ms * 1e-6 / best_gbs, what);
}

/* The memcpy limit now, in GB/s: the better of 1 thread and all threads, each
 * the median of at least 11 runs, measured just before a workload. */
static double memcpy_limit_now(void) {
    const double a = time_memcpy(0, 11), b = time_memcpy(1, 11);
    return MEMCPY_MOVED / (a < b ? a : b) * 1e-6;
}

/* 50 ms asleep, so that idle threads stop spinning before a line is timed: libgomp's workers
 * spin for milliseconds after a parallel region (the memcpy limit's too) and the pool's briefly
 * after a job; on a 2-core machine a spinning idle thread of one runtime takes a core from the
 * other's timed line. */
static void settle(void) {
    const struct timespec t = {0, 50 * 1000 * 1000};
    nanosleep(&t, NULL);
}

/* --pool: OpenMP's P threads and the pool's, timed in POOL_BLOCKS alternating blocks of
 * `repeat` executions each (settle() before each block), so that a neighbour's load that comes
 * and goes falls on both; ms[0] OpenMP's median over all its runs, ms[1] the pool's, kernel[]
 * their kernels' names. */
#define POOL_BLOCKS 5
static void time_pool_pair(const char *id, const dmlref_case *c, uint32_t flags, double ms[2], const char *kernel[2]) {
    dmlref_operator *op[2] = {compile(id, c, pool_threads, flags, 0), compile(id, c, pool_threads, flags, 1)};
    for (int k = 0; k < 2; ++k) kernel[k] = dmlref_kernel_name(op[k]);
    const int n = repeat < 256 ? repeat : 256;
    double *t[2] = {xmalloc(sizeof(double) * (size_t)(n * POOL_BLOCKS)),
                    xmalloc(sizeof(double) * (size_t)(n * POOL_BLOCKS))};
    for (int b = 0; b < POOL_BLOCKS; ++b)
        for (int k = 0; k < 2; ++k) {
            settle();
            time_runs(id, c, op[k], t[k] + b * n, n);
        }
    for (int k = 0; k < 2; ++k) {
        ms[k] = median(t[k], n * POOL_BLOCKS);
        free(t[k]);
        dmlref_release(op[k]);
    }
}

/* Times the case with 1 thread and with all, then (--pool P) with P OpenMP threads and
 * through the pool (time_pool_pair), each line against the memcpy limit measured just before
 * it. */
static void time_lines(const char *id, const dmlref_case *c, int all, int oracle) {
    const uint32_t thr[2] = {1, 0};
    const double moved = (double)case_bytes_moved(c);
    const uint32_t flags = oracle ? DMLREF_OPTION_FORCE_ORACLE : 0;
    double omp_ms = 0, pair[2] = {0, 0};
    const char *pair_kernel[2] = {NULL, NULL};
    for (int k = 0; k < (the_pool ? 4 : 2); ++k) {
        const double limit = memcpy_limit_now();
        const char *kernel = NULL;
        double ms;
        if (k < 2) {
            ms = time_op(id, c, thr[k], flags, 0, &kernel);
        } else {
            if (k == 2) time_pool_pair(id, c, flags, pair, pair_kernel);
            kernel = pair_kernel[k - 2];
            ms = pair[k - 2];
        }
        const double gbs = moved / ms * 1e-6;
        char t[16];
        if (k < 2) snprintf(t, sizeof t, "%d", k ? all : 1);
        else snprintf(t, sizeof t, "%s%u", k == 2 ? "omp" : "p", (unsigned)pool_threads);
        if (k == 2) omp_ms = ms;
        printf("%-24s %5s %9.3f %8.1f %8.1f %6.2f  %s", id, t, ms, gbs, limit, gbs / limit, kernel);
        if (k == 3) printf(", pool/omp %.3f", ms / omp_ms);
        printf("\n");
        fflush(stdout);
    }
}

/* Executes op from outputs filled with 0xCD and returns copies of the outputs. */
static unsigned char **outputs_of(const char *id, const dmlref_case *c, const dmlref_operator *op) {
    unsigned char **out = calloc(c->n_outputs ? c->n_outputs : 1, sizeof *out);
    if (!out) exit(2);
    for (uint32_t k = 0; k < c->n_outputs; ++k) memset(c->outputs[k].data, 0xCD, c->outputs[k].bytes);
    execute(id, c, op);
    for (uint32_t k = 0; k < c->n_outputs; ++k) {
        out[k] = xmalloc(c->outputs[k].bytes ? c->outputs[k].bytes : 1);
        memcpy(out[k], c->outputs[k].data, c->outputs[k].bytes);
    }
    return out;
}

/* 1 when outputs a and b differ (and frees a). */
static int differ_free(const dmlref_case *c, unsigned char **a, unsigned char *const *b) {
    int bad = 0;
    for (uint32_t k = 0; k < c->n_outputs; ++k) {
        bad |= memcmp(a[k], b[k], c->outputs[k].bytes) != 0;
        free(a[k]);
    }
    free(a);
    return bad;
}

/* --check: one execution through the fast path (all threads), one through the
 * oracle (and with --pool P one through the pool), each from the same 0xCD-filled
 * outputs; 0 when every output byte agrees. */
static int check_one(const char *id, const dmlref_case *c) {
    dmlref_operator *op = compile(id, c, 0, 0, 0);
    const char *kernel = dmlref_kernel_name(op);
    unsigned char **fast = outputs_of(id, c, op);
    dmlref_operator *oracle = compile(id, c, 0, DMLREF_OPTION_FORCE_ORACLE, 0);
    unsigned char **ref = outputs_of(id, c, oracle);
    int bad = differ_free(c, fast, ref), pool_bad = 0;
    if (the_pool) {
        dmlref_operator *pooled = compile(id, c, 0, 0, 1);
        pool_bad = differ_free(c, outputs_of(id, c, pooled), ref);
        dmlref_release(pooled);
    }
    for (uint32_t k = 0; k < c->n_outputs; ++k) free(ref[k]);
    free(ref);
    printf("%-24s %-8s %14.0f  %s", id, bad || pool_bad ? "DIFFERS" : "same", (double)case_bytes_moved(c), kernel);
    if (the_pool) printf(" (pool %u: %s)", (unsigned)pool_threads, pool_bad ? "differs" : "same");
    printf("\n");
    fflush(stdout);
    dmlref_release(op);
    dmlref_release(oracle);
    return bad | pool_bad;
}

/* The small op: GATHER of 16 rows of 64 bytes from a 256-row table, fast path against the oracle. */
static void small_op(const char *id, const dmlref_case *c, int all) {
    const int saved = repeat;
    double f[5], o[5];
    const char *kernel = NULL;
    repeat = 2001; /* the op takes well under a microsecond: median of many */
    for (int r = 0; r < 5; ++r) {
        f[r] = time_op(id, c, 0, 0, 0, &kernel);
        o[r] = time_op(id, c, 0, DMLREF_OPTION_FORCE_ORACLE, 0, NULL);
    }
    repeat = saved;
    const double fm = median(f, 5), om = median(o, 5);
    printf("%-24s %5d %9.5f %8s %8s %6s  %s (oracle %.5f ms, fast/oracle %.2f)\n", "small_gather_16x64B", all, fm, "-",
           "-", "-", kernel, om, fm / om);
}

/* The workloads' names, in order, from DIR/workloads.txt (one a line, # comments). */
static char **read_list(size_t *n, char **text_out) {
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/workloads.txt", dir);
    char *text = NULL;
    size_t len = 0;
    if (case_read_file(path, (size_t)1 << 20, &text, &len, err, sizeof err)) {
        fprintf(stderr, "bench: %s: %s (run from the source tree, or give --workloads DIR)\n", path, err);
        exit(3);
    }
    char **names = calloc(len / 2 + 2, sizeof *names);
    if (!names) exit(2);
    *n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *b = line + strspn(line, " \t\r"), *e = b + strcspn(b, " \t\r");
        *e = '\0';
        if (*b) names[(*n)++] = b;
    }
    *text_out = text; /* the names point into it */
    return names;
}

static const char usage[] =
    "usage: bench [--repeat N] [--oracle] [--no-hugepages] [--pool P] [--workloads DIR] [FILTER]\n"
    "       bench --check [--pool P] [--workloads DIR] [FILTER]\n"
    "\n"
    "Times the workloads of docs/performance.md (and a 64 MiB memcpy, a streaming fill, gather_rows'\n"
    "bound, random 1 KiB rows copied by a hand loop, and the byte transpose's reads alone, a hand loop\n"
    "in its tiles' order), each with 1 thread\n"
    "and with all threads: median ms over N timed runs, GB/s, the memcpy limit measured\n"
    "just before the line (GB/s), the ratio to it, kernel.  Each workload is a case file,\n"
    "DIR/<name>.json, the names listed in DIR/workloads.txt.\n"
    "\n"
    "  --repeat N       timed runs per line (default 11, 1 to 100000)\n"
    "  --oracle         force the scalar oracle (DMLREF_OPTION_FORCE_ORACLE)\n"
    "  --no-hugepages   do not advise transparent huge pages for large buffers\n"
    "  --pool P         also time each workload with P OpenMP threads (thr \"ompP\") and through\n"
    "                   a pthread pool of P threads (dmlref_options.threadpool, thr \"pP\"; the\n"
    "                   kernel column ends with pool/omp, the ratio of the medians); with\n"
    "                   --check, also run the fast path through the pool (P: 1 to 1024)\n"
    "  --workloads DIR  where the case files are (default bench/workloads)\n"
    "  --check          time nothing: run each workload once through the fast path and once\n"
    "                   through the oracle, compare the outputs byte for byte\n"
    "  FILTER           run only the workloads whose name contains FILTER\n"
    "  --help, -h       print this and exit\n"
    "\n"
    "exit status: 0 ok, 1 execution failed or (--check) outputs differ, 2 out of memory,\n"
    "3 a workload file unreadable, malformed or invalid, 4 bad command line\n";

#define EXIT_USAGE 4

static int usage_error(const char *what, const char *arg) {
    fprintf(stderr, "bench: %s '%s'\n\n%s", what, arg, usage);
    return EXIT_USAGE;
}

int main(int argc, char **argv) {
    const char *filter = NULL;
    int oracle = 0, check = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--repeat")) {
            char *end = NULL;
            const long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || end == argv[i + 1] || *end || v < 1 || v > 100000)
                return usage_error("--repeat needs a number in [1, 100000], got", i + 1 < argc ? argv[i + 1] : "");
            repeat = (int)v;
            ++i;
        } else if (!strcmp(a, "--pool")) {
            char *end = NULL;
            const long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || end == argv[i + 1] || *end || v < 1 || v > 1024)
                return usage_error("--pool needs a number in [1, 1024], got", i + 1 < argc ? argv[i + 1] : "");
            pool_threads = (uint32_t)v;
            ++i;
        } else if (!strcmp(a, "--workloads")) {
            if (i + 1 >= argc) return usage_error("--workloads needs a directory, got", "");
            dir = argv[++i];
        } else if (!strcmp(a, "--oracle")) {
            oracle = 1;
        } else if (!strcmp(a, "--check")) {
            check = 1;
        } else if (!strcmp(a, "--no-hugepages")) {
            hugepages = 0;
        } else if (a[0] == '-') {
            return usage_error("unknown option", a);
        } else if (filter) {
            return usage_error("more than one FILTER:", a);
        } else {
            filter = a;
        }
    }
    if (pool_threads && !(the_pool = pool_create(pool_threads))) {
        fprintf(stderr, "bench: cannot start a pool of %u threads\n", (unsigned)pool_threads);
        return 2;
    }
    size_t n_ids = 0;
    char *list_text = NULL;
    char **ids = read_list(&n_ids, &list_text);
    int all = 1;
#ifdef _OPENMP
    all = omp_get_max_threads();
#endif
    if (check) {
        printf("%-24s %-8s %14s  %s\n", "workload", "oracle", "bytes moved", "kernel (fast path)");
    } else {
        mc_init();
        const double mc1 = time_memcpy(0, 30), mcn = time_memcpy(1, 30);
        const double best_gbs = MEMCPY_MOVED / (mc1 < mcn ? mc1 : mcn) * 1e-6;
        printf("# %d timed runs per line (median), buffers of 2 MiB or more %s\n", repeat,
               hugepages ? "advised to use transparent huge pages" : "on default pages");
        printf("%-24s %5s %9s %8s %8s %6s  %s\n", "workload", "thr", "median ms", "GB/s", "memcpy", "ratio", "kernel");
        print_reference("memcpy_64MiB", 1, mc1, MEMCPY_MOVED, best_gbs, "memcpy");
        print_reference("memcpy_64MiB", all, mcn, MEMCPY_MOVED, best_gbs, "memcpy, one part per thread");
        /* the write-only ceiling (64 MiB moved), against the same limit */
        const double ms1 = time_reference(0, 30, REF_FILL), msn = time_reference(1, 30, REF_FILL);
        print_reference("fill_64MiB", 1, ms1, MEMCPY_MOVED / 2, best_gbs, "streaming stores");
        print_reference("fill_64MiB", all, msn, MEMCPY_MOVED / 2, best_gbs, "streaming stores, one part per thread");
        /* gather_rows' bound: its bytes moved (64 MiB read, 64 MiB written), as its line counts them */
        rows_init();
        const double mr1 = time_reference(0, 30, REF_ROWS), mrn = time_reference(1, 30, REF_ROWS);
        print_reference("rows_64MiB", 1, mr1, MEMCPY_MOVED, best_gbs, "random 1 KiB rows, prefetched 8 ahead, streamed");
        print_reference("rows_64MiB", all, mrn, MEMCPY_MOVED, best_gbs, "random 1 KiB rows, one part per thread");
        /* identity_transpose_u8's read pattern: 16 MiB read, against the 32 MiB its line moves */
        const double mt1 = time_reference(0, 30, REF_TILES), mtn = time_reference(1, 30, REF_TILES);
        print_reference("tiles_u8_16MiB", 1, mt1, MEMCPY_MOVED / 4, best_gbs, "identity_transpose_u8's reads alone, in its tiles' order");
        print_reference("tiles_u8_16MiB", all, mtn, MEMCPY_MOVED / 4, best_gbs, "the same, one part per thread");
        fflush(stdout);
    }

    int bad = 0;
    for (size_t i = 0; i <= n_ids; ++i) {
        const char *id = i < n_ids ? ids[i] : "small_gather"; /* small_gather.json: last, not listed */
        if (filter && !strstr(id, filter)) continue;
        dmlref_case c;
        if (load(id, &c) == LOAD_NOT_BUILT)
            printf("%-24s %5s %9s %8s %8s %6s  %s\n", id, "-", "-", "-", "-", "-", "not in this build");
        else if (check) bad |= check_one(id, &c);
        else if (i < n_ids) time_lines(id, &c, all, oracle);
        else small_op(id, &c, all);
        case_free(&c);
    }
    free(ids);
    free(list_text);
    free(mc_src);
    free(mc_dst);
    pool_destroy(the_pool);
    return bad;
}
