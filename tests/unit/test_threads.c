/*
 * Thread safety of execute: one compiled operator run from 4 pthreads at once,
 * each on its own output buffers, must give exactly the bytes of a serial run,
 * for every operator, with the oracle, the default (fast) path with 1 and with
 * the default number of threads, and the checking option.  `make test-tsan`
 * runs this under ThreadSanitizer (built with OPENMP=0).
 */
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define N_THREADS 4
#define ITERATIONS 8
#define MAX_BUFS 4

/* One operator with its input bytes and output sizes. */
typedef struct mt_case {
    const char *name;
    DMLREF_OPERATOR_DESC desc;
    uint32_t n_in, n_out;
    dmlref_cbuffer in[MAX_BUFS];
    size_t out_size[MAX_BUFS];
} mt_case;

typedef struct worker {
    const dmlref_operator *op;
    const mt_case *c;
    dmlref_buffer out[MAX_BUFS];
    int use_err;
    dmlref_status status;
    char message[DMLREF_ERROR_MESSAGE_MAX];
} worker;

static void *run_worker(void *arg) {
    worker *w = arg;
    dmlref_error err;
    w->status = DMLREF_OK;
    for (int it = 0; it < ITERATIONS && w->status == DMLREF_OK; ++it) {
        w->status = dmlref_execute(w->op, w->c->in, w->c->n_in, w->out, w->c->n_out, w->use_err ? &err : NULL);
        if (w->status != DMLREF_OK && w->use_err) memcpy(w->message, err.message, sizeof w->message);
    }
    return NULL;
}

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void *random_bytes(size_t n, uint32_t seed) {
    unsigned char *p = malloc(n);
    if (!p) abort();
    for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)lcg(&seed);
    return p;
}

static void alloc_out(dmlref_buffer *b, size_t size) {
    b->data = malloc(size);
    if (!b->data) abort();
    b->size = size;
    memset(b->data, 0xCD, size);
}

/* Compiles c with options, runs it serially, then from N_THREADS threads at
 * once, and compares every thread's outputs with the serial run's. */
static void *do_nothing(void *arg) { return arg; }

/* Whether this build can start a thread at all (a wasm32 build without
 * -pthread cannot: pthread_create fails there). */
static int threads_available(void) {
    static int known, available;
    if (!known) {
        pthread_t t;
        available = pthread_create(&t, NULL, do_nothing, NULL) == 0;
        if (available) pthread_join(t, NULL);
        known = 1;
    }
    return available;
}

static void check_concurrent(const mt_case *c, const dmlref_options *opt, const char *mode) {
    dmlref_operator *op = NULL;
    dmlref_error err;
    if (!threads_available()) {
        TEST_SKIP("this build cannot create threads (pthread_create fails)");
        return;
    }
    /* A small grain (read at compile time) so that the fast paths partition
     * these small tensors across OpenMP threads inside each pthread, and
     * scratch (slabs, scatter target marks) on small tensors, so that the
     * pthreads contend for it. */
    const char *grain = getenv("DMLREF_PAR_GRAIN");
    char saved[32] = "";
    if (grain) snprintf(saved, sizeof saved, "%s", grain);
    setenv("DMLREF_PAR_GRAIN", "256", 1);
    setenv("DMLREF_SLAB_MIN", "0", 1);
    setenv("DMLREF_STREAM_MIN", "0", 1);
    env_reload(); /* the library reads the variables once: read them again */
    const dmlref_status st = dmlref_compile(&c->desc, DMLREF_FEATURE_LEVEL_6_4, opt, &op, &err);
    if (grain) setenv("DMLREF_PAR_GRAIN", saved, 1);
    else unsetenv("DMLREF_PAR_GRAIN");
    unsetenv("DMLREF_SLAB_MIN");
    unsetenv("DMLREF_STREAM_MIN");
    env_reload(); /* the library reads the variables once: read them again */
    CHECK_STATUS(st, err, DMLREF_OK, NULL);
    if (st != DMLREF_OK) return;

    dmlref_buffer ref[MAX_BUFS];
    for (uint32_t k = 0; k < c->n_out; ++k) alloc_out(&ref[k], c->out_size[k]);
    CHECK_STATUS(dmlref_execute(op, c->in, c->n_in, ref, c->n_out, &err), err, DMLREF_OK, NULL);

    worker w[N_THREADS];
    pthread_t tid[N_THREADS];
    int started[N_THREADS] = {0};
    for (int t = 0; t < N_THREADS; ++t) {
        memset(&w[t], 0, sizeof w[t]);
        w[t].op = op;
        w[t].c = c;
        w[t].use_err = t % 2 == 0; /* half of them pass err = NULL */
        for (uint32_t k = 0; k < c->n_out; ++k) alloc_out(&w[t].out[k], c->out_size[k]);
    }
    for (int t = 0; t < N_THREADS; ++t) started[t] = pthread_create(&tid[t], NULL, run_worker, &w[t]) == 0;
    for (int t = 0; t < N_THREADS; ++t) {
        CHECK(started[t]);
        if (started[t]) pthread_join(tid[t], NULL);
    }
    for (int t = 0; t < N_THREADS; ++t) {
        if (w[t].status != DMLREF_OK)
            test_fail(__FILE__, __LINE__, "%s (%s, %s): thread %d: %s %s", c->name, mode, dmlref_kernel_name(op), t,
                      dmlref_status_name(w[t].status), w[t].message);
        for (uint32_t k = 0; k < c->n_out; ++k) {
            if (started[t] && memcmp(w[t].out[k].data, ref[k].data, ref[k].size) != 0)
                test_fail(__FILE__, __LINE__, "%s (%s, %s): thread %d output %u differs from the serial run",
                          c->name, mode, dmlref_kernel_name(op), t, k);
            free(w[t].out[k].data);
        }
    }
    for (uint32_t k = 0; k < c->n_out; ++k) free(ref[k].data);
    dmlref_release(op);
}

static void check_all_modes(const mt_case *c) {
    static const struct {
        dmlref_options opt;
        const char *name;
    } modes[] = {
        {{.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1}, "oracle"},
        {{.flags = 0, .threads = 1}, "default, 1 thread"},
        {{.flags = 0, .threads = 0}, "default, default threads"},
        {{.flags = DMLREF_OPTION_CHECK_INDICES, .threads = 2}, "checking, 2 threads"},
    };
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; ++m) check_concurrent(c, &modes[m].opt, modes[m].name);
}

static void free_inputs(mt_case *c) {
    for (uint32_t k = 0; k < c->n_in; ++k) free((void *)c->in[k].data);
}

/* Indices of dtype dt (4 or 8 bytes, signed or not) in [-n, n) or [0, n). */
static void *index_bytes(DMLREF_TENSOR_DATA_TYPE dt, size_t count, uint32_t n, uint32_t seed) {
    const int wide = dt == DMLREF_TENSOR_DATA_TYPE_INT64 || dt == DMLREF_TENSOR_DATA_TYPE_UINT64;
    const int sgn = dt == DMLREF_TENSOR_DATA_TYPE_INT64 || dt == DMLREF_TENSOR_DATA_TYPE_INT32;
    unsigned char *p = malloc(count * (wide ? 8 : 4) + 4);
    if (!p) abort();
    for (size_t i = 0; i < count; ++i) {
        const int64_t v = sgn ? (int64_t)(lcg(&seed) % (2 * n)) - n : (int64_t)(lcg(&seed) % n);
        if (wide) memcpy(p + 8 * i, &v, 8);
        else {
            const int32_t v32 = (int32_t)v;
            memcpy(p + 4 * i, &v32, 4);
        }
    }
    return p;
}

TEST(threads_gather) {
    tdesc in, ix, out;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(8, 64, 16));
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT32, DIMS(1, 1, 100));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(8, 100, 16));
    DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 1, 1};
    mt_case c = {"GATHER", {DMLREF_OPERATOR_GATHER, &g}, 2, 1, {{0}}, {0}};
    c.in[0].data = random_bytes(in.buf.TotalTensorSizeInBytes, 1);
    c.in[0].size = in.buf.TotalTensorSizeInBytes;
    c.in[1].data = index_bytes(DMLREF_TENSOR_DATA_TYPE_INT32, 100, 64, 2);
    c.in[1].size = ix.buf.TotalTensorSizeInBytes;
    c.out_size[0] = out.buf.TotalTensorSizeInBytes;
    check_all_modes(&c);

    /* the same with a padded, permuted output layout */
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(8, 100, 16), SIZES(17, 8 * 17 + 3, 1));
    c.out_size[0] = out.buf.TotalTensorSizeInBytes;
    c.name = "GATHER strided";
    check_all_modes(&c);
    free_inputs(&c);
}

TEST(threads_gather_elements) {
    tdesc in, ix, out;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT16, DIMS(32, 50));
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT64, DIMS(32, 40));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT16, DIMS(32, 40));
    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 1};
    mt_case c = {"GATHER_ELEMENTS", {DMLREF_OPERATOR_GATHER_ELEMENTS, &g}, 2, 1, {{0}}, {0}};
    c.in[0].data = random_bytes(in.buf.TotalTensorSizeInBytes, 3);
    c.in[0].size = in.buf.TotalTensorSizeInBytes;
    c.in[1].data = index_bytes(DMLREF_TENSOR_DATA_TYPE_INT64, 32 * 40, 50, 4);
    c.in[1].size = ix.buf.TotalTensorSizeInBytes;
    c.out_size[0] = out.buf.TotalTensorSizeInBytes;
    check_all_modes(&c);
    free_inputs(&c);
}

/* On the outer axis: a plan with scratch slabs, which one execution at a time
 * holds while the others walk without them; all must give the same bytes. */
TEST(threads_gather_elements_slabs) {
    tdesc in, ix, out;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(60, 70));
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT32, DIMS(50, 70));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(50, 70));
    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 0};
    mt_case c = {"GATHER_ELEMENTS axis 0", {DMLREF_OPERATOR_GATHER_ELEMENTS, &g}, 2, 1, {{0}}, {0}};
    c.in[0].data = random_bytes(in.buf.TotalTensorSizeInBytes, 11);
    c.in[0].size = in.buf.TotalTensorSizeInBytes;
    c.in[1].data = index_bytes(DMLREF_TENSOR_DATA_TYPE_INT32, 50 * 70, 60, 12);
    c.in[1].size = ix.buf.TotalTensorSizeInBytes;
    c.out_size[0] = out.buf.TotalTensorSizeInBytes;
    check_all_modes(&c);
    free_inputs(&c);
}

TEST(threads_scatter_nd) {
    tdesc in, ix, up, out;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(64, 32));
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_UINT32, DIMS(40, 1));
    tdesc_init(&up, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(40, 32));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(64, 32));
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in.desc, &ix.desc, &up.desc, &out.desc, 2, 2};
    mt_case c = {"SCATTER_ND", {DMLREF_OPERATOR_SCATTER_ND, &s}, 3, 1, {{0}}, {0}};
    /* unique targets (rows 0, 3, 6, ... mod 64: 3 and 64 are coprime), so the
     * checking option accepts them */
    uint32_t *rows = malloc(40 * sizeof *rows);
    if (!rows) abort();
    for (uint32_t i = 0; i < 40; ++i) rows[i] = (i * 3 + 5) % 64;
    c.in[0].data = random_bytes(in.buf.TotalTensorSizeInBytes, 5);
    c.in[0].size = in.buf.TotalTensorSizeInBytes;
    c.in[1].data = rows;
    c.in[1].size = ix.buf.TotalTensorSizeInBytes;
    c.in[2].data = random_bytes(up.buf.TotalTensorSizeInBytes, 6);
    c.in[2].size = up.buf.TotalTensorSizeInBytes;
    c.out_size[0] = out.buf.TotalTensorSizeInBytes;
    check_all_modes(&c);
    free_inputs(&c);
}

TEST(threads_split) {
    tdesc in, o0, o1, o2;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_INT8, DIMS(16, 30, 20));
    tdesc_init(&o0, DMLREF_TENSOR_DATA_TYPE_INT8, DIMS(16, 7, 20));
    tdesc_init(&o1, DMLREF_TENSOR_DATA_TYPE_INT8, 3, SIZES(16, 13, 20), SIZES(13 * 24, 24, 1));
    tdesc_init(&o2, DMLREF_TENSOR_DATA_TYPE_INT8, DIMS(16, 10, 20));
    DMLREF_TENSOR_DESC outs[3] = {o0.desc, o1.desc, o2.desc};
    DMLREF_SPLIT_OPERATOR_DESC s = {&in.desc, 3, outs, 1};
    mt_case c = {"SPLIT", {DMLREF_OPERATOR_SPLIT, &s}, 1, 3, {{0}}, {0}};
    c.in[0].data = random_bytes(in.buf.TotalTensorSizeInBytes, 7);
    c.in[0].size = in.buf.TotalTensorSizeInBytes;
    c.out_size[0] = o0.buf.TotalTensorSizeInBytes;
    c.out_size[1] = o1.buf.TotalTensorSizeInBytes;
    c.out_size[2] = o2.buf.TotalTensorSizeInBytes;
    check_all_modes(&c);
    free_inputs(&c);
}

TEST(threads_join) {
    tdesc i0, i1, i2, out;
    tdesc_init(&i0, DMLREF_TENSOR_DATA_TYPE_FLOAT64, DIMS(12, 5, 9));
    tdesc_init(&i1, DMLREF_TENSOR_DATA_TYPE_FLOAT64, 3, SIZES(12, 6, 9), SIZES(0, 9, 1)); /* broadcast */
    tdesc_init(&i2, DMLREF_TENSOR_DATA_TYPE_FLOAT64, DIMS(12, 1, 9));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT64, 3, SIZES(12, 12, 9), SIZES(12 * 10, 10, 1)); /* padded */
    DMLREF_TENSOR_DESC ins[3] = {i0.desc, i1.desc, i2.desc};
    DMLREF_JOIN_OPERATOR_DESC j = {3, ins, &out.desc, 1};
    mt_case c = {"JOIN", {DMLREF_OPERATOR_JOIN, &j}, 3, 1, {{0}}, {0}};
    const tdesc *t[3] = {&i0, &i1, &i2};
    for (uint32_t k = 0; k < 3; ++k) {
        c.in[k].data = random_bytes(t[k]->buf.TotalTensorSizeInBytes, 8 + k);
        c.in[k].size = t[k]->buf.TotalTensorSizeInBytes;
    }
    c.out_size[0] = out.buf.TotalTensorSizeInBytes;
    check_all_modes(&c);
    free_inputs(&c);
}
