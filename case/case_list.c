/*
 * The case reader's primitives (case_internal.h): its one error path, integers,
 * the keys every object may hold, and element lists (flat or nested, numbers or
 * the strings "nan", "inf", "0x..."), which tensors' data and `expected` share.
 */
#include "case_internal.h"
#include "value.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int case_fail(case_ctx *x, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, x->errcap, fmt, ap);
    va_end(ap);
    return CASE_MALFORMED;
}

int case_oom(case_ctx *x, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, x->errcap, fmt, ap);
    va_end(ap);
    return CASE_OUT_OF_MEMORY;
}
/* ---- scalars --------------------------------------------------------------- */

int case_get_uint(case_ctx *x, const jv *v, const char *path, uint64_t lo, uint64_t hi, uint64_t *out) {
    const char *t = jv_number(v);
    if (t && t[0] != '-') {
        int ok = 1;
        for (const char *p = t; *p; ++p) ok &= *p >= '0' && *p <= '9';
        if (ok) {
            errno = 0;
            const unsigned long long u = strtoull(t, NULL, 10);
            if (errno == 0 && u >= lo && u <= hi) {
                *out = u;
                return 0;
            }
        }
    }
    if (t && strcmp(t, "-0") == 0 && lo == 0) {
        *out = 0;
        return 0;
    }
    if (t) return case_fail(x, "%s: expected an integer in [%" PRIu64 ", %" PRIu64 "], got %.40s", path, lo, hi, t);
    return case_fail(x, "%s: expected an integer in [%" PRIu64 ", %" PRIu64 "], got %s", path, lo, hi, jv_kind_name(v));
}

int case_ignorable(const char *key) {
    return strcmp(key, "comment") == 0 || strcmp(key, "why") == 0 || strcmp(key, "name") == 0 ||
           strcmp(key, "description") == 0;
}

/* ---- element lists ------------------------------------------------------------ */

typedef struct list_walk {
    case_ctx *x;
    const char *base;           /* "InputTensor.data"                   */
    const case_tensor *t;
    uint32_t depth;             /* nesting levels (1 = flat)            */
    const uint32_t *shape;      /* the sizes of the nested levels       */
    uint32_t idx[9];
    uint64_t count;
    /* filling */
    unsigned char *dst;         /* NULL: count only                     */
    unsigned char *nan_flags;   /* optional                             */
} list_walk;

static void leaf_path(char *buf, size_t cap, const list_walk *w, uint32_t depth) {
    size_t len = (size_t)snprintf(buf, cap, "%s", w->base);
    for (uint32_t i = 0; i < depth && len < cap; ++i) len += (size_t)snprintf(buf + len, cap - len, "[%u]", (unsigned)w->idx[i]);
}

static int walk(list_walk *w, const jv *a, uint32_t level) {
    char path[PATH_MAX_LEN + 64];
    const size_t n = jv_count(a);
    if (w->depth > 1 && n != w->shape[level]) {
        leaf_path(path, sizeof path, w, level);
        return case_fail(w->x, "%s: expected %u entries (the tensor's Sizes), got %zu", path, (unsigned)w->shape[level], n);
    }
    for (size_t i = 0; i < n; ++i) {
        const jv *v = jv_at(a, i);
        w->idx[level] = (uint32_t)i;
        if (level + 1 < w->depth) {
            if (!jv_is(v, JV_ARRAY)) {
                leaf_path(path, sizeof path, w, level + 1);
                return case_fail(w->x, "%s: expected an array (nested data follows the tensor's Sizes), got %s", path,
                            jv_kind_name(v));
            }
            if (walk(w, v, level + 1)) return CASE_MALFORMED;
            continue;
        }
        if (w->dst) {
            const DMLREF_TENSOR_DATA_TYPE dt = w->t->buf.DataType;
            unsigned char *p = w->dst + w->count * w->t->esize;
            char why[160];
            int rc, nanword = 0;
            const char *num = jv_number(v);
            if (num) rc = value_from_number(num, dt, p, why, sizeof why);
            else if (jv_is(v, JV_STRING)) rc = value_from_string(jv_string(v), dt, p, &nanword, why, sizeof why);
            else {
                snprintf(why, sizeof why, "expected a number or a string, got %s", jv_kind_name(v));
                rc = -1;
            }
            if (rc) {
                leaf_path(path, sizeof path, w, level + 1);
                return case_fail(w->x, "%s: %s", path, why);
            }
            if (w->nan_flags) w->nan_flags[w->count] = (unsigned char)nanword;
        }
        ++w->count;
    }
    return 0;
}

static int is_packed(const case_tensor *t) {
    if (!t->strides) return 1;
    uint64_t s = 1;
    for (uint32_t d = t->buf.DimensionCount; d-- > 0;) {
        if (t->sizes[d] > 1 && t->strides[d] != s) return 0;
        s *= t->sizes[d];
    }
    return 1;
}

/*
 * Reads a flat or nested element list for tensor t into dst (when the count
 * is right) and returns the count in *count.  Nested lists must follow the
 * tensor's Sizes (leading 1s may be left out) and are allowed only for
 * packed tensors.
 */
int case_read_list(case_ctx *x, const jv *a, const case_tensor *t, const char *base, unsigned char **dst,
                     unsigned char **nan_flags, uint64_t *count) {
    list_walk w;
    memset(&w, 0, sizeof w);
    w.x = x;
    w.base = base;
    w.t = t;
    w.depth = 1;
    if (!jv_is(a, JV_ARRAY)) return case_fail(x, "%s: expected an array, got %s", base, jv_kind_name(a));
    const jv *probe = a;
    uint32_t depth = 0;
    while (jv_is(probe, JV_ARRAY) && depth <= 8) {
        ++depth;
        probe = jv_at(probe, 0);
    }
    const uint32_t dims = t->buf.DimensionCount;
    if (depth > 1) {
        if (!is_packed(t)) return case_fail(x, "%s: nested lists are only accepted for packed tensors (no Strides)", base);
        if (depth > dims) return case_fail(x, "%s: nested %u deep, but the tensor has %u dimensions", base, (unsigned)depth, (unsigned)dims);
        for (uint32_t d = 0; d < dims - depth; ++d)
            if (t->sizes[d] != 1)
                return case_fail(x, "%s: nested %u deep, but the tensor has %u dimensions and Sizes[%u] is not 1", base,
                            (unsigned)depth, (unsigned)dims, (unsigned)d);
        w.depth = depth;
        w.shape = t->sizes + (dims - depth);
    }
    if (walk(&w, a, 0)) return CASE_MALFORMED; /* shape and count only */
    *count = w.count;
    if (w.count != t->total_slots && w.count != t->span_slots) {
        if (t->total_slots == t->span_slots)
            return case_fail(x, "%s: expected %" PRIu64 " values (the buffer's element slots), got %" PRIu64, base,
                        t->total_slots, w.count);
        return case_fail(x, "%s: expected %" PRIu64 " values (the whole buffer) or %" PRIu64
                       " (the slots its elements span), got %" PRIu64, base, t->total_slots, t->span_slots, w.count);
    }
    if (!*dst) {
        *dst = malloc(w.count ? (size_t)(w.count * t->esize) : 1);
        if (!*dst) return case_oom(x, "%s: out of memory", base);
    }
    if (nan_flags) {
        *nan_flags = calloc(w.count ? (size_t)w.count : 1, 1);
        if (!*nan_flags) return case_oom(x, "%s: out of memory", base);
    }
    w.dst = *dst;
    w.nan_flags = nan_flags ? *nan_flags : NULL;
    w.count = 0;
    return walk(&w, a, 0);
}
