/*
 * The case model written as a case file (case.h's case_write_begin / _end): the
 * writing half of the case library, case_read.c being the reading one.  `dmlref
 * gen` writes its files through it, so its layout -- members, line breaks, the
 * order of tensors -- is the golden files' and must not drift.
 */
#include "case.h"
#include "descbuf.h"
#include "fields.h"
#include "json_out.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* A packed tensor's data as nested lists in its shape, from *slot on. */
static void write_nested(FILE *f, const case_tensor *t, uint32_t d, uint64_t *slot) {
    if (d + 1 == t->buf.DimensionCount) {
        jout_values(f, t->data + *slot * t->esize, t->sizes[d], t->buf.DataType, 0, 0);
        *slot += t->sizes[d];
        return;
    }
    fputc('[', f);
    for (uint32_t i = 0; i < t->sizes[d]; ++i) {
        if (i) fputs(", ", f);
        write_nested(f, t, d + 1, slot);
    }
    fputc(']', f);
}

static void write_tensor(FILE *f, const char *key, const case_tensor *t, int with_data, unsigned indent) {
    const DMLREF_BUFFER_TENSOR_DESC *b = &t->buf;
    if (key) fprintf(f, "  \"%s\": ", key);
    fprintf(f, "{\"DataType\": \"%s\", \"Sizes\": ", dmlref_data_type_name(b->DataType));
    jout_u32_list(f, b->Sizes, b->DimensionCount);
    if (b->Strides) {
        fputs(", \"Strides\": ", f);
        jout_u32_list(f, b->Strides, b->DimensionCount);
    }
    if (t->total_given) fprintf(f, ", \"TotalTensorSizeInBytes\": %" PRIu64, b->TotalTensorSizeInBytes);
    if (with_data) {
        fprintf(f, ",\n%*s\"data\": ", (int)indent + 2, "");
        if (t->nested && !b->Strides && b->DimensionCount > 1) {
            uint64_t slot = 0;
            write_nested(f, t, 0, &slot);
        } else {
            jout_values(f, t->data, t->whole ? t->total_slots : t->span_slots, b->DataType, 0, 0);
        }
    }
    fputc('}', f);
}

/* `  "Name": tensor,\n`, or for an array slot `  "Name": [\n    tensor,\n    ...\n  ],\n`. */
static void write_slot(FILE *f, const dmlref_tensor_slot *sl, const case_tensor *t, uint32_t n) {
    const int with_data = !sl->is_output;
    if (!sl->is_array) {
        write_tensor(f, sl->name, t, with_data, 2);
        fputs(",\n", f);
        return;
    }
    fprintf(f, "  \"%s\": [\n", sl->name);
    for (uint32_t k = 0; k < n; ++k) {
        fputs("    ", f);
        write_tensor(f, NULL, &t[k], with_data, 4);
        fputs(k + 1 < n ? ",\n" : "\n", f);
    }
    fputs("  ],\n", f);
}

/* The first of slot sl's tensors in c (NULL: an optional slot left out) and their count. */
static const case_tensor *slot_tensors(const dmlref_case *c, const dmlref_tensor_slot *sl, uint32_t *n) {
    const DMLREF_TENSOR_DESC *first;
    memcpy(&first, (const unsigned char *)c->desc_mem + sl->offset, sizeof first);
    if (!first) return NULL;
    *n = sl->is_array ? desc_get_u32(c->desc_mem, sl->count_offset) : 1;
    return sl->is_output ? c->outputs + (first - c->out_descs) : c->inputs + (first - c->in_descs);
}

void case_write_begin(FILE *f, const dmlref_case *c, const char *name, const char *comment) {
    fputs("{\n", f);
    if (name) {
        fputs("  \"name\": ", f);
        jout_string(f, name);
        fputs(",\n", f);
    }
    if (comment) {
        fputs("  \"comment\": ", f);
        jout_string(f, comment);
        fputs(",\n", f);
    }
    fprintf(f, "  \"operator\": \"%s\",\n  \"feature_level\": \"%s\",\n", c->schema->name,
            dmlref_feature_level_name(c->feature_level));
}

void case_write_end(FILE *f, const dmlref_case *c) {
    const dmlref_schema *s = c->schema;
    fields_write_params(f, s, c->desc_mem, 2);
    for (int out = 0; out < 2; ++out)
        for (uint32_t k = 0; k < s->n_slots; ++k) {
            const dmlref_tensor_slot *sl = &s->slots[k];
            uint32_t n = 0;
            const case_tensor *t = sl->is_output == out ? slot_tensors(c, sl, &n) : NULL;
            if (t) write_slot(f, sl, t, n);
        }
    /* expected values: an output without them is left out (in an array slot: null) */
    fputs("  \"expected\": {", f);
    int first_out = 1;
    for (uint32_t k = 0; k < s->n_slots; ++k) {
        const dmlref_tensor_slot *sl = &s->slots[k];
        uint32_t n = 0;
        const case_tensor *t = sl->is_output ? slot_tensors(c, sl, &n) : NULL;
        uint32_t with = 0;
        for (uint32_t j = 0; t && j < n; ++j) with += (uint32_t)(t[j].has_expected != 0);
        if (!with) continue;
        fprintf(f, "%s\"%s\": ", first_out ? "" : ", ", sl->name);
        first_out = 0;
        if (!sl->is_array) {
            jout_values(f, t->expected, t->expected_slots, t->buf.DataType, 0, 0);
            continue;
        }
        fputs("[\n", f);
        for (uint32_t j = 0; j < n; ++j) {
            fputs("    ", f);
            if (t[j].has_expected) jout_values(f, t[j].expected, t[j].expected_slots, t[j].buf.DataType, 0, 0);
            else fputs("null", f);
            fputs(j + 1 < n ? ",\n" : "\n", f);
        }
        fputs("  ]", f);
    }
    fputs("}\n}\n", f);
}
