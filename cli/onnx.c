/* A case as an ONNX model and its node-test data (onnx.h).  Field numbers are onnx.proto's
 * (onnx/onnx.proto, the same in onnx 1.12 and later: fields are never renumbered). */
#include "onnx.h"

#include "case/file_atomic.h"
#include "case/fp16.h"
#include "case/logical.h"
#include "case/npyout.h"
#include "case/value.h"
#include "dirs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    /* ModelProto */
    MODEL_IR_VERSION = 1, MODEL_PRODUCER_NAME = 2, MODEL_GRAPH = 7, MODEL_OPSET_IMPORT = 8,
    /* OperatorSetIdProto (domain = 1 left out: the default domain "") */
    OPSET_VERSION = 2,
    /* GraphProto */
    GRAPH_NODE = 1, GRAPH_NAME = 2, GRAPH_INITIALIZER = 5, GRAPH_INPUT = 11, GRAPH_OUTPUT = 12,
    /* NodeProto */
    NODE_INPUT = 1, NODE_OUTPUT = 2, NODE_NAME = 3, NODE_OP_TYPE = 4, NODE_ATTRIBUTE = 5,
    /* AttributeProto */
    ATTR_NAME = 1, ATTR_I = 3, ATTR_S = 4, ATTR_T = 5, ATTR_INTS = 8, ATTR_TYPE = 20,
    /* ValueInfoProto, TypeProto, TypeProto.Tensor, TensorShapeProto, TensorShapeProto.Dimension */
    VI_NAME = 1, VI_TYPE = 2, TYPE_TENSOR_TYPE = 1, TT_ELEM_TYPE = 1, TT_SHAPE = 2, SHAPE_DIM = 1, DIM_VALUE = 1,
    /* TensorProto */
    TENSOR_DIMS = 1, TENSOR_DATA_TYPE = 2, TENSOR_NAME = 8, TENSOR_RAW_DATA = 9
};
/* AttributeProto.AttributeType */
enum { ATTR_INT = 2, ATTR_STRING = 3, ATTR_TENSOR = 4, ATTR_INTS_TYPE = 7 };
/* TensorProto.DataType */
enum {
    T_FLOAT = 1, T_UINT8 = 2, T_INT8 = 3, T_UINT16 = 4, T_INT16 = 5, T_INT32 = 6, T_INT64 = 7, T_BOOL = 9,
    T_FLOAT16 = 10, T_DOUBLE = 11, T_UINT32 = 12, T_UINT64 = 13
};

static int onnx_type(DMLREF_TENSOR_DATA_TYPE dt) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: return T_FLOAT;
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: return T_FLOAT16;
    case DMLREF_TENSOR_DATA_TYPE_FLOAT64: return T_DOUBLE;
    case DMLREF_TENSOR_DATA_TYPE_UINT32: return T_UINT32;
    case DMLREF_TENSOR_DATA_TYPE_UINT16: return T_UINT16;
    case DMLREF_TENSOR_DATA_TYPE_UINT8: return T_UINT8;
    case DMLREF_TENSOR_DATA_TYPE_INT32: return T_INT32;
    case DMLREF_TENSOR_DATA_TYPE_INT16: return T_INT16;
    case DMLREF_TENSOR_DATA_TYPE_INT8: return T_INT8;
    case DMLREF_TENSOR_DATA_TYPE_UINT64: return T_UINT64;
    case DMLREF_TENSOR_DATA_TYPE_INT64: return T_INT64;
    default: return 0;
    }
}

/* n elements of esize bytes in host order -> little-endian bytes (out: n * esize). */
static void to_le(const unsigned char *host, uint64_t n, uint32_t esize, unsigned char *out) {
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t bits = value_load_bits(host + i * esize, esize);
        for (uint32_t b = 0; b < esize; ++b, bits >>= 8) out[i * esize + b] = (unsigned char)(bits & 0xff);
    }
}

/* A TensorProto: dims, data_type, name, raw_data (little-endian), into dst as field `field`
 * (0: the message's fields themselves, a file of its own). */
static void tensor_msg(pb_buf *dst, uint32_t field, const char *name, int elem, const uint32_t *dims, uint32_t rank,
                       const void *raw, size_t nbytes) {
    pb_buf t = {0};
    for (uint32_t k = 0; k < rank; ++k) pb_int(&t, TENSOR_DIMS, dims[k]);
    pb_int(&t, TENSOR_DATA_TYPE, elem);
    pb_string(&t, TENSOR_NAME, name);
    pb_bytes(&t, TENSOR_RAW_DATA, raw, nbytes);
    if (field) pb_message(dst, field, &t);
    else {
        if (t.oom) dst->oom = 1;
        pb_raw(dst, t.p, t.len);
    }
    pb_free(&t);
}

void onnx_tensor_proto(pb_buf *b, const case_tensor *t, const fw_shape *s, const char *name) {
    const uint64_t n = logical_count(t);
    unsigned char *host = logical_gather_alloc(t, t->data);
    unsigned char *le = n <= SIZE_MAX / t->esize ? malloc((size_t)(n * t->esize) + 1) : NULL;
    if (!host || !le) b->oom = 1;
    else {
        to_le(host, n, t->esize, le);
        tensor_msg(b, 0, name, onnx_type(t->buf.DataType), s->dims, s->rank, le, (size_t)(n * t->esize));
    }
    free(host);
    free(le);
}

static void value_info(pb_buf *dst, uint32_t field, const char *name, int elem, const uint32_t *dims, uint32_t rank) {
    pb_buf shape = {0}, tt = {0}, ty = {0}, vi = {0};
    for (uint32_t k = 0; k < rank; ++k) {
        pb_buf dim = {0};
        pb_int(&dim, DIM_VALUE, dims[k]);
        pb_message(&shape, SHAPE_DIM, &dim);
        pb_free(&dim);
    }
    pb_int(&tt, TT_ELEM_TYPE, elem);
    pb_message(&tt, TT_SHAPE, &shape); /* present even when empty: a scalar, not an unknown rank */
    pb_message(&ty, TYPE_TENSOR_TYPE, &tt);
    pb_string(&vi, VI_NAME, name);
    pb_message(&vi, VI_TYPE, &ty);
    pb_message(dst, field, &vi);
    pb_free(&shape);
    pb_free(&tt);
    pb_free(&ty);
    pb_free(&vi);
}

/* ---- the graph ------------------------------------------------------------------------- */

typedef struct gctx {
    const dmlref_case *c;
    const fw_form *f;
    onnx_model *m;
    pb_buf nodes, inits;
    unsigned n_nodes;
} gctx;

static void attr_int(pb_buf *a, const char *name, int64_t v) {
    pb_buf x = {0};
    pb_string(&x, ATTR_NAME, name);
    pb_int(&x, ATTR_I, v);
    pb_int(&x, ATTR_TYPE, ATTR_INT);
    pb_message(a, NODE_ATTRIBUTE, &x);
    pb_free(&x);
}

static void attr_ints(pb_buf *a, const char *name, const int64_t *v, uint32_t n) {
    pb_buf x = {0};
    pb_string(&x, ATTR_NAME, name);
    for (uint32_t k = 0; k < n; ++k) pb_int(&x, ATTR_INTS, v[k]); /* proto2: not packed */
    pb_int(&x, ATTR_TYPE, ATTR_INTS_TYPE);
    pb_message(a, NODE_ATTRIBUTE, &x);
    pb_free(&x);
}

static void attr_str(pb_buf *a, const char *name, const char *s) {
    pb_buf x = {0};
    pb_string(&x, ATTR_NAME, name);
    pb_string(&x, ATTR_S, s);
    pb_int(&x, ATTR_TYPE, ATTR_STRING);
    pb_message(a, NODE_ATTRIBUTE, &x);
    pb_free(&x);
}

/* A node; attrs (NULL: none) holds its attribute fields, already encoded, and is freed. */
static void node(gctx *g, const char *op, const char *const *in, uint32_t nin, const char *const *out, uint32_t nout,
                 pb_buf *attrs) {
    pb_buf n = {0};
    char name[48];
    for (uint32_t k = 0; k < nin; ++k) pb_string(&n, NODE_INPUT, in[k]);
    for (uint32_t k = 0; k < nout; ++k) pb_string(&n, NODE_OUTPUT, out[k]);
    snprintf(name, sizeof name, "%s_%u", op, g->n_nodes++);
    pb_string(&n, NODE_NAME, name);
    pb_string(&n, NODE_OP_TYPE, op);
    if (attrs) {
        if (attrs->oom) n.oom = 1;
        pb_raw(&n, attrs->p, attrs->len);
        pb_free(attrs);
    }
    pb_message(&g->nodes, GRAPH_NODE, &n);
    pb_free(&n);
    const size_t used = strlen(g->m->graph);
    snprintf(g->m->graph + used, sizeof g->m->graph - used, "%s%s", used ? ", " : "", op);
}

/* One-input, one-output node without attributes. */
static void node1(gctx *g, const char *op, const char *in, const char *out, pb_buf *attrs) {
    node(g, op, &in, 1, &out, 1, attrs);
}

/* An int64 initializer: a scalar (rank 0) or a 1-D list. */
static void init_i64(gctx *g, const char *name, const int64_t *v, uint32_t n, int scalar) {
    unsigned char raw[8 * 2 * FW_MAX_DIMS];
    if (n > 2 * FW_MAX_DIMS) {
        g->inits.oom = 1;
        return;
    }
    for (uint32_t k = 0; k < n; ++k) {
        const uint64_t u = (uint64_t)v[k];
        for (uint32_t b = 0; b < 8; ++b) raw[8 * k + b] = (unsigned char)(u >> (8 * b) & 0xff);
    }
    tensor_msg(&g->inits, GRAPH_INITIALIZER, name, T_INT64, &n, scalar ? 0 : 1, raw, 8u * n);
}

/* A scalar initializer of the case's type dt holding `bits` (one element's bit pattern). */
static void init_scalar(gctx *g, const char *name, DMLREF_TENSOR_DATA_TYPE dt, uint64_t bits) {
    unsigned char raw[8];
    const uint32_t esize = dmlref_data_type_size(dt);
    for (uint32_t b = 0; b < esize && b < 8; ++b) raw[b] = (unsigned char)(bits >> (8 * b) & 0xff);
    tensor_msg(&g->inits, GRAPH_INITIALIZER, name, onnx_type(dt), NULL, 0, raw, esize);
}

static const char *base(const case_tensor *t, char *buf) { return npyout_base(t, buf, 64); }

static int slot_index(const dmlref_case *c, const char *slot) {
    for (uint32_t k = 0; k < c->n_inputs; ++k)
        if (strcmp(c->inputs[k].slot, slot) == 0) return (int)k;
    return -1;
}

static const fw_list *list(const fw_form *f, const char *name) {
    for (uint32_t k = 0; k < f->n_lists; ++k)
        if (strcmp(f->lists[k].name, name) == 0) return &f->lists[k];
    return NULL;
}

static int64_t int_param(const fw_form *f, const char *name, int64_t otherwise) {
    for (uint32_t k = 0; k < f->n_ints; ++k)
        if (strcmp(f->ints[k].name, name) == 0) return f->ints[k].v;
    return otherwise;
}

/* Input k's name as the operator takes indices: itself when ONNX takes its type (int64, or
 * int32 where int32_ok), else a Cast to int64 (buf holds the new name). */
static const char *indices(gctx *g, int k, int int32_ok, char *buf) {
    const case_tensor *t = &g->c->inputs[k];
    char b[48];
    npyout_base(t, b, sizeof b);
    const DMLREF_TENSOR_DATA_TYPE dt = t->buf.DataType;
    if (dt == DMLREF_TENSOR_DATA_TYPE_INT64 || (int32_ok && dt == DMLREF_TENSOR_DATA_TYPE_INT32)) {
        snprintf(buf, 64, "%s", b);
        return buf;
    }
    snprintf(buf, 64, "%s_int64", b);
    pb_buf a = {0};
    attr_int(&a, "to", T_INT64);
    node1(g, "Cast", b, buf, &a);
    return buf;
}

/* The operators: 0 (a graph), or 1 when not expressible (g->m->why says why). */
static int not_expressible(gctx *g, const char *why) {
    snprintf(g->m->why, sizeof g->m->why, "%s", why);
    return 1;
}

static int g_gather_like(gctx *g, const char *op, int has_updates) {
    const dmlref_case *c = g->c;
    char d[64], ib[64], u[64], o[64];
    const char *in[3] = {base(&c->inputs[0], d), indices(g, 1, 1, ib), has_updates ? base(&c->inputs[2], u) : NULL};
    const char *out = base(&c->outputs[0], o);
    pb_buf a = {0};
    attr_int(&a, "axis", g->f->axis);
    node(g, op, in, has_updates ? 3 : 2, &out, 1, &a);
    return 0;
}

static int g_nd(gctx *g, const char *op, int has_updates) {
    const dmlref_case *c = g->c;
    char d[64], ib[64], u[64], o[64];
    const char *in[3] = {base(&c->inputs[0], d), indices(g, 1, 0, ib), has_updates ? base(&c->inputs[2], u) : NULL};
    const char *out = base(&c->outputs[0], o);
    pb_buf a = {0};
    const int64_t b = int_param(g->f, "batch_dims", 0);
    if (!has_updates) attr_int(&a, "batch_dims", b);
    node(g, op, in, has_updates ? 3 : 2, &out, 1, has_updates ? NULL : &a);
    return 0;
}

/* Names of n tensors (64 bytes each) and pointers to them, in one allocation; NULL when out of memory. */
static const char **names_of(const case_tensor *ts, uint32_t n) {
    const char **v = malloc((size_t)n * (sizeof *v + 64) + 1);
    if (!v) return NULL;
    char *text = (char *)(v + n);
    for (uint32_t k = 0; k < n; ++k) v[k] = base(&ts[k], text + 64 * (size_t)k);
    return v;
}

/* Split(input, split, axis): split an int64 initializer, the pieces' sizes along the axis. */
static int g_split(gctx *g) {
    const dmlref_case *c = g->c;
    const fw_form *f = g->f;
    char d[64];
    const char *in[2] = {base(&c->inputs[0], d), "split"};
    const char **out = names_of(c->outputs, c->n_outputs);
    unsigned char *raw = malloc(8u * c->n_outputs + 1);
    if (out && raw) {
        for (uint32_t k = 0; k < c->n_outputs; ++k)
            for (uint32_t b = 0; b < 8; ++b)
                raw[8 * k + b] = (unsigned char)((uint64_t)f->out[k].dims[f->axis] >> (8 * b) & 0xff);
        tensor_msg(&g->inits, GRAPH_INITIALIZER, "split", T_INT64, &c->n_outputs, 1, raw, 8u * c->n_outputs);
        pb_buf a = {0};
        attr_int(&a, "axis", f->axis);
        node(g, "Split", in, 2, out, c->n_outputs, &a);
    } else {
        g->nodes.oom = 1;
    }
    free(out);
    free(raw);
    return 0;
}

static int g_concat(gctx *g) {
    const dmlref_case *c = g->c;
    char o[64];
    const char *out = base(&c->outputs[0], o);
    const char **in = names_of(c->inputs, c->n_inputs);
    if (in) {
        pb_buf a = {0};
        attr_int(&a, "axis", g->f->axis);
        node(g, "Concat", in, c->n_inputs, &out, 1, &a);
    } else {
        g->nodes.oom = 1;
    }
    free(in);
    return 0;
}

static int g_identity(gctx *g) {
    const DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC *d = g->c->desc_mem;
    if (d->ScaleBias)
        return not_expressible(g, "ScaleBias is arithmetic (x * Scale + Bias), not data movement: "
                                  "a Mul and an Add round differently from one fused step");
    char i[64], o[64];
    node1(g, "Identity", base(&g->c->inputs[0], i), base(&g->c->outputs[0], o), NULL);
    return 0;
}

/* An operator whose second input is an int64 list initializer: Tile's repeats. */
static int g_tile(gctx *g) {
    const fw_list *r = list(g->f, "repeats");
    if (!r) return not_expressible(g, "no repeats");
    char i[64], o[64];
    const char *in[2] = {base(&g->c->inputs[0], i), "repeats"}, *out = base(&g->c->outputs[0], o);
    init_i64(g, "repeats", r->v, r->n, 0);
    node(g, "Tile", in, 2, &out, 1, NULL);
    return 0;
}

/* Resize(X, "", scales): mode nearest, the form's coordinate_transformation_mode and nearest_mode,
 * the scales a float32 initializer (the RESAMPLE family: cli/framework.c fw_resample_nearest). */
static int g_resize(gctx *g) {
    const fw_form *f = g->f;
    if (!f->n_scales || !f->mode || !f->nearest_mode) return not_expressible(g, "no scales");
    unsigned char raw[4 * FW_MAX_DIMS];
    for (uint32_t k = 0; k < f->n_scales; ++k)
        for (uint32_t b = 0; b < 4; ++b) raw[4 * k + b] = (unsigned char)(f->scales_bits[k] >> (8 * b) & 0xff);
    const uint32_t n = f->n_scales;
    tensor_msg(&g->inits, GRAPH_INITIALIZER, "scales", T_FLOAT, &n, 1, raw, 4u * n);
    char i[64], o[64];
    const char *in[3] = {base(&g->c->inputs[0], i), "", "scales"}, *out = base(&g->c->outputs[0], o);
    pb_buf a = {0};
    attr_str(&a, "mode", "nearest");
    attr_str(&a, "coordinate_transformation_mode", f->mode);
    attr_str(&a, "nearest_mode", f->nearest_mode);
    node(g, "Resize", in, 3, &out, 1, &a);
    return 0;
}

static int g_depth_to_space(gctx *g) {
    char i[64], o[64];
    pb_buf a = {0};
    attr_int(&a, "blocksize", int_param(g->f, "blocksize", 1));
    attr_str(&a, "mode", g->f->mode ? g->f->mode : "DCR");
    node1(g, "DepthToSpace", base(&g->c->inputs[0], i), base(&g->c->outputs[0], o), &a);
    return 0;
}

/* SpaceToDepth: ONNX's is DCR; CRD (COLUMN_ROW_DEPTH, PyTorch's pixel_unshuffle) is
 * Reshape [N, C, H/b, b, W/b, b], Transpose [0, 1, 3, 5, 2, 4], Reshape [N, C*b*b, H/b, W/b]. */
static int g_space_to_depth(gctx *g) {
    char i[64], o[64];
    const int64_t b = int_param(g->f, "blocksize", 1);
    const char *in = base(&g->c->inputs[0], i), *out = base(&g->c->outputs[0], o);
    if (!g->f->mode || strcmp(g->f->mode, "CRD") != 0) {
        pb_buf a = {0};
        attr_int(&a, "blocksize", b);
        node1(g, "SpaceToDepth", in, out, &a);
        return 0;
    }
    const fw_shape *s = &g->f->in[0];
    if (s->rank != 4) return not_expressible(g, "not 4-D");
    const int64_t n = s->dims[0], ch = s->dims[1], h = s->dims[2], w = s->dims[3];
    const int64_t six[6] = {n, ch, h / b, b, w / b, b}, four[4] = {n, ch * b * b, h / b, w / b},
                  perm[6] = {0, 1, 3, 5, 2, 4};
    init_i64(g, "shape6", six, 6, 0);
    init_i64(g, "shape4", four, 4, 0);
    const char *r1[2] = {in, "shape6"}, *r1o = "blocks", *r2[2] = {"moved", "shape4"};
    node(g, "Reshape", r1, 2, &r1o, 1, NULL);
    pb_buf a = {0};
    attr_ints(&a, "perm", perm, 6);
    node1(g, "Transpose", "blocks", "moved", &a);
    node(g, "Reshape", r2, 2, &out, 1, NULL);
    return 0;
}

static int g_slice(gctx *g) {
    static const char *const keys[4] = {"starts", "ends", "axes", "steps"};
    char i[64], o[64];
    const char *in[5] = {base(&g->c->inputs[0], i), "starts", "ends", "axes", "steps"}, *out = base(&g->c->outputs[0], o);
    for (int k = 0; k < 4; ++k) {
        const fw_list *l = list(g->f, keys[k]);
        if (!l) return not_expressible(g, "no slice parameters");
        init_i64(g, keys[k], l->v, l->n, 0);
    }
    node(g, "Slice", in, 5, &out, 1, NULL);
    return 0;
}

/* OneHot(indices, depth, values, axis): depth an int64 scalar; values [off, on], the Values
 * tensor flattened (Reshape [-1]) and cut to its first two elements (Slice [0:2]) when it holds
 * more; scalar indices (ONNX needs rank >= 1) reshaped to [1], the output reshaped back. */
static int g_one_hot(gctx *g) {
    const dmlref_case *c = g->c;
    const fw_form *f = g->f;
    const int ki = slot_index(c, "IndicesTensor"), kv = slot_index(c, "ValuesTensor");
    if (ki < 0 || kv < 0) return not_expressible(g, "no indices or values");
    char ib[64], vb[64], o[64];
    const char *idx = base(&c->inputs[ki], ib), *val = base(&c->inputs[kv], vb), *out = base(&c->outputs[0], o);
    const int64_t depth = int_param(f, "depth", 1), minus1[1] = {-1}, one[1] = {1}, zero[1] = {0}, two[1] = {2};
    init_i64(g, "depth", &depth, 1, 1);
    const fw_shape *vs = &f->in[kv];
    const uint64_t nv = logical_count(&c->inputs[kv]);
    if (nv != 2 || vs->rank != 1) {
        init_i64(g, "flat", minus1, 1, 0);
        const char *r[2] = {val, "flat"}, *ro = nv == 2 ? "values" : "values_flat";
        node(g, "Reshape", r, 2, &ro, 1, NULL);
        if (nv != 2) {
            init_i64(g, "zero", zero, 1, 0);
            init_i64(g, "two", two, 1, 0);
            const char *s[3] = {"values_flat", "zero", "two"}, *so = "values";
            node(g, "Slice", s, 3, &so, 1, NULL);
        }
        val = "values";
    }
    const int scalar = f->in[ki].rank == 0;
    if (scalar) {
        init_i64(g, "one", one, 1, 0);
        const char *r[2] = {idx, "one"}, *ro = "indices_1";
        node(g, "Reshape", r, 2, &ro, 1, NULL);
        idx = "indices_1";
    }
    const char *in[3] = {idx, "depth", val}, *oh = scalar ? "hot" : out;
    pb_buf a = {0};
    attr_int(&a, "axis", scalar ? 1 : (int64_t)f->axis);
    node(g, "OneHot", in, 3, &oh, 1, &a);
    if (scalar) {
        const int64_t shape[1] = {depth};
        init_i64(g, "out_shape", shape, 1, 0);
        const char *r[2] = {"hot", "out_shape"};
        node(g, "Reshape", r, 2, &out, 1, NULL);
    }
    return 0;
}

/* DIAGONAL_MATRIX(1): Where(band, fill, input or 0), the band a constant bool tensor of the
 * output's shape (x - y in [begin, end), inverted when begin > end), the fill and the 0 scalar
 * initializers of the output's type (bits exact: Where selects, it does not compute). */
static int g_diagonal(gctx *g) {
    const dmlref_case *c = g->c;
    const fw_form *f = g->f;
    const case_tensor *ot = &c->outputs[0];
    const fw_shape *os = &f->out[0];
    if (os->rank < 2) return not_expressible(g, "the output has fewer than 2 dimensions");
    const uint64_t n = logical_count(ot), w = os->dims[os->rank - 1], h = os->dims[os->rank - 2];
    const int64_t begin = int_param(f, "begin", 0), end = int_param(f, "end", 1);
    unsigned char *mask = n <= SIZE_MAX ? malloc((size_t)n + 1) : NULL;
    if (!mask) {
        g->inits.oom = 1;
        return 0;
    }
    for (uint64_t e = 0; e < n; ++e) {
        const int64_t x = (int64_t)(e % w), y = (int64_t)(e / w % h), d = x - y;
        mask[e] = (unsigned char)((end >= begin) ^ (d >= begin) ^ (d < end));
    }
    tensor_msg(&g->inits, GRAPH_INITIALIZER, "band", T_BOOL, os->dims, os->rank, mask, (size_t)n);
    free(mask);
    init_scalar(g, "fill", ot->buf.DataType, f->value_bits);
    char i[64], o[64];
    const char *other = "zero";
    if (c->n_inputs > 0) other = base(&c->inputs[0], i);
    else init_scalar(g, "zero", ot->buf.DataType, 0);
    const char *in[3] = {"band", "fill", other}, *out = base(ot, o);
    node(g, "Where", in, 3, &out, 1, NULL);
    return 0;
}

/* Pad(data, pads, constant_value, mode): opset 13 for constant, edge and reflect (pads smaller
 * than the axis), 19 for wrap; SYMMETRIC has no ONNX mode. */
static int g_pad(gctx *g) {
    const dmlref_case *c = g->c;
    const fw_form *f = g->f;
    const fw_list *p = list(f, "pads");
    if (!p || !f->mode) return not_expressible(g, "no pads");
    const fw_shape *s = &f->in[0];
    if (strcmp(f->mode, "symmetric") == 0)
        return not_expressible(g, "SYMMETRIC padding: ONNX Pad has no symmetric mode (constant, edge, reflect, wrap)");
    if (strcmp(f->mode, "reflect") == 0)
        for (uint32_t k = 0; k < s->rank; ++k)
            if (p->v[k] >= s->dims[k] || p->v[s->rank + k] >= s->dims[k]) {
                snprintf(g->m->why, sizeof g->m->why,
                         "reflect pads %lld and %lld on an axis of size %u: ONNX's reflect takes pads smaller than "
                         "the axis (DirectML folds again)",
                         (long long)p->v[k], (long long)p->v[s->rank + k], (unsigned)s->dims[k]);
                return 1;
            }
    if (strcmp(f->mode, "wrap") == 0) g->m->opset = 19;
    char i[64], o[64];
    const char *in[3] = {base(&c->inputs[0], i), "pads", "value"}, *out = base(&c->outputs[0], o);
    init_i64(g, "pads", p->v, p->n, 0);
    const int constant = strcmp(f->mode, "constant") == 0;
    if (constant) init_scalar(g, "value", c->outputs[0].buf.DataType, f->value_bits);
    pb_buf a = {0};
    attr_str(&a, "mode", f->mode);
    node(g, "Pad", in, constant ? 3 : 2, &out, 1, &a);
    return 0;
}

/* ReverseSequence has one batch axis and one time axis, int64 lengths no larger than the axis:
 * Transpose (the axis first), Reshape [n, rest], ReverseSequence (time_axis 0, batch_axis 1),
 * Reshape, Transpose back; the lengths Min(lengths, n) (DirectML clamps; before the cast, so a
 * UINT64 length of 2^63 or more stays large), Reshape [rest], Cast to int64. */
static int g_reverse(gctx *g) {
    const dmlref_case *c = g->c;
    const fw_form *f = g->f;
    const int kl = slot_index(c, "SequenceLengthsTensor");
    if (kl < 0 || c->n_inputs < 2) return not_expressible(g, "no lengths");
    const fw_shape *s = &f->in[0];
    const uint32_t ax = f->axis, r = s->rank;
    int64_t perm[FW_MAX_DIMS], inv[FW_MAX_DIMS], moved[FW_MAX_DIMS], rest = 1;
    uint32_t q = 0;
    perm[q++] = ax;
    for (uint32_t k = 0; k < r; ++k)
        if (k != ax) perm[q++] = k;
    for (uint32_t k = 0; k < r; ++k) {
        inv[perm[k]] = k;
        moved[k] = s->dims[perm[k]];
        if (k) rest *= s->dims[perm[k]];
    }
    const int64_t n = s->dims[ax], flat[2] = {n, rest};
    char i[64], lb[64], o[64];
    const char *in = base(&c->inputs[0], i), *lens = base(&c->inputs[kl], lb), *out = base(&c->outputs[0], o);
    init_i64(g, "flat", flat, 2, 0);
    init_i64(g, "moved_shape", moved, r, 0);
    init_i64(g, "batch", &rest, 1, 0);
    init_scalar(g, "n", c->inputs[kl].buf.DataType, (uint64_t)n);
    pb_buf a = {0};
    attr_ints(&a, "perm", perm, r);
    node1(g, "Transpose", in, "moved", &a);
    const char *r1[2] = {"moved", "flat"}, *r1o = "columns";
    node(g, "Reshape", r1, 2, &r1o, 1, NULL);
    const char *m[2] = {lens, "n"}, *mo = "lens_clamped";
    node(g, "Min", m, 2, &mo, 1, NULL);
    const char *r2[2] = {"lens_clamped", "batch"}, *r2o = "lens_flat";
    node(g, "Reshape", r2, 2, &r2o, 1, NULL);
    a = (pb_buf){0};
    attr_int(&a, "to", T_INT64);
    node1(g, "Cast", "lens_flat", "lens", &a);
    const char *rs[2] = {"columns", "lens"}, *rso = "reversed";
    a = (pb_buf){0};
    attr_int(&a, "batch_axis", 1);
    attr_int(&a, "time_axis", 0);
    node(g, "ReverseSequence", rs, 2, &rso, 1, &a);
    const char *r3[2] = {"reversed", "moved_shape"}, *r3o = "reversed_moved";
    node(g, "Reshape", r3, 2, &r3o, 1, NULL);
    a = (pb_buf){0};
    attr_ints(&a, "perm", inv, r);
    node1(g, "Transpose", "reversed_moved", out, &a);
    return 0;
}

/* An element's class from its bits (0 finite, 1 infinite, 2 NaN) and, finite, its value. */
static int float_class(uint64_t bits, DMLREF_TENSOR_DATA_TYPE dt, double *v) {
    uint32_t md = 52, ew = 11;
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16) md = 10, ew = 5;
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32) md = 23, ew = 8;
    const uint64_t emask = (UINT64_C(1) << ew) - 1, e = (bits >> md) & emask, m = bits & ((UINT64_C(1) << md) - 1);
    if (e == emask) return m ? 2 : 1;
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16) *v = fp16_to_double((uint16_t)bits);
    else if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
        const uint32_t b = (uint32_t)bits;
        float x;
        memcpy(&x, &b, 4);
        *v = x;
    } else {
        memcpy(v, &bits, 8);
    }
    return 0;
}

static int is_float(DMLREF_TENSOR_DATA_TYPE dt) {
    return dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16 || dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32 ||
           dt == DMLREF_TENSOR_DATA_TYPE_FLOAT64;
}

const char *onnx_cast_issue(const dmlref_case *c) {
    if (c->type != DMLREF_OPERATOR_CAST || c->n_inputs != 1 || c->n_outputs != 1) return NULL;
    const case_tensor *in = &c->inputs[0];
    const DMLREF_TENSOR_DATA_TYPE it = in->buf.DataType, ot = c->outputs[0].buf.DataType;
    if (!is_float(it) || it == ot || !in->data) return NULL;
    const uint64_t n = logical_count(in);
    unsigned char *host = logical_gather_alloc(in, in->data);
    if (!host) return NULL;
    const uint32_t w = 8 * dmlref_data_type_size(ot);
    const int sgn = ot == DMLREF_TENSOR_DATA_TYPE_INT8 || ot == DMLREF_TENSOR_DATA_TYPE_INT16 ||
                    ot == DMLREF_TENSOR_DATA_TYPE_INT32 || ot == DMLREF_TENSOR_DATA_TYPE_INT64;
    const double lo = sgn ? -ldexp(1.0, (int)w - 1) : 0.0, hi = ldexp(1.0, sgn ? (int)w - 1 : (int)w); /* [lo, hi) */
    const char *why = NULL;
    for (uint64_t i = 0; i < n && !why; ++i) {
        double v = 0;
        const int k = float_class(value_load_bits(host + i * in->esize, in->esize), it, &v);
        if (is_float(ot)) {
            if (k == 2)
                why = "a NaN converted to another float type: ONNX Cast does not say what becomes of its payload "
                      "(dmlref keeps its sign and top payload bits, quiet bit forced)";
        } else if (k != 0 || trunc(v) < lo || trunc(v) >= hi) {
            why = "out-of-range float->int conversion (NaN, an infinity or a value beyond the output type's range) "
                  "is undefined in ONNX Cast (dmlref truncates and saturates, NaN -> 0)";
        }
    }
    free(host);
    return why;
}

/* CAST: Cast(input, to = the output's type); data ONNX leaves undefined is not expressible. */
static int g_cast(gctx *g) {
    const char *why = onnx_cast_issue(g->c);
    if (why) return not_expressible(g, why);
    char i[64], o[64];
    pb_buf a = {0};
    attr_int(&a, "to", onnx_type(g->c->outputs[0].buf.DataType));
    node1(g, "Cast", base(&g->c->inputs[0], i), base(&g->c->outputs[0], o), &a);
    return 0;
}

/* MaxUnpool(X, I) with kernel_shape = strides (no pads, no output_shape): the indices cast to
 * int64 (ONNX's type) when they are UINT32 or UINT64 (in range: at most the output's count).
 * ONNX's MaxUnpool takes float data only: integer cases are not expressible. */
static int g_max_unpool(gctx *g) {
    const fw_list *k = list(g->f, "kernel_shape"), *s = list(g->f, "strides");
    if (!k || !s) return not_expressible(g, "no kernel_shape");
    const DMLREF_TENSOR_DATA_TYPE dt = g->c->inputs[0].buf.DataType;
    if (dt != DMLREF_TENSOR_DATA_TYPE_FLOAT32 && dt != DMLREF_TENSOR_DATA_TYPE_FLOAT16)
        return not_expressible(g, "ONNX MaxUnpool takes floating-point data only (T1: float16, float, double)");
    char x[64], ib[64], o[64];
    const char *in[2] = {base(&g->c->inputs[0], x), indices(g, 1, 0, ib)}, *out = base(&g->c->outputs[0], o);
    pb_buf a = {0};
    attr_ints(&a, "kernel_shape", k->v, k->n);
    attr_ints(&a, "strides", s->v, s->n);
    node(g, "MaxUnpool", in, 2, &out, 1, &a);
    return 0;
}

/* TOP_K, TOP_K1: TopK(X, K) (opset 11 form; the graph's opset 13), K an int64 initializer {k},
 * axis, largest (DECREASING 1, INCREASING 0), sorted 1.  Values go to the value output as they
 * are; the int64 Indices are Cast to the index output's type (UINT32 or UINT64).  ONNX's ties are
 * DirectML's (the lower index first); a NaN input has no form (framework.c). */
static int g_topk(gctx *g) {
    const dmlref_case *c = g->c;
    if (!g->f->has_axis || c->n_outputs != 2) return not_expressible(g, "no axis");
    const int64_t k = int_param(g->f, "k", -1);
    if (k < 1) return not_expressible(g, "no k");
    char x[64], v[64], ix[64];
    init_i64(g, "k", &k, 1, 0);
    const char *in[2] = {base(&c->inputs[0], x), "k"}, *out[2] = {base(&c->outputs[0], v), "indices_int64"};
    pb_buf a = {0};
    attr_int(&a, "axis", g->f->axis);
    attr_int(&a, "largest", int_param(g->f, "largest", 1));
    attr_int(&a, "sorted", 1);
    node(g, "TopK", in, 2, out, 2, &a);
    pb_buf cast = {0};
    attr_int(&cast, "to", onnx_type(c->outputs[1].buf.DataType));
    node1(g, "Cast", "indices_int64", base(&c->outputs[1], ix), &cast);
    return 0;
}

/* ELEMENT_WISE_IF: Where(Cast(condition, to=bool), A, B).  The graph input keeps the case's UINT8
 * bytes; Cast to bool makes every nonzero byte true, as DirectML reads it. */
static int g_where(gctx *g) {
    const dmlref_case *c = g->c;
    char cb[64], ab[64], bb[64], o[64];
    pb_buf a = {0};
    attr_int(&a, "to", T_BOOL);
    node1(g, "Cast", base(&c->inputs[0], cb), "condition_bool", &a);
    const char *in[3] = {"condition_bool", base(&c->inputs[1], ab), base(&c->inputs[2], bb)}, *out = base(&c->outputs[0], o);
    node(g, "Where", in, 3, &out, 1, NULL);
    return 0;
}

/* NONZERO_COORDINATES: Y = NonZero(X), [N, count] int64 (X: the input's last N dimensions, the
 * framework form's shape).  The coordinates {M, N}: Pad(Cast(Transpose(Y), to=uint32), pads =
 * [0, 0, M - count, 0]), zero rows past the count (undefined in DirectML: the manifest's
 * defined_elements); the count (a scalar): Cast(Gather(Shape(Y), 1), to=uint32). */
static int g_nonzero(gctx *g) {
    const dmlref_case *c = g->c;
    const fw_shape *cs = &g->f->out[1];
    if (c->n_outputs != 2 || cs->rank != 2) return not_expressible(g, "no [M, N] coordinates");
    char x[64], ob0[64], ob1[64];
    const char *cnt_out = base(&c->outputs[0], ob0), *co_out = base(&c->outputs[1], ob1);
    node1(g, "NonZero", base(&c->inputs[0], x), "nz", NULL);
    pb_buf a = {0};
    const int64_t perm[2] = {1, 0};
    attr_ints(&a, "perm", perm, 2);
    node1(g, "Transpose", "nz", "nz_rows", &a);
    pb_buf b = {0};
    attr_int(&b, "to", T_UINT32);
    node1(g, "Cast", "nz_rows", "nz_rows_u32", &b);
    node1(g, "Shape", "nz", "nz_shape", NULL);
    const int64_t one = 1, m = cs->dims[0], zeros[2] = {0, 0}, zero = 0;
    init_i64(g, "one", &one, 1, 1);
    const char *gin[2] = {"nz_shape", "one"}, *gout = "nz_count";
    node(g, "Gather", gin, 2, &gout, 1, NULL); /* a scalar: the count */
    pb_buf d = {0};
    attr_int(&d, "to", T_UINT32);
    node1(g, "Cast", "nz_count", cnt_out, &d);
    init_i64(g, "rows", &m, 1, 1);
    const char *sin[2] = {"rows", "nz_count"}, *sout = "nz_past";
    node(g, "Sub", sin, 2, &sout, 1, NULL);
    init_i64(g, "axes0", &zero, 1, 0);
    const char *uin[2] = {"nz_past", "axes0"}, *uout = "nz_past_1d";
    node(g, "Unsqueeze", uin, 2, &uout, 1, NULL);
    init_i64(g, "pads_begin", zeros, 2, 0);
    init_i64(g, "pads_end_col", &zero, 1, 0);
    pb_buf e = {0};
    attr_int(&e, "axis", 0);
    const char *cin[3] = {"pads_begin", "nz_past_1d", "pads_end_col"}, *cout = "nz_pads";
    node(g, "Concat", cin, 3, &cout, 1, &e);
    const char *pin[2] = {"nz_rows_u32", "nz_pads"};
    node(g, "Pad", pin, 2, &co_out, 1, NULL);
    return 0;
}

/* FILL_VALUE_CONSTANT: ConstantOfShape(shape), `shape` an int64 initializer (the output's reduced
 * shape), the `value` attribute a one-element tensor of the output's type holding the Value's bits
 * (ConstantOfShape-9 takes every dmlref type). */
static int g_constant_of_shape(gctx *g) {
    const case_tensor *ot = &g->c->outputs[0];
    const fw_shape *os = &g->f->out[0];
    int64_t dims[FW_MAX_DIMS];
    for (uint32_t k = 0; k < os->rank; ++k) dims[k] = os->dims[k];
    init_i64(g, "shape", dims, os->rank, 0);
    unsigned char raw[8];
    const uint32_t esize = dmlref_data_type_size(ot->buf.DataType), one = 1;
    for (uint32_t b = 0; b < esize && b < 8; ++b) raw[b] = (unsigned char)(g->f->value_bits >> (8 * b) & 0xff);
    pb_buf a = {0}, x = {0};
    pb_string(&x, ATTR_NAME, "value");
    tensor_msg(&x, ATTR_T, "value", onnx_type(ot->buf.DataType), &one, 1, raw, esize);
    pb_int(&x, ATTR_TYPE, ATTR_TENSOR);
    pb_message(&a, NODE_ATTRIBUTE, &x);
    pb_free(&x);
    char o[64];
    node1(g, "ConstantOfShape", "shape", base(ot, o), &a);
    return 0;
}

/* a + b and a * b in int64, 0 when they overflow. */
static int add_i64(int64_t a, int64_t b, int64_t *r) {
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return 0;
    *r = a + b;
    return 1;
}
static int mul_i64(int64_t a, int64_t b, int64_t *r) {
    if (a == 0 || b == 0) {
        *r = 0;
        return 1;
    }
    if (a == -1) return b == INT64_MIN ? 0 : (*r = -b, 1);
    if (b == -1) return a == INT64_MIN ? 0 : (*r = -a, 1);
    const int64_t q = a > 0 ? (b > 0 ? INT64_MAX / b : INT64_MIN / b) : (b > 0 ? INT64_MIN / b : INT64_MAX / b);
    if ((a > 0 && b > 0 && a > q) || (a > 0 && b < 0 && a > q) || (a < 0 && b > 0 && a < q) ||
        (a < 0 && b < 0 && a < q))
        return 0;
    *r = a * b;
    return 1;
}

static float f32_of(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* FILL_VALUE_SEQUENCE: Range(start, limit, delta), then Cast to the output's type where Range lacks
 * it, then Reshape to the output's reduced shape (Range is 1-D; the flat sequence's element i is
 * the output's row-major element i).  Integers: Range in int64 on the values as int64 (unsigned
 * ones zero-extended, UINT64 as its two's complement), Cast keeping the low bits gives DirectML's
 * modulo-2^bits values, provided no int64 step overflows.  Floats (FLOAT16 widened): Range in
 * float32, expressible only when every value Start + i * Delta, i <= n, is exact in float32:
 * ONNX's reference computes start + i * delta, onnxruntime's CPU kernel accumulates, and dmlref
 * rounds fl32(Start + fl32(fl32(i) * Delta)); exact values are the same all three ways. */
static int g_range(gctx *g) {
    const case_tensor *ot = &g->c->outputs[0];
    const fw_shape *os = &g->f->out[0];
    const DMLREF_TENSOR_DATA_TYPE dt = ot->buf.DataType;
    const uint64_t n = logical_count(ot);
    const int is_float = dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32 || dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16;
    DMLREF_TENSOR_DATA_TYPE rt = is_float ? DMLREF_TENSOR_DATA_TYPE_FLOAT32 : DMLREF_TENSOR_DATA_TYPE_INT64;
    uint64_t sb = g->f->value_bits, db = g->f->delta_bits, lb;
    if (is_float) {
        if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16) { /* widened exactly (NaN: refused below) */
            const float fs = (float)fp16_to_double((uint16_t)sb), fd = (float)fp16_to_double((uint16_t)db);
            uint32_t us, ud;
            memcpy(&us, &fs, sizeof us);
            memcpy(&ud, &fd, sizeof ud);
            sb = us, db = ud;
        }
        const double s = f32_of((uint32_t)sb), d = f32_of((uint32_t)db);
        if (d == 0 || s != s || d != d || isinf(s) || isinf(d))
            return not_expressible(g, "a zero, infinite or NaN ValueStart or ValueDelta: Range's count "
                                      "(limit - start) / delta is then not the output's");
        for (uint64_t i = 0; i <= n; ++i) {
            const double p = (double)i * d, v = s + p; /* exact in double: |i| < 2^32, 24-bit d */
            if (i >= (UINT64_C(1) << 24) || (double)(float)p != p || (double)(float)v != v || isinf((float)v))
                return not_expressible(g, "float values Start + i * Delta not all exact in float32: ONNX computes "
                                          "start + i * delta, onnxruntime accumulates, dmlref rounds twice; "
                                          "they agree on exact values only");
        }
        const float lim = (float)(s + (double)n * d);
        uint32_t u;
        memcpy(&u, &lim, sizeof u);
        lb = u;
    } else {
        const uint32_t es = ot->esize;
        const int sgn = dt == DMLREF_TENSOR_DATA_TYPE_INT8 || dt == DMLREF_TENSOR_DATA_TYPE_INT16 ||
                        dt == DMLREF_TENSOR_DATA_TYPE_INT32;
        int64_t s64, d64, span, lim;
        if (es == 8) s64 = (int64_t)sb, d64 = (int64_t)db; /* two's complement */
        else if (sgn) {
            const uint64_t sh = 64 - 8 * es;
            s64 = (int64_t)(sb << sh) >> sh; /* sign-extended */
            d64 = (int64_t)(db << sh) >> sh;
        } else s64 = (int64_t)sb, d64 = (int64_t)db;
        if (d64 == 0)
            return not_expressible(g, "ValueDelta 0: Range's element count (limit - start) / delta is undefined");
        if (n > (uint64_t)INT64_MAX || !mul_i64((int64_t)n, d64, &span) || !add_i64(s64, span, &lim))
            return not_expressible(g, "Start + n * Delta overflows int64, the type Range computes the "
                                      "integer sequence in before the Cast");
        sb = (uint64_t)s64, db = (uint64_t)d64, lb = (uint64_t)lim;
    }
    init_scalar(g, "start", rt, sb);
    init_scalar(g, "limit", rt, lb);
    init_scalar(g, "delta", rt, db);
    char o[64];
    const char *out = base(ot, o), *in[3] = {"start", "limit", "delta"};
    const int cast = rt != dt, reshape = os->rank != 1;
    const char *r = cast ? "range" : reshape ? "flat" : out;
    node(g, "Range", in, 3, &r, 1, NULL);
    if (cast) {
        pb_buf a = {0};
        attr_int(&a, "to", onnx_type(dt));
        node1(g, "Cast", "range", reshape ? "flat" : out, &a);
    }
    if (reshape) {
        int64_t dims[FW_MAX_DIMS];
        for (uint32_t k = 0; k < os->rank; ++k) dims[k] = os->dims[k];
        init_i64(g, "out_shape", dims, os->rank, 0);
        const char *rin[2] = {"flat", "out_shape"};
        node(g, "Reshape", rin, 2, &out, 1, NULL);
    }
    return 0;
}

/* ARGMIN / ARGMAX: ArgMin / ArgMax (keepdims 1, select_last_index for DECREASING) over the form's
 * one axis; several axes: Transpose (the kept axes first, the reduced ones last in increasing
 * order), Reshape (the reduced ones merged into one), the arg over that last axis, Reshape to the
 * output's shape: the merged index is the operator's (row-major over the reduced axes).  ONNX
 * gives int64: Cast to INT32, UINT32, UINT64. */
static int g_argminmax(gctx *g, const char *op) {
    const dmlref_case *c = g->c;
    const fw_form *f = g->f;
    const fw_list *ax = list(f, "axes");
    const fw_shape *s = &f->in[0];
    if (!ax || ax->n == 0 || ax->n > s->rank) return not_expressible(g, "no axes");
    const DMLREF_TENSOR_DATA_TYPE ot = c->outputs[0].buf.DataType;
    const int cast = ot != DMLREF_TENSOR_DATA_TYPE_INT64;
    char i[64], o[64];
    const char *in = base(&c->inputs[0], i), *out = base(&c->outputs[0], o), *idx = cast ? "index_int64" : out;
    pb_buf a = {0};
    if (ax->n == 1) {
        attr_int(&a, "axis", ax->v[0]);
        attr_int(&a, "keepdims", 1);
        attr_int(&a, "select_last_index", int_param(f, "select_last_index", 0));
        node1(g, op, in, idx, &a);
    } else {
        int64_t perm[FW_MAX_DIMS], merged[FW_MAX_DIMS], oshape[FW_MAX_DIMS], m = 1;
        uint32_t q = 0, red[FW_MAX_DIMS] = {0};
        for (uint32_t k = 0; k < ax->n; ++k) red[ax->v[k]] = 1;
        for (uint32_t d = 0; d < s->rank; ++d)
            if (!red[d]) {
                merged[q] = s->dims[d];
                perm[q++] = d;
            }
        const uint32_t nk = q;
        for (uint32_t k = 0; k < ax->n; ++k) {
            perm[q++] = ax->v[k];
            m *= s->dims[ax->v[k]];
        }
        merged[nk] = m;
        for (uint32_t d = 0; d < s->rank; ++d) oshape[d] = red[d] ? 1 : s->dims[d];
        init_i64(g, "merged_shape", merged, nk + 1, 0);
        init_i64(g, "output_shape", oshape, s->rank, 0);
        attr_ints(&a, "perm", perm, s->rank);
        node1(g, "Transpose", in, "moved", &a);
        const char *r1[2] = {"moved", "merged_shape"}, *r1o = "merged";
        node(g, "Reshape", r1, 2, &r1o, 1, NULL);
        a = (pb_buf){0};
        attr_int(&a, "axis", nk);
        attr_int(&a, "keepdims", 1);
        attr_int(&a, "select_last_index", int_param(f, "select_last_index", 0));
        node1(g, op, "merged", "index_merged", &a);
        const char *r2[2] = {"index_merged", "output_shape"};
        node(g, "Reshape", r2, 2, &idx, 1, NULL);
    }
    if (cast) {
        a = (pb_buf){0};
        attr_int(&a, "to", onnx_type(ot));
        node1(g, "Cast", idx, out, &a);
    }
    return 0;
}

static int build_graph(gctx *g) {
    const char *op = g->f->onnx;
    if (strcmp(op, "Gather") == 0 || strcmp(op, "GatherElements") == 0) return g_gather_like(g, op, 0);
    if (strcmp(op, "ScatterElements") == 0) return g_gather_like(g, op, 1);
    if (strcmp(op, "GatherND") == 0) return g_nd(g, op, 0);
    if (strcmp(op, "ScatterND") == 0) return g_nd(g, op, 1);
    if (strcmp(op, "Split") == 0) return g_split(g);
    if (strcmp(op, "Concat") == 0) return g_concat(g);
    if (strcmp(op, "Identity") == 0) return g_identity(g);
    if (strcmp(op, "Tile") == 0) return g_tile(g);
    if (strcmp(op, "DepthToSpace") == 0) return g_depth_to_space(g);
    if (strcmp(op, "SpaceToDepth") == 0) return g_space_to_depth(g);
    if (strcmp(op, "Slice") == 0) return g_slice(g);
    if (strcmp(op, "OneHot") == 0) return g_one_hot(g);
    if (strcmp(op, "EyeLike") == 0 || strcmp(op, "Trilu") == 0) return g_diagonal(g);
    if (strcmp(op, "Pad") == 0) return g_pad(g);
    if (strcmp(op, "ReverseSequence") == 0) return g_reverse(g);
    if (strcmp(op, "Unfold") == 0)
        return not_expressible(g, "ONNX has no Unfold or Im2Col operator (opsets 13-19; Col2Im, from 18, is its inverse)");
    if (strcmp(op, "Cast") == 0) return g_cast(g);
    if (strcmp(op, "MaxUnpool") == 0) return g_max_unpool(g);
    if (strcmp(op, "Resize") == 0) return g_resize(g);
    if (strcmp(op, "Where") == 0) return g_where(g);
    if (strcmp(op, "ConstantOfShape") == 0) return g_constant_of_shape(g);
    if (strcmp(op, "Range") == 0) return g_range(g);
    if (strcmp(op, "TopK") == 0) return g_topk(g);
    if (strcmp(op, "NonZero") == 0) return g_nonzero(g);
    if (strcmp(op, "ArgMin") == 0 || strcmp(op, "ArgMax") == 0) return g_argminmax(g, op);
    return not_expressible(g, "this command has no ONNX graph for the operator");
}

void onnx_model_free(onnx_model *m) { pb_free(&m->model); }

int onnx_build(const dmlref_case *c, const fw_form *f, int index_issue, onnx_model *m) {
    memset(m, 0, sizeof *m);
    m->opset = 13;
    if (!f) {
        snprintf(m->why, sizeof m->why, "dmlref has no framework form for %s", c->op_name);
        return 0;
    }
    if (index_issue == IDX_OUT_OF_RANGE) {
        snprintf(m->why, sizeof m->why, "out-of-range indices: DirectML clamps them, ONNX makes them an error");
        return 0;
    }
    if (index_issue == IDX_DUPLICATE) {
        snprintf(m->why, sizeof m->why, "duplicate scatter targets: ONNX leaves which update wins undefined");
        return 0;
    }
    gctx g = {c, f, m, {0}, {0}, 0};
    if (build_graph(&g)) {
        pb_free(&g.nodes);
        pb_free(&g.inits);
        m->graph[0] = '\0';
        return 0;
    }
    m->expressible = 1;
    pb_buf graph = {0}, opset = {0};
    char b[64];
    pb_raw(&graph, g.nodes.p, g.nodes.len);
    pb_string(&graph, GRAPH_NAME, c->op_name);
    pb_raw(&graph, g.inits.p, g.inits.len);
    for (uint32_t k = 0; k < c->n_inputs; ++k)
        value_info(&graph, GRAPH_INPUT, base(&c->inputs[k], b), onnx_type(c->inputs[k].buf.DataType), f->in[k].dims,
                   f->in[k].rank);
    for (uint32_t k = 0; k < c->n_outputs; ++k)
        value_info(&graph, GRAPH_OUTPUT, base(&c->outputs[k], b), onnx_type(c->outputs[k].buf.DataType),
                   f->out[k].dims, f->out[k].rank);
    if (g.nodes.oom || g.inits.oom) graph.oom = 1;
    pb_int(&opset, OPSET_VERSION, m->opset);
    /* IR version: 7 goes with opset 13 (onnx/helper.py's VERSION_TABLE: 1.8), 9 with opset 19 (1.14) */
    pb_int(&m->model, MODEL_IR_VERSION, m->opset >= 19 ? 9 : 7);
    pb_string(&m->model, MODEL_PRODUCER_NAME, "dmlref");
    pb_message(&m->model, MODEL_GRAPH, &graph);
    pb_message(&m->model, MODEL_OPSET_IMPORT, &opset);
    const int oom = m->model.oom;
    pb_free(&graph);
    pb_free(&opset);
    pb_free(&g.nodes);
    pb_free(&g.inits);
    if (oom) {
        onnx_model_free(m);
        return CASE_OUT_OF_MEMORY;
    }
    return 0;
}

static int write_file(const char *dir, const char *name, const pb_buf *b, char *err, size_t errcap) {
    if (b->oom) {
        snprintf(err, errcap, "%s/%s: out of memory", dir, name);
        return CASE_OUT_OF_MEMORY;
    }
    const size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path) {
        snprintf(err, errcap, "%s/%s: out of memory", dir, name);
        return CASE_OUT_OF_MEMORY;
    }
    snprintf(path, n, "%s/%s", dir, name);
    const file_part part = {b->p ? (const void *)b->p : (const void *)"", b->len};
    const int rc = file_write_atomic(path, &part, 1, err, errcap);
    free(path);
    return rc;
}

int onnx_write(const char *dir, const dmlref_case *c, const fw_form *f, const onnx_model *m, char *err,
               size_t errcap) {
    int rc = write_file(dir, "model.onnx", &m->model, err, errcap);
    const size_t n = strlen(dir) + sizeof "/test_data_set_0";
    char *data = rc ? NULL : malloc(n);
    if (!rc && !data) {
        snprintf(err, errcap, "%s: out of memory", dir);
        rc = CASE_OUT_OF_MEMORY;
    }
    if (!rc) {
        snprintf(data, n, "%s/test_data_set_0", dir);
        rc = dir_create_path(data, err, errcap);
    }
    for (uint32_t k = 0; !rc && k < c->n_inputs + c->n_outputs; ++k) {
        const int is_out = k >= c->n_inputs;
        const uint32_t j = is_out ? k - c->n_inputs : k;
        const case_tensor *t = is_out ? &c->outputs[j] : &c->inputs[j];
        char name[64], file[32];
        pb_buf b = {0};
        onnx_tensor_proto(&b, t, is_out ? &f->out[j] : &f->in[j], base(t, name));
        snprintf(file, sizeof file, "%s_%u.pb", is_out ? "output" : "input", (unsigned)j);
        rc = write_file(data, file, &b, err, errcap);
        pb_free(&b);
    }
    free(data);
    return rc;
}
