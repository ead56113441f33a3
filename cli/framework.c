/* The framework form of a case (framework.h): one function per operator, in one table. */
#include "framework.h"

#include "json_out.h"
#include "npyout.h"

#include <inttypes.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------------------------- */

/* The case's tensor in slot `slot` (the first of an array slot), or NULL. */
static const case_tensor *find(const dmlref_case *c, const char *slot, int is_output) {
    const case_tensor *ts = is_output ? c->outputs : c->inputs;
    const uint32_t n = is_output ? c->n_outputs : c->n_inputs;
    for (uint32_t k = 0; k < n; ++k)
        if (strcmp(ts[k].slot, slot) == 0) return &ts[k];
    return NULL;
}

/* The form's shape of tensor t. */
static fw_shape *shape_of(const dmlref_case *c, fw_form *f, const case_tensor *t) {
    return t->is_output ? &f->out[t - c->outputs] : &f->in[t - c->inputs];
}

/* t's Sizes from dimension `from` on. */
static void take_dims(const dmlref_case *c, fw_form *f, const case_tensor *t, uint32_t from) {
    fw_shape *s = shape_of(c, f, t);
    s->rank = 0;
    for (uint32_t d = from; d < t->buf.DimensionCount && s->rank < FW_MAX_DIMS; ++d) s->dims[s->rank++] = t->sizes[d];
}

/* Every tensor of the case from dimension `from` on. */
static void take_all(const dmlref_case *c, fw_form *f, uint32_t from) {
    for (uint32_t k = 0; k < c->n_inputs; ++k) take_dims(c, f, &c->inputs[k], from);
    for (uint32_t k = 0; k < c->n_outputs; ++k) take_dims(c, f, &c->outputs[k], from);
}

/* How many of t's first `limit` dimensions are leading 1s (DirectML's padding). */
static uint32_t leading_ones(const case_tensor *t, uint32_t limit) {
    uint32_t p = 0;
    while (p < limit && p < t->buf.DimensionCount && t->sizes[p] == 1) ++p;
    return p;
}

static void names(fw_form *f, const char *onnx, const char *webnn, const char *pytorch) {
    f->onnx = onnx;
    f->webnn = webnn;
    f->pytorch = pytorch;
}

static void axis(fw_form *f, uint32_t a) {
    f->has_axis = 1;
    f->axis = a;
}

/* A new list parameter (the table's functions add at most FW_MAX_LISTS). */
static fw_list *add_list(fw_form *f, const char *name) {
    fw_list *l = &f->lists[f->n_lists++];
    l->name = name;
    l->n = 0;
    return l;
}

/* ---- one function per operator ---------------------------------------------------------- */

/* ONNX Gather(data, indices, axis): data = Input without the leading 1s before Axis (G8's
 * cropped ones among them), indices = the IndexDimensions trailing dimensions of Indices (a
 * scalar for 0), output = data[:axis] + indices + data[axis+1:]. */
static int fw_gather(const dmlref_case *c, fw_form *f) {
    const DMLREF_GATHER_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *in = find(c, "InputTensor", 0), *idx = find(c, "IndicesTensor", 0),
                      *out = find(c, "OutputTensor", 1);
    if (!in || !idx || !out) return -1;
    const uint32_t n = in->buf.DimensionCount, k = d->IndexDimensions, p = leading_ones(in, d->Axis);
    names(f, "Gather", "gather", "index_select");
    axis(f, d->Axis - p);
    take_dims(c, f, in, p);
    take_dims(c, f, idx, n - k);
    fw_shape *o = shape_of(c, f, out);
    const fw_shape *ds = shape_of(c, f, in), *is = shape_of(c, f, idx);
    o->rank = 0;
    for (uint32_t a = 0; a < ds->rank && o->rank < FW_MAX_DIMS; ++a) {
        if (a != f->axis) {
            o->dims[o->rank++] = ds->dims[a];
            continue;
        }
        for (uint32_t t = 0; t < is->rank && o->rank < FW_MAX_DIMS; ++t) o->dims[o->rank++] = is->dims[t];
    }
    return 0;
}

/* ONNX GatherElements(data, indices, axis): every tensor without the leading 1s before Axis. */
static int fw_gather_elements(const dmlref_case *c, fw_form *f) {
    const DMLREF_GATHER_ELEMENTS_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *in = find(c, "InputTensor", 0);
    if (!in) return -1;
    const uint32_t p = leading_ones(in, d->Axis); /* E4: the indices have the same 1s there */
    names(f, "GatherElements", "gatherElements", "gather");
    axis(f, d->Axis - p);
    take_all(c, f, p);
    return 0;
}

/* ONNX ScatterND(data, indices, updates): data and output = the InputDimensionCount (R)
 * trailing dimensions, indices = the IndicesDimensionCount (Q) trailing ones (the last one
 * the tuple length T), updates = its (Q - 1) + (R - T) trailing ones (S8). */
static int fw_scatter_nd(const dmlref_case *c, fw_form *f) {
    const DMLREF_SCATTER_ND_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *in = find(c, "InputTensor", 0), *idx = find(c, "IndicesTensor", 0),
                      *upd = find(c, "UpdatesTensor", 0), *out = find(c, "OutputTensor", 1);
    if (!in || !idx || !upd || !out) return -1;
    const uint32_t n = in->buf.DimensionCount, r = d->InputDimensionCount, q = d->IndicesDimensionCount;
    const uint32_t t = idx->sizes[n - 1], m = (q - 1) + (r - t);
    names(f, "ScatterND", "scatterND", "index_put");
    take_dims(c, f, in, n - r);
    take_dims(c, f, out, n - r);
    take_dims(c, f, idx, n - q);
    take_dims(c, f, upd, n - m);
    return 0;
}

/* ONNX Split(input, split, axis): every tensor without the leading 1s of Input before Axis;
 * split = the outputs' sizes along axis. */
static int fw_split(const dmlref_case *c, fw_form *f) {
    const DMLREF_SPLIT_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *in = find(c, "InputTensor", 0);
    if (!in) return -1;
    const uint32_t p = leading_ones(in, d->Axis);
    names(f, "Split", "split", "split");
    axis(f, d->Axis - p);
    f->has_split = 1;
    take_all(c, f, p);
    return 0;
}

/* ONNX Concat(inputs, axis): every tensor without the leading 1s of Output before Axis. */
static int fw_join(const dmlref_case *c, fw_form *f) {
    const DMLREF_JOIN_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *out = find(c, "OutputTensor", 1);
    if (!out) return -1;
    const uint32_t p = leading_ones(out, d->Axis);
    names(f, "Concat", "concat", "cat");
    axis(f, d->Axis - p);
    take_all(c, f, p);
    return 0;
}

/* ONNX Identity: both tensors without their leading 1s (one dimension is kept). */
static int fw_identity(const dmlref_case *c, fw_form *f) {
    const case_tensor *in = find(c, "InputTensor", 0);
    if (!in) return -1;
    names(f, "Identity", "identity", "clone");
    take_all(c, f, leading_ones(in, in->buf.DimensionCount - 1));
    return 0;
}

/* ONNX ScatterElements(data, indices, updates, axis): every tensor without the leading 1s of
 * Input before Axis (SC4: the indices and updates have 1s there too). */
static int fw_scatter(const dmlref_case *c, fw_form *f) {
    const DMLREF_SCATTER_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *in = find(c, "InputTensor", 0);
    if (!in) return -1;
    const uint32_t p = leading_ones(in, d->Axis);
    names(f, "ScatterElements", "scatterElements", "scatter");
    axis(f, d->Axis - p);
    take_all(c, f, p);
    return 0;
}

/* ONNX Tile(input, repeats): both tensors without the leading dimensions where the input's size
 * and the repeat are both 1 (one dimension is kept); repeats from there on. */
static int fw_tile(const dmlref_case *c, fw_form *f) {
    const DMLREF_TILE_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *in = find(c, "InputTensor", 0);
    if (!in || !d->Repeats || d->RepeatsCount != in->buf.DimensionCount) return -1;
    uint32_t p = 0;
    while (p + 1 < d->RepeatsCount && in->sizes[p] == 1 && d->Repeats[p] == 1) ++p;
    names(f, "Tile", "tile", "tile");
    take_all(c, f, p);
    fw_list *r = add_list(f, "repeats");
    for (uint32_t k = p; k < d->RepeatsCount; ++k) r->v[r->n++] = d->Repeats[k];
    return 0;
}

static const struct {
    const char *op;
    int (*form)(const dmlref_case *, fw_form *);
} forms[] = {
    {"GATHER", fw_gather},
    {"GATHER_ELEMENTS", fw_gather_elements},
    {"SCATTER_ND", fw_scatter_nd},
    {"SPLIT", fw_split},
    {"JOIN", fw_join},
    {"ELEMENT_WISE_IDENTITY", fw_identity},
    {"TILE", fw_tile},
    {"SCATTER", fw_scatter},
};

int framework_form(const dmlref_case *c, fw_form *form) {
    fw_shape *in = form->in, *out = form->out;
    memset(form, 0, sizeof *form);
    form->in = in;
    form->out = out;
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; ++i)
        if (strcmp(forms[i].op, c->op_name) == 0) return forms[i].form(c, form);
    return -1;
}

/* ---- writing ----------------------------------------------------------------------------- */

static void write_shape(FILE *f, const case_tensor *t, const fw_shape *s, int first, unsigned indent) {
    char base[64];
    fprintf(f, "%s\n%*s\"%s\": ", first ? "" : ",", (int)indent + 4, "", npyout_base(t, base, sizeof base));
    jout_u32_list(f, s->dims, s->rank);
}

void framework_write(FILE *f, const dmlref_case *c, const fw_form *form, unsigned indent) {
    fputs("{\"onnx\": ", f);
    jout_string(f, form->onnx);
    fputs(", \"webnn\": ", f);
    jout_string(f, form->webnn);
    fputs(", \"pytorch\": ", f);
    jout_string(f, form->pytorch);
    if (form->has_axis) fprintf(f, ", \"axis\": %u", (unsigned)form->axis);
    if (form->has_split) {
        fputs(", \"split\": [", f);
        for (uint32_t k = 0; k < c->n_outputs; ++k) fprintf(f, k ? ", %u" : "%u", (unsigned)form->out[k].dims[form->axis]);
        fputc(']', f);
    }
    for (uint32_t l = 0; l < form->n_lists; ++l) {
        fprintf(f, ", \"%s\": [", form->lists[l].name);
        for (uint32_t k = 0; k < form->lists[l].n; ++k) fprintf(f, k ? ", %" PRId64 : "%" PRId64, form->lists[l].v[k]);
        fputc(']', f);
    }
    fprintf(f, ",\n%*s\"shapes\": {", (int)indent + 2, "");
    for (uint32_t k = 0; k < c->n_inputs; ++k) write_shape(f, &c->inputs[k], &form->in[k], k == 0, indent);
    for (uint32_t k = 0; k < c->n_outputs; ++k) write_shape(f, &c->outputs[k], &form->out[k], 0, indent);
    fprintf(f, "\n%*s}}", (int)indent + 2, "");
}
