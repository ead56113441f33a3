/*
 * A descriptor's parameter fields in case files, generic over the schema
 * (fields.h).
 */
#include "fields.h"
#include "status.h"
#include "value.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int fields_fail(char *err, size_t errcap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
    return -1;
}

void fields_store_free(fields_store *st) {
    for (size_t i = 0; i < st->n; ++i) free(st->blocks[i]);
    free(st->blocks);
    memset(st, 0, sizeof *st);
}

void *fields_store_alloc(fields_store *st, size_t bytes) {
    if (st->n == st->cap) {
        const size_t cap = st->cap ? 2 * st->cap : 8;
        void **b = realloc(st->blocks, cap * sizeof *b);
        if (!b) return NULL;
        st->blocks = b;
        st->cap = cap;
    }
    void *p = calloc(bytes ? bytes : 1, 1); /* malloc's alignment suits every field */
    if (p) st->blocks[st->n++] = p;
    return p;
}

static void set_ptr(void *desc, uint32_t offset, const void *p) { memcpy((unsigned char *)desc + offset, &p, sizeof p); }

static const void *get_ptr(const void *desc, uint32_t offset) {
    const void *p;
    memcpy(&p, (const unsigned char *)desc + offset, sizeof p);
    return p;
}

static int is_array_kind(dmlref_param_kind k) {
    return k == DMLREF_PARAM_UINT_ARRAY || k == DMLREF_PARAM_INT_ARRAY || k == DMLREF_PARAM_FLOAT_ARRAY;
}

/* ---- reading ---------------------------------------------------------------------------- */

const jv *fields_given(const jv *v) { return jv_is(v, JV_NULL) ? NULL : v; }

const jv *fields_member(const jv *obj, const char *key) { return fields_given(jv_get(obj, key)); }

int fields_get_int(const jv *v, const char *path, int64_t lo, int64_t hi, int64_t *out, char *err, size_t errcap) {
    const char *t = jv_number(v);
    if (t) {
        const int neg = t[0] == '-';
        int ok = t[neg] != '\0';
        for (const char *p = t + neg; *p; ++p) ok &= *p >= '0' && *p <= '9';
        if (ok) {
            errno = 0;
            const unsigned long long u = strtoull(t + neg, NULL, 10);
            if (errno == 0) {
                if (!neg && u <= (uint64_t)INT64_MAX && (int64_t)u >= lo && (int64_t)u <= hi) {
                    *out = (int64_t)u;
                    return 0;
                }
                if (neg && u == 0 && lo <= 0 && hi >= 0) {
                    *out = 0;
                    return 0;
                }
                if (neg && u <= (uint64_t)INT64_MAX + 1) {
                    const int64_t s = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
                    if (s >= lo && s <= hi) {
                        *out = s;
                        return 0;
                    }
                }
            }
        }
        return fields_fail(err, errcap, "%s: expected an integer in [%" PRId64 ", %" PRId64 "], got %.40s", path, lo, hi, t);
    }
    return fields_fail(err, errcap, "%s: expected an integer in [%" PRId64 ", %" PRId64 "], got %s", path, lo, hi,
                jv_kind_name(v));
}

/* A FLOAT: number (nearest FLOAT32, finite), "nan", "inf", "-inf" or "0x" + 8 hex digits. */
static int read_float(const jv *v, const char *path, float *out, char *err, size_t errcap) {
    char why[160];
    const char *num = jv_number(v);
    if (num) {
        if (value_from_number(num, DMLREF_TENSOR_DATA_TYPE_FLOAT32, out, why, sizeof why))
            return fields_fail(err, errcap, "%s: %s", path, why);
        return 0;
    }
    if (jv_is(v, JV_STRING)) {
        int is_nan = 0;
        if (value_from_string(jv_string(v), DMLREF_TENSOR_DATA_TYPE_FLOAT32, out, &is_nan, why, sizeof why))
            return fields_fail(err, errcap, "%s: %s", path, why);
        return 0;
    }
    return fields_fail(err, errcap, "%s: expected a number, \"nan\", \"inf\", \"-inf\" or \"0x...\", got %s", path,
                jv_kind_name(v));
}

static void enum_list(const dmlref_param *p, char *buf, size_t cap) {
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < p->enum_count && len < cap; ++i)
        if (p->enum_names[i]) len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", p->enum_names[i]);
}

static int read_array(const dmlref_schema *s, const dmlref_param *p, const jv *root, const jv *v, void *desc,
                      fields_store *st, char *err, size_t errcap) {
    char path[160];
    const int is_float = p->kind == DMLREF_PARAM_FLOAT_ARRAY;
    if (!jv_is(v, JV_ARRAY))
        return fields_fail(err, errcap, "%s: expected an array of %s, got %s", p->name,
                           is_float ? "FLOAT values" : "integers", jv_kind_name(v));
    const size_t n = jv_count(v);
    if (n > UINT32_MAX) return fields_fail(err, errcap, "%s: too many entries", p->name);
    const int is_int = p->kind == DMLREF_PARAM_INT_ARRAY;
    unsigned char *a = fields_store_alloc(st, n * 4);
    if (!a) {
        fields_fail(err, errcap, "%s: out of memory", p->name);
        return CASE_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < n; ++i) {
        int64_t x;
        snprintf(path, sizeof path, "%s[%zu]", p->name, i);
        if (is_float) {
            float fv;
            if (read_float(jv_at(v, i), path, &fv, err, errcap)) return -1;
            memcpy(a + 4 * i, &fv, 4);
            continue;
        }
        if (fields_get_int(jv_at(v, i), path, is_int ? INT32_MIN : 0, is_int ? INT32_MAX : UINT32_MAX,
                           &x, err, errcap))
            return -1;
        if (is_int) {
            const int32_t y = (int32_t)x;
            memcpy(a + 4 * i, &y, 4);
        } else {
            const uint32_t y = (uint32_t)x;
            memcpy(a + 4 * i, &y, 4);
        }
    }
    set_ptr(desc, p->offset, a);
    if (!p->count_name) return 0;
    /* the count field: given -> must equal the length; shared by several arrays -> equal lengths */
    const jv *cv = fields_member(root, p->count_name);
    if (cv) {
        int64_t c;
        if (fields_get_int(cv, p->count_name, 0, UINT32_MAX, &c, err, errcap)) return -1;
        if ((uint64_t)c != n)
            return fields_fail(err, errcap, "%s (%" PRId64 ") differs from the length of %s (%zu)", p->count_name, c, p->name, n);
    }
    /* arrays before this one (all read already) that share its count field */
    for (const dmlref_param *q = s->params; q < p; ++q)
        if (is_array_kind(q->kind) && q->count_name && q->count_offset == p->count_offset &&
            desc_get_u32(desc, p->count_offset) != n)
            return fields_fail(err, errcap, "%s: %zu entries, but %s has %u (both are counted by %s)", p->name, n, q->name,
                        (unsigned)desc_get_u32(desc, p->count_offset), p->count_name);
    desc_set_u32(desc, p->count_offset, (uint32_t)n);
    return 0;
}

static int read_one(const dmlref_schema *s, const dmlref_param *p, const jv *root, const jv *v, void *desc,
                    fields_store *st, char *err, size_t errcap) {
    unsigned char *at = (unsigned char *)desc + p->offset;
    char why[160], list[512];
    int64_t x;
    switch (p->kind) {
    case DMLREF_PARAM_UINT:
        if (fields_get_int(v, p->name, 0, UINT32_MAX, &x, err, errcap)) return -1;
        desc_set_u32(desc, p->offset, (uint32_t)x);
        return 0;
    case DMLREF_PARAM_INT: {
        if (fields_get_int(v, p->name, INT32_MIN, INT32_MAX, &x, err, errcap)) return -1;
        const int32_t y = (int32_t)x;
        memcpy(at, &y, 4);
        return 0;
    }
    case DMLREF_PARAM_UINT_ARRAY:
    case DMLREF_PARAM_INT_ARRAY:
    case DMLREF_PARAM_FLOAT_ARRAY:
        return read_array(s, p, root, v, desc, st, err, errcap);
    case DMLREF_PARAM_SIZE_2D: {
        static const char *const keys[2] = {"Width", "Height"};
        if (!jv_is(v, JV_OBJECT))
            return fields_fail(err, errcap, "%s: expected an object {Width, Height}, got %s", p->name, jv_kind_name(v));
        for (size_t k = 0; k < jv_count(v); ++k) {
            const char *key = jv_key(v, k);
            if (strcmp(key, keys[0]) != 0 && strcmp(key, keys[1]) != 0)
                return fields_fail(err, errcap, "%s: unknown key \"%.60s\" (Width, Height)", p->name, key);
        }
        char path[160];
        for (uint32_t i = 0; i < 2; ++i) {
            const jv *fv = fields_member(v, keys[i]);
            if (!fv) return fields_fail(err, errcap, "%s: missing \"%s\"", p->name, keys[i]);
            snprintf(path, sizeof path, "%s.%s", p->name, keys[i]);
            if (fields_get_int(fv, path, 0, UINT32_MAX, &x, err, errcap)) return -1;
            desc_set_u32(desc, p->offset + 4 * i, (uint32_t)x);
        }
        return 0;
    }
    case DMLREF_PARAM_BOOL: {
        if (!jv_is(v, JV_BOOL))
            return fields_fail(err, errcap, "%s: expected true or false, got %s", p->name, jv_kind_name(v));
        const int32_t y = v->u.b ? 1 : 0;
        memcpy(at, &y, 4);
        return 0;
    }
    case DMLREF_PARAM_FLOAT:
        return read_float(v, p->name, (float *)(void *)at, err, errcap);
    case DMLREF_PARAM_ENUM: {
        enum_list(p, list, sizeof list);
        const char *name = jv_string(v);
        if (!name)
            return fields_fail(err, errcap, "%s: expected the name of a value (%s), got %s", p->name, list,
                        jv_kind_name(v));
        for (uint32_t i = 0; i < p->enum_count; ++i)
            if (p->enum_names[i] && strcmp(p->enum_names[i], name) == 0) {
                desc_set_u32(desc, p->offset, i);
                return 0;
            }
        return fields_fail(err, errcap, "%s: unknown value \"%.40s\" (%s)", p->name, name, list);
    }
    case DMLREF_PARAM_SCALAR_UNION: {
        const DMLREF_TENSOR_DATA_TYPE dt = (DMLREF_TENSOR_DATA_TYPE)desc_get_u32(desc, p->type_offset);
        const uint32_t es = dmlref_data_type_size(dt);
        unsigned char bytes[8] = {0};
        if (es == 0 || es > 8)
            return fields_fail(err, errcap, "%s: its data type (%u) has no element values", p->name, (unsigned)dt);
        const char *num = jv_number(v);
        int is_nan = 0;
        if (num ? value_from_number(num, dt, bytes, why, sizeof why)
                : !jv_is(v, JV_STRING) ? (snprintf(why, sizeof why, "expected a value of %s, got %s",
                                                   dmlref_data_type_name(dt), jv_kind_name(v)),
                                          -1)
                                       : value_from_string(jv_string(v), dt, bytes, &is_nan, why, sizeof why))
            return fields_fail(err, errcap, "%s: %s", p->name, why);
        memset(at, 0, 8);
        memcpy(at, bytes, es);
        return 0;
    }
    case DMLREF_PARAM_STRUCT: {
        list[0] = '\0';
        for (uint32_t i = 0, len = 0; i < p->field_count && len < sizeof list; ++i)
            len += (uint32_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", p->field_names[i]);
        if (!jv_is(v, JV_OBJECT))
            return fields_fail(err, errcap, "%s: expected an object {%s}%s, got %s", p->name, list, p->is_optional ? " or null" : "",
                        jv_kind_name(v));
        for (size_t k = 0; k < jv_count(v); ++k) {
            const char *key = jv_key(v, k);
            uint32_t i = 0;
            while (i < p->field_count && strcmp(p->field_names[i], key) != 0) ++i;
            if (i == p->field_count) return fields_fail(err, errcap, "%s: unknown key \"%.60s\" (%s)", p->name, key, list);
        }
        unsigned char *obj = fields_store_alloc(st, p->struct_size);
        if (!obj) {
            fields_fail(err, errcap, "%s: out of memory", p->name);
            return CASE_OUT_OF_MEMORY;
        }
        char path[160];
        for (uint32_t i = 0; i < p->field_count; ++i) {
            const jv *fv = fields_member(v, p->field_names[i]);
            snprintf(path, sizeof path, "%s.%s", p->name, p->field_names[i]);
            if (!fv) return fields_fail(err, errcap, "%s: missing \"%s\"", p->name, p->field_names[i]);
            float f;
            if (read_float(fv, path, &f, err, errcap)) return -1;
            if ((i + 1) * sizeof f <= p->struct_size) memcpy(obj + i * sizeof f, &f, sizeof f);
        }
        set_ptr(desc, p->offset, obj);
        return 0;
    }
    }
    return fields_fail(err, errcap, "%s: a field of unknown kind %d", p->name, (int)p->kind);
}

int fields_read_params(const dmlref_schema *s, const jv *root, void *desc, fields_store *st, char *err,
                       size_t errcap) {
    for (int pass = 0; pass < 2; ++pass)
        for (uint32_t i = 0; i < s->n_params; ++i) {
            const dmlref_param *p = &s->params[i];
            if ((p->kind == DMLREF_PARAM_SCALAR_UNION) != (pass == 1)) continue;
            if (p->is_count || desc_is_array_count(s, p->name)) continue; /* derived from its array */
            /* absent or null: missing (NULL for an optional struct) */
            const jv *v = fields_member(root, p->name);
            if (!v) {
                if (p->kind == DMLREF_PARAM_STRUCT && p->is_optional) continue;
                return fields_fail(err, errcap, "missing \"%s\" (a field of %s)", p->name, s->name);
            }
            const int rc = read_one(s, p, root, v, desc, st, err, errcap);
            if (rc) return rc;
        }
    return 0;
}

/* ---- writing ---------------------------------------------------------------------------- */

static void write_float(FILE *f, float v) {
    char buf[VALUE_TEXT_MAX];
    fputs(value_format(&v, DMLREF_TENSOR_DATA_TYPE_FLOAT32, buf, sizeof buf), f);
}

static void write_value(FILE *f, const dmlref_param *p, const void *desc, unsigned value_flags) {
    const unsigned char *at = (const unsigned char *)desc + p->offset;
    char buf[VALUE_TEXT_MAX];
    switch (p->kind) {
    case DMLREF_PARAM_UINT:
        fprintf(f, "%" PRIu32, desc_get_u32(desc, p->offset));
        return;
    case DMLREF_PARAM_INT: {
        int32_t v;
        memcpy(&v, at, 4);
        fprintf(f, "%" PRId32, v);
        return;
    }
    case DMLREF_PARAM_UINT_ARRAY:
    case DMLREF_PARAM_INT_ARRAY: {
        const unsigned char *a = get_ptr(desc, p->offset);
        const uint32_t n = p->count_name ? desc_get_u32(desc, p->count_offset) : 0;
        fputc('[', f);
        for (uint32_t i = 0; a && i < n; ++i) {
            uint32_t u;
            memcpy(&u, a + 4 * i, 4);
            if (i) fputs(", ", f);
            if (p->kind == DMLREF_PARAM_INT_ARRAY) fprintf(f, "%" PRId32, (int32_t)u);
            else fprintf(f, "%" PRIu32, u);
        }
        fputc(']', f);
        return;
    }
    case DMLREF_PARAM_FLOAT: {
        float v;
        memcpy(&v, at, 4);
        write_float(f, v);
        return;
    }
    case DMLREF_PARAM_FLOAT_ARRAY: {
        const unsigned char *a = get_ptr(desc, p->offset);
        const uint32_t n = p->count_name ? desc_get_u32(desc, p->count_offset) : 0;
        fputc('[', f);
        for (uint32_t i = 0; a && i < n; ++i) {
            float v;
            memcpy(&v, a + 4 * i, 4);
            if (i) fputs(", ", f);
            write_float(f, v);
        }
        fputc(']', f);
        return;
    }
    case DMLREF_PARAM_SIZE_2D:
        fprintf(f, "{\"Width\": %" PRIu32 ", \"Height\": %" PRIu32 "}", desc_get_u32(desc, p->offset),
                desc_get_u32(desc, p->offset + 4));
        return;
    case DMLREF_PARAM_BOOL: {
        int32_t v;
        memcpy(&v, at, 4);
        fputs(v ? "true" : "false", f);
        return;
    }
    case DMLREF_PARAM_ENUM: {
        const uint32_t v = desc_get_u32(desc, p->offset);
        if (v < p->enum_count && p->enum_names[v]) fprintf(f, "\"%s\"", p->enum_names[v]);
        else fprintf(f, "%" PRIu32, v); /* no name: not readable back (the reader refuses numbers) */
        return;
    }
    case DMLREF_PARAM_SCALAR_UNION: {
        const DMLREF_TENSOR_DATA_TYPE dt = (DMLREF_TENSOR_DATA_TYPE)desc_get_u32(desc, p->type_offset);
        if (dmlref_data_type_size(dt) == 0) fputs("0", f);
        else fputs(value_format_ex(at, dt, value_flags, buf, sizeof buf), f);
        return;
    }
    case DMLREF_PARAM_STRUCT: {
        const unsigned char *obj = get_ptr(desc, p->offset);
        if (!obj) {
            fputs("null", f);
            return;
        }
        fputc('{', f);
        for (uint32_t i = 0; i < p->field_count && (i + 1) * 4 <= p->struct_size; ++i) {
            float v;
            memcpy(&v, obj + 4 * i, 4);
            fprintf(f, "%s\"%s\": ", i ? ", " : "", p->field_names[i]);
            write_float(f, v);
        }
        fputc('}', f);
        return;
    }
    }
    fputs("null", f);
}

/* Writes each parameter that is written (in schema order, counts last) as
 * `<before>"Name": value`, before = `first` for the first, `sep` for the others. */
static void write_params(FILE *f, const dmlref_schema *s, const void *desc, const char *first, const char *sep,
                         const char *after, unsigned indent, unsigned value_flags) {
    int n = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (uint32_t i = 0; i < s->n_params; ++i) {
            const dmlref_param *p = &s->params[i];
            const int is_count = p->is_count || desc_is_array_count(s, p->name);
            if (is_count != (pass == 1)) continue;
            if (p->kind == DMLREF_PARAM_STRUCT && p->is_optional && !get_ptr(desc, p->offset)) continue;
            fprintf(f, "%s%*s\"%s\": ", n++ ? sep : first, (int)indent, "", p->name);
            write_value(f, p, desc, value_flags);
            fputs(after, f);
        }
}

void fields_write_params(FILE *f, const dmlref_schema *s, const void *desc, unsigned indent) {
    write_params(f, s, desc, "", "", ",\n", indent, 0);
}

void fields_write_params_object(FILE *f, const dmlref_schema *s, const void *desc, unsigned value_flags) {
    fputc('{', f);
    write_params(f, s, desc, "", ", ", "", 0, value_flags);
    fputc('}', f);
}
