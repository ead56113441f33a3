#include "value.h"
#include "fp16.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int value_is_float(DMLREF_TENSOR_DATA_TYPE dt) {
    return dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16 || dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32 ||
           dt == DMLREF_TENSOR_DATA_TYPE_FLOAT64;
}

DMLREF_TENSOR_DATA_TYPE value_type_from_name(const char *name) {
    for (int t = 1; t <= 13; ++t) {
        const char *n = dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)t);
        if (n && strcmp(n, name) == 0) return (DMLREF_TENSOR_DATA_TYPE)t;
    }
    return DMLREF_TENSOR_DATA_TYPE_UNKNOWN;
}

static int is_integer_literal(const char *t) {
    if (*t == '-') ++t;
    if (!*t) return 0;
    for (; *t; ++t)
        if (*t < '0' || *t > '9') return 0;
    return 1;
}

void value_store_bits(void *out, uint32_t size, uint64_t bits) {
    switch (size) {
    case 1: { uint8_t v = (uint8_t)bits; memcpy(out, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)bits; memcpy(out, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)bits; memcpy(out, &v, 4); break; }
    default: memcpy(out, &bits, 8); break;
    }
}

uint64_t value_load_bits(const void *p, uint32_t size) {
    switch (size) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static int is_signed_int(DMLREF_TENSOR_DATA_TYPE dt) {
    return dt == DMLREF_TENSOR_DATA_TYPE_INT8 || dt == DMLREF_TENSOR_DATA_TYPE_INT16 ||
           dt == DMLREF_TENSOR_DATA_TYPE_INT32 || dt == DMLREF_TENSOR_DATA_TYPE_INT64;
}

int value_from_number(const char *text, DMLREF_TENSOR_DATA_TYPE dt, void *out, char *why, size_t whycap) {
    const uint32_t size = dmlref_data_type_size(dt);
    const char *name = dmlref_data_type_name(dt);
    char *end;
    if (size == 0) {
        snprintf(why, whycap, "data type %s has no element values", name ? name : "?");
        return -1;
    }
    if (!value_is_float(dt)) {
        if (!is_integer_literal(text)) {
            snprintf(why, whycap, "expected an integer for %s, got %s", name, text);
            return -1;
        }
        const uint32_t bits = 8 * size;
        if (is_signed_int(dt)) {
            errno = 0;
            const long long v = strtoll(text, &end, 10);
            const int64_t lo = bits == 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
            const int64_t hi = bits == 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1;
            if (errno == ERANGE || v < lo || v > hi) {
                snprintf(why, whycap, "%s is not representable in %s [%" PRId64 ", %" PRId64 "]", text, name, lo, hi);
                return -1;
            }
            value_store_bits(out, size, (uint64_t)(int64_t)v);
        } else {
            const uint64_t hi = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
            errno = 0;
            const unsigned long long v = text[0] == '-' ? 0 : strtoull(text, &end, 10);
            if (text[0] == '-' ? strcmp(text, "-0") != 0 : (errno == ERANGE || v > hi)) {
                snprintf(why, whycap, "%s is not representable in %s [0, %" PRIu64 "]", text, name, hi);
                return -1;
            }
            value_store_bits(out, size, (uint64_t)v);
        }
        return 0;
    }
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT64) {
        const double v = strtod(text, &end);
        if (*end || end == text) goto bad;
        if (isinf(v)) goto overflow;
        memcpy(out, &v, 8);
    } else if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
        const float v = strtof(text, &end);
        if (*end || end == text) goto bad;
        if (isinf(v)) goto overflow;
        memcpy(out, &v, 4);
    } else {
        uint16_t h;
        if (fp16_from_decimal(text, &h) != 0) goto bad;
        if ((h & 0x7fff) == 0x7c00) goto overflow;
        memcpy(out, &h, 2);
    }
    return 0;
bad:
    snprintf(why, whycap, "%s is not a number", text);
    return -1;
overflow:
    snprintf(why, whycap, "%s is beyond the finite range of %s (write \"inf\" for infinity)", text, name);
    return -1;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int value_from_string(const char *text, DMLREF_TENSOR_DATA_TYPE dt, void *out, int *is_nan_word, char *why,
                      size_t whycap) {
    const uint32_t size = dmlref_data_type_size(dt);
    const char *name = dmlref_data_type_name(dt);
    *is_nan_word = 0;
    if (size == 0) {
        snprintf(why, whycap, "data type %s has no element values", name ? name : "?");
        return -1;
    }
    if (text[0] == '0' && text[1] == 'x') {
        const size_t n = strlen(text + 2);
        uint64_t bits = 0;
        if (n != 2u * size) {
            snprintf(why, whycap, "bit pattern \"%.40s\" must have exactly %u hex digits for %s", text,
                     2u * size, name);
            return -1;
        }
        for (size_t i = 0; i < n; ++i) {
            const int h = hexval(text[2 + i]);
            if (h < 0) {
                snprintf(why, whycap, "bit pattern \"%.40s\" has a non-hex digit", text);
                return -1;
            }
            bits = bits << 4 | (uint64_t)h;
        }
        value_store_bits(out, size, bits);
        return 0;
    }
    const int is_nan = strcmp(text, "nan") == 0, is_inf = strcmp(text, "inf") == 0,
              is_ninf = strcmp(text, "-inf") == 0;
    if (!is_nan && !is_inf && !is_ninf) {
        snprintf(why, whycap, "expected a number, \"nan\", \"inf\", \"-inf\" or \"0x...\", got \"%.40s\"", text);
        return -1;
    }
    if (!value_is_float(dt)) {
        snprintf(why, whycap, "\"%s\" is not a value of the integer type %s", text, name);
        return -1;
    }
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16) {
        value_store_bits(out, 2, is_nan ? 0x7e00 : is_inf ? 0x7c00 : 0xfc00);
    } else if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
        value_store_bits(out, 4, is_nan ? 0x7fc00000u : is_inf ? 0x7f800000u : 0xff800000u);
    } else {
        value_store_bits(out, 8, is_nan ? UINT64_C(0x7ff8000000000000) : is_inf ? UINT64_C(0x7ff0000000000000)
                                                                       : UINT64_C(0xfff0000000000000));
    }
    *is_nan_word = is_nan;
    return 0;
}

int value_is_nan(const void *p, DMLREF_TENSOR_DATA_TYPE dt) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: {
        const uint64_t b = value_load_bits(p, 2);
        return (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0;
    }
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: {
        const uint64_t b = value_load_bits(p, 4);
        return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0;
    }
    case DMLREF_TENSOR_DATA_TYPE_FLOAT64: {
        const uint64_t b = value_load_bits(p, 8);
        return (b & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000) &&
               (b & UINT64_C(0x000fffffffffffff)) != 0;
    }
    default: return 0;
    }
}

const char *value_format(const void *p, DMLREF_TENSOR_DATA_TYPE dt, char *buf, size_t cap) {
    return value_format_ex(p, dt, 0, buf, cap);
}

const char *value_format_ex(const void *p, DMLREF_TENSOR_DATA_TYPE dt, unsigned flags, char *buf, size_t cap) {
    const uint32_t size = dmlref_data_type_size(dt);
    const uint64_t bits = value_load_bits(p, size ? size : 1);
    char why[8];
    if ((flags & VALUE_INT64_STRINGS) && (dt == DMLREF_TENSOR_DATA_TYPE_INT64 || dt == DMLREF_TENSOR_DATA_TYPE_UINT64)) {
        snprintf(buf, cap, "\"0x%016" PRIx64 "\"", bits);
        return buf;
    }
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_INT8: snprintf(buf, cap, "%d", (int)(int8_t)bits); break;
    case DMLREF_TENSOR_DATA_TYPE_INT16: snprintf(buf, cap, "%d", (int)(int16_t)bits); break;
    case DMLREF_TENSOR_DATA_TYPE_INT32: snprintf(buf, cap, "%" PRId32, (int32_t)bits); break;
    case DMLREF_TENSOR_DATA_TYPE_INT64: snprintf(buf, cap, "%" PRId64, (int64_t)bits); break;
    case DMLREF_TENSOR_DATA_TYPE_UINT8:
    case DMLREF_TENSOR_DATA_TYPE_UINT16:
    case DMLREF_TENSOR_DATA_TYPE_UINT32:
    case DMLREF_TENSOR_DATA_TYPE_UINT64: snprintf(buf, cap, "%" PRIu64, bits); break;
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16:
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32:
    case DMLREF_TENSOR_DATA_TYPE_FLOAT64: {
        static const uint64_t canon[3] = {0x7e00, 0x7fc00000u, UINT64_C(0x7ff8000000000000)};
        const int k = size == 2 ? 0 : size == 4 ? 1 : 2;
        double v;
        int hi;
        if (value_is_nan(p, dt)) {
            if (bits == canon[k]) snprintf(buf, cap, "\"nan\"");
            else snprintf(buf, cap, "\"0x%0*" PRIx64 "\"", (int)(2 * size), bits);
            break;
        }
        if (size == 2) { uint16_t h = (uint16_t)bits; v = fp16_to_double(h); hi = 5; }
        else if (size == 4) { float f; memcpy(&f, p, 4); v = f; hi = 9; }
        else { memcpy(&v, p, 8); hi = 17; }
        if (isinf(v)) {
            snprintf(buf, cap, v > 0 ? "\"inf\"" : "\"-inf\"");
            break;
        }
        /* the shortest %g precision that reads back to the same bits: reading back
         * is monotonic in the precision (more correctly rounded digits stay closer),
         * so a binary search over [1, hi] finds it; hi always reads back */
        int a = 1, b = hi;
        while (a < b) {
            const int mid = (a + b) / 2;
            unsigned char back[8];
            snprintf(buf, cap, "%.*g", mid, v);
            if (value_from_number(buf, dt, back, why, sizeof why) == 0 && memcmp(back, p, size) == 0) b = mid;
            else a = mid + 1;
        }
        snprintf(buf, cap, "%.*g", a, v);
        /* integral values print as integers (10, not 1e+01) while exactly so */
        if (strchr(buf, 'e') && fabs(v) < 1e16 && v == trunc(v)) snprintf(buf, cap, "%.0f", v);
        /* -0.0, not -0: JSON readers (Python's, many C ones) read "-0" as the integer 0
         * and lose the sign; "-0.0" is a float everywhere */
        if (v == 0 && signbit(v)) snprintf(buf, cap, "-0.0");
        break;
    }
    default: snprintf(buf, cap, "null"); break;
    }
    return buf;
}
