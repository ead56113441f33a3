/* Error recording and the status names (types.c: data types and feature levels). */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

#if DMLREF_MESSAGES
dmlref_status set_error(dmlref_error *err, dmlref_status code, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        err->rule[0] = '\0';
        err->field[0] = '\0';
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

dmlref_status set_rule_error(dmlref_error *err, dmlref_status code, const char *rule, const char *field,
                             const char *sub, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        snprintf(err->rule, sizeof err->rule, "%s", rule ? rule : "");
        if (field && sub) snprintf(err->field, sizeof err->field, "%s.%s", field, sub);
        else snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    }
    return code;
}
#else
/* DMLREF_MESSAGES=0 (include/dmlref.h): no formatting; the message is the rule id or empty. */

static void put_c(char *buf, size_t cap, size_t *n, char c) {
    if (*n + 1 < cap) buf[*n] = c;
    ++*n;
}

int dmlref_snprintf_(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap;
    size_t n = 0;
    va_start(ap, fmt);
    for (; *fmt; ++fmt) {
        if (*fmt != '%') {
            put_c(buf, cap, &n, *fmt);
            continue;
        }
        int longs = 0, size_t_arg = 0;
        for (++fmt; *fmt == 'l' || *fmt == 'h' || *fmt == 'z'; ++fmt) {
            if (*fmt == 'l') ++longs;
            if (*fmt == 'z') size_t_arg = 1;
        }
        const char conv = *fmt;
        if (conv == '\0') break;
        if (conv == 's') {
            for (const char *t = va_arg(ap, const char *); t && *t; ++t) put_c(buf, cap, &n, *t);
            continue;
        }
        if (conv == 'c') {
            put_c(buf, cap, &n, (char)va_arg(ap, int));
            continue;
        }
        if (conv != 'd' && conv != 'i' && conv != 'u' && conv != 'x') {
            put_c(buf, cap, &n, conv); /* %% and anything else: the character */
            continue;
        }
        uint64_t v;
        int neg = 0;
        if (conv == 'd' || conv == 'i') {
            const int64_t x = size_t_arg ? (int64_t)va_arg(ap, size_t)
                              : longs >= 2 ? (int64_t)va_arg(ap, long long)
                              : longs == 1 ? (int64_t)va_arg(ap, long)
                                           : (int64_t)va_arg(ap, int);
            neg = x < 0;
            v = neg ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        } else {
            v = size_t_arg ? (uint64_t)va_arg(ap, size_t)
                : longs >= 2 ? (uint64_t)va_arg(ap, unsigned long long)
                : longs == 1 ? (uint64_t)va_arg(ap, unsigned long)
                             : (uint64_t)va_arg(ap, unsigned);
        }
        const unsigned base = conv == 'x' ? 16 : 10;
        char digits[24];
        int k = 0;
        do {
            digits[k++] = "0123456789abcdef"[v % base];
            v /= base;
        } while (v);
        if (neg) put_c(buf, cap, &n, '-');
        while (k) put_c(buf, cap, &n, digits[--k]);
    }
    va_end(ap);
    if (cap) buf[n < cap ? n : cap - 1] = '\0';
    return (int)n;
}

static size_t copy_str(char *dst, size_t cap, size_t at, const char *src) {
    while (src && *src && at + 1 < cap) dst[at++] = *src++;
    dst[at] = '\0';
    return at;
}

dmlref_status set_error_code(dmlref_error *err, dmlref_status code) {
    if (err) {
        err->code = code;
        err->rule[0] = '\0';
        err->field[0] = '\0';
        err->message[0] = '\0';
    }
    return code;
}

dmlref_status set_rule_code(dmlref_error *err, dmlref_status code, const char *rule, const char *field,
                            const char *sub) {
    if (err) {
        err->code = code;
        copy_str(err->rule, sizeof err->rule, 0, rule);
        copy_str(err->message, sizeof err->message, 0, rule);
        size_t n = copy_str(err->field, sizeof err->field, 0, field);
        if (field && sub) copy_str(err->field, sizeof err->field, copy_str(err->field, sizeof err->field, n, "."), sub);
    }
    return code;
}
#endif

void field_name(char *buf, size_t cap, const char *base, uint32_t k) {
    char tmp[16];
    size_t n = 0, len = 0;
    const int indexed = k != FIELD_NO_INDEX;
    if (indexed) do tmp[n++] = (char)('0' + k % 10); while ((k /= 10) != 0);
    for (const char *c = base; *c && len + 1 < cap; ++c) buf[len++] = *c;
    if (indexed && len + 1 < cap) buf[len++] = '[';
    while (n && len + 1 < cap) buf[len++] = tmp[--n];
    if (indexed && len + 1 < cap) buf[len++] = ']';
    buf[len] = '\0';
}

const char *dmlref_status_name(dmlref_status status) {
    switch (status) {
#define S(x) case DMLREF_##x: return "DMLREF_" #x;
    S(OK) S(ERROR_NULL_POINTER) S(ERROR_FEATURE_LEVEL) S(ERROR_UNSUPPORTED_OPERATOR)
    S(ERROR_TENSOR_TYPE) S(ERROR_DATA_TYPE) S(ERROR_DIMENSION_COUNT) S(ERROR_SIZES)
    S(ERROR_PARAMETER) S(ERROR_TENSOR_SIZE) S(ERROR_TOO_LARGE) S(ERROR_OUTPUT_OVERLAP)
    S(ERROR_FLAGS) S(ERROR_ALIGNMENT) S(ERROR_BINDING) S(ERROR_INDEX_OUT_OF_RANGE)
    S(ERROR_DUPLICATE_INDEX) S(ERROR_OUT_OF_MEMORY) S(ERROR_OPTIONS) S(ERROR_HOST_LIMIT)
    S(ERROR_CANNOT_VERIFY)
#undef S
    }
    return "DMLREF_ERROR_UNKNOWN";
}
