/* The result taxonomy's element comparison (classify.h). */
#include "classify.h"

#include "value.h"

static const char *const names[CLS_N] = {"pass",  "nan-payload",   "zero-sign",        "int64-53bit",    "unaddressed-bytes",
                                         "other", "backend-error", "type-unsupported", "not-expressible"};

const char *check_class_name(check_class c) { return (unsigned)c < CLS_N ? names[c] : "?"; }

int check_class_fails(check_class c) {
    return c == CLS_NAN_PAYLOAD || c == CLS_ZERO_SIGN || c == CLS_INT64_53BIT || c == CLS_OTHER ||
           c == CLS_BACKEND_ERROR;
}

/* The element's value as a double, rounded to nearest (volatile: no excess precision on x87). */
static double as_double(uint64_t bits, int is_signed) {
    volatile double d = is_signed ? (double)(int64_t)bits : (double)bits;
    return d;
}

/* 1 when got is what a round trip of want through a double gives: the same double, or the
 * result of converting an out-of-range double back (numpy on x86: -2^63; 0 or 2^63 for UINT64). */
static int double_rounded(uint64_t want, uint64_t got, int is_signed) {
    const uint64_t mag = is_signed && (int64_t)want < 0 ? 0 - want : want;
    if (mag < (UINT64_C(1) << 53)) return 0;
    const double dw = as_double(want, is_signed), dg = as_double(got, is_signed);
    if (dw == dg) return 1;
    if (is_signed) return dw >= 9223372036854775808.0 && got == UINT64_C(0x8000000000000000);
    return dw >= 18446744073709551616.0 && (got == 0 || got == UINT64_C(0x8000000000000000));
}

static check_class kind_of(DMLREF_TENSOR_DATA_TYPE dt, uint32_t es, const unsigned char *w, const unsigned char *g) {
    const uint64_t wb = value_load_bits(w, es), gb = value_load_bits(g, es);
    if (value_is_float(dt)) {
        if (value_is_nan(w, dt) && value_is_nan(g, dt)) return CLS_NAN_PAYLOAD;
        const uint64_t sign = UINT64_C(1) << (8 * es - 1);
        if ((wb & ~sign) == 0 && (gb & ~sign) == 0) return CLS_ZERO_SIGN;
        return CLS_OTHER;
    }
    if (dt == DMLREF_TENSOR_DATA_TYPE_INT64 || dt == DMLREF_TENSOR_DATA_TYPE_UINT64)
        return double_rounded(wb, gb, dt == DMLREF_TENSOR_DATA_TYPE_INT64) ? CLS_INT64_53BIT : CLS_OTHER;
    return CLS_OTHER;
}

check_class check_classify_elements(DMLREF_TENSOR_DATA_TYPE dt, const void *want, const void *got, uint64_t n,
                                    uint64_t *ndiff, uint64_t *first) {
    const uint32_t es = dmlref_data_type_size(dt);
    const unsigned char *w = want, *g = got;
    check_class c = CLS_PASS;
    uint64_t d = 0, f = n;
    for (uint64_t i = 0; i < n; ++i) {
        if (value_load_bits(w + i * es, es) == value_load_bits(g + i * es, es)) continue;
        if (!d++) f = i;
        const check_class k = kind_of(dt, es, w + i * es, g + i * es);
        c = c == CLS_PASS || c == k ? k : CLS_OTHER;
    }
    if (ndiff) *ndiff = d;
    if (first) *first = f;
    return c;
}

check_class check_class_merge(check_class a, check_class b) {
    if (a == CLS_PASS) return b;
    if (b == CLS_PASS || a == b) return a;
    return CLS_OTHER;
}
