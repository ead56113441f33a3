/*
 * dmlref benchmark: the 12 workloads of docs/performance.md, the 13 of its
 * phase-2 table (a line says "not in this build" for an operator left out), plus a 64 MiB
 * memcpy, each with 1 thread and with all threads, in one run.
 *
 *   bench [--repeat N] [--oracle] [--no-hugepages] [FILTER]
 *   bench --help
 *
 * Prints per workload and thread count: median ms over N timed runs (default
 * 11), effective GB/s (bytes moved = 2 x output bytes + index bytes, as
 * docs/performance.md counts them), the memcpy limit measured just before the
 * workload (the better of memcpy 1T and memcpy all-threads: the machine's
 * bandwidth drifts over minutes) and the ratio to it.  Inputs are filled and outputs allocated and
 * touched once outside the timed region; one untimed warm-up run precedes the
 * timed ones.  The last lines compare a small GATHER (16 rows of 64 bytes)
 * with the oracle, which must not pay for threads.
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

#include "dmlref.h"

#define FL ((DMLREF_FEATURE_LEVEL)0x6400)
#define MAXT 4

static int repeat = 11;
static int hugepages = 1;

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
 * huge pages (what numpy does for its large arrays); --no-hugepages turns
 * that off. */
static void *xmalloc(size_t n) {
    void *p = NULL;
    if (n >= ((size_t)2 << 20)) {
        const size_t al = (size_t)2 << 20;
        if (posix_memalign(&p, al, (n + al - 1) / al * al) != 0) p = NULL;
#ifdef MADV_HUGEPAGE
        if (p && hugepages) madvise(p, (n + al - 1) / al * al, MADV_HUGEPAGE);
#endif
    } else {
        p = malloc(n);
    }
    if (!p) {
        fprintf(stderr, "bench: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

static uint64_t rng_state = 0x12345678;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void *filled(size_t n) {
    unsigned char *p = xmalloc(n);
    for (size_t i = 0; i < n; i += 8) {
        const uint64_t v = rnd();
        memcpy(p + i, &v, n - i < 8 ? n - i : 8);
    }
    return p;
}

/* ---- tensor descs ----------------------------------------------------------- */

typedef struct tdesc {
    uint32_t sizes[8];
    DMLREF_BUFFER_TENSOR_DESC buf;
    DMLREF_TENSOR_DESC desc;
} tdesc;

static void td(tdesc *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes) {
    memset(t, 0, sizeof *t);
    memcpy(t->sizes, sizes, n * sizeof *sizes);
    t->buf.DataType = dt;
    t->buf.DimensionCount = n;
    t->buf.Sizes = t->sizes;
    t->buf.TotalTensorSizeInBytes = dmlref_calc_buffer_tensor_size(dt, n, t->sizes, NULL);
    t->desc.Type = DMLREF_TENSOR_TYPE_BUFFER;
    t->desc.Desc = &t->buf;
}

#define SZ(...) ((const uint32_t[]){__VA_ARGS__})

/* ---- one workload -------------------------------------------------------- */

typedef struct work {
    const char *id;
    DMLREF_OPERATOR_DESC desc;
    DMLREF_GATHER_OPERATOR_DESC g;
    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC ge;
    DMLREF_SCATTER_ND_OPERATOR_DESC s;
    DMLREF_SPLIT_OPERATOR_DESC sp;
    DMLREF_JOIN_OPERATOR_DESC j;
    union { /* the phase-2 workloads' descs */
        DMLREF_SLICE1_OPERATOR_DESC slice1;
        DMLREF_TILE_OPERATOR_DESC tile;
        DMLREF_PADDING1_OPERATOR_DESC pad1;
        DMLREF_GATHER_ND1_OPERATOR_DESC gnd1;
        DMLREF_SCATTER_OPERATOR_DESC sc;
        DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC d2s;
        DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC s2d;
        DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id;
        DMLREF_ONE_HOT_OPERATOR_DESC oh;
    } p2;
    uint32_t arr[3][8];   /* their arrays (offsets, sizes, repeats, paddings)          */
    int32_t iarr[8];      /* SLICE1's InputWindowStrides                               */
    uint32_t strides[8];  /* identity_transpose's input strides                        */
    tdesc t[8];
    DMLREF_TENSOR_DESC pieces[4];
    uint32_t n_in, n_out;
    dmlref_cbuffer in[4];
    dmlref_buffer out[4];
    double moved; /* bytes */
} work;

static void alloc_io(work *w, const tdesc *const *ins, const tdesc *const *outs) {
    for (uint32_t i = 0; i < w->n_in; ++i) {
        w->in[i].size = (size_t)ins[i]->buf.TotalTensorSizeInBytes;
        w->in[i].data = filled(w->in[i].size);
    }
    double outb = 0;
    for (uint32_t k = 0; k < w->n_out; ++k) {
        w->out[k].size = (size_t)outs[k]->buf.TotalTensorSizeInBytes;
        w->out[k].data = xmalloc(w->out[k].size);
        memset(w->out[k].data, 0, w->out[k].size); /* touched once, outside the timing */
        outb += (double)w->out[k].size;
    }
    w->moved = 2 * outb;
}

/* Indices uniformly random in [0, n) (int32 or int64). */
static void fill_idx(void *p, size_t count, int wide, uint64_t n) {
    for (size_t i = 0; i < count; ++i) {
        const uint64_t v = rnd() % n;
        if (wide) ((int64_t *)p)[i] = (int64_t)v;
        else ((int32_t *)p)[i] = (int32_t)v;
    }
}

static void setup_concat(work *w, int split, DMLREF_TENSOR_DATA_TYPE dt, const uint32_t *whole, const uint32_t *piece,
                         uint32_t axis) {
    td(&w->t[0], dt, 3, whole);
    for (int k = 0; k < 4; ++k) {
        td(&w->t[1 + k], dt, 3, piece);
        w->pieces[k] = w->t[1 + k].desc;
    }
    const tdesc *pp[4] = {&w->t[1], &w->t[2], &w->t[3], &w->t[4]}, *wh[1] = {&w->t[0]};
    if (split) {
        w->sp = (DMLREF_SPLIT_OPERATOR_DESC){&w->t[0].desc, 4, w->pieces, axis};
        w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_SPLIT, &w->sp};
        w->n_in = 1;
        w->n_out = 4;
        alloc_io(w, wh, pp);
    } else {
        w->j = (DMLREF_JOIN_OPERATOR_DESC){4, w->pieces, &w->t[0].desc, axis};
        w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_JOIN, &w->j};
        w->n_in = 4;
        w->n_out = 1;
        alloc_io(w, pp, wh);
    }
}

static void setup_gather(work *w, DMLREF_TENSOR_DATA_TYPE dt, uint32_t rows, uint32_t cols, uint32_t axis,
                         DMLREF_TENSOR_DATA_TYPE it, uint32_t nidx) {
    const int wide = it == DMLREF_TENSOR_DATA_TYPE_INT64;
    td(&w->t[0], dt, 2, SZ(rows, cols));
    td(&w->t[1], it, 2, SZ(1, nidx));
    td(&w->t[2], dt, 2, axis == 0 ? SZ(nidx, cols) : SZ(rows, nidx));
    w->g = (DMLREF_GATHER_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, &w->t[2].desc, axis, 1};
    w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_GATHER, &w->g};
    w->n_in = 2;
    w->n_out = 1;
    const tdesc *in[2] = {&w->t[0], &w->t[1]}, *out[1] = {&w->t[2]};
    alloc_io(w, in, out);
    fill_idx((void *)(uintptr_t)w->in[1].data, nidx, wide, axis == 0 ? rows : cols);
    w->moved += (double)w->in[1].size;
}

static void setup_gather_elements(work *w, uint32_t axis) {
    td(&w->t[0], DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SZ(4096, 4096));
    td(&w->t[1], DMLREF_TENSOR_DATA_TYPE_INT64, 2, SZ(4096, 4096));
    td(&w->t[2], DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SZ(4096, 4096));
    w->ge = (DMLREF_GATHER_ELEMENTS_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, &w->t[2].desc, axis};
    w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_GATHER_ELEMENTS, &w->ge};
    w->n_in = 2;
    w->n_out = 1;
    const tdesc *in[2] = {&w->t[0], &w->t[1]}, *out[1] = {&w->t[2]};
    alloc_io(w, in, out);
    fill_idx((void *)(uintptr_t)w->in[1].data, 4096u * 4096u, 1, 4096);
    w->moved += (double)w->in[1].size;
}

/* Unique targets: i -> (a * i + b) mod 2^k is a bijection for odd a. */
static void setup_scatter(work *w, int rows) {
    const uint32_t R = rows ? 65536 : 4096, C = rows ? 256 : 4096, n = rows ? 16384 : 1048576;
    td(&w->t[0], DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SZ(R, C));
    td(&w->t[1], DMLREF_TENSOR_DATA_TYPE_INT64, 2, rows ? SZ(n, 1) : SZ(n, 2));
    td(&w->t[2], DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, rows ? SZ(n, C) : SZ(1, n));
    td(&w->t[3], DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SZ(R, C));
    w->s = (DMLREF_SCATTER_ND_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, &w->t[2].desc, &w->t[3].desc, 2, 2};
    w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_SCATTER_ND, &w->s};
    w->n_in = 3;
    w->n_out = 1;
    const tdesc *in[3] = {&w->t[0], &w->t[1], &w->t[2]}, *out[1] = {&w->t[3]};
    alloc_io(w, in, out);
    int64_t *ix = (int64_t *)(uintptr_t)w->in[1].data;
    const uint64_t mask = rows ? 0xFFFF : 0xFFFFFF, a = (rnd() | 1) & mask, b = rnd() & mask;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t f = (a * i + b) & mask;
        if (rows) ix[i] = (int64_t)f;
        else {
            ix[2 * i] = (int64_t)(f / C);
            ix[2 * i + 1] = (int64_t)(f % C);
        }
    }
    /* bytes moved: 2 x output + indices (overwritten input not counted) */
    w->moved = 2.0 * (double)w->out[0].size + (double)w->in[1].size;
}

/* ---- phase-2 workloads (docs/performance.md, "Phase 2") ------------------ */

static const char *const p2_ids[] = {"slice_window", "slice_reverse", "tile_outer", "tile_inner", "pad_constant",
                                     "pad_reflect",  "pad_edge",      "gather_nd_rows", "scatter_elements",
                                     "depth_to_space", "space_to_depth", "identity_transpose", "one_hot"};
#define N_P2 (sizeof p2_ids / sizeof p2_ids[0])

static void io2(work *w, uint32_t n_in, double moved_extra) {
    const tdesc *in[3] = {&w->t[0], &w->t[1], &w->t[2]}, *out[1] = {&w->t[n_in]};
    w->n_in = n_in;
    w->n_out = 1;
    alloc_io(w, in, out);
    /* bytes an ideal implementation reads and writes: the output once, plus what
     * it must read (moved_extra, given per workload) */
    w->moved = (double)w->out[0].size + moved_extra;
}

/* Sets up phase-2 workload k; 0, or -1 when this build lacks the operator. */
static int setup_p2(work *w, size_t k) {
    const DMLREF_TENSOR_DATA_TYPE F32 = DMLREF_TENSOR_DATA_TYPE_FLOAT32, I64 = DMLREF_TENSOR_DATA_TYPE_INT64;
    const double MiB = (double)(1u << 20);
    switch (k) {
    case 0: case 1: { /* SLICE1: a window, or the whole of [4096,4096] read backwards along dim 1 */
        const int rev = k == 1;
        const uint32_t n = rev ? 2 : 4;
        td(&w->t[0], F32, n, rev ? SZ(4096, 4096) : SZ(64, 64, 64, 64));
        td(&w->t[1], F32, n, rev ? SZ(4096, 4096) : SZ(64, 48, 48, 48));
        memcpy(w->arr[0], rev ? SZ(0, 0) : SZ(0, 8, 8, 8), n * 4);
        memcpy(w->arr[1], rev ? SZ(4096, 4096) : SZ(64, 48, 48, 48), n * 4);
        for (uint32_t i = 0; i < n; ++i) w->iarr[i] = rev && i == 1 ? -1 : 1;
        w->p2.slice1 = (DMLREF_SLICE1_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, n, w->arr[0], w->arr[1], w->iarr};
        w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_SLICE1, &w->p2.slice1};
        io2(w, 1, 0);
        w->moved = 2.0 * (double)w->out[0].size;
        break;
    }
    case 2: case 3: { /* TILE */
        const int inner = k == 3;
        td(&w->t[0], F32, 2, inner ? SZ(4096, 1024) : SZ(1024, 4096));
        td(&w->t[1], F32, 2, SZ(4096, 4096));
        memcpy(w->arr[0], inner ? SZ(1, 4) : SZ(4, 1), 8);
        w->p2.tile = (DMLREF_TILE_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, 2, w->arr[0]};
        w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_TILE, &w->p2.tile};
        io2(w, 1, 16 * MiB);
        break;
    }
    case 4: case 5: case 6: { /* PADDING1 */
        const int c = k == 4;
        const uint32_t n = c ? 4 : 2;
        td(&w->t[0], F32, n, c ? SZ(16, 64, 128, 128) : SZ(4096, 4096));
        td(&w->t[1], F32, n, c ? SZ(16, 64, 130, 130) : SZ(4112, 4112));
        memcpy(w->arr[0], c ? SZ(0, 0, 1, 1) : SZ(8, 8), n * 4);
        memcpy(w->arr[1], c ? SZ(0, 0, 1, 1) : SZ(8, 8), n * 4);
        DMLREF_SCALAR_UNION zero;
        memset(&zero, 0, sizeof zero);
        w->p2.pad1 = (DMLREF_PADDING1_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc,
                                                     k == 4 ? DMLREF_PADDING_MODE_CONSTANT
                                                     : k == 5 ? DMLREF_PADDING_MODE_REFLECTION
                                                              : DMLREF_PADDING_MODE_EDGE,
                                                     F32, zero, n, w->arr[0], w->arr[1]};
        w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_PADDING1, &w->p2.pad1};
        io2(w, 1, (double)w->t[0].buf.TotalTensorSizeInBytes);
        break;
    }
    case 7: { /* GATHER_ND1: rows of 256 by (i, j) pairs */
        td(&w->t[0], F32, 3, SZ(256, 256, 256));
        td(&w->t[1], I64, 3, SZ(1, 65536, 2));
        td(&w->t[2], F32, 3, SZ(1, 65536, 256));
        w->p2.gnd1 = (DMLREF_GATHER_ND1_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, &w->t[2].desc, 3, 2, 0};
        w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_GATHER_ND1, &w->p2.gnd1};
        io2(w, 2, 0);
        fill_idx((void *)(uintptr_t)w->in[1].data, 2 * 65536, 1, 256);
        w->moved = 2.0 * (double)w->out[0].size + (double)w->in[1].size;
        break;
    }
    case 8: { /* SCATTER axis 1: 1024 distinct columns per row */
        td(&w->t[0], F32, 2, SZ(4096, 4096));
        td(&w->t[1], I64, 2, SZ(4096, 1024));
        td(&w->t[2], F32, 2, SZ(4096, 1024));
        td(&w->t[3], F32, 2, SZ(4096, 4096));
        w->p2.sc = (DMLREF_SCATTER_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, &w->t[2].desc, &w->t[3].desc, 1};
        w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_SCATTER, &w->p2.sc};
        io2(w, 3, 0);
        int64_t *ix = (int64_t *)(uintptr_t)w->in[1].data;
        for (uint32_t r = 0; r < 4096; ++r) { /* i -> (a i + b) mod 4096, a odd: distinct in a row */
            const uint64_t a = (rnd() | 1) & 4095, b = rnd() & 4095;
            for (uint32_t i = 0; i < 1024; ++i) ix[(size_t)r * 1024 + i] = (int64_t)((a * i + b) & 4095);
        }
        w->moved = 2.0 * (double)w->out[0].size + (double)w->in[1].size + (double)w->in[2].size;
        break;
    }
    case 9: case 10: { /* DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1, DEPTH_COLUMN_ROW, B 2 */
        const int d2s = k == 9;
        td(&w->t[0], F32, 4, d2s ? SZ(16, 256, 64, 64) : SZ(16, 64, 128, 128));
        td(&w->t[1], F32, 4, d2s ? SZ(16, 64, 128, 128) : SZ(16, 256, 64, 64));
        if (d2s) {
            w->p2.d2s = (DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, 2,
                                                               DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
            w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_DEPTH_TO_SPACE1, &w->p2.d2s};
        } else {
            w->p2.s2d = (DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, 2,
                                                               DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
            w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_SPACE_TO_DEPTH1, &w->p2.s2d};
        }
        io2(w, 1, 0);
        w->moved = 2.0 * (double)w->out[0].size;
        break;
    }
    case 11: { /* ELEMENT_WISE_IDENTITY of a transposed view */
        td(&w->t[0], F32, 2, SZ(4096, 4096));
        w->strides[0] = 1;
        w->strides[1] = 4096;
        w->t[0].buf.Strides = w->strides;
        td(&w->t[1], F32, 2, SZ(4096, 4096));
        w->p2.id = (DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, NULL};
        w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, &w->p2.id};
        io2(w, 1, 0);
        w->moved = 2.0 * (double)w->out[0].size;
        break;
    }
    default: { /* ONE_HOT axis 1, depth 16, values {0, 1} */
        td(&w->t[0], DMLREF_TENSOR_DATA_TYPE_INT32, 2, SZ(1048576, 1));
        td(&w->t[1], F32, 2, SZ(1, 2));
        td(&w->t[2], F32, 2, SZ(1048576, 16));
        w->p2.oh = (DMLREF_ONE_HOT_OPERATOR_DESC){&w->t[0].desc, &w->t[1].desc, &w->t[2].desc, 1};
        w->desc = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_ONE_HOT, &w->p2.oh};
        io2(w, 2, 0);
        fill_idx((void *)(uintptr_t)w->in[0].data, 1048576, 0, 16);
        const float v[2] = {0.0f, 1.0f};
        memcpy((void *)(uintptr_t)w->in[1].data, v, sizeof v);
        w->moved = (double)w->out[0].size + (double)w->in[0].size;
        break;
    }
    }
    return dmlref_operator_schema(w->desc.Type) ? 0 : -1;
}

static void work_free(work *w) {
    for (uint32_t i = 0; i < w->n_in; ++i) free((void *)(uintptr_t)w->in[i].data);
    for (uint32_t k = 0; k < w->n_out; ++k) free(w->out[k].data);
}

/* Median ms of `repeat` executions of the compiled op. */
static double time_op(work *w, uint32_t threads, uint32_t flags, const char **kernel) {
    dmlref_operator *op = NULL;
    dmlref_error err;
    const dmlref_options o = {flags, threads};
    if (dmlref_compile(&w->desc, FL, &o, &op, &err) != DMLREF_OK) {
        fprintf(stderr, "%s: compile failed: %s\n", w->id, err.message);
        exit(1);
    }
    if (kernel) *kernel = dmlref_kernel_name(op);
    double t[256];
    const int n = repeat < 256 ? repeat : 256;
    for (int i = -1; i < n; ++i) {
        const double t0 = now_ms();
        if (dmlref_execute(op, w->in, w->n_in, w->out, w->n_out, &err) != DMLREF_OK) {
            fprintf(stderr, "%s: execute failed: %s\n", w->id, err.message);
            exit(1);
        }
        if (i >= 0) t[i] = now_ms() - t0;
    }
    dmlref_release(op);
    return median(t, n);
}

/* ---- memcpy reference ---------------------------------------------------- */

/* The 64 MiB source and destination, filled and touched once (mc_init) and reused by every
 * measurement. */
static unsigned char *mc_src, *mc_dst;

static void mc_init(void) {
    mc_src = filled((size_t)64 << 20);
    mc_dst = xmalloc((size_t)64 << 20);
    memset(mc_dst, 1, (size_t)64 << 20);
}

static double time_memcpy(int all_threads, int min_reps) {
    const size_t n = (size_t)64 << 20;
    unsigned char *src = mc_src, *dst = mc_dst;
    double t[256];
    const int reps = repeat < min_reps ? min_reps : repeat > 256 ? 256 : repeat;
    for (int i = -1; i < reps; ++i) {
        const double t0 = now_ms();
#ifdef _OPENMP
        if (all_threads) {
#pragma omp parallel
            {
                const size_t nt = (size_t)omp_get_num_threads(), id = (size_t)omp_get_thread_num();
                const size_t lo = n * id / nt, hi = n * (id + 1) / nt;
                memcpy(dst + lo, src + lo, hi - lo);
            }
        } else
#endif
            memcpy(dst, src, n);
        if (i >= 0) t[i] = now_ms() - t0;
    }
    (void)all_threads;
    return median(t, reps);
}

#define MEMCPY_MOVED (2.0 * (double)((size_t)64 << 20))

/* The memcpy limit now, in GB/s: the better of 1 thread and all threads, each
 * the median of at least 11 runs, measured just before a workload. */
static double memcpy_limit_now(void) {
    const double a = time_memcpy(0, 11), b = time_memcpy(1, 11);
    return MEMCPY_MOVED / (a < b ? a : b) * 1e-6;
}

/* Times w with 1 thread and with all, each line against the memcpy limit
 * measured just before it. */
static void time_lines(work *w, int all, int oracle) {
    const uint32_t thr[2] = {1, 0};
    for (int k = 0; k < 2; ++k) {
        const double limit = memcpy_limit_now();
        const char *kernel = NULL;
        const double ms = time_op(w, thr[k], oracle ? DMLREF_OPTION_FORCE_ORACLE : 0, &kernel);
        const double gbs = w->moved / ms * 1e-6;
        printf("%-24s %3d %9.3f %8.1f %8.1f %6.2f  %s\n", w->id, k ? all : 1, ms, gbs, limit, gbs / limit, kernel);
        fflush(stdout);
    }
}

static const char usage[] =
    "usage: bench [--repeat N] [--oracle] [--no-hugepages] [FILTER]\n"
    "\n"
    "Times the workloads of docs/performance.md (and a 64 MiB memcpy), each with 1 thread\n"
    "and with all threads: median ms over N timed runs, GB/s, the memcpy limit measured\n"
    "just before the line (GB/s), the ratio to it, kernel.\n"
    "\n"
    "  --repeat N       timed runs per line (default 11, 1 to 100000)\n"
    "  --oracle         force the scalar oracle (DMLREF_OPTION_FORCE_ORACLE)\n"
    "  --no-hugepages   do not advise transparent huge pages for large buffers\n"
    "  FILTER           run only the workloads whose name contains FILTER\n"
    "  --help, -h       print this and exit\n"
    "\n"
    "exit status: 0 ok, 2 out of memory, 4 bad command line\n";

#define EXIT_USAGE 4

static int usage_error(const char *what, const char *arg) {
    fprintf(stderr, "bench: %s '%s'\n\n%s", what, arg, usage);
    return EXIT_USAGE;
}

int main(int argc, char **argv) {
    const char *filter = NULL;
    int oracle = 0;
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
        } else if (!strcmp(a, "--oracle")) {
            oracle = 1;
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
    int all = 1;
#ifdef _OPENMP
    all = omp_get_max_threads();
#endif
    mc_init();
    const double mc1 = time_memcpy(0, 30), mcn = time_memcpy(1, 30);
    const double best_gbs = MEMCPY_MOVED / (mc1 < mcn ? mc1 : mcn) * 1e-6;
    printf("# %d timed runs per line (median), buffers of 2 MiB or more %s\n", repeat,
           hugepages ? "advised to use transparent huge pages" : "on default pages");
    printf("%-24s %3s %9s %8s %8s %6s  %s\n", "workload", "thr", "median ms", "GB/s", "memcpy", "ratio", "kernel");
    printf("%-24s %3d %9.3f %8.1f %8.1f %6.2f  %s\n", "memcpy_64MiB", 1, mc1, MEMCPY_MOVED / mc1 * 1e-6, best_gbs,
           MEMCPY_MOVED / mc1 * 1e-6 / best_gbs, "memcpy");
    printf("%-24s %3d %9.3f %8.1f %8.1f %6.2f  %s\n", "memcpy_64MiB", all, mcn, MEMCPY_MOVED / mcn * 1e-6, best_gbs,
           MEMCPY_MOVED / mcn * 1e-6 / best_gbs, "memcpy, one part per thread");

    static const char *const ids[] = {"join_outer", "join_inner", "split_outer", "split_inner", "gather_rows",
                                      "gather_rows_f16", "gather_cols", "gather_elements_last",
                                      "gather_elements_first", "scatter_nd_rows", "scatter_nd_elems",
                                      "join_outer_i64"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; ++i) {
        if (filter && !strstr(ids[i], filter)) continue;
        work *w = calloc(1, sizeof *w);
        if (!w) return 2;
        w->id = ids[i];
        const DMLREF_TENSOR_DATA_TYPE F32 = DMLREF_TENSOR_DATA_TYPE_FLOAT32;
        switch (i) {
        case 0: setup_concat(w, 0, F32, SZ(8, 1024, 2048), SZ(8, 256, 2048), 1); break;
        case 1: setup_concat(w, 0, F32, SZ(1024, 1024, 16), SZ(1024, 1024, 4), 2); break;
        case 2: setup_concat(w, 1, F32, SZ(8, 1024, 2048), SZ(8, 256, 2048), 1); break;
        case 3: setup_concat(w, 1, F32, SZ(1024, 1024, 16), SZ(1024, 1024, 4), 2); break;
        case 4: setup_gather(w, F32, 65536, 256, 0, DMLREF_TENSOR_DATA_TYPE_INT32, 65536); break;
        case 5: setup_gather(w, DMLREF_TENSOR_DATA_TYPE_FLOAT16, 65536, 512, 0, DMLREF_TENSOR_DATA_TYPE_INT32, 65536); break;
        case 6: setup_gather(w, F32, 4096, 4096, 1, DMLREF_TENSOR_DATA_TYPE_INT64, 4096); break;
        case 7: setup_gather_elements(w, 1); break;
        case 8: setup_gather_elements(w, 0); break;
        case 9: setup_scatter(w, 1); break;
        case 10: setup_scatter(w, 0); break;
        default: setup_concat(w, 0, DMLREF_TENSOR_DATA_TYPE_INT64, SZ(8, 1024, 1024), SZ(8, 256, 1024), 1); break;
        }
        time_lines(w, all, oracle);
        work_free(w);
        free(w);
    }

    for (size_t i = 0; i < N_P2; ++i) {
        if (filter && !strstr(p2_ids[i], filter)) continue;
        work *w = calloc(1, sizeof *w);
        if (!w) return 2;
        w->id = p2_ids[i];
        if (setup_p2(w, i) != 0) {
            printf("%-24s %3s %9s %8s %8s %6s  %s\n", w->id, "-", "-", "-", "-", "-", "not in this build");
        } else {
            time_lines(w, all, oracle);
        }
        work_free(w);
        free(w);
    }

    /* small op: GATHER of 16 rows of 64 bytes from a 256-row table */
    if (!filter || strstr("small_gather", filter)) {
        work *w = calloc(1, sizeof *w);
        if (!w) return 2;
        w->id = "small_gather";
        setup_gather(w, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 256, 16, 0, DMLREF_TENSOR_DATA_TYPE_INT32, 16);
        const int saved = repeat;
        double f[5], o[5];
        const char *kernel = NULL;
        repeat = 2001; /* the op takes well under a microsecond: median of many */
        for (int r = 0; r < 5; ++r) {
            f[r] = time_op(w, 0, 0, &kernel);
            o[r] = time_op(w, 0, DMLREF_OPTION_FORCE_ORACLE, NULL);
        }
        repeat = saved;
        const double fm = median(f, 5), om = median(o, 5);
        printf("%-24s %3d %9.5f %8s %8s %6s  %s (oracle %.5f ms, fast/oracle %.2f)\n", "small_gather_16x64B", all, fm, "-",
               "-", "-", kernel, om, fm / om);
        work_free(w);
        free(w);
    }
    return 0;
}
