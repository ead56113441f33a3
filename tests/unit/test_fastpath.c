/*
 * Differential test of the fast paths against the oracle.
 *
 * Thousands of seeded random cases over every operator: element sizes
 * 1/2/4/8, 1-8 dims, packed / gapped / permuted / zero-stride (inputs) layouts,
 * strided outputs, negative and out-of-range indices of the four index types,
 * duplicate scatter targets, 1-4 threads, and a share of cases large enough
 * (or run with a tiny DMLREF_PAR_GRAIN, DMLREF_SLAB_MIN and DMLREF_STREAM_MIN)
 * to split the work over threads and take the large-tensor kernels.  Each
 * case runs through the default (fast) path and through
 * DMLREF_OPTION_FORCE_ORACLE into two outputs pre-filled with the same
 * sentinel, which must then be equal byte for byte, stride gaps included.
 *
 * A failing case prints what it drew, and the runner one repro line that
 * re-runs it alone, verbosely:
 *   repro: build/test_unit --only fastpath_random_vs_oracle --seed S --case I
 * DMLREF_FASTPATH_CASES=n changes the number of cases.
 */
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define FL ((DMLREF_FEATURE_LEVEL)0x6400)
#define MAX_PIECES 5

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rnext(rng *r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rint_(rng *r, uint32_t lo, uint32_t hi) { /* [lo, hi] */
    return lo + (uint32_t)(rnext(r) % ((uint64_t)hi - lo + 1));
}

static int chance(rng *r, int percent) { return (int)(rnext(r) % 100) < percent; }

static uint64_t prod(const uint32_t *s, uint32_t n) {
    uint64_t p = 1;
    for (uint32_t d = 0; d < n; ++d) p *= s[d];
    return p;
}

/* Random sizes with at most cap elements; `big` cases put most in a few dims. */
static void rand_sizes(rng *r, uint32_t n, uint32_t *s, uint64_t cap, int big) {
    for (uint32_t d = 0; d < n; ++d) {
        const int k = (int)rint_(r, 0, 99);
        s[d] = k < 25 ? 1 : k < 65 ? rint_(r, 2, 4) : rint_(r, 5, 17);
    }
    if (big) {
        s[n - 1] = rint_(r, 1, 2) == 1 ? rint_(r, 3, 600) : rint_(r, 1, 4) * 16;
        if (n > 1) s[rint_(r, 0, n - 2)] = rint_(r, 16, 700);
    }
    while (prod(s, n) > cap) {
        uint32_t m = 0;
        for (uint32_t d = 1; d < n; ++d)
            if (s[d] > s[m]) m = d;
        s[m] = (s[m] + 1) / 2;
    }
}

/* Strides (elements) for sizes; 0 = packed (NULL). */
static int rand_strides(rng *r, uint32_t n, const uint32_t *s, uint32_t *st, int is_output) {
    const int mode = (int)rint_(r, 0, 9);
    if (mode < 4) return 0;
    uint32_t order[8];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode >= 7) /* permuted layout */
        for (uint32_t d = n; d > 1; --d) {
            const uint32_t j = rint_(r, 0, d - 1), t = order[d - 1];
            order[d - 1] = order[j];
            order[j] = t;
        }
    uint64_t next = chance(r, 20) ? 2 : 1;
    for (uint32_t i = n; i-- > 0;) { /* order[n-1] innermost */
        const uint32_t d = order[i];
        st[d] = (uint32_t)next;
        next = next * s[d] + (chance(r, 40) ? rint_(r, 1, 3) : 0);
    }
    if (!is_output && mode == 6)
        for (uint32_t d = 0; d < n; ++d)
            if (chance(r, 30)) st[d] = 0; /* broadcast */
    return 1;
}

static void mk(rng *r, tdesc *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes, int is_output) {
    uint32_t st[8];
    const int strided = rand_strides(r, n, sizes, st, is_output);
    tdesc_init(t, dt, n, sizes, strided ? st : NULL);
    if (chance(r, 10)) t->buf.TotalTensorSizeInBytes += rint_(r, 1, 3) * 4; /* a tail nobody addresses */
}

static uint32_t esize_of(DMLREF_TENSOR_DATA_TYPE dt) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_UINT8: case DMLREF_TENSOR_DATA_TYPE_INT8: return 1;
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: case DMLREF_TENSOR_DATA_TYPE_UINT16: case DMLREF_TENSOR_DATA_TYPE_INT16: return 2;
    case DMLREF_TENSOR_DATA_TYPE_FLOAT64: case DMLREF_TENSOR_DATA_TYPE_UINT64: case DMLREF_TENSOR_DATA_TYPE_INT64: return 8;
    default: return 4;
    }
}

static void *fill_random(rng *r, size_t n) {
    unsigned char *p = malloc(n ? n : 1);
    if (!p) abort();
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint64_t v = rnext(r);
        memcpy(p + i, &v, 8);
    }
    for (; i < n; ++i) p[i] = (unsigned char)rnext(r);
    return p;
}

/* A random index value for axis size A: mostly in range, sometimes negative or out of range. */
static int64_t rand_index(rng *r, uint32_t A, int is_signed) {
    const int k = (int)rint_(r, 0, 99);
    if (k < 75) return (int64_t)rint_(r, 0, A - 1);
    if (k < 88 && is_signed) return -(int64_t)rint_(r, 1, A);
    static const int64_t odd[] = {0, 1, 2, -1, 1000000, -1000000, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    const int64_t o = odd[rint_(r, 0, 9)];
    if (k < 94) return (int64_t)A + (int64_t)rint_(r, 0, 2) * (is_signed && chance(r, 50) ? -1 : 1) * (chance(r, 50) ? 1 : -1);
    return o;
}

/* Writes index values into every element position of t (value chosen by comp(c)). */
static void fill_indices(rng *r, const tdesc *t, unsigned char *p, const uint32_t *bounds, int per_last_dim) {
    const DMLREF_TENSOR_DATA_TYPE dt = t->buf.DataType;
    const uint32_t n = t->buf.DimensionCount, es = esize_of(dt);
    const int sgn = dt == DMLREF_TENSOR_DATA_TYPE_INT32 || dt == DMLREF_TENSOR_DATA_TYPE_INT64;
    uint32_t c[8] = {0}, st[8];
    uint64_t acc = 1;
    for (uint32_t d = n; d-- > 0;) {
        st[d] = t->buf.Strides ? t->strides[d] : (uint32_t)acc;
        acc *= t->sizes[d];
    }
    for (uint64_t e = 0; e < acc; ++e) {
        uint64_t off = 0;
        for (uint32_t d = 0; d < n; ++d) off += (uint64_t)c[d] * st[d];
        const uint32_t A = bounds[per_last_dim ? c[n - 1] : 0];
        int64_t v = rand_index(r, A, sgn);
        if (!sgn && v < 0) v = (int64_t)rint_(r, 0, A + 1);
        if (es == 4) {
            const uint32_t w = (uint32_t)(uint64_t)v;
            memcpy(p + off * 4, &w, 4);
        } else {
            memcpy(p + off * 8, &v, 8);
        }
        for (uint32_t d = n; d-- > 0;) {
            if (++c[d] < t->sizes[d]) break;
            c[d] = 0;
        }
    }
}

typedef struct fcase {
    DMLREF_OPERATOR_TYPE type;
    DMLREF_GATHER_OPERATOR_DESC g;
    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC ge;
    DMLREF_SCATTER_ND_OPERATOR_DESC s;
    DMLREF_SPLIT_OPERATOR_DESC sp;
    DMLREF_JOIN_OPERATOR_DESC j;
    tdesc in[MAX_PIECES], out[MAX_PIECES];
    DMLREF_TENSOR_DESC in_descs[MAX_PIECES], out_descs[MAX_PIECES];
    uint32_t n_in, n_out;
    dmlref_cbuffer inb[MAX_PIECES];
    char what[200];
} fcase;

static const DMLREF_TENSOR_DATA_TYPE data_types[] = {
    DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_INT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
    DMLREF_TENSOR_DATA_TYPE_INT16, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_UINT32,
    DMLREF_TENSOR_DATA_TYPE_FLOAT64, DMLREF_TENSOR_DATA_TYPE_INT64};
static const DMLREF_TENSOR_DATA_TYPE index_types[] = {DMLREF_TENSOR_DATA_TYPE_INT32, DMLREF_TENSOR_DATA_TYPE_UINT32,
                                                      DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_UINT64};

static void sizes_text(char *buf, size_t cap, const uint32_t *s, uint32_t n) {
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t d = 0; d < n && len < cap; ++d) len += (size_t)snprintf(buf + len, cap - len, "%s%u", d ? "x" : "", s[d]);
}

/* Builds a random case; returns 0 when the generator made nothing. */
static int make_case(rng *r, fcase *fc, int big) {
    memset(fc, 0, sizeof *fc);
    const int op = (int)rint_(r, 0, 4);
    const DMLREF_TENSOR_DATA_TYPE dt = data_types[rint_(r, 0, 7)];
    const DMLREF_TENSOR_DATA_TYPE it = index_types[rint_(r, 0, 3)];
    const uint32_t n = rint_(r, 1, 8);
    const uint64_t cap = big ? 60000 : 1500;
    uint32_t s[8], t[8], u[8];
    char a[64], b[64];
    rand_sizes(r, n, s, cap, big);
    switch (op) {
    case 0: { /* GATHER */
        const uint32_t ax = rint_(r, 0, n - 1), k = rint_(r, 0, ax + 1 < n ? ax + 1 : n);
        for (uint32_t d = 0; d + 1 < k; ++d) s[d] = 1;
        for (uint32_t d = 0; d < n; ++d) t[d] = 1;
        for (uint32_t d = n - k; d < n; ++d) t[d] = rint_(r, 1, chance(r, 50) ? 4 : 40);
        if (big && k) t[n - 1] = rint_(r, 50, 400);
        while (prod(s, n) / s[ax] * prod(t, n) > cap) { /* halve the largest output dim */
            uint32_t *best = NULL;
            for (uint32_t d = 0; d < n; ++d) {
                if (d != ax && (!best || s[d] > *best)) best = &s[d];
                if (!best || t[d] > *best) best = &t[d];
            }
            *best = (*best + 1) / 2;
        }
        for (uint32_t d = 0; d < n; ++d) u[d] = 1;
        for (uint32_t d = ax + 1; d < n; ++d) u[d] = s[d];
        for (uint32_t q = 0; q < k; ++q) u[ax + 1 - k + q] = t[n - k + q];
        for (uint32_t q = 0; q < ax; ++q) {
            const int64_t od = (int64_t)ax - (int64_t)k - (int64_t)q;
            if (od >= 0) u[od] = s[ax - 1 - q];
        }
        mk(r, &fc->in[0], dt, n, s, 0);
        mk(r, &fc->in[1], it, n, t, 0);
        mk(r, &fc->out[0], dt, n, u, 1);
        fc->g = (DMLREF_GATHER_OPERATOR_DESC){&fc->in[0].desc, &fc->in[1].desc, &fc->out[0].desc, ax, k};
        fc->type = DMLREF_OPERATOR_GATHER;
        fc->n_in = 2;
        fc->n_out = 1;
        sizes_text(a, sizeof a, s, n);
        sizes_text(b, sizeof b, t, n);
        snprintf(fc->what, sizeof fc->what, "GATHER in %s idx %s axis %u k %u", a, b, ax, k);
        break;
    }
    case 1: { /* GATHER_ELEMENTS */
        /* now and then indices broadcast (stride 0) over the dims after Axis (whole rows
         * gathered: rows, rows_stream) or over every dim but the innermost Axis (the same
         * indices for every row: axis_last_stream), which random strides hardly draw */
        const int bcast = chance(r, 15) ? (int)rint_(r, 1, 2) : 0;
        const uint32_t ax = bcast == 2 ? n - 1 : rint_(r, 0, n - 1);
        memcpy(t, s, sizeof t);
        t[ax] = rint_(r, 1, s[ax] * 2 + 2);
        while (prod(t, n) > cap) t[ax] = (t[ax] + 1) / 2;
        mk(r, &fc->in[0], dt, n, s, 0);
        mk(r, &fc->in[1], it, n, t, 0);
        if (bcast) {
            uint32_t st[8];
            uint64_t acc = 1;
            for (uint32_t d = n; d-- > 0;) {
                const int zero = bcast == 1 ? d > ax : d != ax;
                st[d] = zero ? 0 : (uint32_t)acc;
                if (!zero) acc *= t[d];
            }
            tdesc_init(&fc->in[1], it, n, t, st);
        }
        mk(r, &fc->out[0], dt, n, t, 1);
        fc->ge = (DMLREF_GATHER_ELEMENTS_OPERATOR_DESC){&fc->in[0].desc, &fc->in[1].desc, &fc->out[0].desc, ax};
        fc->type = DMLREF_OPERATOR_GATHER_ELEMENTS;
        fc->n_in = 2;
        fc->n_out = 1;
        sizes_text(a, sizeof a, s, n);
        sizes_text(b, sizeof b, t, n);
        snprintf(fc->what, sizeof fc->what, "GATHER_ELEMENTS in %s idx %s axis %u%s", a, b, ax,
                 bcast == 1 ? " (indices broadcast after Axis)" : bcast == 2 ? " (indices broadcast but Axis)" : "");
        break;
    }
    case 2: { /* SCATTER_ND */
        const uint32_t rr = rint_(r, 1, n), q = rint_(r, 1, n), tt = rint_(r, 1, rr);
        const uint32_t m = (q - 1) + (rr - tt);
        if (m > n) return 0;
        for (uint32_t d = 0; d < n - rr; ++d) s[d] = 1;
        for (uint32_t d = 0; d < n; ++d) t[d] = 1;
        for (uint32_t d = n - q; d + 1 < n; ++d) t[d] = rint_(r, 1, big ? 60 : 6);
        t[n - 1] = tt;
        for (uint32_t d = 0; d < n; ++d) u[d] = 1;
        for (uint32_t q2 = 0; q2 + 1 < q; ++q2) u[n - m + q2] = t[n - q + q2];
        for (uint32_t e = 0; e < rr - tt; ++e) u[n - m + q - 1 + e] = s[n - rr + tt + e];
        if (prod(u, n) > cap * 2 || prod(t, n) > cap * 2) return 0;
        mk(r, &fc->in[0], dt, n, s, 0);
        mk(r, &fc->in[1], it, n, t, 0);
        mk(r, &fc->in[2], dt, n, u, 0);
        mk(r, &fc->out[0], dt, n, s, 1);
        fc->s = (DMLREF_SCATTER_ND_OPERATOR_DESC){&fc->in[0].desc, &fc->in[1].desc, &fc->in[2].desc,
                                                  &fc->out[0].desc, rr, q};
        fc->type = DMLREF_OPERATOR_SCATTER_ND;
        fc->n_in = 3;
        fc->n_out = 1;
        sizes_text(a, sizeof a, s, n);
        sizes_text(b, sizeof b, t, n);
        snprintf(fc->what, sizeof fc->what, "SCATTER_ND in %s idx %s R %u Q %u", a, b, rr, q);
        break;
    }
    default: { /* SPLIT / JOIN */
        const int split = op == 3;
        const uint32_t ax = rint_(r, 0, n - 1);
        const uint32_t cnt = rint_(r, 1, s[ax] < MAX_PIECES ? s[ax] : MAX_PIECES);
        uint32_t left = s[ax];
        tdesc *pieces = split ? fc->out : fc->in;
        DMLREF_TENSOR_DESC *pd = split ? fc->out_descs : fc->in_descs;
        for (uint32_t k = 0; k < cnt; ++k) {
            memcpy(t, s, sizeof t);
            t[ax] = k + 1 == cnt ? left : rint_(r, 1, left - (cnt - 1 - k));
            left -= t[ax];
            mk(r, &pieces[k], dt, n, t, split);
            pd[k] = pieces[k].desc;
        }
        mk(r, split ? &fc->in[0] : &fc->out[0], dt, n, s, !split);
        sizes_text(a, sizeof a, s, n);
        if (split) {
            fc->sp = (DMLREF_SPLIT_OPERATOR_DESC){&fc->in[0].desc, cnt, fc->out_descs, ax};
            fc->type = DMLREF_OPERATOR_SPLIT;
            fc->n_in = 1;
            fc->n_out = cnt;
        } else {
            fc->j = (DMLREF_JOIN_OPERATOR_DESC){cnt, fc->in_descs, &fc->out[0].desc, ax};
            fc->type = DMLREF_OPERATOR_JOIN;
            fc->n_in = cnt;
            fc->n_out = 1;
        }
        snprintf(fc->what, sizeof fc->what, "%s whole %s axis %u pieces %u", split ? "SPLIT" : "JOIN", a, ax, cnt);
        break;
    }
    }
    return 1;
}

static const void *case_desc(const fcase *fc) {
    switch (fc->type) {
    case DMLREF_OPERATOR_GATHER: return &fc->g;
    case DMLREF_OPERATOR_GATHER_ELEMENTS: return &fc->ge;
    case DMLREF_OPERATOR_SCATTER_ND: return &fc->s;
    case DMLREF_OPERATOR_SPLIT: return &fc->sp;
    default: return &fc->j;
    }
}

/* Kernel names seen (to prove the generator reaches the fast paths). */
static kernels_seen seen;
static void note_kernel(const char *k) { kernels_note(&seen, k); }

/* One case: 1 = equal, 0 = mismatch or error, -1 = skipped (oracle rejects). */
static int run_case(uint64_t seed, uint64_t idx, int verbose) {
    rng r = {seed ^ (idx * 0x9E3779B97F4A7C15ull)};
    fcase fc;
    const int big = chance(&r, 4);
    const uint32_t threads = rint_(&r, 0, 4);
    const int tiny_grain = chance(&r, 50);
    if (!make_case(&r, &fc, big)) return -1;
    const DMLREF_OPERATOR_DESC desc = {fc.type, case_desc(&fc)};

    dmlref_error err;
    dmlref_operator *oracle = NULL, *fast = NULL;
    const dmlref_options oo = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1}, fo = {.flags = 0, .threads = threads};
    if (dmlref_compile(&desc, FL, &oo, &oracle, &err) != DMLREF_OK) {
        if (verbose) fprintf(stderr, "  skipped (%s): %s\n", fc.what, err.message);
        return -1;
    }
    if (tiny_grain) { /* small tensors take the paths of large ones: thread parts, slabs */
        setenv("DMLREF_PAR_GRAIN", "64", 1);
        setenv("DMLREF_SLAB_MIN", "0", 1);
        setenv("DMLREF_STREAM_MIN", "0", 1);
        env_reload(); /* the library reads the variables once: read them again */
    }
    const dmlref_status cst = dmlref_compile(&desc, FL, &fo, &fast, &err);
    if (tiny_grain) {
        unsetenv("DMLREF_PAR_GRAIN");
        unsetenv("DMLREF_SLAB_MIN");
        unsetenv("DMLREF_STREAM_MIN");
        env_reload(); /* the library reads the variables once: read them again */
    }
    int ok = 1;
    if (cst != DMLREF_OK) {
        fprintf(stderr, "  fast compile failed: %s\n", err.message);
        dmlref_release(oracle);
        return 0;
    }
    note_kernel(dmlref_kernel_name(fast));

    dmlref_cbuffer inb[MAX_PIECES];
    dmlref_buffer ob[2][MAX_PIECES];
    for (uint32_t i = 0; i < fc.n_in; ++i) {
        const size_t bytes = (size_t)fc.in[i].buf.TotalTensorSizeInBytes;
        unsigned char *p = fill_random(&r, bytes);
        const int is_index = i == 1 && (fc.type == DMLREF_OPERATOR_GATHER || fc.type == DMLREF_OPERATOR_GATHER_ELEMENTS ||
                                         fc.type == DMLREF_OPERATOR_SCATTER_ND);
        if (is_index) {
            uint32_t bounds[8];
            const tdesc *x = &fc.in[0];
            if (fc.type == DMLREF_OPERATOR_SCATTER_ND) {
                const uint32_t n = x->buf.DimensionCount, rr = fc.s.InputDimensionCount;
                for (uint32_t c = 0; c < fc.in[1].sizes[n - 1]; ++c) bounds[c] = x->sizes[n - rr + c];
            } else {
                bounds[0] = x->sizes[fc.type == DMLREF_OPERATOR_GATHER ? fc.g.Axis : fc.ge.Axis];
            }
            fill_indices(&r, &fc.in[1], p, bounds, fc.type == DMLREF_OPERATOR_SCATTER_ND);
        }
        inb[i].data = p;
        inb[i].size = bytes;
    }
    for (uint32_t k = 0; k < fc.n_out; ++k) {
        const size_t bytes = (size_t)fc.out[k].buf.TotalTensorSizeInBytes;
        for (int v = 0; v < 2; ++v) {
            unsigned char *p = malloc(bytes ? bytes : 1);
            if (!p) abort();
            memset(p, 0xA5, bytes);
            for (size_t i = 0; i < bytes; i += 61) p[i] = (unsigned char)i;
            ob[v][k].data = p;
            ob[v][k].size = bytes;
        }
    }
    if (dmlref_execute(oracle, inb, fc.n_in, ob[0], fc.n_out, &err) != DMLREF_OK ||
        dmlref_execute(fast, inb, fc.n_in, ob[1], fc.n_out, &err) != DMLREF_OK) {
        fprintf(stderr, "  execute failed: %s\n", err.message);
        ok = 0;
    }
    for (uint32_t k = 0; ok && k < fc.n_out; ++k)
        if (memcmp(ob[0][k].data, ob[1][k].data, ob[0][k].size) != 0) {
            size_t at = 0;
            while (((unsigned char *)ob[0][k].data)[at] == ((unsigned char *)ob[1][k].data)[at]) ++at;
            fprintf(stderr, "  output %u differs at byte %zu of %zu\n", k, at, ob[0][k].size);
            ok = 0;
        }
    if (!ok || verbose)
        fprintf(stderr, "  %s case %llu: %s, dtype size %u, threads %u%s, kernel %s\n", ok ? "ok" : "FAILED",
                (unsigned long long)idx, fc.what, esize_of(fc.in[0].buf.DataType), threads,
                tiny_grain ? " (grain 64, slabs on)" : "", dmlref_kernel_name(fast));
    for (uint32_t i = 0; i < fc.n_in; ++i) free((void *)(uintptr_t)inb[i].data);
    for (uint32_t k = 0; k < fc.n_out; ++k) {
        free(ob[0][k].data);
        free(ob[1][k].data);
    }
    dmlref_release(oracle);
    dmlref_release(fast);
    return ok;
}

static uint64_t env_u64(const char *name, uint64_t dflt) {
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 10) : dflt;
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("join.")
KERNELS_CHECKED("split.")
KERNELS_CHECKED("gather.")
KERNELS_CHECKED("gather_elements.")
KERNELS_CHECKED("scatter_nd.")

TEST(fastpath_random_vs_oracle) {
    const uint64_t seed = test_seed(20261122);
    const uint64_t cases = env_u64("DMLREF_FASTPATH_CASES", 3000);
    uint64_t run = 0, failed = 0;
    for (uint64_t i = 0; i < cases && failed < 5; ++i) {
        if (!test_case(i)) continue; /* --case: that one alone, verbosely */
        const int rc = run_case(seed, i, test_case_alone());
        if (rc >= 0) ++run;
        if (rc == 0) {
            ++failed;
            test_fail(__FILE__, __LINE__, "case %llu differs from the oracle", (unsigned long long)i);
        }
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    if (failed) test_fail(__FILE__, __LINE__, "%llu of %llu cases differ (seed %llu)", (unsigned long long)failed,
                          (unsigned long long)run, (unsigned long long)seed);
    CHECK(run >= cases * 8 / 10);
    /* the generator reaches every kernel of src/ops/kernels.def of these operators, but: */
    /* join.chunked, split.chunked: blocks above 256 KiB (kernels_concat_chunked_names) */
    static const char *const join[] = {"join.chunked", NULL}, *const split[] = {"split.chunked", NULL};
    static const char *const gather[] = {NULL};
    static const char *const gather_elements[] = {NULL};
#if DMLREF_SIMD
    static const char *const scatter_nd[] = {NULL};
#else /* rows_skip is taken only with streaming stores (plan_stream), 0 without SIMD */
    static const char *const scatter_nd[] = {"scatter_nd.rows_skip", NULL};
#endif
    CHECK_KERNELS_REACHED(&seen, "join.", join);
    CHECK_KERNELS_REACHED(&seen, "split.", split);
    CHECK_KERNELS_REACHED(&seen, "gather.", gather);
    CHECK_KERNELS_REACHED(&seen, "gather_elements.", gather_elements);
    CHECK_KERNELS_REACHED(&seen, "scatter_nd.", scatter_nd);
    if (getenv("DMLREF_FASTPATH_VERBOSE"))
        for (int i = 0; i < seen.n; ++i) fprintf(stderr, "  kernel seen: %s\n", seen.names[i]);
}

KERNELS_CHECKED("gather_elements.rows_stream")
KERNELS_CHECKED("gather_elements.axis_last_stream.")

/* GATHER_ELEMENTS' streaming kernels on purpose (the random cases reach them through their
 * broadcast indices, above), each against the oracle byte for byte, 1 and 2 threads, with
 * streaming stores at any size (DMLREF_STREAM_MIN 0):
 *   rows_stream          Axis 0 of Input [50, 40], Indices [30, 40] strides {1, 0}: each
 *                        output row a whole input row, 40 elements (64 B and more)
 *   axis_last_stream.xW  Axis 1 of Input [9, 70], Indices [9, 45] strides {0, 1}: the same
 *                        45 indices for every row, a packed output of 4- or 8-byte elements */
TEST(fastpath_gather_elements_streams) {
    static const DMLREF_TENSOR_DATA_TYPE dts[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
                                                   DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    rng r = {20261123};
    kernels_seen ks = {{0}, 0};
    for (int c = 0; c < 6; ++c) {
        const int rows = c < 4; /* rows_stream at every width (64 B rows from 2-byte elements up), then axis_last */
        const DMLREF_TENSOR_DATA_TYPE dt = dts[rows ? c : c - 2];
        const uint32_t ax = rows ? 0 : 1, in_sizes[2] = {rows ? 50u : 9u, rows ? 40u : 70u};
        const uint32_t ix_sizes[2] = {rows ? 30u : 9u, rows ? 40u : 45u};
        tdesc in, ix, out;
        tdesc_init(&in, dt, 2, in_sizes, NULL);
        tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT32, 2, ix_sizes, rows ? SIZES(1, 0) : SIZES(0, 1));
        tdesc_init(&out, dt, 2, ix_sizes, NULL);
        const DMLREF_GATHER_ELEMENTS_OPERATOR_DESC ge = {&in.desc, &ix.desc, &out.desc, ax};
        const DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER_ELEMENTS, &ge};
        const size_t ib = (size_t)in.buf.TotalTensorSizeInBytes, xb = (size_t)ix.buf.TotalTensorSizeInBytes;
        const size_t ob = (size_t)out.buf.TotalTensorSizeInBytes;
        unsigned char *inb = fill_random(&r, ib), *ixb = fill_random(&r, xb), *ref = malloc(ob), *got = malloc(ob);
        if (!ref || !got) abort();
        const uint32_t bound = in_sizes[ax];
        fill_indices(&r, &ix, ixb, &bound, 0);
        dmlref_error err;
        const dmlref_cbuffer ins[2] = {{inb, ib}, {ixb, xb}};
        dmlref_buffer rb[1] = {{ref, ob}}, gb[1] = {{got, ob}};
        const dmlref_options oo = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
        memset(ref, 0xA5, ob);
        CHECK_STATUS(dmlref_run(&d, FL, &oo, ins, 2, rb, 1, &err), err, DMLREF_OK, NULL);
        setenv("DMLREF_STREAM_MIN", "0", 1);
        env_reload();
        for (uint32_t threads = 1; threads <= 2; ++threads) {
            const dmlref_options fo = {.flags = 0, .threads = threads};
            dmlref_operator *op = NULL;
            CHECK_STATUS(dmlref_compile(&d, FL, &fo, &op, &err), err, DMLREF_OK, NULL);
            if (!op) continue;
            kernels_note(&ks, dmlref_kernel_name(op));
            memset(got, 0xA5, ob);
            CHECK_STATUS(dmlref_execute(op, ins, 2, gb, 1, &err), err, DMLREF_OK, NULL);
            if (memcmp(ref, got, ob) != 0)
                test_fail(__FILE__, __LINE__, "case %d (%s, %u threads): differs from the oracle", c,
                          dmlref_kernel_name(op), threads);
            dmlref_release(op);
        }
        unsetenv("DMLREF_STREAM_MIN");
        env_reload();
        free(inb);
        free(ixb);
        free(ref);
        free(got);
    }
    CHECK_KERNELS_REACHED(&ks, "gather_elements.rows_stream", NULL); /* neither without SIMD (util.h) */
    CHECK_KERNELS_REACHED(&ks, "gather_elements.axis_last_stream.", NULL);
}
