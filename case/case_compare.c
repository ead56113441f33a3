/*
 * Comparing a run's outputs with the case's `expected` values, byte for byte (a
 * slot written "nan" matches any NaN), with a report of the differences.
 */
#include "case.h"
#include "value.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        if (t->has_actual) {
            /* another backend's output: dmlref's is the reference */
            uint64_t diff = 0;
            for (uint64_t i = 0; i < t->actual_slots; ++i) {
                if (t->undefined && t->undefined[i]) continue; /* DirectML leaves it undefined */
                const unsigned char *ref = t->data + i * t->esize, *act = t->actual + i * t->esize;
                if (t->actual_nan[i] ? value_is_nan(ref, t->buf.DataType) : memcmp(ref, act, t->esize) == 0) continue;
                if (report && diff < max_report)
                    fprintf(report, "%s[%" PRIu64 "]: dmlref gives %s, actual %s\n", t->name, i,
                            exact_text(ref, t->buf.DataType, a, sizeof a),
                            t->actual_nan[i] ? "\"nan\"" : exact_text(act, t->buf.DataType, b, sizeof b));
                ++diff;
            }
            if (report && diff)
                fprintf(report, "%s: %" PRIu64 " of %" PRIu64 " values of `actual` differ from dmlref's\n", t->name, diff,
                        t->actual_slots);
            total += diff;
        }
        if (!t->has_expected) continue;
        uint64_t diff = 0;
        for (uint64_t i = 0; i < t->expected_slots; ++i) {
            if (t->undefined && t->undefined[i]) continue; /* DirectML leaves it undefined */
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

int case_mark_defined(case_tensor *t, uint64_t defined) {
    const uint32_t n = t->buf.DimensionCount;
    uint64_t count = 1;
    for (uint32_t d = 0; d < n; ++d) count *= t->sizes[d];
    free(t->undefined);
    t->undefined = NULL;
    t->defined = defined;
    if (defined >= count) return CASE_OK;
    t->undefined = calloc(t->total_slots ? (size_t)t->total_slots : 1, 1);
    if (!t->undefined) return CASE_OUT_OF_MEMORY;
    /* the elements from `defined` on, row-major: their slots (the strides computed or given) */
    uint64_t st[8];
    for (uint32_t d = n, a = 1; d-- > 0;) {
        st[d] = t->strides ? t->strides[d] : a;
        a *= t->sizes[d];
    }
    uint32_t c[8];
    uint64_t q = defined;
    for (uint32_t d = n; d-- > 0;) {
        c[d] = (uint32_t)(q % t->sizes[d]);
        q /= t->sizes[d];
    }
    for (uint64_t e = defined; e < count; ++e) {
        uint64_t slot = 0;
        for (uint32_t d = 0; d < n; ++d) slot += c[d] * st[d];
        if (slot < t->total_slots) t->undefined[slot] = 1;
        for (uint32_t d = n; d-- > 0;) {
            if (++c[d] < t->sizes[d]) break;
            c[d] = 0;
        }
    }
    return CASE_OK;
}
