/* The framework form of a case (framework.h): one function per operator, fw_<name>, in one
 * table derived from src/core/operators.def.  The fill values and numpy type names they give
 * come from framework_fill.c, the JSON from framework_write.c. */
#include "framework.h"
#include "framework_fill.h"

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

/* A new scalar integer parameter. */
static void add_int(fw_form *f, const char *name, int64_t v) {
    f->ints[f->n_ints].name = name;
    f->ints[f->n_ints++].v = v;
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
static int fw_element_wise_identity(const dmlref_case *c, fw_form *f) {
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

/* ONNX DepthToSpace / SpaceToDepth(input, blocksize, mode): both tensors as they are (exactly
 * 4-D, DS1); mode DCR for Order DEPTH_COLUMN_ROW (the v0 operators' only order), CRD for
 * COLUMN_ROW_DEPTH.  ONNX SpaceToDepth has no mode attribute (it is DCR): "mode" still says
 * which one the case is.  PyTorch pixel_shuffle / pixel_unshuffle are CRD. */
static int fw_depth_space(const dmlref_case *c, fw_form *f, int to_space, uint32_t block, uint32_t order) {
    if (c->n_inputs != 1 || c->n_outputs != 1) return -1;
    const int crd = order == DMLREF_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH;
    if (to_space) names(f, "DepthToSpace", "reshape+transpose", crd ? "pixel_shuffle" : "reshape+permute");
    else names(f, "SpaceToDepth", "reshape+transpose", crd ? "pixel_unshuffle" : "reshape+permute");
    take_all(c, f, 0);
    f->mode = crd ? "CRD" : "DCR";
    add_int(f, "blocksize", block);
    return 0;
}
static int fw_depth_to_space(const dmlref_case *c, fw_form *f) {
    const DMLREF_DEPTH_TO_SPACE_OPERATOR_DESC *d = c->desc_mem;
    return fw_depth_space(c, f, 1, d->BlockSize, DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}
static int fw_space_to_depth(const dmlref_case *c, fw_form *f) {
    const DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC *d = c->desc_mem;
    return fw_depth_space(c, f, 0, d->BlockSize, DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}
static int fw_depth_to_space1(const dmlref_case *c, fw_form *f) {
    const DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC *d = c->desc_mem;
    return fw_depth_space(c, f, 1, d->BlockSize, d->Order);
}
static int fw_space_to_depth1(const dmlref_case *c, fw_form *f) {
    const DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC *d = c->desc_mem;
    return fw_depth_space(c, f, 0, d->BlockSize, d->Order);
}

/* ONNX Slice(data, starts, ends, axes, steps): both tensors without the input's leading 1s (one
 * dimension is kept); per remaining dimension, output element o reads start + step*o for the
 * output's size n: ends = start + step*(n-1) + sign(step), exclusive, and -(size+1) where that
 * is -1 (a negative step running to the first element: ONNX would read -1 as the last). */
static int fw_slice_common(const dmlref_case *c, fw_form *f, const uint32_t *offsets, const uint32_t *windows,
                           const int64_t *steps, uint32_t count) {
    const case_tensor *in = find(c, "InputTensor", 0), *out = find(c, "OutputTensor", 1);
    if (!in || !out || !offsets || !steps || count != in->buf.DimensionCount) return -1;
    const uint32_t p = leading_ones(in, count - 1);
    names(f, "Slice", "slice", "getitem+flip");
    take_all(c, f, p);
    fw_list *st = add_list(f, "starts"), *en = add_list(f, "ends"), *ax = add_list(f, "axes"),
            *sp = add_list(f, "steps");
    for (uint32_t k = p; k < count; ++k) {
        const int64_t s = steps[k], n = out->sizes[k];
        const int64_t start = s > 0 ? (int64_t)offsets[k] : (int64_t)offsets[k] + (windows ? windows[k] : 1) - 1;
        int64_t end = start + s * (n - 1) + (s > 0 ? 1 : -1);
        if (end < 0) end = -(int64_t)in->sizes[k] - 1;
        st->v[st->n++] = start;
        en->v[en->n++] = end;
        ax->v[ax->n++] = k - p;
        sp->v[sp->n++] = s;
    }
    return 0;
}
/* SLICE: start = Offsets, step = Strides (>= 1), n = Sizes = Output.Sizes. */
static int fw_slice(const dmlref_case *c, fw_form *f) {
    const DMLREF_SLICE_OPERATOR_DESC *d = c->desc_mem;
    int64_t steps[FW_MAX_DIMS];
    if (!d->Strides || d->DimensionCount > FW_MAX_DIMS) return -1;
    for (uint32_t k = 0; k < d->DimensionCount; ++k) steps[k] = d->Strides[k];
    return fw_slice_common(c, f, d->Offsets, NULL, steps, d->DimensionCount);
}
/* SLICE1: a positive stride starts at the window's first element, a negative one at its last. */
static int fw_slice1(const dmlref_case *c, fw_form *f) {
    const DMLREF_SLICE1_OPERATOR_DESC *d = c->desc_mem;
    int64_t steps[FW_MAX_DIMS];
    if (!d->InputWindowStrides || !d->InputWindowSizes || d->DimensionCount > FW_MAX_DIMS) return -1;
    for (uint32_t k = 0; k < d->DimensionCount; ++k) steps[k] = d->InputWindowStrides[k];
    return fw_slice_common(c, f, d->InputWindowOffsets, d->InputWindowSizes, steps, d->DimensionCount);
}

/* ONNX GatherND(data, indices, batch_dims): data = the InputDimensionCount (R) trailing
 * dimensions, indices = the IndicesDimensionCount (Q) trailing ones, output = its
 * M = (Q - 1) + (R - B - T) trailing ones (GN8: indices.shape[:-1] ++ data.shape[B+T:]). */
static int fw_gather_nd_common(const dmlref_case *c, fw_form *f, uint32_t r, uint32_t q, uint32_t b) {
    const case_tensor *in = find(c, "InputTensor", 0), *idx = find(c, "IndicesTensor", 0),
                      *out = find(c, "OutputTensor", 1);
    if (!in || !idx || !out) return -1;
    const uint32_t n = in->buf.DimensionCount, t = idx->sizes[n - 1], m = (q - 1) + (r - b - t);
    names(f, "GatherND", "gatherND", "getitem");
    take_dims(c, f, in, n - r);
    take_dims(c, f, idx, n - q);
    take_dims(c, f, out, n - m);
    add_int(f, "batch_dims", b);
    return 0;
}
static int fw_gather_nd(const dmlref_case *c, fw_form *f) {
    const DMLREF_GATHER_ND_OPERATOR_DESC *d = c->desc_mem;
    return fw_gather_nd_common(c, f, d->InputDimensionCount, d->IndicesDimensionCount, 0);
}
static int fw_gather_nd1(const dmlref_case *c, fw_form *f) {
    const DMLREF_GATHER_ND1_OPERATOR_DESC *d = c->desc_mem;
    return fw_gather_nd_common(c, f, d->InputDimensionCount, d->IndicesDimensionCount, d->BatchDimensionCount);
}

/* ONNX OneHot(indices, depth, values, axis): the output without its leading 1s before Axis
 * (one dimension is kept), the indices the same without Axis (their size-1 dimension there,
 * OH4: a scalar when nothing is left); depth = Output.Sizes[Axis]; values = Values without its
 * leading 1s: flattened, its first two elements are [off, on] (OH5's `on` is always the second
 * element), ONNX's values = values.reshape(-1)[:2]. */
static int fw_one_hot(const dmlref_case *c, fw_form *f) {
    const DMLREF_ONE_HOT_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *idx = find(c, "IndicesTensor", 0), *val = find(c, "ValuesTensor", 0),
                      *out = find(c, "OutputTensor", 1);
    if (!idx || !val || !out || d->Axis >= out->buf.DimensionCount) return -1;
    const uint32_t n = out->buf.DimensionCount, p = leading_ones(out, d->Axis);
    names(f, "OneHot", "oneHot", "one_hot");
    axis(f, d->Axis - p);
    take_dims(c, f, out, p);
    fw_shape *is = shape_of(c, f, idx);
    is->rank = 0;
    for (uint32_t k = p; k < n; ++k)
        if (k != d->Axis) is->dims[is->rank++] = idx->sizes[k];
    take_dims(c, f, val, leading_ones(val, val->buf.DimensionCount - 1));
    add_int(f, "depth", out->sizes[d->Axis]);
    return 0;
}

/* ONNX EyeLike / Trilu (a stack of matrices: the last two dimensions): every tensor without the
 * output's leading 1s before its last two dimensions; the band of diagonals x - y in
 * [begin, end) (begin > end: everything outside [end, begin)) takes the fill, "value_bits"
 * (one element of "dtype", as hex), every other element the input's (DIAGONAL_MATRIX1 with an
 * InputTensor) or 0. */
static int fw_diagonal_common(const dmlref_case *c, fw_form *f, int64_t begin, int64_t end, uint64_t bits) {
    const case_tensor *out = find(c, "OutputTensor", 1);
    if (!out || out->buf.DimensionCount < 2 || !fw_set_dtype(f, out->buf.DataType)) return -1;
    names(f, end == begin + 1 ? "EyeLike" : "Trilu", "triangular", end == begin + 1 ? "eye" : "triu");
    take_all(c, f, leading_ones(out, out->buf.DimensionCount - 2));
    add_int(f, "begin", begin);
    add_int(f, "end", end);
    f->has_value = 1;
    f->value_bits = bits;
    return 0;
}
static int fw_diagonal_matrix(const dmlref_case *c, fw_form *f) {
    const DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *out = find(c, "OutputTensor", 1);
    uint64_t bits;
    if (!out) return -1;
    const int rc = fw_fill_from_float(DMLREF_OPERATOR_DIAGONAL_MATRIX, out->buf.DataType, d->Value, &bits);
    if (rc) return rc;
    return fw_diagonal_common(c, f, d->Offset, (int64_t)d->Offset + 1, bits);
}
static int fw_diagonal_matrix1(const dmlref_case *c, fw_form *f) {
    const DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *out = find(c, "OutputTensor", 1);
    uint64_t bits;
    if (!out || fw_fill_from_union(&d->Value, out->esize, &bits) != 0) return -1;
    return fw_diagonal_common(c, f, d->DiagonalFillBegin, d->DiagonalFillEnd, bits);
}

/* ONNX Pad(data, pads, constant_value, mode): both tensors without the leading dimensions where
 * the input's size is 1 and both pads are 0 (one dimension is kept); pads in ONNX's order
 * [x1_begin, x2_begin, ..., x1_end, x2_end, ...] from there on; mode = ONNX's name (constant,
 * edge, reflect, wrap) or, for SYMMETRIC, which ONNX lacks, "symmetric".  CONSTANT gives the fill
 * as "dtype" and "value_bits", as the diagonal forms do. */
static int fw_padding_common(const dmlref_case *c, fw_form *f, uint32_t mode, uint32_t count, const uint32_t *start,
                             const uint32_t *end, uint64_t bits) {
    static const char *const modes[] = {"constant", "edge", "reflect", "symmetric", "wrap"};
    const case_tensor *in = find(c, "InputTensor", 0), *out = find(c, "OutputTensor", 1);
    if (!in || !out || !start || !end || count != in->buf.DimensionCount || count == 0 ||
        mode >= sizeof modes / sizeof modes[0])
        return -1;
    uint32_t p = 0;
    while (p + 1 < count && in->sizes[p] == 1 && start[p] == 0 && end[p] == 0) ++p;
    names(f, "Pad", "pad", "pad");
    take_all(c, f, p);
    f->mode = modes[mode];
    fw_list *pads = add_list(f, "pads");
    for (uint32_t k = p; k < count; ++k) pads->v[pads->n++] = start[k];
    for (uint32_t k = p; k < count; ++k) pads->v[pads->n++] = end[k];
    if (mode == DMLREF_PADDING_MODE_CONSTANT) {
        if (!fw_set_dtype(f, out->buf.DataType)) return -1;
        f->has_value = 1;
        f->value_bits = bits;
    }
    return 0;
}
/* PADDING: the FLOAT PaddingValue converted to the element type (fw_fill_from_float). */
static int fw_padding(const dmlref_case *c, fw_form *f) {
    const DMLREF_PADDING_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *out = find(c, "OutputTensor", 1);
    uint64_t bits;
    if (!out) return -1;
    const int rc = fw_fill_from_float(DMLREF_OPERATOR_PADDING, out->buf.DataType, d->PaddingValue, &bits);
    if (rc) return rc;
    return fw_padding_common(c, f, (uint32_t)d->PaddingMode, d->DimensionCount, d->StartPadding, d->EndPadding,
                             bits);
}
/* PADDING1: the scalar union's element as it is. */
static int fw_padding1(const dmlref_case *c, fw_form *f) {
    const DMLREF_PADDING1_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *out = find(c, "OutputTensor", 1);
    uint64_t bits;
    if (!out || fw_fill_from_union(&d->PaddingValue, out->esize, &bits) != 0) return -1;
    return fw_padding_common(c, f, (uint32_t)d->PaddingMode, d->DimensionCount, d->StartPadding, d->EndPadding, bits);
}

/* ONNX ReverseSequence(input, sequence_lens, time_axis): every tensor without the leading 1s of
 * Input before Axis (RS3: the lengths have them too); axis = the time axis.  The lengths keep
 * the input's shape with a 1 on the axis: one length per sequence, clamped to the axis's size
 * (ONNX's one batch axis is the rest flattened, the axis moved first). */
static int fw_reverse_subsequences(const dmlref_case *c, fw_form *f) {
    const DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *in = find(c, "InputTensor", 0);
    if (!in || !find(c, "SequenceLengthsTensor", 0) || d->Axis >= in->buf.DimensionCount) return -1;
    const uint32_t p = leading_ones(in, d->Axis);
    names(f, "ReverseSequence", "where+gatherElements", "flip");
    axis(f, d->Axis - p);
    take_all(c, f, p);
    return 0;
}

/* ONNX Resize(X, roi, scales), mode nearest (opset 13), every tensor as it is, for the RESAMPLE
 * family's source index (docs/operators.md Q11.3) with effective input offset in_off, output offset
 * out_off and floor (decreasing) or ceil: expressible exactly where ONNX Runtime's float32
 * arithmetic is the same one and its output size is the case's (Q11.5 read backwards):
 *   (InOff, OutOff) = (0, 0) asymmetric: o / s;  (0, -0.5) tf_half_pixel_for_nn: (o + 0.5) / s;
 *   (0.5, -0.5) half_pixel: (o + 0.5) / s - 0.5;  nearest_mode floor (DECREASING) or ceil
 *   (INCREASING), the same pair in every dimension whose input size is above 1 (a size-1
 *   dimension maps every o to 0 whatever the pair);
 *   Output.Sizes[d] == floor(In.Sizes[d] * Scales[d]), exactly and in float32 alike.
 * Not expressible (-1): any other pair (ONNX's round_prefer_* modes round x - 0.5 once more
 * than DirectML's adjusted offset does: they can differ within an ulp of a half), different
 * pairs per dimension, or an output size ONNX would not compute from the scales (crops). */
static int fw_resample_nearest(const dmlref_case *c, fw_form *f, uint32_t n, const float *scale, const float *in_off,
                               const float *out_off, int decreasing) {
    static const struct {
        float in_off, out_off;
        const char *mode;
    } modes[3] = {{0.0f, 0.0f, "asymmetric"}, {0.0f, -0.5f, "tf_half_pixel_for_nn"}, {0.5f, -0.5f, "half_pixel"}};
    const case_tensor *in = find(c, "InputTensor", 0), *out = find(c, "OutputTensor", 1);
    if (!in || !out || !scale || n != in->buf.DimensionCount || n != out->buf.DimensionCount || n > FW_MAX_DIMS)
        return -1;
    int mode = -1;
    for (uint32_t d = 0; d < n; ++d) {
        if (in->sizes[d] >= (1u << 24)) return -1;
        volatile double prod = (double)in->sizes[d] * (double)scale[d]; /* exact: < 2^48 * 2^104 */
        volatile float prod32 = (float)prod;
        const double fl = (double)(uint64_t)(prod < 1e18 ? prod : 0), fl32 = prod32 < 1e18f ? (double)(uint64_t)prod32 : 0;
        if (!(prod < 1e18) || fl != (double)out->sizes[d] || fl32 != (double)out->sizes[d]) return -1;
        if (in->sizes[d] == 1) continue;
        int k = 0;
        while (k < 3 && !(in_off[d] == modes[k].in_off && out_off[d] == modes[k].out_off)) ++k;
        if (k == 3 || (mode >= 0 && mode != k)) return -1;
        mode = k;
    }
    names(f, "Resize", "resample2d", "interpolate");
    take_all(c, f, 0);
    f->mode = modes[mode < 0 ? 0 : mode].mode;
    f->nearest_mode = decreasing ? "floor" : "ceil";
    f->n_scales = n;
    for (uint32_t d = 0; d < n; ++d) memcpy(&f->scales_bits[d], &scale[d], sizeof scale[d]);
    return 0;
}

/* UPSAMPLE_2D: ONNX Resize nearest, asymmetric + floor, scales 1 but Height and Width on the last
 * two dims: floor(fl32(o / s)) == o / s for integer s while o + s < 2^23 (the quotient's distance to
 * the next integer, at least 1/s, is above half an ulp), so it is exact below outputs of 2^22. */
static int fw_upsample_2d(const dmlref_case *c, fw_form *f) {
    const DMLREF_UPSAMPLE_2D_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *in = find(c, "InputTensor", 0), *out = find(c, "OutputTensor", 1);
    if (!in || !out || d->InterpolationMode != DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR) return -1;
    const uint32_t n = in->buf.DimensionCount;
    if (n < 2 || n > FW_MAX_DIMS || out->buf.DimensionCount != n) return -1;
    if (out->sizes[n - 2] >= (1u << 22) || out->sizes[n - 1] >= (1u << 22) || d->ScaleSize.Height >= (1u << 22) ||
        d->ScaleSize.Width >= (1u << 22))
        return -1;
    names(f, "Resize", "resample2d", "interpolate");
    take_all(c, f, 0);
    f->mode = "asymmetric";
    f->nearest_mode = "floor";
    f->n_scales = n;
    for (uint32_t k = 0; k < n; ++k) {
        const float s = k == n - 2 ? (float)d->ScaleSize.Height : k == n - 1 ? (float)d->ScaleSize.Width : 1.0f;
        memcpy(&f->scales_bits[k], &s, sizeof s);
    }
    return 0;
}

/* RESAMPLE: InOff 0 (= fl32(0.5 - 0.5)), OutOff -0.5, floor: tf_half_pixel_for_nn + floor. */
static int fw_resample(const dmlref_case *c, fw_form *f) {
    const DMLREF_RESAMPLE_OPERATOR_DESC *d = c->desc_mem;
    const float in_off[FW_MAX_DIMS] = {0}, out_off[FW_MAX_DIMS] = {-0.5f, -0.5f, -0.5f, -0.5f, -0.5f, -0.5f, -0.5f, -0.5f};
    if (d->InterpolationMode != DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR || d->ScaleCount > FW_MAX_DIMS) return -1;
    return fw_resample_nearest(c, f, d->ScaleCount, d->Scales, in_off, out_off, 1);
}

/* RESAMPLE1: InOff = fl32(InputPixelOffsets - 0.5), floor. */
static int fw_resample1(const dmlref_case *c, fw_form *f) {
    const DMLREF_RESAMPLE1_OPERATOR_DESC *d = c->desc_mem;
    float in_off[FW_MAX_DIMS];
    if (d->InterpolationMode != DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR || d->DimensionCount > FW_MAX_DIMS ||
        !d->InputPixelOffsets || !d->OutputPixelOffsets)
        return -1;
    for (uint32_t k = 0; k < d->DimensionCount; ++k) {
        volatile float a = d->InputPixelOffsets[k];
        a = a - 0.5f;
        in_off[k] = a;
    }
    return fw_resample_nearest(c, f, d->DimensionCount, d->Scales, in_off, d->OutputPixelOffsets, 1);
}

/* RESAMPLE3: as RESAMPLE2 (Antialiased has no effect on NEAREST_NEIGHBOR). */
static int fw_resample3(const dmlref_case *c, fw_form *f) {
    const DMLREF_RESAMPLE3_OPERATOR_DESC *d = c->desc_mem;
    if (d->InterpolationMode != DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR || !d->InputPixelOffsets ||
        !d->OutputPixelOffsets)
        return -1;
    return fw_resample_nearest(c, f, d->DimensionCount, d->Scales, d->InputPixelOffsets, d->OutputPixelOffsets,
                               d->RoundingDirection == DMLREF_AXIS_DIRECTION_DECREASING);
}

/* RESAMPLE2: fw_resample_nearest with InOff = InputPixelOffsets. */
static int fw_resample2(const dmlref_case *c, fw_form *f) {
    const DMLREF_RESAMPLE2_OPERATOR_DESC *d = c->desc_mem;
    if (d->InterpolationMode != DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR || !d->InputPixelOffsets ||
        !d->OutputPixelOffsets)
        return -1;
    return fw_resample_nearest(c, f, d->DimensionCount, d->Scales, d->InputPixelOffsets, d->OutputPixelOffsets,
                               d->RoundingDirection == DMLREF_AXIS_DIRECTION_DECREASING);
}

/* UNFOLD (im2col): no ONNX operator (opsets 13-19 have no Unfold or Im2Col; Col2Im, from 18, is
 * the inverse) and no WebNN one; PyTorch's torch.nn.functional.unfold for 4-D inputs (2 spatial
 * dims, symmetric padding).  The name "Unfold" is what the stand-in backends dispatch on (onnx.c
 * and webnn.c say why neither expresses it).  The input as it is ({N, C, spatial...}: F.unfold
 * needs the batch and channel dims), the output without its D - 3 leading 1s ({N, C * prod(W),
 * L}, F.unfold's shape); kernel_size, dilations, strides per spatial dim and pads in ONNX's order
 * [x1_begin, ..., x1_end, ...]. */
static int fw_unfold(const dmlref_case *c, fw_form *f) {
    const DMLREF_UNFOLD_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *in = find(c, "InputTensor", 0), *out = find(c, "OutputTensor", 1);
    if (!in || !out || in->buf.DimensionCount < 3 || d->DimensionCount != in->buf.DimensionCount - 2 ||
        !d->WindowSizes || !d->Strides || !d->Dilations || !d->StartPadding || !d->EndPadding)
        return -1;
    const uint32_t k = d->DimensionCount;
    names(f, "Unfold", "unfold", "unfold");
    take_dims(c, f, in, 0);
    take_dims(c, f, out, out->buf.DimensionCount - 3);
    fw_list *w = add_list(f, "kernel_size"), *dl = add_list(f, "dilations"), *st = add_list(f, "strides"),
            *pads = add_list(f, "pads");
    for (uint32_t i = 0; i < k; ++i) {
        w->v[w->n++] = d->WindowSizes[i];
        dl->v[dl->n++] = d->Dilations[i];
        st->v[st->n++] = d->Strides[i];
    }
    for (uint32_t i = 0; i < k; ++i) pads->v[pads->n++] = d->StartPadding[i];
    for (uint32_t i = 0; i < k; ++i) pads->v[pads->n++] = d->EndPadding[i];
    return 0;
}

/* ONNX Cast(input, to): both tensors without their leading 1s (one dimension is kept), as
 * Identity; "dtype" the output's numpy type (ONNX's `to`, WebNN's cast type, torch's .to()). */
static int fw_cast(const dmlref_case *c, fw_form *f) {
    const case_tensor *in = find(c, "InputTensor", 0), *out = find(c, "OutputTensor", 1);
    if (!in || !out || !fw_set_dtype(f, out->buf.DataType)) return -1;
    names(f, "Cast", "cast", "to");
    take_all(c, f, leading_ones(in, in->buf.DimensionCount - 1));
    return 0;
}

/* SLICE_GRAD: no single ONNX, WebNN or PyTorch operator scatters into a strided window; where
 * the window is a plain box (every dimension the input gradient spans walked with stride 1) it is
 * ONNX Pad with zeros: pads begin = start[i] (the window's first element), end = the rest of the
 * output gradient (torch: zeros + slice assignment, out[s0:s0+n0, ...] = x).  Other strides (a
 * step above 1 leaves gaps, a negative one reverses) return -1: the case has no form.  Both
 * tensors without the leading dimensions where both are 1. */
static int fw_slice_grad(const dmlref_case *c, fw_form *f) {
    const DMLREF_SLICE_GRAD_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *in = find(c, "InputGradientTensor", 0), *out = find(c, "OutputGradientTensor", 1);
    const uint32_t count = d->DimensionCount;
    if (!in || !out || !d->InputWindowOffsets || !d->InputWindowSizes || !d->InputWindowStrides ||
        count != in->buf.DimensionCount || count != out->buf.DimensionCount || count == 0 || count > FW_MAX_DIMS ||
        !fw_set_dtype(f, out->buf.DataType))
        return -1;
    int64_t start[FW_MAX_DIMS];
    for (uint32_t k = 0; k < count; ++k) {
        const int32_t st = d->InputWindowStrides[k];
        if (in->sizes[k] > 1 && st != 1) return -1; /* gaps or a reversal: not a padding */
        start[k] = (int64_t)d->InputWindowOffsets[k] + (st < 0 ? (int64_t)d->InputWindowSizes[k] - 1 : 0);
    }
    uint32_t p = 0;
    while (p + 1 < count && in->sizes[p] == 1 && out->sizes[p] == 1) ++p;
    names(f, "Pad", "pad", "zeros+setitem");
    take_all(c, f, p);
    f->mode = "constant";
    fw_list *pads = add_list(f, "pads");
    for (uint32_t k = p; k < count; ++k) pads->v[pads->n++] = start[k];
    for (uint32_t k = p; k < count; ++k) pads->v[pads->n++] = (int64_t)out->sizes[k] - start[k] - in->sizes[k];
    f->has_value = 1;
    f->value_bits = 0;
    return 0;
}

/* ONNX MaxUnpool(X, I, kernel_shape, strides) (opset 11): Y = zeros of the default output shape
 * (X.shape[i] - 1) * strides[i] + kernel_shape[i], Y.flat[I] = X, I an int64 flat index into the
 * whole output -- DirectML's meaning.  Expressible when Output's N and C are Input's and its H and
 * W are whole multiples k of Input's: kernel_shape = strides = {kh, kw} give that shape (an
 * output_shape input of another size would change what the indices mean: not used).  Indices
 * out of range or repeated are left out by export (the checking option finds them).  WebNN has
 * no unpooling; PyTorch F.max_unpool2d takes indices flat within each (n, c) plane. */
static int fw_max_unpooling(const dmlref_case *c, fw_form *f) {
    const case_tensor *in = find(c, "InputTensor", 0), *out = find(c, "OutputTensor", 1);
    if (!in || !out || in->buf.DimensionCount != 4 || out->buf.DimensionCount != 4) return -1;
    if (out->sizes[0] != in->sizes[0] || out->sizes[1] != in->sizes[1] || out->sizes[2] % in->sizes[2] != 0 ||
        out->sizes[3] % in->sizes[3] != 0)
        return -1; /* not ONNX's default output shape */
    names(f, "MaxUnpool", "none", "max_unpool2d");
    take_all(c, f, 0);
    fw_list *k = add_list(f, "kernel_shape"), *s = add_list(f, "strides");
    for (uint32_t d = 2; d < 4; ++d) {
        k->v[k->n++] = out->sizes[d] / in->sizes[d];
        s->v[s->n++] = out->sizes[d] / in->sizes[d];
    }
    return 0;
}

/* ONNX Where(condition, X, Y): every tensor without the output's leading 1s (IF1: all four have
 * the same Sizes).  The condition stays UINT8 in the test data; the ONNX graph casts it to bool
 * (any nonzero byte is true there too), WebNN's where takes uint8, PyTorch's a bool (x != 0). */
static int fw_element_wise_if(const dmlref_case *c, fw_form *f) {
    const case_tensor *out = find(c, "OutputTensor", 1);
    if (!out || c->n_inputs != 3) return -1;
    names(f, "Where", "where", "where");
    take_all(c, f, leading_ones(out, out->buf.DimensionCount - 1));
    return 0;
}

/* ONNX ConstantOfShape(shape, value): the output without its leading 1s; "dtype" and
 * "value_bits" the Value as one element (the union's first esize bytes, FLOAT16 its binary16
 * bits); PyTorch full.  WebNN has no fill operator (the value is a constant() the caller fills). */
static int fw_fill_value_constant(const dmlref_case *c, fw_form *f) {
    const DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *out = find(c, "OutputTensor", 1);
    uint64_t bits;
    if (!out || fw_fill_from_union(&d->Value, out->esize, &bits) != 0 || !fw_set_dtype(f, out->buf.DataType))
        return -1;
    names(f, "ConstantOfShape", "constant", "full");
    take_all(c, f, leading_ones(out, out->buf.DimensionCount - 1));
    f->has_value = 1;
    f->value_bits = bits;
    return 0;
}

/* ONNX Range(start, limit, delta), reshaped to the output without its leading 1s (Range is
 * 1-D; element i of the flat sequence is the row-major element i); "value_bits" ValueStart and
 * "delta_bits" ValueDelta as elements of "dtype" (FLOAT16: binary16 bits); PyTorch arange.
 * WebNN has no fill operator (the sequence overload of constant() was removed, webnn PR #656). */
static int fw_fill_value_sequence(const dmlref_case *c, fw_form *f) {
    const DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC *d = c->desc_mem;
    const case_tensor *out = find(c, "OutputTensor", 1);
    uint64_t start, delta;
    if (!out || fw_fill_from_union(&d->ValueStart, out->esize, &start) != 0 ||
        fw_fill_from_union(&d->ValueDelta, out->esize, &delta) != 0 || !fw_set_dtype(f, out->buf.DataType))
        return -1;
    names(f, "Range", "constant", "arange");
    take_all(c, f, leading_ones(out, out->buf.DimensionCount - 1));
    f->has_value = 1;
    f->value_bits = start;
    f->has_delta = 1;
    f->delta_bits = delta;
    return 0;
}

/* 1 when a FLOAT32 or FLOAT16 tensor's data holds a NaN (any slot of its buffer). */
static int has_nan(const case_tensor *t) {
    if (!t->data) return 0;
    for (size_t i = 0; i + t->esize <= t->bytes; i += t->esize) {
        if (t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
            uint32_t b;
            memcpy(&b, t->data + i, 4);
            if ((b & 0x7FFFFFFFu) > 0x7F800000u) return 1;
        } else if (t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_FLOAT16) {
            uint16_t b;
            memcpy(&b, t->data + i, 2);
            if ((b & 0x7FFFu) > 0x7C00u) return 1;
        }
    }
    return 0;
}

/* ONNX TopK(X, K) with axis, largest (DECREASING 1, INCREASING 0), sorted 1: every tensor without
 * the leading 1s before Axis; "k" the K input (an int64 initializer in the ONNX graph); the two
 * outputs Values and Indices; "dtype" the OutputIndexTensor's numpy type (uint32 or uint64: ONNX's
 * int64 indices cast to it).  ONNX's ties are DirectML's (the lower index first); ONNX leaves the
 * order of NaNs unspecified, so a case whose input holds a NaN is not expressible (dmlref: NaN
 * above +Inf).  PyTorch: torch.topk does not promise an order among ties, so the form's meaning
 * is torch.sort(x, dim, descending=largest, stable=True) sliced to k.  WebNN has no topK. */
static int fw_top_k_common(const dmlref_case *c, fw_form *f, uint32_t a, uint32_t k, int largest) {
    const case_tensor *in = find(c, "InputTensor", 0), *ix = find(c, "OutputIndexTensor", 1);
    if (!in || !ix || a >= in->buf.DimensionCount || has_nan(in) || !fw_set_dtype(f, ix->buf.DataType)) return -1;
    names(f, "TopK", "none", "topk");
    const uint32_t p = leading_ones(in, a);
    take_all(c, f, p);
    axis(f, a - p);
    add_int(f, "k", k);
    add_int(f, "largest", largest);
    return 0;
}

static int fw_top_k(const dmlref_case *c, fw_form *f) {
    const DMLREF_TOP_K_OPERATOR_DESC *d = c->desc_mem;
    return fw_top_k_common(c, f, d->Axis, d->K, 1);
}

static int fw_top_k1(const dmlref_case *c, fw_form *f) {
    const DMLREF_TOP_K1_OPERATOR_DESC *d = c->desc_mem;
    return fw_top_k_common(c, f, d->Axis, d->K, d->AxisDirection == DMLREF_AXIS_DIRECTION_DECREASING);
}

/* ONNX NonZero(X) -> Y [rank, count] int64, PyTorch torch.nonzero(x) -> [count, rank] int64 (numpy
 * np.argwhere).  X = Input from dimension D - N on (NZ6: the dropped leading dimensions are 1s, so
 * the rank is N and Y's rows are dmlref's components); dmlref's OutputCoordinates {M, N} is then
 * Transpose(Y) cast to uint32, padded with rows past the count to M rows (those rows are undefined:
 * a comparer checks only the first count rows, the manifest's defined_elements), and OutputCount
 * (a scalar) is Y's dim 1, cast to uint32.  WebNN has no nonzero (its graphs have static shapes:
 * the count is data-dependent), so "none". */
static int fw_nonzero_coordinates(const dmlref_case *c, fw_form *f) {
    const case_tensor *in = find(c, "InputTensor", 0), *cnt = find(c, "OutputCountTensor", 1),
                      *co = find(c, "OutputCoordinatesTensor", 1);
    if (!in || !cnt || !co || co->buf.DimensionCount < 2) return -1;
    const uint32_t N = co->sizes[co->buf.DimensionCount - 1];
    if (N > in->buf.DimensionCount || N == 0) return -1;
    names(f, "NonZero", "none", "nonzero");
    take_dims(c, f, in, in->buf.DimensionCount - N);
    take_dims(c, f, cnt, cnt->buf.DimensionCount); /* a scalar */
    take_dims(c, f, co, co->buf.DimensionCount - 2);
    return 0;
}

/* ONNX ArgMin / ArgMax (opset 13): both tensors as they are (keepdims=1, Output has Input's
 * rank); "axes" the reduced axes of size above 1 in increasing order (an axis of size 1 adds
 * nothing to the index; when every reduced axis has size 1, the first of them); with one axis
 * ONNX's `axis`, with several the graph moves them last (Transpose, kept axes first), merges
 * them (Reshape), takes ArgMax over the merged axis and reshapes to Output's Sizes: the
 * merged index is the row-major position over the reduced axes in increasing order, the
 * operator's index.  "select_last_index" 1 for DECREASING; "dtype" the output's type (ONNX
 * gives int64: Cast for the others).  WebNN argMin/argMax: the same graph, INCREASING, int32 or
 * int64 (no select-last option: DECREASING is not expressible there).
 * PyTorch argmin/argmax: the first index on ties (documented in 1.13: "the indices of the first
 * maximal value"); DECREASING as n - 1 - argmax of the flipped axis.  NaN: ONNX and PyTorch's
 * documentation leave it open (ONNX's reference implementation, numpy, and PyTorch 1.13 let a NaN
 * win, as dmlref does; ONNX Runtime 1.30's CPU ArgMin does not: it returned the -Inf's index for
 * tests/cases/argmin_nan_wins.json), so a case whose input holds a NaN has no framework form, as
 * TOP_K's. */
static int fw_argminmax(const dmlref_case *c, fw_form *f, int is_max, uint32_t count, const uint32_t *axes,
                        uint32_t direction) {
    const case_tensor *in = find(c, "InputTensor", 0), *out = find(c, "OutputTensor", 1);
    if (!in || !out || !axes || count == 0 || count > in->buf.DimensionCount || has_nan(in) ||
        !fw_set_dtype(f, out->buf.DataType))
        return -1;
    uint32_t red[FW_MAX_DIMS] = {0}, first = FW_MAX_DIMS;
    for (uint32_t k = 0; k < count; ++k) {
        if (axes[k] >= in->buf.DimensionCount) return -1;
        red[axes[k]] = 1;
        if (axes[k] < first) first = axes[k];
    }
    if (is_max) names(f, "ArgMax", "argMax", "argmax");
    else names(f, "ArgMin", "argMin", "argmin");
    take_all(c, f, 0);
    fw_list *l = add_list(f, "axes");
    for (uint32_t d = 0; d < in->buf.DimensionCount; ++d)
        if (red[d] && in->sizes[d] > 1) l->v[l->n++] = d;
    if (l->n == 0) l->v[l->n++] = first;
    add_int(f, "keepdims", 1);
    add_int(f, "select_last_index", direction == DMLREF_AXIS_DIRECTION_DECREASING);
    return 0;
}
static int fw_argmin(const dmlref_case *c, fw_form *f) {
    const DMLREF_ARGMIN_OPERATOR_DESC *d = c->desc_mem;
    return fw_argminmax(c, f, 0, d->AxisCount, d->Axes, d->AxisDirection);
}
static int fw_argmax(const dmlref_case *c, fw_form *f) {
    const DMLREF_ARGMAX_OPERATOR_DESC *d = c->desc_mem;
    return fw_argminmax(c, f, 1, d->AxisCount, d->Axes, d->AxisDirection);
}

/* One form per operator of the registry's list (src/core/operators.def): fw_<name> above.  An
 * operator no framework can express still gets its fw_<name>, which returns -1 (the case is
 * then exported without a framework form), so that leaving it out is a decision in this file,
 * not an omission. */
static const struct {
    const char *op;
    int (*form)(const dmlref_case *, fw_form *);
} forms[] = {
#define DMLREF_OP(ENUM, name) {#ENUM, fw_##name},
#include "core/operators.def"
#undef DMLREF_OP
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
