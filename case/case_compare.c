/*
 * Comparing a run's outputs with the case's `expected` values, byte for byte (a
 * slot written "nan" matches any NaN), with a report of the differences.
 */
#include "case.h"
#include "value.h"

#include <inttypes.h>
#include <stdio.h>
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
