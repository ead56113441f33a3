/* The outputs of a run as JSON (print.h, case_print_outputs in case.h). */
#include "print.h"

#include "case/json_out.h"
#include "case/logical.h"
#include "case/value.h"

#include <inttypes.h>
#include <stdlib.h>

/* One output; views[k] is its logical view under PRINT_LOGICAL. */
static void print_tensor(const case_tensor *t, const unsigned char *view, FILE *f, unsigned indent, unsigned flags) {
    fprintf(f, "{\"DataType\": \"%s\", \"Sizes\": ", dmlref_data_type_name(t->buf.DataType));
    jout_u32_list(f, t->sizes, t->buf.DimensionCount);
    if (view) {
        fprintf(f, ",\n%*s\"data\": ", (int)indent + 2, "");
        jout_nested(f, view, t->sizes, t->buf.DimensionCount, t->buf.DataType, flags, indent + 10);
        fputc('}', f);
        return;
    }
    if (t->strides) {
        fputs(", \"Strides\": ", f);
        jout_u32_list(f, t->strides, t->buf.DimensionCount);
    }
    if (t->total_given) fprintf(f, ", \"TotalTensorSizeInBytes\": %" PRIu64, t->buf.TotalTensorSizeInBytes);
    fprintf(f, ",\n%*s\"data\": ", (int)indent + 2, "");
    jout_values_ex(f, t->data, t->total_slots, t->buf.DataType, flags, 16, indent + 11);
    fputc('}', f);
}

static void print_all(const dmlref_case *c, unsigned char **views, FILE *f, unsigned flags) {
    fprintf(f, "{\n  \"operator\": \"%s\",\n  \"feature_level\": \"%s\",\n", c->op_name,
            dmlref_feature_level_name(c->feature_level));
    /* the outputs by slot: "Name": tensor, or "Name": [tensor, ...] for an array slot */
    for (uint32_t k = 0; k < c->n_outputs;) {
        const case_tensor *t = &c->outputs[k];
        if (k) fputs(",\n", f);
        if (t->index < 0) {
            fprintf(f, "  \"%s\": ", t->slot);
            print_tensor(t, views ? views[k] : NULL, f, 2, flags);
            ++k;
            continue;
        }
        fprintf(f, "  \"%s\": [\n", t->slot);
        for (;;) {
            fputs("    ", f);
            print_tensor(&c->outputs[k], views ? views[k] : NULL, f, 4, flags);
            ++k;
            const int more = k < c->n_outputs && c->outputs[k].slot == t->slot;
            fputs(more ? ",\n" : "\n", f);
            if (!more) break;
        }
        fputs("  ]", f);
    }
    fputs("\n}\n", f);
}

int case_print_outputs_ex(const dmlref_case *c, FILE *f, unsigned flags) {
    unsigned char **views = NULL;
    int rc = 0;
    if (flags & PRINT_LOGICAL) {
        views = calloc(c->n_outputs ? c->n_outputs : 1, sizeof *views);
        for (uint32_t k = 0; views && k < c->n_outputs && rc == 0; ++k)
            if (!(views[k] = logical_gather_alloc(&c->outputs[k], c->outputs[k].data))) rc = -1;
        if (!views) rc = -1;
    }
    if (rc == 0) print_all(c, views, f, flags);
    for (uint32_t k = 0; views && k < c->n_outputs; ++k) free(views[k]);
    free(views);
    return rc;
}

void case_print_outputs(const dmlref_case *c, FILE *f) { print_all(c, NULL, f, 0); }
