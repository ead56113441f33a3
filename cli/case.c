/*
 * Case files: JSON (through jsonin/json-c) -> DMLREF descriptors and buffers.
 * See case.h and docs/case-format.md.
 */
#include "case.h"
#include "draw.h"
#include "json_out.h"
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

typedef struct op_schema {
    DMLREF_OPERATOR_TYPE type;
    const char *scalars[2];
    const char *tensors[4]; /* single tensors, binding order within inputs then outputs */
    int tensor_is_output[4];
    const char *array_name; /* JOIN InputTensors / SPLIT OutputTensors */
    const char *count_name;
    int array_is_output;
} op_schema;

static const op_schema schemas[] = {
    {DMLREF_OPERATOR_GATHER, {"Axis", "IndexDimensions"},
     {"InputTensor", "IndicesTensor", "OutputTensor", NULL}, {0, 0, 1, 0}, NULL, NULL, 0},
    {DMLREF_OPERATOR_GATHER_ELEMENTS, {"Axis", NULL},
     {"InputTensor", "IndicesTensor", "OutputTensor", NULL}, {0, 0, 1, 0}, NULL, NULL, 0},
    {DMLREF_OPERATOR_SCATTER_ND, {"InputDimensionCount", "IndicesDimensionCount"},
     {"InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor"}, {0, 0, 0, 1}, NULL, NULL, 0},
    {DMLREF_OPERATOR_SPLIT, {"Axis", NULL}, {"InputTensor", NULL, NULL, NULL}, {0, 0, 0, 0}, "OutputTensors",
     "OutputCount", 1},
    {DMLREF_OPERATOR_JOIN, {"Axis", NULL}, {"OutputTensor", NULL, NULL, NULL}, {1, 0, 0, 0}, "InputTensors",
     "InputCount", 0},
};

DMLREF_OPERATOR_TYPE case_operator_from_name(const char *name) {
    for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; ++i)
        if (strcmp(dmlref_operator_name(schemas[i].type), name) == 0) return schemas[i].type;
    return DMLREF_OPERATOR_INVALID;
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

enum { SRC_NONE, SRC_DATA, SRC_NPY, SRC_RANDOM };

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
        else if (strcmp(key, "data") == 0 || strcmp(key, "npy") == 0 || strcmp(key, "random") == 0) {
            if (src->kind != SRC_NONE) return fail(x, "%s: give only one of data, npy and random", name);
            src->kind = key[0] == 'd' ? SRC_DATA : key[0] == 'n' ? SRC_NPY : SRC_RANDOM;
            src->value = val;
        } else if (!ignorable(key))
            return fail(x, "%s: unknown key \"%.60s\" (a tensor has DataType, Sizes, Strides, "
                           "TotalTensorSizeInBytes, data, npy, random)", name, key);
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
    if (!is_output && src->kind == SRC_NONE) return fail(x, "%s: missing data (give data, npy or random)", name);
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
    free(c->in_bufs);
    free(c->out_bufs);
    memset(c, 0, sizeof *c);
}

static const op_schema *schema_of(DMLREF_OPERATOR_TYPE type) {
    for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; ++i)
        if (schemas[i].type == type) return &schemas[i];
    return NULL;
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
    if (posix_memalign(&mem, (size_t)al, total ? (size_t)total : 1) != 0) mem = NULL;
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
    return 0;
}

static int parse_expected(ctx *x, json_object *exp, dmlref_case *c, const op_schema *sc) {
    char base[PATH_MAX_LEN];
    if (json_object_get_type(exp) != json_type_object)
        return fail(x, "expected: expected an object mapping output names to lists, got %s", jsonin_kind(exp));
    json_object_object_foreach(exp, key, val) {
        if (ignorable(key)) continue;
        const int is_array = sc->array_is_output && strcmp(key, "OutputTensors") == 0;
        const int is_single = !sc->array_is_output && strcmp(key, "OutputTensor") == 0;
        if (!is_array && !is_single)
            return fail(x, "expected: unknown output \"%.60s\" (%s has %s)", key, c->op_name,
                        sc->array_is_output ? "OutputTensors" : "OutputTensor");
        size_t n = 1;
        if (is_array) {
            if (json_object_get_type(val) != json_type_array)
                return fail(x, "expected.OutputTensors: expected an array of lists, got %s", jsonin_kind(val));
            n = json_object_array_length(val);
            if (n != c->n_outputs)
                return fail(x, "expected.OutputTensors: %zu lists, but the case has %u outputs", n, (unsigned)c->n_outputs);
        }
        for (size_t i = 0; i < n; ++i) {
            json_object *list = is_array ? json_object_array_get_idx(val, i) : val;
            case_tensor *t = &c->outputs[i];
            if (is_array && !list) continue; /* null: not compared */
            if (is_array) snprintf(base, sizeof base, "expected.OutputTensors[%zu]", i);
            else snprintf(base, sizeof base, "expected.OutputTensor");
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

static int parse_root(ctx *x, json_object *root, dmlref_case *c) {
    json_object *op = NULL, *fl = NULL, *expected = NULL;
    if (json_object_get_type(root) != json_type_object)
        return fail(x, "the case must be a JSON object, got %s", jsonin_kind(root));
    op = json_object_object_get(root, "operator");
    if (!op) return fail(x, "missing \"operator\" (GATHER, GATHER_ELEMENTS, SCATTER_ND, SPLIT, JOIN)");
    if (!jsonin_is_string(op)) return fail(x, "operator: expected a string, got %s", jsonin_kind(op));
    c->type = case_operator_from_name(json_object_get_string(op));
    if (!c->type)
        return fail(x, "operator: unknown operator \"%.40s\" (GATHER, GATHER_ELEMENTS, SCATTER_ND, SPLIT, JOIN)",
                    json_object_get_string(op));
    c->op_name = dmlref_operator_name(c->type);
    const op_schema *sc = schema_of(c->type);

    json_object *scal[2] = {NULL, NULL}, *single[4] = {NULL, NULL, NULL, NULL}, *array = NULL, *count = NULL;
    json_object_object_foreach(root, key, val) {
        int known = 0;
        if (strcmp(key, "operator") == 0) known = 1;
        else if (strcmp(key, "feature_level") == 0) fl = val, known = 1;
        else if (strcmp(key, "expected") == 0) expected = val, known = 1;
        else if (ignorable(key)) known = 1;
        for (int i = 0; i < 2 && !known; ++i)
            if (sc->scalars[i] && strcmp(key, sc->scalars[i]) == 0) scal[i] = val, known = 1;
        for (int i = 0; i < 4 && !known; ++i)
            if (sc->tensors[i] && strcmp(key, sc->tensors[i]) == 0) single[i] = val, known = 1;
        if (!known && sc->array_name && strcmp(key, sc->array_name) == 0) array = val, known = 1;
        if (!known && sc->count_name && strcmp(key, sc->count_name) == 0) count = val, known = 1;
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

    uint64_t sv[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        if (!sc->scalars[i]) continue;
        if (!scal[i]) return fail(x, "missing \"%s\" (a field of %s)", sc->scalars[i], c->op_name);
        if (get_uint(x, scal[i], sc->scalars[i], 0, UINT32_MAX, &sv[i])) return CASE_MALFORMED;
    }
    for (int i = 0; i < 4; ++i)
        if (sc->tensors[i] && !single[i]) return fail(x, "missing \"%s\" (a tensor of %s)", sc->tensors[i], c->op_name);
    size_t n_array = 0;
    if (sc->array_name) {
        if (!array) return fail(x, "missing \"%s\" (an array of tensors)", sc->array_name);
        if (json_object_get_type(array) != json_type_array)
            return fail(x, "%s: expected an array of tensors, got %s", sc->array_name, jsonin_kind(array));
        n_array = json_object_array_length(array);
        if (count) {
            uint64_t v;
            if (get_uint(x, count, sc->count_name, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
            if (v != n_array)
                return fail(x, "%s (%" PRIu64 ") differs from the length of %s (%zu)", sc->count_name, v, sc->array_name, n_array);
        }
    }

    /* tensors, in binding order */
    uint32_t n_single_in = 0, n_single_out = 0;
    for (int i = 0; i < 4; ++i)
        if (sc->tensors[i]) {
            if (sc->tensor_is_output[i]) ++n_single_out;
            else ++n_single_in;
        }
    c->n_inputs = n_single_in + (uint32_t)(sc->array_name && !sc->array_is_output ? n_array : 0);
    c->n_outputs = n_single_out + (uint32_t)(sc->array_name && sc->array_is_output ? n_array : 0);
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
    uint32_t ni = 0, no = 0;
    char name[40];
    if (sc->array_name && !sc->array_is_output)
        for (size_t k = 0; k < n_array && !rc; ++k) {
            snprintf(name, sizeof name, "%s[%zu]", sc->array_name, k);
            rc = parse_tensor(x, json_object_array_get_idx(array, k), &c->inputs[ni], name, 0, &in_src[ni]);
            ++ni;
        }
    for (int i = 0; i < 4 && !rc; ++i) {
        if (!sc->tensors[i]) continue;
        if (sc->tensor_is_output[i]) {
            rc = parse_tensor(x, single[i], &c->outputs[no], sc->tensors[i], 1, &out_src[no]);
            ++no;
        } else {
            rc = parse_tensor(x, single[i], &c->inputs[ni], sc->tensors[i], 0, &in_src[ni]);
            ++ni;
        }
    }
    if (sc->array_name && sc->array_is_output)
        for (size_t k = 0; k < n_array && !rc; ++k) {
            snprintf(name, sizeof name, "%s[%zu]", sc->array_name, k);
            rc = parse_tensor(x, json_object_array_get_idx(array, k), &c->outputs[no], name, 1, &out_src[no]);
            ++no;
        }
    if (rc) goto done;

    for (uint32_t i = 0; i < c->n_inputs; ++i) c->in_descs[i] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &c->inputs[i].buf};
    for (uint32_t i = 0; i < c->n_outputs; ++i) c->out_descs[i] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &c->outputs[i].buf};
    switch (c->type) {
    case DMLREF_OPERATOR_GATHER:
        c->u.gather = (DMLREF_GATHER_OPERATOR_DESC){&c->in_descs[0], &c->in_descs[1], &c->out_descs[0], (uint32_t)sv[0], (uint32_t)sv[1]};
        break;
    case DMLREF_OPERATOR_GATHER_ELEMENTS:
        c->u.gather_elements = (DMLREF_GATHER_ELEMENTS_OPERATOR_DESC){&c->in_descs[0], &c->in_descs[1], &c->out_descs[0], (uint32_t)sv[0]};
        break;
    case DMLREF_OPERATOR_SCATTER_ND:
        c->u.scatter_nd = (DMLREF_SCATTER_ND_OPERATOR_DESC){&c->in_descs[0], &c->in_descs[1], &c->in_descs[2],
                                                            &c->out_descs[0], (uint32_t)sv[0], (uint32_t)sv[1]};
        break;
    case DMLREF_OPERATOR_SPLIT:
        c->u.split = (DMLREF_SPLIT_OPERATOR_DESC){&c->in_descs[0], c->n_outputs, c->out_descs, (uint32_t)sv[0]};
        break;
    default:
        c->u.join = (DMLREF_JOIN_OPERATOR_DESC){c->n_inputs, c->in_descs, &c->out_descs[0], (uint32_t)sv[0]};
        break;
    }
    c->desc.Type = c->type;
    c->desc.Desc = &c->u;

    dmlref_error derr;
    const dmlref_status vst = dmlref_validate(&c->desc, c->feature_level, &derr);
    if (vst != DMLREF_OK) {
        snprintf(x->err, x->errcap, "%s", derr.message);
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
    if (!rc && expected) rc = parse_expected(x, expected, c, sc);
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
    static const case_options defaults = {NULL, 0, 0};
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
    const case_options o = {base_dir, 0, 0};
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

static void print_tensor(const case_tensor *t, FILE *f, unsigned indent) {
    fprintf(f, "{\"DataType\": \"%s\", \"Sizes\": ", dmlref_data_type_name(t->buf.DataType));
    jout_u32_list(f, t->sizes, t->buf.DimensionCount);
    if (t->strides) {
        fputs(", \"Strides\": ", f);
        jout_u32_list(f, t->strides, t->buf.DimensionCount);
    }
    if (t->total_given) fprintf(f, ", \"TotalTensorSizeInBytes\": %" PRIu64, t->buf.TotalTensorSizeInBytes);
    fprintf(f, ",\n%*s\"data\": ", (int)indent + 2, "");
    jout_values(f, t->data, t->total_slots, t->buf.DataType, 16, indent + 11);
    fputc('}', f);
}

void case_print_outputs(const dmlref_case *c, FILE *f) {
    fprintf(f, "{\n  \"operator\": \"%s\",\n  \"feature_level\": \"%s\",\n", c->op_name,
            dmlref_feature_level_name(c->feature_level));
    if (c->type == DMLREF_OPERATOR_SPLIT) {
        fputs("  \"OutputTensors\": [\n", f);
        for (uint32_t k = 0; k < c->n_outputs; ++k) {
            fputs("    ", f);
            print_tensor(&c->outputs[k], f, 4);
            fputs(k + 1 < c->n_outputs ? ",\n" : "\n", f);
        }
        fputs("  ]\n}\n", f);
    } else {
        fputs("  \"OutputTensor\": ", f);
        print_tensor(&c->outputs[0], f, 2);
        fputs("\n}\n", f);
    }
}
