/* export's manifest.json (manifest.h). */
#include "manifest.h"

#include "case/fields.h"
#include "case/file_atomic.h"
#include "framework.h"
#include "case/json_out.h"
#include "case/logical.h"
#include "case/memout.h"
#include "case/npy.h"
#include "case/npyout.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "case" when the case's `expected` gave (and dmlref confirmed) the output, "run" when dmlref computed it. */
static const char *expected_from(const case_tensor *t) { return t->has_expected ? "case" : "run"; }

static const char *expected_from_all(const dmlref_case *c) {
    uint32_t given = 0;
    for (uint32_t k = 0; k < c->n_outputs; ++k) given += c->outputs[k].has_expected != 0;
    return given == c->n_outputs ? "case" : given == 0 ? "run" : "case+run";
}

/* 1 when the schema's slot holds indices (read them as integers; data elements are only moved). */
static int is_index(const dmlref_schema *s, const char *slot) {
    for (uint32_t k = 0; k < s->n_slots; ++k)
        if (strcmp(s->slots[k].name, slot) == 0) return s->slots[k].is_index;
    return 0;
}

static void write_u64_list(FILE *f, const uint64_t *v, uint32_t n) {
    fputc('[', f);
    for (uint32_t i = 0; i < n; ++i) fprintf(f, i ? ", %" PRIu64 : "%" PRIu64, v[i]);
    fputc(']', f);
}

static void write_tensor(FILE *f, const dmlref_case *c, const case_tensor *t) {
    char base[64];
    uint64_t strides[FW_MAX_DIMS];
    npyout_base(t, base, sizeof base);
    fprintf(f, "    {\"name\": \"%s\", \"slot\": \"%s\", ", base, t->slot);
    if (t->index >= 0) fprintf(f, "\"index\": %u, ", (unsigned)t->index);
    fprintf(f, "\"indices\": %s, \"DataType\": \"%s\", \"dtype\": \"%s\",\n     \"Sizes\": ",
            is_index(c->schema, t->slot) ? "true" : "false", dmlref_data_type_name(t->buf.DataType),
            npy_descr(t->buf.DataType));
    jout_u32_list(f, t->sizes, t->buf.DimensionCount);
    logical_strides(t, strides);
    fputs(", \"Strides\": ", f);
    write_u64_list(f, strides, t->buf.DimensionCount);
    fprintf(f, ", \"strides_given\": %s, \"TotalTensorSizeInBytes\": %" PRIu64 ",\n", t->strides ? "true" : "false",
            t->buf.TotalTensorSizeInBytes);
    fprintf(f, "     \"elements\": %" PRIu64 ", \"buffer_elements\": %" PRIu64 ", \"span_elements\": %" PRIu64 ",\n",
            logical_count(t), t->total_slots, t->span_slots);
    fprintf(f, "     \"buffer\": \"%s.npy\", \"slots\": \"%s.slots.npy\", \"logical\": \"%s.logical.npy\"", base, base,
            base);
    if (t->is_output) fprintf(f, ",\n     \"expected_from\": \"%s\"", expected_from(t));
    /* only the first defined_elements (row-major) are defined: a comparer masks the rest */
    if (t->is_output && t->undefined) fprintf(f, ", \"defined_elements\": %" PRIu64, t->defined);
    fputc('}', f);
}

static void write_tensors(FILE *f, const dmlref_case *c, const char *key, const case_tensor *ts, uint32_t n) {
    fprintf(f, "  \"%s\": [\n", key);
    for (uint32_t k = 0; k < n; ++k) {
        write_tensor(f, c, &ts[k]);
        fputs(k + 1 < n ? ",\n" : "\n", f);
    }
    fputs("  ],\n", f);
}

/* The framework form, or null when this command has none for the operator. */
static int write_framework(FILE *f, const dmlref_case *c) {
    fw_form form;
    form.in = calloc(c->n_inputs + 1, sizeof *form.in);
    form.out = calloc(c->n_outputs + 1, sizeof *form.out);
    int rc = form.in && form.out ? 0 : -1;
    const int frc = rc ? -1 : framework_form(c, &form);
    if (frc == CASE_OUT_OF_MEMORY) rc = -1; /* no verdict: not "no form" */
    fputs("  \"framework\": ", f);
    if (frc == 0) framework_write(f, c, &form, 2);
    else fputs("null", f);
    free(form.in);
    free(form.out);
    return rc;
}

static int write_document(FILE *f, const dmlref_case *c, const char *case_path, unsigned value_flags,
                          const char *extra) {
    fputs("{\n  \"format\": \"" MANIFEST_FORMAT "\",\n  \"case\": ", f);
    jout_string(f, case_path);
    fprintf(f, ",\n  \"operator\": \"%s\",\n  \"feature_level\": \"%s\",\n  \"expected_from\": \"%s\",\n", c->op_name,
            dmlref_feature_level_name(c->feature_level), expected_from_all(c));
    fputs("  \"parameters\": ", f);
    fields_write_params_object(f, c->schema, c->desc_mem, value_flags);
    fputs(",\n", f);
    write_tensors(f, c, "inputs", c->inputs, c->n_inputs);
    write_tensors(f, c, "outputs", c->outputs, c->n_outputs);
    const int rc = write_framework(f, c);
    if (extra) fputs(extra, f);
    fputs("\n}\n", f);
    return rc;
}

int manifest_write(const char *dir, const dmlref_case *c, const char *case_path, unsigned value_flags,
                   const char *extra, char *err, size_t errcap) {
    char *path = NULL;
    /* the text in memory (memout.h: a piece lost to a failed allocation is caught) */
    memout m;
    int rc = memout_open(&m);
    if (rc == 0) {
        const int frc = write_document(m.f, c, case_path, value_flags, extra);
        rc = memout_close(&m);
        if (frc) rc = CASE_OUT_OF_MEMORY;
    }
    const size_t plen = strlen(dir) + sizeof "/manifest.json";
    if (rc == 0 && (path = malloc(plen)) == NULL) rc = CASE_OUT_OF_MEMORY;
    if (rc != 0) {
        snprintf(err, errcap, "%s/manifest.json: out of memory", dir);
    } else {
        snprintf(path, plen, "%s/manifest.json", dir);
        const file_part part = {m.text, m.len};
        rc = file_write_atomic(path, &part, 1, err, errcap);
    }
    free(path);
    free(m.text);
    return rc;
}
