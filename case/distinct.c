/*
 * The `distinct` fill (distinct.h): bench's unique scatter targets, written
 * as a case.  i -> (a i + b) mod 2^k is a bijection of [0, 2^k) for odd a.
 */
#include "distinct.h"
#include "fields.h"
#include "prng.h"
#include "value.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#define DISTINCT_MAX_DIMS 8

/* The largest value an integer type holds (0 for a float type). */
static uint64_t type_max(DMLREF_TENSOR_DATA_TYPE dt) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_UINT8: return UINT8_MAX;
    case DMLREF_TENSOR_DATA_TYPE_INT8: return INT8_MAX;
    case DMLREF_TENSOR_DATA_TYPE_UINT16: return UINT16_MAX;
    case DMLREF_TENSOR_DATA_TYPE_INT16: return INT16_MAX;
    case DMLREF_TENSOR_DATA_TYPE_UINT32: return UINT32_MAX;
    case DMLREF_TENSOR_DATA_TYPE_INT32: return INT32_MAX;
    case DMLREF_TENSOR_DATA_TYPE_UINT64: return UINT64_MAX;
    case DMLREF_TENSOR_DATA_TYPE_INT64: return INT64_MAX;
    default: return 0;
    }
}

int distinct_fill(const jv *obj, case_tensor *t, char *err, size_t errcap) {
    char path[96];
    const jv *seed = NULL, *modulus = NULL, *group = NULL, *unravel = NULL;
    if (!jv_is(obj, JV_OBJECT))
        return fields_fail(err, errcap, "%s.distinct: expected an object {\"seed\": S, \"modulus\": M}, got %s", t->name,
                    jv_kind_name(obj));
    for (size_t i = 0; i < jv_count(obj); ++i) {
        const char *key = jv_key(obj, i);
        const jv *val = fields_given(jv_value(obj, i));
        if (strcmp(key, "seed") == 0) seed = val;
        else if (strcmp(key, "modulus") == 0) modulus = val;
        else if (strcmp(key, "group") == 0) group = val;
        else if (strcmp(key, "unravel") == 0) unravel = val;
        else if (strcmp(key, "comment") != 0)
            return fields_fail(err, errcap, "%s.distinct: unknown key \"%.60s\" (seed, modulus, group, unravel)", t->name, key);
    }
    if (!seed || !modulus)
        return fields_fail(err, errcap, "%s.distinct: missing \"%s\"", t->name, !seed ? "seed" : "modulus");
    const uint64_t tmax = type_max(t->buf.DataType);
    if (!tmax)
        return fields_fail(err, errcap, "%s.distinct: needs an integer DataType, not %s", t->name,
                    dmlref_data_type_name(t->buf.DataType));
    int64_t s, m, g = 0;
    snprintf(path, sizeof path, "%s.distinct.seed", t->name);
    if (fields_get_int(seed, path, 0, INT64_MAX, &s, err, errcap)) return -1;
    snprintf(path, sizeof path, "%s.distinct.modulus", t->name);
    if (fields_get_int(modulus, path, 1, INT64_C(1) << 62, &m, err, errcap)) return -1;
    if ((m & (m - 1)) != 0) return fields_fail(err, errcap, "%s: %" PRId64 " is not a power of two", path, m);
    /* the coordinates' sizes: [M] when not unravelled */
    uint64_t dims[DISTINCT_MAX_DIMS] = {(uint64_t)m};
    size_t k = 1;
    if (unravel) {
        snprintf(path, sizeof path, "%s.distinct.unravel", t->name);
        if (!jv_is(unravel, JV_ARRAY) || jv_count(unravel) == 0 || jv_count(unravel) > DISTINCT_MAX_DIMS)
            return fields_fail(err, errcap, "%s: expected an array of 1 to %d sizes", path, DISTINCT_MAX_DIMS);
        k = jv_count(unravel);
        uint64_t prod = 1;
        for (size_t d = 0; d < k; ++d) {
            int64_t v;
            snprintf(path, sizeof path, "%s.distinct.unravel[%zu]", t->name, d);
            if (fields_get_int(jv_at(unravel, d), path, 1, m, &v, err, errcap)) return -1;
            dims[d] = (uint64_t)v;
            prod = prod > (uint64_t)m / (uint64_t)v ? (uint64_t)m + 1 : prod * (uint64_t)v;
        }
        if (prod != (uint64_t)m)
            return fields_fail(err, errcap, "%s.distinct.unravel: the sizes' product must equal modulus %" PRId64, t->name, m);
    }
    for (size_t d = 0; d < k; ++d)
        if (dims[d] - 1 > tmax)
            return fields_fail(err, errcap, "%s.distinct: values up to %" PRIu64 " do not fit %s", t->name, dims[d] - 1,
                        dmlref_data_type_name(t->buf.DataType));
    const uint64_t n_values = t->total_slots / k;
    if (group) {
        snprintf(path, sizeof path, "%s.distinct.group", t->name);
        if (fields_get_int(group, path, 1, m, &g, err, errcap)) return -1;
    } else if (n_values > (uint64_t)m) {
        return fields_fail(err, errcap, "%s.distinct: %" PRIu64 " values cannot be distinct below modulus %" PRId64
                                 " (give a group)", t->name, n_values, m);
    }
    const uint64_t per = g ? (uint64_t)g : n_values, mask = (uint64_t)m - 1;
    const uint32_t es = t->esize;
    prng r = {(uint64_t)s};
    uint64_t a = 1, b = 0;
    for (uint64_t i = 0; i < n_values; ++i) {
        const uint64_t j = i % per;
        if (j == 0) {
            a = (prng_next(&r) | 1) & mask;
            b = prng_next(&r) & mask;
        }
        uint64_t v = (a * j + b) & mask;
        for (size_t d = k; d-- > 0;) { /* row-major: the last coordinate varies fastest */
            value_store_bits(t->data + (i * k + d) * es, es, v % dims[d]);
            v /= dims[d];
        }
    }
    return 0; /* slots past the last whole value keep the buffer's zero fill */
}

int pooled_fill(const jv *obj, case_tensor *t, char *err, size_t errcap) {
    char path[96];
    const jv *seed = NULL, *window = NULL, *output = NULL;
    if (!jv_is(obj, JV_OBJECT))
        return fields_fail(err, errcap, "%s.pooled: expected an object {\"seed\": S, \"window\": [kh, kw], \"output\": [...]}, got %s",
                           t->name, jv_kind_name(obj));
    for (size_t i = 0; i < jv_count(obj); ++i) {
        const char *key = jv_key(obj, i);
        const jv *val = fields_given(jv_value(obj, i));
        if (strcmp(key, "seed") == 0) seed = val;
        else if (strcmp(key, "window") == 0) window = val;
        else if (strcmp(key, "output") == 0) output = val;
        else if (strcmp(key, "comment") != 0)
            return fields_fail(err, errcap, "%s.pooled: unknown key \"%.60s\" (seed, window, output)", t->name, key);
    }
    if (!seed || !window || !output)
        return fields_fail(err, errcap, "%s.pooled: missing \"%s\"", t->name, !seed ? "seed" : !window ? "window" : "output");
    const uint32_t n = t->buf.DimensionCount;
    const uint64_t tmax = type_max(t->buf.DataType);
    const DMLREF_TENSOR_DATA_TYPE dt = t->buf.DataType;
    if (!tmax || dt == DMLREF_TENSOR_DATA_TYPE_INT8 || dt == DMLREF_TENSOR_DATA_TYPE_INT16 ||
        dt == DMLREF_TENSOR_DATA_TYPE_INT32 || dt == DMLREF_TENSOR_DATA_TYPE_INT64)
        return fields_fail(err, errcap, "%s.pooled: needs an unsigned integer DataType, not %s", t->name,
                           dmlref_data_type_name(dt));
    if (n < 2 || n > DISTINCT_MAX_DIMS)
        return fields_fail(err, errcap, "%s.pooled: needs 2 to %d dimensions, not %" PRIu32, t->name, DISTINCT_MAX_DIMS, n);
    int64_t s, k[2];
    snprintf(path, sizeof path, "%s.pooled.seed", t->name);
    if (fields_get_int(seed, path, 0, INT64_MAX, &s, err, errcap)) return -1;
    snprintf(path, sizeof path, "%s.pooled.window", t->name);
    if (!jv_is(window, JV_ARRAY) || jv_count(window) != 2)
        return fields_fail(err, errcap, "%s: expected [kh, kw]", path);
    for (size_t d = 0; d < 2; ++d) {
        snprintf(path, sizeof path, "%s.pooled.window[%zu]", t->name, d);
        if (fields_get_int(jv_at(window, d), path, 1, 1 << 16, &k[d], err, errcap)) return -1;
    }
    snprintf(path, sizeof path, "%s.pooled.output", t->name);
    if (!jv_is(output, JV_ARRAY) || jv_count(output) != n)
        return fields_fail(err, errcap, "%s: expected %" PRIu32 " sizes (the tensor's DimensionCount)", path, n);
    uint64_t os[DISTINCT_MAX_DIMS], count = 1;
    for (uint32_t d = 0; d < n; ++d) {
        int64_t v;
        snprintf(path, sizeof path, "%s.pooled.output[%" PRIu32 "]", t->name, d);
        if (fields_get_int(jv_at(output, d), path, 1, UINT32_MAX, &v, err, errcap)) return -1;
        os[d] = (uint64_t)v;
        const uint64_t need = d + 2 < n ? t->sizes[d] : (uint64_t)t->sizes[d] * (uint64_t)k[d + 2 - n];
        if (d + 2 < n ? os[d] != need : os[d] < need)
            return fields_fail(err, errcap, "%s is %" PRIu64 "; the windows need %s%" PRIu64, path, os[d],
                               d + 2 < n ? "" : "at least ", need);
        count = count > UINT64_MAX / os[d] ? UINT64_MAX : count * os[d];
    }
    if (count - 1 > tmax)
        return fields_fail(err, errcap, "%s.pooled: flat indices up to %" PRIu64 " do not fit %s", t->name, count - 1,
                           dmlref_data_type_name(dt));
    uint64_t st[DISTINCT_MAX_DIMS], acc = 1, elements = 1;
    for (uint32_t d = n; d-- > 0;) { /* element strides: given or packed */
        st[d] = t->buf.Strides ? t->buf.Strides[d] : acc;
        acc *= t->sizes[d];
        elements *= t->sizes[d];
    }
    const uint64_t kh = (uint64_t)k[0], kw = (uint64_t)k[1];
    const uint32_t es = t->esize;
    prng r = {(uint64_t)s};
    uint32_t c[DISTINCT_MAX_DIMS] = {0};
    for (uint64_t e = 0; e < elements; ++e) {
        const uint64_t q = prng_next(&r) % (kh * kw);
        uint64_t v = 0, slot = 0;
        for (uint32_t d = 0; d < n; ++d) {
            uint64_t o = c[d];
            if (d == n - 2) o = o * kh + q / kw;
            if (d == n - 1) o = o * kw + q % kw;
            v = v * os[d] + o;
            slot += c[d] * st[d];
        }
        if (slot < t->total_slots) value_store_bits(t->data + slot * es, es, v);
        for (uint32_t d = n; d-- > 0;) { /* the next coordinate, row-major */
            if (++c[d] < t->sizes[d]) break;
            c[d] = 0;
        }
    }
    return 0;
}
