/*
 * A parsed case's buffers: allocated against the memory cap (inputs zero,
 * outputs 0xCD), then filled from the tensor's source -- an element list, a
 * .npy file (relative to the base directory), a `random` fill (a seeded
 * splitmix64 stream drawn the same on every host) or a `distinct` fill (unique
 * integers per group, distinct.c).
 */
#include "case_internal.h"
#include "distinct.h"
#include "draw.h"
#include "npy.h"
#include "prng.h"
#include "value.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tensors: data ---------------------------------------------------------------- */

static int fill_random(case_ctx *x, const jv *obj, case_tensor *t) {
    char path[PATH_MAX_LEN], why[160];
    const jv *seed = NULL, *low = NULL, *high = NULL, *pct = NULL;
    if (!jv_is(obj, JV_OBJECT))
        return case_fail(x, "%s.random: expected an object {\"seed\": S, \"low\": A, \"high\": B}, got %s", t->name,
                    jv_kind_name(obj));
    for (size_t i = 0; i < jv_count(obj); ++i) {
        const char *key = jv_key(obj, i);
        const jv *val = fields_given(jv_value(obj, i));
        if (strcmp(key, "seed") == 0) seed = val;
        else if (strcmp(key, "low") == 0) low = val;
        else if (strcmp(key, "high") == 0) high = val;
        else if (strcmp(key, "nonzero_percent") == 0) pct = val;
        else if (!case_ignorable(key))
            return case_fail(x, "%s.random: unknown key \"%.60s\" (seed, low, high, nonzero_percent)", t->name, key);
    }
    if (!seed || !low || !high)
        return case_fail(x, "%s.random: missing \"%s\"", t->name, !seed ? "seed" : !low ? "low" : "high");
    uint64_t s;
    const char *st = jv_number(seed);
    if (st && st[0] == '-') {
        errno = 0;
        const long long v = strtoll(st, NULL, 10);
        int ok = errno == 0;
        for (const char *p = st + 1; *p; ++p) ok &= *p >= '0' && *p <= '9';
        if (!ok) return case_fail(x, "%s.random.seed: expected a 64-bit integer, got %.40s", t->name, st);
        s = (uint64_t)(int64_t)v;
    } else {
        snprintf(path, sizeof path, "%s.random.seed", t->name);
        if (case_get_uint(x, seed, path, 0, UINT64_MAX, &s)) return CASE_MALFORMED;
    }
    const DMLREF_TENSOR_DATA_TYPE dt = t->buf.DataType;
    unsigned char lo[8] = {0}, hi[8] = {0};
    const jv *bounds[2] = {low, high};
    for (int k = 0; k < 2; ++k) {
        const char *num = jv_number(bounds[k]);
        snprintf(path, sizeof path, "%s.random.%s", t->name, k ? "high" : "low");
        if (!num) return case_fail(x, "%s: expected a finite number, got %s", path, jv_kind_name(bounds[k]));
        if (value_from_number(num, dt, k ? hi : lo, why, sizeof why)) return case_fail(x, "%s: %s", path, why);
    }
    /* nonzero_percent P (optional): each slot is then all-zero bits unless a draw in [0, 100) from
     * the same stream, made before the value's, is below P (NONZERO_COORDINATES' sparse inputs) */
    uint64_t percent = 100;
    if (pct) {
        snprintf(path, sizeof path, "%s.random.nonzero_percent", t->name);
        if (case_get_uint(x, pct, path, 0, 100, &percent)) return CASE_MALFORMED;
    }
    prng r = {s};
    const uint32_t es = t->esize;
    /* the bounds as integers of the element's width: no host floating point below */
    const uint64_t lb = value_load_bits(lo, es), hb = value_load_bits(hi, es);
    if (value_is_float(dt)) {
        draw_float df;
        if (draw_float_init(&df, dt, lb, hb)) return case_fail(x, "%s.random: low must not exceed high", t->name);
        for (uint64_t i = 0; i < t->total_slots; ++i) {
            if (pct && prng_upto(&r, 99) >= percent) {
                value_store_bits(t->data + i * es, es, 0);
                continue;
            }
            value_store_bits(t->data + i * es, es, draw_float_bits(&df, prng_next(&r) >> 11));
        }
        return 0;
    }
    const int is_signed = dt == DMLREF_TENSOR_DATA_TYPE_INT8 || dt == DMLREF_TENSOR_DATA_TYPE_INT16 ||
                          dt == DMLREF_TENSOR_DATA_TYPE_INT32 || dt == DMLREF_TENSOR_DATA_TYPE_INT64;
    /* signed bounds: sign-extended, then offset by 2^63 so that unsigned order is value order */
    const uint64_t top = UINT64_C(1) << (8 * es - 1), flip = UINT64_C(1) << 63;
    const uint64_t l64 = is_signed ? ((lb ^ top) - top) ^ flip : lb, h64 = is_signed ? ((hb ^ top) - top) ^ flip : hb;
    if (l64 > h64) return case_fail(x, "%s.random: low must not exceed high", t->name);
    const uint64_t base = is_signed ? l64 ^ flip : l64, range = h64 - l64;
    for (uint64_t i = 0; i < t->total_slots; ++i) {
        if (pct && prng_upto(&r, 99) >= percent) {
            value_store_bits(t->data + i * es, es, 0);
            continue;
        }
        value_store_bits(t->data + i * es, es, base + prng_upto(&r, range)); /* exact, uniform in [low, high] */
    }
    return 0;
}

static int fill_npy(case_ctx *x, const jv *v, case_tensor *t) {
    char err[256];
    const char *rel = jv_string(v);
    if (!rel) return case_fail(x, "%s.npy: expected a path string, got %s", t->name, jv_kind_name(v));
    if (!x->opts->base_dir) return case_fail(x, "%s.npy: npy references are not allowed here (no base directory)", t->name);
    const size_t bl = strlen(x->opts->base_dir), rl = strlen(rel);
    char *path = malloc(bl + rl + 2);
    if (!path) return case_oom(x, "%s.npy: out of memory", t->name);
    if (rel[0] == '/' || bl == 0) memcpy(path, rel, rl + 1);
    else {
        memcpy(path, x->opts->base_dir, bl);
        path[bl] = '/';
        memcpy(path + bl + 1, rel, rl + 1);
    }
    /* the header first, checked against the tensor; then exactly the bytes it describes, read
     * straight into the buffer: a huge or endless file costs no more than the tensor */
    npy_array a;
    int rc = 0, hrc = 0;
    FILE *f = fopen(path, "rb");
    if (!f && errno == ENOMEM) rc = case_oom(x, "%s.npy: out of memory opening %s", t->name, path);
    else if (!f) rc = case_fail(x, "%s.npy: cannot open %s: %s", t->name, path, strerror(errno));
    else if ((hrc = npy_read_header(f, &a, err, sizeof err)) == CASE_OUT_OF_MEMORY)
        rc = case_oom(x, "%s.npy: %s: %s", t->name, path, err);
    else if (hrc) rc = case_fail(x, "%s.npy: %s: %s", t->name, path, err);
    else if (a.dtype != t->buf.DataType)
        rc = case_fail(x, "%s.npy: %s holds dtype %s (%s), but the tensor's DataType is %s", t->name, path,
                  npy_descr(a.dtype), dmlref_data_type_name(a.dtype), dmlref_data_type_name(t->buf.DataType));
    else if (a.count != t->total_slots && a.count != t->span_slots)
        rc = case_fail(x, "%s.npy: %s holds %" PRIu64 " elements; expected %" PRIu64 " (the whole buffer) or %" PRIu64
                     " (the slots its elements span)", t->name, path, a.count, t->total_slots, t->span_slots);
    else if (a.data_bytes > t->bytes) /* validation keeps the span within the buffer: never */
        rc = case_fail(x, "%s.npy: %s holds %zu data bytes, more than the buffer's %zu", t->name, path, a.data_bytes,
                  t->bytes);
    else if (npy_read_data(f, &a, t->data, err, sizeof err)) /* any byte order in the file, host order in the buffer */
        rc = case_fail(x, "%s.npy: %s: %s", t->name, path, err);
    if (f) fclose(f);
    free(t->npy_path);
    t->npy_path = path; /* a command's outputs must not overwrite it (cli/guard.c) */
    return rc;
}
int case_alloc_buffer(case_ctx *x, case_tensor *t) {
    const uint64_t es = t->esize;
    uint64_t last = 0;
    uint64_t s = 1;
    for (uint32_t d = t->buf.DimensionCount; d-- > 0;) {
        const uint64_t stride = t->strides ? t->strides[d] : s;
        last += (uint64_t)(t->sizes[d] - 1) * stride;
        if (!t->strides) s *= t->sizes[d];
    }
    t->span_slots = last + 1;
    t->total_slots = t->buf.TotalTensorSizeInBytes / es;
    const uint64_t total = t->buf.TotalTensorSizeInBytes;
    /* The buffer starts at a multiple of a valid GuaranteedBaseOffsetAlignment
     * (the library checks the binding); the alignment counts against the
     * limit, since an allocator may reserve that much more.  An invalid one is
     * left for validation to report. */
    const uint32_t align = t->buf.GuaranteedBaseOffsetAlignment;
    const uint64_t al = (align & (align - 1)) == 0 && align > 64 ? align : 64;
    if (total > x->max_bytes - x->bytes || al > x->max_bytes - x->bytes - total)
        return case_fail(x, "%s: TotalTensorSizeInBytes %" PRIu64 " (aligned to %" PRIu64 ") would take the case's buffers "
                       "beyond the limit of %" PRIu64 " bytes (DMLREF_MAX_BYTES raises it)",
                    t->name, total, al, x->max_bytes);
    if (total > (uint64_t)SIZE_MAX - al) {
        snprintf(x->err, x->errcap,
                 "%s: TotalTensorSizeInBytes %" PRIu64 " is valid but larger than this host can address "
                 "(SIZE_MAX %" PRIu64 ")", t->name, total, (uint64_t)SIZE_MAX);
        return CASE_HOST_LIMIT;
    }
    void *mem = NULL;
    if (x->opts->alloc) mem = x->opts->alloc(total ? (size_t)total : 1, (size_t)al, x->opts->alloc_user);
    else if (posix_memalign(&mem, (size_t)al, total ? (size_t)total : 1) != 0) mem = NULL;
    t->data = mem;
    if (!t->data) return case_oom(x, "%s: out of memory for its %" PRIu64 " bytes", t->name, total);
    x->bytes += total + (al > 64 ? al : 0);
    t->bytes = (size_t)total;
    memset(t->data, t->is_output ? 0xCD : 0, t->bytes);
    return 0;
}

int case_fill_tensor(case_ctx *x, case_tensor *t, const tensor_src *src) {
    char base[PATH_MAX_LEN];
    if (src->kind == SRC_DATA) {
        unsigned char *dst = t->data;
        uint64_t count;
        snprintf(base, sizeof base, "%s.data", t->name);
        const int rc = case_read_list(x, src->value, t, base, &dst, NULL, &count);
        if (rc) return rc; /* (then src->value may be no array at all; CASE_OUT_OF_MEMORY passes) */
        /* how the file gave it, so that case_write writes it the same way */
        t->whole = count == t->total_slots;
        t->nested = jv_is(jv_at(src->value, 0), JV_ARRAY);
        return rc;
    }
    if (src->kind == SRC_NPY) return fill_npy(x, src->value, t);
    if (src->kind == SRC_RANDOM) return fill_random(x, src->value, t);
    if (src->kind == SRC_DISTINCT) return distinct_fill(src->value, t, x->err, x->errcap) ? CASE_MALFORMED : 0;
    if (src->kind == SRC_POOLED) return pooled_fill(src->value, t, x->err, x->errcap) ? CASE_MALFORMED : 0;
    return 0;
}
