/*
 * Case files: JSON (through jsonin/json-c) -> DMLREF descriptors and buffers.
 * (Over 600 lines on purpose: tensors, data lists, .npy sources, expected
 * values and outputs share the reader's context and its one error path;
 * field kinds live in fields.c, the desc walk in descbuf.c.)
 * See case.h and docs/case-format.md.
 */
#include "case.h"
#include "distinct.h"
#include "draw.h"
#include "jsonin.h"
#include "npy.h"
#include "prng.h"
#include "value.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PATH_MAX_LEN 160

typedef struct ctx {
    char *err;
    size_t errcap;
    const case_options *opts;
    uint64_t max_bytes;
    uint64_t bytes; /* allocated so far for buffers */
} ctx;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int fail(ctx *x, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, x->errcap, fmt, ap);
    va_end(ap);
    return CASE_MALFORMED;
}

/* ---- names --------------------------------------------------------------- */

static const uint32_t levels[] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                  0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};

uint32_t case_feature_level_from_name(const char *name) {
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; ++i)
        if (strcmp(dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)levels[i]), name) == 0) return levels[i];
    return 0;
}

/* The schema for an operator's name in a case file (SCATTER_ELEMENTS: SCATTER's other name), or NULL. */
static const dmlref_schema *schema_from_name(const char *name) {
    const dmlref_schema *s;
    for (uint32_t i = 0; (s = dmlref_operator_schema_at(i)) != NULL; ++i)
        if (strcmp(s->name, name) == 0) return s;
    if (strcmp(name, "SCATTER_ELEMENTS") == 0) return dmlref_operator_schema(DMLREF_OPERATOR_SCATTER_ELEMENTS);
    return NULL;
}

DMLREF_OPERATOR_TYPE case_operator_from_name(const char *name) {
    const dmlref_schema *s = schema_from_name(name);
    return s ? s->type : DMLREF_OPERATOR_INVALID;
}

const char *case_operator_names(char *buf, size_t cap) {
    const dmlref_schema *s;
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; (s = dmlref_operator_schema_at(i)) != NULL && len < cap; ++i)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", s->name);
    return buf;
}

static int ignorable(const char *key) {
    return strcmp(key, "comment") == 0 || strcmp(key, "why") == 0 || strcmp(key, "name") == 0 ||
           strcmp(key, "description") == 0;
}

/* ---- scalars --------------------------------------------------------------- */

static int get_uint(ctx *x, json_object *v, const char *path, uint64_t lo, uint64_t hi, uint64_t *out) {
    const char *t = jsonin_number_text(v);
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
    if (t) return fail(x, "%s: expected an integer in [%" PRIu64 ", %" PRIu64 "], got %.40s", path, lo, hi, t);
    return fail(x, "%s: expected an integer in [%" PRIu64 ", %" PRIu64 "], got %s", path, lo, hi, jsonin_kind(v));
}

/* ---- tensors: structure ------------------------------------------------------- */

enum { SRC_NONE, SRC_DATA, SRC_NPY, SRC_RANDOM, SRC_DISTINCT };

typedef struct tensor_src {
    int kind;
    json_object *value;
} tensor_src;

static int parse_tensor(ctx *x, json_object *obj, case_tensor *t, const char *name, int is_output, tensor_src *src) {
    char path[PATH_MAX_LEN];
    json_object *dt = NULL, *sizes = NULL, *strides = NULL, *total = NULL, *dimcount = NULL, *flags = NULL,
                *align = NULL;
    snprintf(t->name, sizeof t->name, "%s", name);
    t->is_output = is_output;
    src->kind = SRC_NONE;
    src->value = NULL;
    if (!obj || json_object_get_type(obj) != json_type_object)
        return fail(x, "%s: expected a tensor object, got %s", name, jsonin_kind(obj));
    json_object_object_foreach(obj, key, val) {
        if (strcmp(key, "DataType") == 0) dt = val;
        else if (strcmp(key, "Sizes") == 0) sizes = val;
        else if (strcmp(key, "Strides") == 0) strides = val;
        else if (strcmp(key, "TotalTensorSizeInBytes") == 0) total = val;
        else if (strcmp(key, "DimensionCount") == 0) dimcount = val;
        else if (strcmp(key, "Flags") == 0) flags = val;
        else if (strcmp(key, "GuaranteedBaseOffsetAlignment") == 0) align = val;
        else if (strcmp(key, "data") == 0 || strcmp(key, "npy") == 0 || strcmp(key, "random") == 0 ||
                 strcmp(key, "distinct") == 0) {
            if (src->kind != SRC_NONE) return fail(x, "%s: give only one of data, npy, random and distinct", name);
            src->kind = strcmp(key, "data") == 0 ? SRC_DATA : key[0] == 'n' ? SRC_NPY : key[0] == 'r' ? SRC_RANDOM : SRC_DISTINCT;
            src->value = val;
        } else if (!ignorable(key))
            return fail(x, "%s: unknown key \"%.60s\" (a tensor has DataType, Sizes, Strides, "
                           "TotalTensorSizeInBytes, data, npy, random, distinct)", name, key);
    }
    if (!dt) return fail(x, "%s: missing DataType", name);
    if (!jsonin_is_string(dt)) return fail(x, "%s.DataType: expected a string, got %s", name, jsonin_kind(dt));
    t->buf.DataType = value_type_from_name(json_object_get_string(dt));
    if (t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_UNKNOWN)
        return fail(x, "%s.DataType: unknown data type \"%.40s\" (FLOAT64 FLOAT32 FLOAT16 INT64 INT32 INT16 INT8 "
                       "UINT64 UINT32 UINT16 UINT8)", name, json_object_get_string(dt));
    if (!sizes) return fail(x, "%s: missing Sizes", name);
    if (json_object_get_type(sizes) != json_type_array)
        return fail(x, "%s.Sizes: expected an array, got %s", name, jsonin_kind(sizes));
    const size_t n = json_object_array_length(sizes);
    if (n > 64) return fail(x, "%s.Sizes: %zu entries (at most 8 dimensions exist)", name, n);
    t->sizes = calloc(n ? n : 1, sizeof *t->sizes);
    if (!t->sizes) return fail(x, "%s: out of memory", name);
    for (size_t i = 0; i < n; ++i) {
        uint64_t v;
        snprintf(path, sizeof path, "%s.Sizes[%zu]", name, i);
        if (get_uint(x, json_object_array_get_idx(sizes, i), path, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
        t->sizes[i] = (uint32_t)v;
    }
    if (dimcount) {
        uint64_t v;
        snprintf(path, sizeof path, "%s.DimensionCount", name);
        if (get_uint(x, dimcount, path, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
        if (v != n) return fail(x, "%s: DimensionCount (%" PRIu64 ") differs from the length of Sizes (%zu)", name, v, n);
    }
    if (strides) {
        if (json_object_get_type(strides) != json_type_array)
            return fail(x, "%s.Strides: expected an array, got %s", name, jsonin_kind(strides));
        if (json_object_array_length(strides) != n)
            return fail(x, "%s.Strides: %zu entries, but Sizes has %zu", name, json_object_array_length(strides), n);
        t->strides = calloc(n ? n : 1, sizeof *t->strides);
        if (!t->strides) return fail(x, "%s: out of memory", name);
        for (size_t i = 0; i < n; ++i) {
            uint64_t v;
            snprintf(path, sizeof path, "%s.Strides[%zu]", name, i);
            if (get_uint(x, json_object_array_get_idx(strides, i), path, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
            t->strides[i] = (uint32_t)v;
        }
    }
    if (flags) {
        uint64_t v;
        snprintf(path, sizeof path, "%s.Flags", name);
        if (get_uint(x, flags, path, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
        t->buf.Flags = (DMLREF_TENSOR_FLAGS)v;
    }
    if (align) {
        uint64_t v;
        snprintf(path, sizeof path, "%s.GuaranteedBaseOffsetAlignment", name);
        if (get_uint(x, align, path, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
        t->buf.GuaranteedBaseOffsetAlignment = (uint32_t)v;
    }
    t->buf.DimensionCount = (uint32_t)n;
    t->buf.Sizes = t->sizes;
    t->buf.Strides = t->strides;
    if (total) {
        snprintf(path, sizeof path, "%s.TotalTensorSizeInBytes", name);
        if (get_uint(x, total, path, 0, UINT64_MAX, &t->buf.TotalTensorSizeInBytes)) return CASE_MALFORMED;
        t->total_given = 1;
    } else {
        t->buf.TotalTensorSizeInBytes =
            dmlref_calc_buffer_tensor_size(t->buf.DataType, t->buf.DimensionCount, t->sizes, t->strides);
    }
    if (!is_output && src->kind == SRC_NONE) return fail(x, "%s: missing data (give data, npy, random or distinct)", name);
    return 0;
}

/* ---- element lists ------------------------------------------------------------ */

typedef struct list_walk {
    ctx *x;
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

static int walk(list_walk *w, json_object *a, uint32_t level) {
    char path[PATH_MAX_LEN + 64];
    const size_t n = json_object_array_length(a);
    if (w->depth > 1 && n != w->shape[level]) {
        leaf_path(path, sizeof path, w, level);
        return fail(w->x, "%s: expected %u entries (the tensor's Sizes), got %zu", path, (unsigned)w->shape[level], n);
    }
    for (size_t i = 0; i < n; ++i) {
        json_object *v = json_object_array_get_idx(a, i);
        w->idx[level] = (uint32_t)i;
        if (level + 1 < w->depth) {
            if (!v || json_object_get_type(v) != json_type_array) {
                leaf_path(path, sizeof path, w, level + 1);
                return fail(w->x, "%s: expected an array (nested data follows the tensor's Sizes), got %s", path,
                            jsonin_kind(v));
            }
            if (walk(w, v, level + 1)) return CASE_MALFORMED;
            continue;
        }
        if (w->dst) {
            const DMLREF_TENSOR_DATA_TYPE dt = w->t->buf.DataType;
            unsigned char *p = w->dst + w->count * w->t->esize;
            char why[160];
            int rc, nanword = 0;
            const char *num = jsonin_number_text(v);
            if (num) rc = value_from_number(num, dt, p, why, sizeof why);
            else if (jsonin_is_string(v)) rc = value_from_string(json_object_get_string(v), dt, p, &nanword, why, sizeof why);
            else {
                snprintf(why, sizeof why, "expected a number or a string, got %s", jsonin_kind(v));
                rc = -1;
            }
            if (rc) {
                leaf_path(path, sizeof path, w, level + 1);
                return fail(w->x, "%s: %s", path, why);
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
static int read_list(ctx *x, json_object *a, const case_tensor *t, const char *base, unsigned char **dst,
                     unsigned char **nan_flags, uint64_t *count) {
    list_walk w;
    memset(&w, 0, sizeof w);
    w.x = x;
    w.base = base;
    w.t = t;
    w.depth = 1;
    if (!a || json_object_get_type(a) != json_type_array)
        return fail(x, "%s: expected an array, got %s", base, jsonin_kind(a));
    json_object *probe = a;
    uint32_t depth = 0;
    while (probe && json_object_get_type(probe) == json_type_array && depth <= 8) {
        ++depth;
        probe = json_object_array_length(probe) ? json_object_array_get_idx(probe, 0) : NULL;
    }
    const uint32_t dims = t->buf.DimensionCount;
    if (depth > 1) {
        if (!is_packed(t)) return fail(x, "%s: nested lists are only accepted for packed tensors (no Strides)", base);
        if (depth > dims) return fail(x, "%s: nested %u deep, but the tensor has %u dimensions", base, (unsigned)depth, (unsigned)dims);
        for (uint32_t d = 0; d < dims - depth; ++d)
            if (t->sizes[d] != 1)
                return fail(x, "%s: nested %u deep, but the tensor has %u dimensions and Sizes[%u] is not 1", base,
                            (unsigned)depth, (unsigned)dims, (unsigned)d);
        w.depth = depth;
        w.shape = t->sizes + (dims - depth);
    }
    if (walk(&w, a, 0)) return CASE_MALFORMED; /* shape and count only */
    *count = w.count;
    if (w.count != t->total_slots && w.count != t->span_slots) {
        if (t->total_slots == t->span_slots)
            return fail(x, "%s: expected %" PRIu64 " values (the buffer's element slots), got %" PRIu64, base,
                        t->total_slots, w.count);
        return fail(x, "%s: expected %" PRIu64 " values (the whole buffer) or %" PRIu64
                       " (the slots its elements span), got %" PRIu64, base, t->total_slots, t->span_slots, w.count);
    }
    if (!*dst) {
        *dst = malloc(w.count ? (size_t)(w.count * t->esize) : 1);
        if (!*dst) return fail(x, "%s: out of memory", base);
    }
    if (nan_flags) {
        *nan_flags = calloc(w.count ? (size_t)w.count : 1, 1);
        if (!*nan_flags) return fail(x, "%s: out of memory", base);
    }
    w.dst = *dst;
    w.nan_flags = nan_flags ? *nan_flags : NULL;
    w.count = 0;
    return walk(&w, a, 0);
}

/* ---- tensors: data ---------------------------------------------------------------- */

static int fill_random(ctx *x, json_object *obj, case_tensor *t) {
    char path[PATH_MAX_LEN], why[160];
    json_object *seed = NULL, *low = NULL, *high = NULL;
    if (!obj || json_object_get_type(obj) != json_type_object)
        return fail(x, "%s.random: expected an object {\"seed\": S, \"low\": A, \"high\": B}, got %s", t->name,
                    jsonin_kind(obj));
    json_object_object_foreach(obj, key, val) {
        if (strcmp(key, "seed") == 0) seed = val;
        else if (strcmp(key, "low") == 0) low = val;
        else if (strcmp(key, "high") == 0) high = val;
        else if (!ignorable(key)) return fail(x, "%s.random: unknown key \"%.60s\" (seed, low, high)", t->name, key);
    }
    if (!seed || !low || !high)
        return fail(x, "%s.random: missing \"%s\"", t->name, !seed ? "seed" : !low ? "low" : "high");
    uint64_t s;
    const char *st = jsonin_number_text(seed);
    if (st && st[0] == '-') {
        errno = 0;
        const long long v = strtoll(st, NULL, 10);
        int ok = errno == 0;
        for (const char *p = st + 1; *p; ++p) ok &= *p >= '0' && *p <= '9';
        if (!ok) return fail(x, "%s.random.seed: expected a 64-bit integer, got %.40s", t->name, st);
        s = (uint64_t)(int64_t)v;
    } else {
        snprintf(path, sizeof path, "%s.random.seed", t->name);
        if (get_uint(x, seed, path, 0, UINT64_MAX, &s)) return CASE_MALFORMED;
    }
    const DMLREF_TENSOR_DATA_TYPE dt = t->buf.DataType;
    unsigned char lo[8] = {0}, hi[8] = {0};
    json_object *bounds[2] = {low, high};
    for (int k = 0; k < 2; ++k) {
        const char *num = jsonin_number_text(bounds[k]);
        snprintf(path, sizeof path, "%s.random.%s", t->name, k ? "high" : "low");
        if (!num) return fail(x, "%s: expected a finite number, got %s", path, jsonin_kind(bounds[k]));
        if (value_from_number(num, dt, k ? hi : lo, why, sizeof why)) return fail(x, "%s: %s", path, why);
    }
    prng r = {s};
    const uint32_t es = t->esize;
    /* the bounds as integers of the element's width: no host floating point below */
    const uint64_t lb = value_load_bits(lo, es), hb = value_load_bits(hi, es);
    if (value_is_float(dt)) {
        draw_float df;
        if (draw_float_init(&df, dt, lb, hb)) return fail(x, "%s.random: low must not exceed high", t->name);
        for (uint64_t i = 0; i < t->total_slots; ++i)
            value_store_bits(t->data + i * es, es, draw_float_bits(&df, prng_next(&r) >> 11));
        return 0;
    }
    const int is_signed = dt == DMLREF_TENSOR_DATA_TYPE_INT8 || dt == DMLREF_TENSOR_DATA_TYPE_INT16 ||
                          dt == DMLREF_TENSOR_DATA_TYPE_INT32 || dt == DMLREF_TENSOR_DATA_TYPE_INT64;
    /* signed bounds: sign-extended, then offset by 2^63 so that unsigned order is value order */
    const uint64_t top = UINT64_C(1) << (8 * es - 1), flip = UINT64_C(1) << 63;
    const uint64_t l64 = is_signed ? ((lb ^ top) - top) ^ flip : lb, h64 = is_signed ? ((hb ^ top) - top) ^ flip : hb;
    if (l64 > h64) return fail(x, "%s.random: low must not exceed high", t->name);
    const uint64_t base = is_signed ? l64 ^ flip : l64, range = h64 - l64;
    for (uint64_t i = 0; i < t->total_slots; ++i)
        value_store_bits(t->data + i * es, es, base + prng_upto(&r, range)); /* exact, uniform in [low, high] */
    return 0;
}

static int fill_npy(ctx *x, json_object *v, case_tensor *t) {
    char err[256];
    if (!jsonin_is_string(v)) return fail(x, "%s.npy: expected a path string, got %s", t->name, jsonin_kind(v));
    const char *rel = json_object_get_string(v);
    if (!x->opts->base_dir) return fail(x, "%s.npy: npy references are not allowed here (no base directory)", t->name);
    const size_t bl = strlen(x->opts->base_dir), rl = strlen(rel);
    char *path = malloc(bl + rl + 2);
    if (!path) return fail(x, "%s.npy: out of memory", t->name);
    if (rel[0] == '/' || bl == 0) memcpy(path, rel, rl + 1);
    else {
        memcpy(path, x->opts->base_dir, bl);
        path[bl] = '/';
        memcpy(path + bl + 1, rel, rl + 1);
    }
    char *bytes = NULL;
    size_t len = 0;
    npy_array a;
    int rc = 0;
    const uint64_t cap = x->max_bytes > SIZE_MAX - 4096 ? SIZE_MAX - 4096 : x->max_bytes;
    if (case_read_file(path, (size_t)cap + 4096, &bytes, &len, err, sizeof err)) rc = fail(x, "%s.npy: %s", t->name, err);
    else if (npy_parse(bytes, len, &a, err, sizeof err)) rc = fail(x, "%s.npy: %s: %s", t->name, path, err);
    else if (a.dtype != t->buf.DataType)
        rc = fail(x, "%s.npy: %s holds dtype %s (%s), but the tensor's DataType is %s", t->name, path,
                  npy_descr(a.dtype), dmlref_data_type_name(a.dtype), dmlref_data_type_name(t->buf.DataType));
    else if (a.count != t->total_slots && a.count != t->span_slots)
        rc = fail(x, "%s.npy: %s holds %" PRIu64 " elements; expected %" PRIu64 " (the whole buffer) or %" PRIu64
                     " (the slots its elements span)", t->name, path, a.count, t->total_slots, t->span_slots);
    else if (a.data_bytes)
        npy_copy_host(&a, t->data); /* any byte order in the file, host order in the buffer */
    free(bytes);
    free(path);
    return rc;
}

/* ---- the case -------------------------------------------------------------------- */

void case_free(dmlref_case *c) {
    if (!c) return;
    case_tensor *lists[2] = {c->inputs, c->outputs};
    const uint32_t counts[2] = {c->n_inputs, c->n_outputs};
    for (int k = 0; k < 2; ++k) {
        for (uint32_t i = 0; lists[k] && i < counts[k]; ++i) {
            case_tensor *t = &lists[k][i];
            free(t->sizes);
            free(t->strides);
            free(t->data);
            free(t->expected);
            free(t->any_nan);
        }
        free(lists[k]);
    }
    free(c->in_descs);
    free(c->out_descs);
    free(c->desc_mem);
    fields_store_free(&c->store);
    free(c->in_bufs);
    free(c->out_bufs);
    memset(c, 0, sizeof *c);
}

static int alloc_buffer(ctx *x, case_tensor *t) {
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
        return fail(x, "%s: TotalTensorSizeInBytes %" PRIu64 " (aligned to %" PRIu64 ") would take the case's buffers "
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
    if (!t->data) return fail(x, "%s: cannot allocate %" PRIu64 " bytes", t->name, total);
    x->bytes += total + (al > 64 ? al : 0);
    t->bytes = (size_t)total;
    memset(t->data, t->is_output ? 0xCD : 0, t->bytes);
    return 0;
}

static int fill_tensor(ctx *x, case_tensor *t, const tensor_src *src) {
    char base[PATH_MAX_LEN];
    if (src->kind == SRC_DATA) {
        unsigned char *dst = t->data;
        uint64_t count;
        snprintf(base, sizeof base, "%s.data", t->name);
        return read_list(x, src->value, t, base, &dst, NULL, &count);
    }
    if (src->kind == SRC_NPY) return fill_npy(x, src->value, t);
    if (src->kind == SRC_RANDOM) return fill_random(x, src->value, t);
    if (src->kind == SRC_DISTINCT) return distinct_fill(src->value, t, x->err, x->errcap) ? CASE_MALFORMED : 0;
    return 0;
}

/* Where each tensor slot of the schema sits among the case's inputs or outputs. */
#define CASE_MAX_SLOTS 16

typedef struct slot_map {
    json_object *value;  /* the tensor, or the array of tensors; NULL: absent */
    uint32_t first, count;
} slot_map;

static void output_names(const dmlref_schema *s, char *buf, size_t cap) {
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < s->n_slots && len < cap; ++i)
        if (s->slots[i].is_output) len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", s->slots[i].name);
}

static int parse_expected(ctx *x, json_object *exp, dmlref_case *c, const slot_map *map) {
    char base[PATH_MAX_LEN], names[256];
    const dmlref_schema *s = c->schema;
    if (json_object_get_type(exp) != json_type_object)
        return fail(x, "expected: expected an object mapping output names to lists, got %s", jsonin_kind(exp));
    json_object_object_foreach(exp, key, val) {
        if (ignorable(key)) continue;
        uint32_t k = 0;
        while (k < s->n_slots && !(s->slots[k].is_output && strcmp(key, s->slots[k].name) == 0)) ++k;
        if (k == s->n_slots) {
            output_names(s, names, sizeof names);
            return fail(x, "expected: unknown output \"%.60s\" (%s has %s)", key, c->op_name, names);
        }
        const dmlref_tensor_slot *sl = &s->slots[k];
        if (!map[k].value) return fail(x, "expected.%s: the case has no %s", sl->name, sl->name);
        const int is_array = sl->is_array;
        size_t n = 1;
        if (is_array) {
            if (json_object_get_type(val) != json_type_array)
                return fail(x, "expected.%s: expected an array of lists, got %s", sl->name, jsonin_kind(val));
            n = json_object_array_length(val);
            if (n != map[k].count)
                return fail(x, "expected.%s: %zu lists, but the case has %u outputs", sl->name, n, (unsigned)map[k].count);
        }
        for (size_t i = 0; i < n; ++i) {
            json_object *list = is_array ? json_object_array_get_idx(val, i) : val;
            case_tensor *t = &c->outputs[map[k].first + i];
            if (is_array && !list) continue; /* null: not compared */
            if (is_array) snprintf(base, sizeof base, "expected.%s[%zu]", sl->name, i);
            else snprintf(base, sizeof base, "expected.%s", sl->name);
            const uint64_t need = t->total_slots * t->esize;
            if (need > x->max_bytes - x->bytes) return fail(x, "%s: beyond the memory limit", base);
            if (read_list(x, list, t, base, &t->expected, &t->any_nan, &t->expected_slots)) return CASE_MALFORMED;
            x->bytes += t->expected_slots * t->esize;
            t->has_expected = 1;
            c->has_expected = 1;
        }
    }
    return 0;
}

/* The tensors' weights in case_bytes_moved: `bytes_moved` {"Slot": k, ...}, or by default
 * 2 for every output and 1 for every index input (docs/performance.md). */
static int parse_moved(ctx *x, json_object *moved, dmlref_case *c) {
    const dmlref_schema *s = c->schema;
    case_tensor *lists[2] = {c->inputs, c->outputs};
    const uint32_t counts[2] = {c->n_inputs, c->n_outputs};
    for (int k = 0; k < 2; ++k)
        for (uint32_t i = 0; i < counts[k]; ++i) {
            case_tensor *t = &lists[k][i];
            uint32_t j = 0;
            while (j < s->n_slots && strcmp(s->slots[j].name, t->slot) != 0) ++j;
            t->moved_times = moved ? 0 : t->is_output ? 2 : j < s->n_slots && s->slots[j].is_index ? 1 : 0;
        }
    if (!moved) return 0;
    if (!json_object_is_type(moved, json_type_object))
        return fail(x, "bytes_moved: expected an object {\"OutputTensor\": 2, ...}, got %s", jsonin_kind(moved));
    json_object_object_foreach(moved, key, val) {
        if (ignorable(key)) continue;
        char path[PATH_MAX_LEN];
        int64_t v;
        snprintf(path, sizeof path, "bytes_moved.%.60s", key);
        if (fields_get_int(val, path, 0, 16, &v, x->err, x->errcap)) return CASE_MALFORMED;
        int found = 0;
        for (int k = 0; k < 2; ++k)
            for (uint32_t i = 0; i < counts[k]; ++i)
                if (strcmp(lists[k][i].slot, key) == 0) lists[k][i].moved_times = (uint32_t)v, found = 1;
        if (!found) return fail(x, "bytes_moved: \"%.60s\" is not a tensor of this case", key);
    }
    return 0;
}

uint64_t case_bytes_moved(const dmlref_case *c) {
    const case_tensor *lists[2] = {c->inputs, c->outputs};
    const uint32_t counts[2] = {c->n_inputs, c->n_outputs};
    uint64_t sum = 0;
    for (int k = 0; k < 2; ++k)
        for (uint32_t i = 0; i < counts[k]; ++i) {
            const case_tensor *t = &lists[k][i];
            uint64_t n = dmlref_data_type_size(t->buf.DataType);
            for (uint32_t d = 0; d < t->buf.DimensionCount; ++d) n *= t->sizes[d];
            sum += t->moved_times * n;
        }
    return sum;
}

static int parse_root(ctx *x, json_object *root, dmlref_case *c) {
    json_object *op = NULL, *fl = NULL, *expected = NULL, *moved = NULL;
    char names[512];
    if (json_object_get_type(root) != json_type_object)
        return fail(x, "the case must be a JSON object, got %s", jsonin_kind(root));
    op = json_object_object_get(root, "operator");
    if (!op) return fail(x, "missing \"operator\" (%s)", case_operator_names(names, sizeof names));
    if (!jsonin_is_string(op)) return fail(x, "operator: expected a string, got %s", jsonin_kind(op));
    const dmlref_schema *sc = x->opts->schema && strcmp(json_object_get_string(op), x->opts->schema->name) == 0
                                  ? x->opts->schema
                                  : schema_from_name(json_object_get_string(op));
    if (!sc) {
        /* one dmlref knows but this build left out (make OPS=...) */
        for (uint32_t t = 1; t < 256; ++t) {
            const char *known = dmlref_operator_name((DMLREF_OPERATOR_TYPE)t), *name = json_object_get_string(op);
            if (known && (strcmp(known, name) == 0 ||
                          (t == DMLREF_OPERATOR_SCATTER_ELEMENTS && strcmp(name, "SCATTER_ELEMENTS") == 0)))
                return fail(x, "operator: %s is not built into this dmlref (make OPS=\"...\" left it out; this build has %s)",
                            known, case_operator_names(names, sizeof names));
        }
        return fail(x, "operator: unknown operator \"%.40s\" (%s)", json_object_get_string(op),
                    case_operator_names(names, sizeof names));
    }
    if (sc->n_slots > CASE_MAX_SLOTS) return fail(x, "%s: more than %d tensor fields", sc->name, CASE_MAX_SLOTS);
    c->schema = sc;
    c->type = sc->type;
    c->op_name = sc->name;

    slot_map map[CASE_MAX_SLOTS];
    memset(map, 0, sizeof map);
    json_object_object_foreach(root, key, val) {
        int known = 0;
        if (strcmp(key, "operator") == 0) known = 1;
        else if (strcmp(key, "feature_level") == 0) fl = val, known = 1;
        else if (strcmp(key, "expected") == 0) expected = val, known = 1;
        else if (strcmp(key, "bytes_moved") == 0) moved = val, known = 1;
        else if (strcmp(key, "features") == 0) {
            /* gen's summary of what the case uses: informative, its contents ignored */
            if (!json_object_is_type(val, json_type_object))
                return fail(x, "features: expected an object (what the case uses, as gen writes it), got %s",
                            jsonin_kind(val));
            known = 1;
        } else if (ignorable(key)) known = 1;
        for (uint32_t i = 0; i < sc->n_params && !known; ++i)
            if (strcmp(key, sc->params[i].name) == 0) known = 1;
        for (uint32_t i = 0; i < sc->n_slots && !known; ++i)
            if (strcmp(key, sc->slots[i].name) == 0) map[i].value = val, known = 1;
        if (!known) return fail(x, "unknown key \"%.60s\" (not a field of %s or of a case file)", key, c->op_name);
    }

    c->feature_level = DMLREF_FEATURE_LEVEL_LATEST;
    if (fl) {
        if (!jsonin_is_string(fl)) return fail(x, "feature_level: expected a string such as \"4_1\", got %s", jsonin_kind(fl));
        const uint32_t v = case_feature_level_from_name(json_object_get_string(fl));
        if (!v) return fail(x, "feature_level: unknown level \"%.20s\" (1_0 2_0 2_1 3_0 3_1 4_0 4_1 5_0 5_1 5_2 6_0 6_1 6_2 6_3 6_4)",
                            json_object_get_string(fl));
        c->feature_level = (DMLREF_FEATURE_LEVEL)v;
    }
    if (x->opts->feature_level) c->feature_level = (DMLREF_FEATURE_LEVEL)x->opts->feature_level;

    /* parameters, then single tensors, then tensor arrays (and their counts) */
    c->desc_mem = desc_alloc(sc);
    if (!c->desc_mem) return fail(x, "out of memory");
    if (fields_read_params(sc, root, c->desc_mem, &c->store, x->err, x->errcap)) return CASE_MALFORMED;
    for (uint32_t i = 0; i < sc->n_slots; ++i)
        if (!sc->slots[i].is_array && !sc->slots[i].is_optional && !map[i].value)
            return fail(x, "missing \"%s\" (a tensor of %s)", sc->slots[i].name, c->op_name);
    for (uint32_t i = 0; i < sc->n_slots; ++i) {
        const dmlref_tensor_slot *sl = &sc->slots[i];
        if (!sl->is_array) {
            map[i].count = map[i].value ? 1 : 0;
            continue;
        }
        json_object *array = map[i].value;
        if (!array) {
            if (sl->is_optional) continue;
            return fail(x, "missing \"%s\" (an array of tensors)", sl->name);
        }
        if (json_object_get_type(array) != json_type_array)
            return fail(x, "%s: expected an array of tensors, got %s", sl->name, jsonin_kind(array));
        const size_t n_array = json_object_array_length(array);
        json_object *count = sl->count_name ? json_object_object_get(root, sl->count_name) : NULL;
        if (count) {
            int64_t v;
            if (fields_get_int(count, sl->count_name, 0, UINT32_MAX, &v, x->err, x->errcap)) return CASE_MALFORMED;
            if ((uint64_t)v != n_array)
                return fail(x, "%s (%" PRId64 ") differs from the length of %s (%zu)", sl->count_name, v, sl->name, n_array);
        }
        if (n_array > UINT32_MAX / 2) return fail(x, "%s: too many tensors", sl->name);
        map[i].count = (uint32_t)n_array;
    }

    /* tensors, in binding order: input slots in schema order, then output slots */
    for (uint32_t i = 0; i < sc->n_slots; ++i) {
        uint32_t *n = sc->slots[i].is_output ? &c->n_outputs : &c->n_inputs;
        map[i].first = *n;
        if (map[i].count > UINT32_MAX / 2 - *n) return fail(x, "too many tensors");
        *n += map[i].count;
    }
    c->inputs = calloc(c->n_inputs ? c->n_inputs : 1, sizeof *c->inputs);
    c->outputs = calloc(c->n_outputs ? c->n_outputs : 1, sizeof *c->outputs);
    c->in_descs = calloc(c->n_inputs ? c->n_inputs : 1, sizeof *c->in_descs);
    c->out_descs = calloc(c->n_outputs ? c->n_outputs : 1, sizeof *c->out_descs);
    c->in_bufs = calloc(c->n_inputs ? c->n_inputs : 1, sizeof *c->in_bufs);
    c->out_bufs = calloc(c->n_outputs ? c->n_outputs : 1, sizeof *c->out_bufs);
    tensor_src *in_src = calloc(c->n_inputs ? c->n_inputs : 1, sizeof *in_src);
    tensor_src *out_src = calloc(c->n_outputs ? c->n_outputs : 1, sizeof *out_src);
    int rc = 0;
    if (!c->inputs || !c->outputs || !c->in_descs || !c->out_descs || !c->in_bufs || !c->out_bufs || !in_src || !out_src) {
        rc = fail(x, "out of memory for %u tensors", (unsigned)(c->n_inputs + c->n_outputs));
        goto done;
    }
    char name[40];
    for (uint32_t i = 0; i < sc->n_slots && !rc; ++i) {
        const dmlref_tensor_slot *sl = &sc->slots[i];
        const int out = sl->is_output;
        for (uint32_t k = 0; k < map[i].count && !rc; ++k) {
            case_tensor *t = out ? &c->outputs[map[i].first + k] : &c->inputs[map[i].first + k];
            tensor_src *src = out ? &out_src[map[i].first + k] : &in_src[map[i].first + k];
            if (sl->is_array) snprintf(name, sizeof name, "%s[%u]", sl->name, (unsigned)k);
            else snprintf(name, sizeof name, "%s", sl->name);
            rc = parse_tensor(x, sl->is_array ? json_object_array_get_idx(map[i].value, k) : map[i].value, t, name, out, src);
            t->slot = sl->name;
            t->index = sl->is_array ? (int32_t)k : -1;
        }
    }
    if (!rc) rc = parse_moved(x, moved, c);
    if (rc) goto done;

    /* the desc: each slot points at its tensors (an array at the first, its count set) */
    for (uint32_t i = 0; i < c->n_inputs; ++i) c->in_descs[i] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &c->inputs[i].buf};
    for (uint32_t i = 0; i < c->n_outputs; ++i) c->out_descs[i] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &c->outputs[i].buf};
    for (uint32_t i = 0; i < sc->n_slots; ++i) {
        const dmlref_tensor_slot *sl = &sc->slots[i];
        const DMLREF_TENSOR_DESC *p = NULL;
        if (map[i].value) p = sl->is_output ? &c->out_descs[map[i].first] : &c->in_descs[map[i].first];
        memcpy((unsigned char *)c->desc_mem + sl->offset, &p, sizeof p);
        if (sl->is_array) desc_set_u32(c->desc_mem, sl->count_offset, map[i].count);
    }
    c->desc.Type = c->type;
    c->desc.Desc = c->desc_mem;

    dmlref_error derr;
    const dmlref_status vst = dmlref_validate(&c->desc, c->feature_level, &derr);
    if (vst != DMLREF_OK) {
        snprintf(x->err, x->errcap, "%s", derr.message);
        if (x->opts->verdict) *x->opts->verdict = derr;
        rc = vst == DMLREF_ERROR_CANNOT_VERIFY ? CASE_CANNOT_VERIFY : CASE_INVALID;
        goto done;
    }

    for (uint32_t i = 0; i < c->n_inputs && !rc; ++i) {
        case_tensor *t = &c->inputs[i];
        t->esize = dmlref_data_type_size(t->buf.DataType);
        rc = alloc_buffer(x, t);
    }
    for (uint32_t i = 0; i < c->n_outputs && !rc; ++i) {
        case_tensor *t = &c->outputs[i];
        t->esize = dmlref_data_type_size(t->buf.DataType);
        rc = alloc_buffer(x, t);
    }
    for (uint32_t i = 0; i < c->n_inputs && !rc; ++i) rc = fill_tensor(x, &c->inputs[i], &in_src[i]);
    for (uint32_t i = 0; i < c->n_outputs && !rc; ++i) rc = fill_tensor(x, &c->outputs[i], &out_src[i]);
    if (!rc && expected) rc = parse_expected(x, expected, c, map);
    if (rc) goto done;
    for (uint32_t i = 0; i < c->n_inputs; ++i) c->in_bufs[i] = (dmlref_cbuffer){c->inputs[i].data, c->inputs[i].bytes};
    for (uint32_t i = 0; i < c->n_outputs; ++i) c->out_bufs[i] = (dmlref_buffer){c->outputs[i].data, c->outputs[i].bytes};
done:
    free(in_src);
    free(out_src);
    return rc;
}

int case_parse_ex(const char *json_text, size_t len, const case_options *opts, dmlref_case *out, char *err,
                  size_t errcap) {
    static const case_options defaults = {NULL, 0, 0, NULL, NULL, NULL, NULL};
    char dummy[8];
    if (!err || errcap == 0) {
        err = dummy;
        errcap = sizeof dummy;
    }
    err[0] = '\0';
    memset(out, 0, sizeof *out);
    ctx x = {err, errcap, opts ? opts : &defaults, 0, 0};
    x.max_bytes = x.opts->max_bytes ? x.opts->max_bytes : CASE_DEFAULT_MAX_BYTES;
    json_object *root = jsonin_parse(json_text, len, err, errcap);
    /* json-c gives NULL for the valid document `null` too: no message then */
    if (!root) return err[0] ? CASE_MALFORMED : fail(&x, "the case must be a JSON object, got null");
    const int rc = parse_root(&x, root, out);
    json_object_put(root);
    if (rc) case_free(out);
    return rc;
}

int case_parse(const char *json_text, size_t len, const char *base_dir, dmlref_case *out, char *err, size_t errcap) {
    const case_options o = {base_dir, 0, 0, NULL, NULL, NULL, NULL};
    return case_parse_ex(json_text, len, &o, out, err, errcap);
}

int case_read_file(const char *path, size_t max_bytes, char **text, size_t *len, char *err, size_t errcap) {
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errcap, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        const size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        if (cap >= max_bytes) {
            free(buf);
            fclose(f);
            snprintf(err, errcap, "%s is larger than %zu bytes", path, max_bytes);
            return -1;
        }
        cap = cap > max_bytes / 2 ? max_bytes : cap * 2;
        char *nb = realloc(buf, cap + 1);
        if (!nb) free(buf);
        buf = nb;
    }
    if (!buf) {
        fclose(f);
        snprintf(err, errcap, "%s: out of memory", path);
        return -1;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        snprintf(err, errcap, "cannot read %s", path);
        return -1;
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* ---- results ------------------------------------------------------------------------------- */

/* value_format, but a NaN always as its bit pattern (a mismatch report must show the bits). */
static const char *exact_text(const unsigned char *p, DMLREF_TENSOR_DATA_TYPE dt, char *buf, size_t cap) {
    if (!value_is_nan(p, dt)) return value_format(p, dt, buf, cap);
    const uint32_t es = dmlref_data_type_size(dt);
    const uint64_t bits = value_load_bits(p, es); /* host order, as an integer of the element's width */
    snprintf(buf, cap, "\"0x%0*" PRIx64 "\"", (int)(2 * es), bits);
    return buf;
}

uint64_t case_compare(const dmlref_case *c, FILE *report, unsigned max_report) {
    uint64_t total = 0;
    char a[VALUE_TEXT_MAX], b[VALUE_TEXT_MAX];
    for (uint32_t k = 0; k < c->n_outputs; ++k) {
        const case_tensor *t = &c->outputs[k];
        if (!t->has_expected) continue;
        uint64_t diff = 0;
        for (uint64_t i = 0; i < t->expected_slots; ++i) {
            const unsigned char *got = t->data + i * t->esize, *want = t->expected + i * t->esize;
            if (t->any_nan[i] ? value_is_nan(got, t->buf.DataType) : memcmp(got, want, t->esize) == 0) continue;
            if (report && diff < max_report)
                fprintf(report, "%s[%" PRIu64 "]: expected %s, got %s\n", t->name, i,
                        t->any_nan[i] ? "\"nan\"" : exact_text(want, t->buf.DataType, a, sizeof a),
                        exact_text(got, t->buf.DataType, b, sizeof b));
            ++diff;
        }
        if (report && diff)
            fprintf(report, "%s: %" PRIu64 " of %" PRIu64 " compared values differ\n", t->name, diff, t->expected_slots);
        total += diff;
    }
    return total;
}
