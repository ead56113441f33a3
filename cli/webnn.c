/* A case in the WPT WebNN conformance-test form (webnn.h). */
#include "webnn.h"

#include "case/fp16.h"
#include "case/json_out.h"
#include "case/logical.h"
#include "case/memout.h"
#include "case/npyout.h"
#include "case/value.h"
#include "onnx.h" /* IDX_* */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* WebNN's MLOperandDataType name of dt, or NULL for a type WebNN lacks (FLOAT64, INT16, UINT16). */
static const char *webnn_type(DMLREF_TENSOR_DATA_TYPE dt) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: return "float32";
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: return "float16";
    case DMLREF_TENSOR_DATA_TYPE_UINT32: return "uint32";
    case DMLREF_TENSOR_DATA_TYPE_UINT8: return "uint8";
    case DMLREF_TENSOR_DATA_TYPE_INT32: return "int32";
    case DMLREF_TENSOR_DATA_TYPE_INT8: return "int8";
    case DMLREF_TENSOR_DATA_TYPE_UINT64: return "uint64";
    case DMLREF_TENSOR_DATA_TYPE_INT64: return "int64";
    default: return NULL;
    }
}

/* A float element's value as JSON: the shortest decimal that reads back (as a double, what
 * JavaScript parses) to the element's exact value, which a float16 or float32 holds exactly, so
 * Float16Array / Float32Array store the same bits; -0 as -0; "NaN", "Infinity", "-Infinity" as
 * strings (JSON has no such numbers; the "bits" list has every NaN's payload). */
static void write_float(FILE *f, double v) {
    if (isnan(v)) {
        fputs("\"NaN\"", f);
        return;
    }
    if (isinf(v)) {
        fputs(v > 0 ? "\"Infinity\"" : "\"-Infinity\"", f);
        return;
    }
    char buf[40];
    for (int p = 1; p <= 17; ++p) {
        snprintf(buf, sizeof buf, "%.*g", p, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, f);
}

static double float_value(uint64_t bits, DMLREF_TENSOR_DATA_TYPE dt) {
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16) return fp16_to_double((uint16_t)bits);
    const uint32_t u = (uint32_t)bits;
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* One element of type dt (its bits) as JSON: floats as above, 64-bit integers as decimal strings
 * (BigInt(s) reads them; JSON.parse would round them beyond 2^53), the rest as numbers. */
static void write_element(FILE *f, uint64_t bits, DMLREF_TENSOR_DATA_TYPE dt) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16:
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: write_float(f, float_value(bits, dt)); break;
    case DMLREF_TENSOR_DATA_TYPE_INT64: fprintf(f, "\"%" PRId64 "\"", (int64_t)bits); break;
    case DMLREF_TENSOR_DATA_TYPE_UINT64: fprintf(f, "\"%" PRIu64 "\"", bits); break;
    case DMLREF_TENSOR_DATA_TYPE_INT32: fprintf(f, "%" PRId32, (int32_t)(uint32_t)bits); break;
    case DMLREF_TENSOR_DATA_TYPE_INT8: fprintf(f, "%d", (int)(int8_t)(uint8_t)bits); break;
    default: fprintf(f, "%" PRIu64, bits); break;
    }
}

static const char *base(const case_tensor *t, char *buf) { return npyout_base(t, buf, 64); }

typedef struct wctx {
    const dmlref_case *c;
    const fw_form *f;
    webnn_test *w;
    FILE *o;          /* the operators' text */
    FILE *consts;     /* constant inputs' text (",\n      \"band\": {...}") */
    unsigned n_ops;
    int oom;
} wctx;

static int not_expressible(wctx *g, const char *why) {
    snprintf(g->w->why, sizeof g->w->why, "%s", why);
    return 1;
}

/* A tensor's entry: {"data": [...], "descriptor": {"shape": [...], "dataType": "..."}} plus, for
 * float types, "bits": every element's bit pattern as hex (NaN payloads, the signalling bit). */
static void write_entry(FILE *f, const uint64_t *bits, uint64_t n, DMLREF_TENSOR_DATA_TYPE dt, const uint32_t *dims,
                        uint32_t rank, int constant) {
    fputs("{\"data\": [", f);
    for (uint64_t i = 0; i < n; ++i) {
        if (i) fputs(i % 16 ? ", " : ",\n          ", f);
        write_element(f, bits[i], dt);
    }
    fputs("],\n        \"descriptor\": {\"shape\": ", f);
    jout_u32_list(f, dims, rank);
    fprintf(f, ", \"dataType\": \"%s\"}", webnn_type(dt));
    const uint32_t esize = dmlref_data_type_size(dt);
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16 || dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
        fputs(",\n        \"bits\": [", f);
        for (uint64_t i = 0; i < n; ++i) {
            if (i) fputs(i % 16 ? ", " : ",\n          ", f);
            fprintf(f, "\"0x%0*" PRIx64 "\"", (int)(2 * esize), bits[i]);
        }
        fputc(']', f);
    }
    if (constant) fputs(", \"constant\": true", f);
    fputc('}', f);
}

/* The tensor's elements (logical view) as bits, malloc'd; NULL when out of memory. */
static uint64_t *tensor_bits(const case_tensor *t) {
    const uint64_t n = logical_count(t);
    unsigned char *host = logical_gather_alloc(t, t->data);
    uint64_t *bits = n < SIZE_MAX / 8 ? malloc((size_t)n * 8 + 1) : NULL;
    if (host && bits)
        for (uint64_t i = 0; i < n; ++i) bits[i] = value_load_bits(host + i * t->esize, t->esize);
    free(host);
    if (!host) {
        free(bits);
        bits = NULL;
    }
    return bits;
}

/* An operator: {"name": op, "arguments": [args], "outputs": out}; args is JSON text. */
static void op(wctx *g, const char *name, const char *args, const char *outputs) {
    fprintf(g->o, "%s\n      {\"name\": \"%s\", \"arguments\": [%s], \"outputs\": %s}", g->n_ops ? "," : "", name, args,
            outputs);
    const size_t used = strlen(g->w->ops);
    if (!g->n_ops || !strstr(g->w->ops, name))
        snprintf(g->w->ops + used, sizeof g->w->ops - used, "%s%s", used ? ", " : "", name);
    ++g->n_ops;
}

/* "[a, b, c]" of n integers into buf. */
static const char *ints(char *buf, size_t cap, const int64_t *v, uint32_t n) {
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (uint32_t i = 0; i < n && k < cap; ++i) k += (size_t)snprintf(buf + k, cap - k, i ? ", %" PRId64 : "%" PRId64, v[i]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
    return buf;
}

static const char *dims_json(char *buf, size_t cap, const fw_shape *s) {
    int64_t v[FW_MAX_DIMS];
    for (uint32_t k = 0; k < s->rank; ++k) v[k] = s->dims[k];
    return ints(buf, cap, v, s->rank);
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

static int slot_index(const dmlref_case *c, const char *slot) {
    for (uint32_t k = 0; k < c->n_inputs; ++k)
        if (strcmp(c->inputs[k].slot, slot) == 0) return (int)k;
    return -1;
}

/* Indices WebNN takes: int32, uint32, int64. */
static int indices_ok(wctx *g, int k) {
    if (g->c->inputs[k].buf.DataType != DMLREF_TENSOR_DATA_TYPE_UINT64) return 1;
    not_expressible(g, "UINT64 indices: WebNN takes int32, uint32 and int64 indices");
    return 0;
}

static int w_gather_like(wctx *g, const char *name, int has_updates, int has_axis) {
    const dmlref_case *c = g->c;
    char a[512], d[64], i[64], u[64], o[80];
    if (!indices_ok(g, 1)) return 1;
    int n = snprintf(a, sizeof a, "{\"input\": \"%s\"}, {\"indices\": \"%s\"}", base(&c->inputs[0], d),
                     base(&c->inputs[1], i));
    if (has_updates) n += snprintf(a + n, sizeof a - (size_t)n, ", {\"updates\": \"%s\"}", base(&c->inputs[2], u));
    if (has_axis) snprintf(a + n, sizeof a - (size_t)n, ", {\"options\": {\"axis\": %u}}", (unsigned)g->f->axis);
    snprintf(o, sizeof o, "\"%s\"", base(&c->outputs[0], d));
    op(g, name, a, o);
    return 0;
}

static int w_gather_nd(wctx *g) {
    if (int_param(g->f, "batch_dims", 0) != 0)
        return not_expressible(g, "batch dimensions: WebNN's gatherND has none (BatchDimensionCount > 0)");
    return w_gather_like(g, "gatherND", 0, 0);
}

/* split(input, splits, {axis}) and concat(inputs, axis): the names of every piece. */
static int w_split_concat(wctx *g, int is_split) {
    const dmlref_case *c = g->c;
    const uint32_t n = is_split ? c->n_outputs : c->n_inputs;
    const size_t cap = 80 * (size_t)n + 160;
    char *names = malloc(cap), *args = malloc(cap + 160), b[64];
    if (!names || !args) {
        g->oom = 1;
    } else {
        size_t k = (size_t)snprintf(names, cap, "[");
        for (uint32_t p = 0; p < n; ++p)
            k += (size_t)snprintf(names + k, cap - k, "%s\"%s\"", p ? ", " : "",
                                  base(is_split ? &c->outputs[p] : &c->inputs[p], b));
        snprintf(names + k, cap - k, "]");
        if (is_split) {
            size_t m = (size_t)snprintf(args, cap + 160, "{\"input\": \"%s\"}, {\"splits\": [", base(&c->inputs[0], b));
            for (uint32_t p = 0; p < n; ++p)
                m += (size_t)snprintf(args + m, cap + 160 - m, p ? ", %u" : "%u", (unsigned)g->f->out[p].dims[g->f->axis]);
            snprintf(args + m, cap + 160 - m, "]}, {\"options\": {\"axis\": %u}}", (unsigned)g->f->axis);
            op(g, "split", args, names);
        } else {
            snprintf(args, cap + 160, "{\"inputs\": %s}, {\"axis\": %u}", names, (unsigned)g->f->axis);
            snprintf(names, cap, "\"%s\"", base(&c->outputs[0], b));
            op(g, "concat", args, names);
        }
    }
    free(names);
    free(args);
    return 0;
}

static int w_identity(wctx *g) {
    const DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC *d = g->c->desc_mem;
    if (d->ScaleBias) return not_expressible(g, "ScaleBias is arithmetic (x * Scale + Bias), not data movement");
    char a[128], b[64], o[80];
    snprintf(a, sizeof a, "{\"input\": \"%s\"}", base(&g->c->inputs[0], b));
    snprintf(o, sizeof o, "\"%s\"", base(&g->c->outputs[0], b));
    op(g, "identity", a, o);
    return 0;
}

static int w_tile(wctx *g) {
    const fw_list *r = list(g->f, "repeats");
    if (!r) return not_expressible(g, "no repeats");
    char a[512], l[256], b[64], o[80];
    snprintf(a, sizeof a, "{\"input\": \"%s\"}, {\"repetitions\": %s}", base(&g->c->inputs[0], b),
             ints(l, sizeof l, r->v, r->n));
    snprintf(o, sizeof o, "\"%s\"", base(&g->c->outputs[0], b));
    op(g, "tile", a, o);
    return 0;
}

/* DepthToSpace / SpaceToDepth as reshape, transpose, reshape (WebNN has neither):
 *   DepthToSpace DCR: [N, b, b, C/b^2, H, W], permutation [0, 3, 4, 1, 5, 2]
 *   DepthToSpace CRD: [N, C/b^2, b, b, H, W], permutation [0, 1, 4, 2, 5, 3]
 *   SpaceToDepth DCR: [N, C, H/b, b, W/b, b], permutation [0, 3, 5, 1, 2, 4]
 *   SpaceToDepth CRD: [N, C, H/b, b, W/b, b], permutation [0, 1, 3, 5, 2, 4]
 * then the output's shape. */
static int w_depth_space(wctx *g, int to_space) {
    const fw_shape *s = &g->f->in[0];
    if (s->rank != 4) return not_expressible(g, "not 4-D");
    const int crd = g->f->mode && strcmp(g->f->mode, "CRD") == 0;
    const int64_t b = int_param(g->f, "blocksize", 1), n = s->dims[0], ch = s->dims[1], h = s->dims[2], w = s->dims[3];
    int64_t six[6], perm[6];
    if (to_space) {
        const int64_t dcr[6] = {n, b, b, ch / (b * b), h, w}, crd6[6] = {n, ch / (b * b), b, b, h, w};
        const int64_t pd[6] = {0, 3, 4, 1, 5, 2}, pc[6] = {0, 1, 4, 2, 5, 3};
        memcpy(six, crd ? crd6 : dcr, sizeof six);
        memcpy(perm, crd ? pc : pd, sizeof perm);
    } else {
        const int64_t s6[6] = {n, ch, h / b, b, w / b, b}, pd[6] = {0, 3, 5, 1, 2, 4}, pc[6] = {0, 1, 3, 5, 2, 4};
        memcpy(six, s6, sizeof six);
        memcpy(perm, crd ? pc : pd, sizeof perm);
    }
    char a[512], l[256], bname[64], o[80];
    snprintf(a, sizeof a, "{\"input\": \"%s\"}, {\"newShape\": %s}", base(&g->c->inputs[0], bname), ints(l, sizeof l, six, 6));
    op(g, "reshape", a, "\"blocks\"");
    snprintf(a, sizeof a, "{\"input\": \"blocks\"}, {\"options\": {\"permutation\": %s}}", ints(l, sizeof l, perm, 6));
    op(g, "transpose", a, "\"moved\"");
    snprintf(a, sizeof a, "{\"input\": \"moved\"}, {\"newShape\": %s}", dims_json(l, sizeof l, &g->f->out[0]));
    snprintf(o, sizeof o, "\"%s\"", base(&g->c->outputs[0], bname));
    op(g, "reshape", a, o);
    return 0;
}

/* slice(input, starts, sizes, {strides}); a negative step is reverse on those axes first (then
 * start' = size - 1 - start and the stride |step|). */
static int w_slice(wctx *g) {
    const fw_list *st = list(g->f, "starts"), *sp = list(g->f, "steps");
    if (!st || !sp) return not_expressible(g, "no slice parameters");
    const fw_shape *in = &g->f->in[0], *out = &g->f->out[0];
    int64_t starts[FW_MAX_DIMS] = {0}, sizes[FW_MAX_DIMS] = {0}, strides[FW_MAX_DIMS] = {0}, axes[FW_MAX_DIMS] = {0};
    uint32_t n_rev = 0;
    int unit = 1;
    for (uint32_t k = 0; k < in->rank; ++k) {
        int64_t s = st->v[k], step = sp->v[k];
        if (step < 0) {
            axes[n_rev++] = k;
            s = (int64_t)in->dims[k] - 1 - s;
            step = -step;
        }
        starts[k] = s;
        sizes[k] = out->dims[k];
        strides[k] = step;
        unit &= step == 1;
    }
    char a[1024], l1[256], l2[256], l3[256], b[64], o[80];
    const char *src = base(&g->c->inputs[0], b);
    if (n_rev) {
        snprintf(a, sizeof a, "{\"input\": \"%s\"}, {\"options\": {\"axes\": %s}}", src, ints(l1, sizeof l1, axes, n_rev));
        op(g, "reverse", a, "\"reversed\"");
        src = "reversed";
    }
    int m = snprintf(a, sizeof a, "{\"input\": \"%s\"}, {\"starts\": %s}, {\"sizes\": %s}", src,
                     ints(l1, sizeof l1, starts, in->rank), ints(l2, sizeof l2, sizes, in->rank));
    if (!unit) snprintf(a + m, sizeof a - (size_t)m, ", {\"options\": {\"strides\": %s}}", ints(l3, sizeof l3, strides, in->rank));
    snprintf(o, sizeof o, "\"%s\"", base(&g->c->outputs[0], b));
    op(g, "slice", a, o);
    return 0;
}

/* A constant input named `name`: n elements (bits) of type dt, shape dims. */
static void constant(wctx *g, const char *name, const uint64_t *bits, uint64_t n, DMLREF_TENSOR_DATA_TYPE dt,
                     const uint32_t *dims, uint32_t rank) {
    fprintf(g->consts, ",\n      \"%s\": ", name);
    write_entry(g->consts, bits, n, dt, dims, rank, 1);
}

/* DIAGONAL_MATRIX(1): where(band, fill, input or 0), the band a constant uint8 tensor of the
 * output's shape, fill and 0 constant scalars of the output's type. */
static int w_diagonal(wctx *g) {
    const dmlref_case *c = g->c;
    const fw_form *f = g->f;
    const fw_shape *os = &f->out[0];
    if (os->rank < 2) return not_expressible(g, "the output has fewer than 2 dimensions");
    const DMLREF_TENSOR_DATA_TYPE dt = c->outputs[0].buf.DataType;
    const uint64_t n = logical_count(&c->outputs[0]), w = os->dims[os->rank - 1], h = os->dims[os->rank - 2];
    const int64_t begin = int_param(f, "begin", 0), end = int_param(f, "end", 1);
    uint64_t *mask = n < SIZE_MAX / 8 ? malloc((size_t)n * 8 + 1) : NULL;
    if (!mask) {
        g->oom = 1;
        return 0;
    }
    for (uint64_t e = 0; e < n; ++e) {
        const int64_t x = (int64_t)(e % w), y = (int64_t)(e / w % h), d = x - y;
        mask[e] = (uint64_t)((end >= begin) ^ (d >= begin) ^ (d < end));
    }
    constant(g, "band", mask, n, DMLREF_TENSOR_DATA_TYPE_UINT8, os->dims, os->rank);
    free(mask);
    const uint64_t fill = f->value_bits, zero = 0;
    constant(g, "fill", &fill, 1, dt, NULL, 0);
    char a[256], b[64], o[80];
    const char *other = "zero";
    if (c->n_inputs > 0) other = base(&c->inputs[0], b);
    else constant(g, "zero", &zero, 1, dt, NULL, 0);
    snprintf(a, sizeof a, "{\"condition\": \"band\"}, {\"trueValue\": \"fill\"}, {\"falseValue\": \"%s\"}", other);
    snprintf(o, sizeof o, "\"%s\"", base(&c->outputs[0], b));
    op(g, "where", a, o);
    return 0;
}

/* pad(input, beginningPadding, endingPadding, {mode, value}): constant, edge, reflection (pads
 * smaller than the axis); WebNN has no symmetric or wrap mode. */
static int w_pad(wctx *g) {
    const fw_form *f = g->f;
    const fw_list *p = list(f, "pads");
    if (!p || !f->mode) return not_expressible(g, "no pads");
    if (strcmp(f->mode, "symmetric") == 0)
        return not_expressible(g, "SYMMETRIC padding: WebNN's pad has constant, edge and reflection modes");
    if (strcmp(f->mode, "wrap") == 0)
        return not_expressible(g, "WRAP padding: WebNN's pad has constant, edge and reflection modes");
    const fw_shape *s = &f->in[0];
    if (strcmp(f->mode, "reflect") == 0)
        for (uint32_t k = 0; k < s->rank; ++k)
            if (p->v[k] >= s->dims[k] || p->v[s->rank + k] >= s->dims[k]) {
                snprintf(g->w->why, sizeof g->w->why,
                         "reflection pads %lld and %lld on an axis of size %u: WebNN takes pads smaller than the "
                         "axis (DirectML folds again)",
                         (long long)p->v[k], (long long)p->v[s->rank + k], (unsigned)s->dims[k]);
                return 1;
            }
    const DMLREF_TENSOR_DATA_TYPE dt = g->c->outputs[0].buf.DataType;
    char a[1024], l1[256], l2[256], v[64] = "", b[64], o[80];
    const int constant = strcmp(f->mode, "constant") == 0;
    if (constant) {
        const uint64_t bits = f->value_bits;
        if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16 || dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
            const double x = float_value(bits, dt);
            const uint64_t canonical = dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16 ? 0x7e00 : 0x7fc00000;
            if (isnan(x) && bits != canonical)
                return not_expressible(g, "a NaN fill with a payload or sign: WebNN's pad value is a number");
        }
        memout m;
        if (memout_open(&m)) {
            g->oom = 1;
            return 0;
        }
        fputs(", \"value\": ", m.f);
        write_element(m.f, bits, dt);
        if (memout_close(&m)) {
            g->oom = 1;
            return 0;
        }
        snprintf(v, sizeof v, "%s", m.text);
        free(m.text);
    }
    snprintf(a, sizeof a,
             "{\"input\": \"%s\"}, {\"beginningPadding\": %s}, {\"endingPadding\": %s}, {\"options\": {\"mode\": \"%s\"%s}}",
             base(&g->c->inputs[0], b), ints(l1, sizeof l1, p->v, s->rank), ints(l2, sizeof l2, p->v + s->rank, s->rank),
             strcmp(f->mode, "reflect") == 0 ? "reflection" : f->mode, v);
    snprintf(o, sizeof o, "\"%s\"", base(&g->c->outputs[0], b));
    op(g, "pad", a, o);
    return 0;
}

/* REVERSE_SUBSEQUENCES: gatherElements(input, positions, {axis}) with constant int32 positions
 * computed from the lengths (L = min(length, n); k < L reads L - 1 - k, the rest k): WebNN has no
 * per-sequence reversal, so the lengths are in the constant, not a graph input. */
static int w_reverse(wctx *g) {
    const dmlref_case *c = g->c;
    const fw_form *f = g->f;
    const int kl = slot_index(c, "SequenceLengthsTensor");
    if (kl < 0) return not_expressible(g, "no lengths");
    const fw_shape *s = &f->in[0];
    const uint32_t ax = f->axis;
    const uint64_t n = logical_count(&c->inputs[0]);
    uint64_t inner = 1;
    for (uint32_t k = ax + 1; k < s->rank; ++k) inner *= s->dims[k];
    const uint64_t len_n = s->dims[ax];
    uint64_t *lens = tensor_bits(&c->inputs[kl]), *pos = n < SIZE_MAX / 8 ? malloc((size_t)n * 8 + 1) : NULL;
    if (!lens || !pos) {
        g->oom = 1;
    } else {
        for (uint64_t e = 0; e < n; ++e) {
            const uint64_t k = e / inner % len_n, outer = e / (inner * len_n), in = e % inner;
            const uint64_t l = lens[outer * inner + in], cl = l < len_n ? l : len_n;
            pos[e] = k < cl ? cl - 1 - k : k;
        }
        constant(g, "positions", pos, n, DMLREF_TENSOR_DATA_TYPE_INT32, s->dims, s->rank);
        char a[256], b[64], o[80];
        snprintf(a, sizeof a, "{\"input\": \"%s\"}, {\"indices\": \"positions\"}, {\"options\": {\"axis\": %u}}",
                 base(&c->inputs[0], b), (unsigned)ax);
        snprintf(o, sizeof o, "\"%s\"", base(&c->outputs[0], b));
        op(g, "gatherElements", a, o);
    }
    free(lens);
    free(pos);
    return 0;
}

/* ELEMENT_WISE_IF: where(condition, trueValue, falseValue), the condition uint8 (WebNN's: any
 * nonzero element is true). */
static int w_where(wctx *g) {
    const dmlref_case *c = g->c;
    char a[256], b0[64], b1[64], b2[64], o[80];
    snprintf(a, sizeof a, "{\"condition\": \"%s\"}, {\"trueValue\": \"%s\"}, {\"falseValue\": \"%s\"}",
             base(&c->inputs[0], b0), base(&c->inputs[1], b1), base(&c->inputs[2], b2));
    snprintf(o, sizeof o, "\"%s\"", base(&c->outputs[0], b0));
    op(g, "where", a, o);
    return 0;
}

/* The operators of the case: 0, or 1 when not expressible (w->why). */
/* CAST: cast(input, type); data WebNN leaves implementation-defined (onnx_cast_issue) is not
 * expressible. */
static int w_cast(wctx *g) {
    const char *why = onnx_cast_issue(g->c);
    if (why) return not_expressible(g, why);
    const char *t = webnn_type(g->c->outputs[0].buf.DataType);
    if (!t) return not_expressible(g, "an output type WebNN lacks");
    char a[160], b[64], o[80];
    snprintf(a, sizeof a, "{\"input\": \"%s\"}, {\"type\": \"%s\"}", base(&g->c->inputs[0], b), t);
    snprintf(o, sizeof o, "\"%s\"", base(&g->c->outputs[0], b));
    op(g, "cast", a, o);
    return 0;
}

/* ARGMIN / ARGMAX: argMin / argMax(input, axis, {keepDimensions: true, outputDataType}) over the
 * form's one axis; several axes: transpose (the kept axes first, the reduced ones last in
 * increasing order), reshape (the reduced ones merged), the arg over the last axis, reshape to
 * the output's shape (the merged index is the operator's, as in the ONNX graph).  WebNN has no
 * select-last option (DECREASING) and gives int32 or int64 only. */
static int w_argminmax(wctx *g, const char *name) {
    const fw_list *ax = list(g->f, "axes");
    const fw_shape *s = &g->f->in[0];
    const DMLREF_TENSOR_DATA_TYPE ot = g->c->outputs[0].buf.DataType;
    if (!ax || ax->n == 0 || ax->n > s->rank) return not_expressible(g, "no axes");
    if (int_param(g->f, "select_last_index", 0))
        return not_expressible(g, "AxisDirection DECREASING: WebNN's argMin/argMax have no select-last option");
    if (ot != DMLREF_TENSOR_DATA_TYPE_INT32 && ot != DMLREF_TENSOR_DATA_TYPE_INT64)
        return not_expressible(g, "an unsigned output: WebNN's argMin/argMax give int32 or int64 (outputDataType)");
    char a[512], l[256], b[64], ob[64], o[80];
    const char *in = base(&g->c->inputs[0], b);
    snprintf(o, sizeof o, "\"%s\"", base(&g->c->outputs[0], ob));
    if (ax->n == 1) {
        snprintf(a, sizeof a, "{\"input\": \"%s\"}, {\"axis\": %u}, {\"options\": {\"keepDimensions\": true, "
                 "\"outputDataType\": \"%s\"}}",
                 in, (unsigned)ax->v[0], webnn_type(ot));
        op(g, name, a, o);
        return 0;
    }
    int64_t perm[FW_MAX_DIMS], merged[FW_MAX_DIMS], m = 1;
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
    snprintf(a, sizeof a, "{\"input\": \"%s\"}, {\"options\": {\"permutation\": %s}}", in,
             ints(l, sizeof l, perm, s->rank));
    op(g, "transpose", a, "\"moved\"");
    snprintf(a, sizeof a, "{\"input\": \"moved\"}, {\"newShape\": %s}", ints(l, sizeof l, merged, nk + 1));
    op(g, "reshape", a, "\"merged\"");
    snprintf(a, sizeof a, "{\"input\": \"merged\"}, {\"axis\": %u}, {\"options\": {\"keepDimensions\": true, "
             "\"outputDataType\": \"%s\"}}",
             nk, webnn_type(ot));
    op(g, name, a, "\"index_merged\"");
    snprintf(a, sizeof a, "{\"input\": \"index_merged\"}, {\"newShape\": %s}", dims_json(l, sizeof l, &g->f->out[0]));
    op(g, "reshape", a, o);
    return 0;
}

static int build_ops(wctx *g) {
    const char *onnx = g->f->onnx;
    if (strcmp(onnx, "Gather") == 0) return w_gather_like(g, "gather", 0, 1);
    if (strcmp(onnx, "GatherElements") == 0) return w_gather_like(g, "gatherElements", 0, 1);
    if (strcmp(onnx, "ScatterElements") == 0) return w_gather_like(g, "scatterElements", 1, 1);
    if (strcmp(onnx, "ScatterND") == 0) return w_gather_like(g, "scatterND", 1, 0);
    if (strcmp(onnx, "GatherND") == 0) return w_gather_nd(g);
    if (strcmp(onnx, "Split") == 0) return w_split_concat(g, 1);
    if (strcmp(onnx, "Concat") == 0) return w_split_concat(g, 0);
    if (strcmp(onnx, "Identity") == 0) return w_identity(g);
    if (strcmp(onnx, "Tile") == 0) return w_tile(g);
    if (strcmp(onnx, "DepthToSpace") == 0) return w_depth_space(g, 1);
    if (strcmp(onnx, "SpaceToDepth") == 0) return w_depth_space(g, 0);
    if (strcmp(onnx, "Slice") == 0) return w_slice(g);
    if (strcmp(onnx, "EyeLike") == 0 || strcmp(onnx, "Trilu") == 0) return w_diagonal(g);
    if (strcmp(onnx, "Pad") == 0) return w_pad(g);
    if (strcmp(onnx, "ReverseSequence") == 0) return w_reverse(g);
    if (strcmp(onnx, "Cast") == 0) return w_cast(g);
    if (strcmp(onnx, "OneHot") == 0) return not_expressible(g, webnn_unsupported("ONE_HOT"));
    if (strcmp(onnx, "Unfold") == 0) return not_expressible(g, webnn_unsupported("UNFOLD"));
    if (strcmp(onnx, "MaxUnpool") == 0) return not_expressible(g, webnn_unsupported("MAX_UNPOOLING"));
    if (strcmp(onnx, "Resize") == 0 && strcmp(g->c->op_name, "UPSAMPLE_2D") == 0)
        return not_expressible(g, "WebNN's resample2d fixes its own nearest-neighbor rounding: dmlref does not map "
                                  "UPSAMPLE_2D onto it (integer scales would agree, but no exact rule is written)");
    if (strcmp(onnx, "Resize") == 0)
        return not_expressible(g, "WebNN's resample2d fixes its own nearest-neighbor rounding and scales 2 axes: "
                                  "the RESAMPLE offsets and rounding direction do not map onto it");
    if (strcmp(onnx, "Where") == 0) return w_where(g);
    if (strcmp(onnx, "ConstantOfShape") == 0) return not_expressible(g, webnn_unsupported("FILL_VALUE_CONSTANT"));
    if (strcmp(onnx, "Range") == 0) return not_expressible(g, webnn_unsupported("FILL_VALUE_SEQUENCE"));
    if (strcmp(onnx, "TopK") == 0) return not_expressible(g, webnn_unsupported("TOP_K"));
    if (strcmp(onnx, "NonZero") == 0) return not_expressible(g, webnn_unsupported("NONZERO_COORDINATES"));
    if (strcmp(onnx, "ArgMin") == 0) return w_argminmax(g, "argMin");
    if (strcmp(onnx, "ArgMax") == 0) return w_argminmax(g, "argMax");
    return not_expressible(g, "this command has no WebNN form for the operator");
}

/* A graph input or output of a type WebNN lacks: the reason, else NULL. */
static int types_ok(wctx *g) {
    const dmlref_case *c = g->c;
    for (uint32_t k = 0; k < c->n_inputs + c->n_outputs; ++k) {
        const case_tensor *t = k < c->n_inputs ? &c->inputs[k] : &c->outputs[k - c->n_inputs];
        if (strcmp(c->op_name, "REVERSE_SUBSEQUENCES") == 0 && strcmp(t->slot, "SequenceLengthsTensor") == 0) continue;
        if (!webnn_type(t->buf.DataType)) {
            snprintf(g->w->why, sizeof g->w->why,
                     "%s is %s: WebNN's types are float32, float16, int32, uint32, int64, uint64, int8, uint8", t->name,
                     dmlref_data_type_name(t->buf.DataType));
            return 0;
        }
    }
    return 1;
}

static void write_tensor(wctx *g, FILE *f, const case_tensor *t, const fw_shape *s, int first) {
    char b[64];
    uint64_t *bits = tensor_bits(t);
    if (!bits) {
        g->oom = 1;
        return;
    }
    fprintf(f, "%s\n      \"%s\": ", first ? "" : ",", base(t, b));
    write_entry(f, bits, logical_count(t), t->buf.DataType, s->dims, s->rank, 0);
    free(bits);
}

const char *webnn_unsupported(const char *op_name) {
    if (strcmp(op_name, "UNFOLD") == 0) return "WebNN has no unfold (im2col) operator";
    if (strcmp(op_name, "MAX_UNPOOLING") == 0)
        return "WebNN has no unpooling operator (and no scatter of flat indices into a zeroed tensor)";
    if (strcmp(op_name, "ONE_HOT") == 0) return "WebNN has no oneHot operator (proposed, not in the specification)";
    if (strcmp(op_name, "TOP_K") == 0 || strcmp(op_name, "TOP_K1") == 0)
        return "WebNN has no top-k operator (argMax/argMin give one index, no values, no K)";
    if (strcmp(op_name, "FILL_VALUE_CONSTANT") == 0 || strcmp(op_name, "FILL_VALUE_SEQUENCE") == 0)
        return "WebNN has no fill operator (its sequence overload of constant() was removed, webnn PR #656): "
               "the caller fills a buffer for constant()";
    if (strcmp(op_name, "NONZERO_COORDINATES") == 0)
        return "WebNN has no nonzero operator (its graphs have static shapes; the count is data-dependent)";
    return NULL;
}

void webnn_test_free(webnn_test *w) {
    free(w->text);
    w->text = NULL;
}

int webnn_build(const dmlref_case *c, const fw_form *f, int index_issue, const char *name, webnn_test *w) {
    memset(w, 0, sizeof *w);
    if (!f) {
        snprintf(w->why, sizeof w->why, "dmlref has no framework form for %s", c->op_name);
        return 0;
    }
    if (index_issue == IDX_OUT_OF_RANGE) {
        snprintf(w->why, sizeof w->why, "out-of-range indices: DirectML clamps them, WebNN leaves them to the implementation");
        return 0;
    }
    if (index_issue == IDX_DUPLICATE) {
        snprintf(w->why, sizeof w->why, "duplicate scatter targets: WebNN leaves which update wins undefined");
        return 0;
    }
    wctx g = {c, f, w, NULL, NULL, 0, 0};
    if (!types_ok(&g)) return 0;
    memout ops, consts, doc;
    if (memout_open(&ops)) return CASE_OUT_OF_MEMORY;
    if (memout_open(&consts)) {
        memout_close(&ops);
        free(ops.text);
        return CASE_OUT_OF_MEMORY;
    }
    g.o = ops.f;
    g.consts = consts.f;
    const int not_ok = build_ops(&g);
    int rc = memout_close(&ops) | memout_close(&consts);
    if (rc || g.oom || not_ok) {
        free(ops.text);
        free(consts.text);
        w->ops[0] = '\0';
        return rc || g.oom ? CASE_OUT_OF_MEMORY : 0;
    }
    if (!name) { /* only the verdict */
        free(ops.text);
        free(consts.text);
        w->expressible = 1;
        return 0;
    }
    rc = memout_open(&doc);
    if (!rc) {
        FILE *o = doc.f;
        fputs("{\n  \"name\": ", o);
        char title[256];
        snprintf(title, sizeof title, "%s (dmlref %s)", name, c->op_name);
        jout_string(o, title);
        fputs(",\n  \"graph\": {\n    \"inputs\": {", o);
        int first = 1;
        for (uint32_t k = 0; k < c->n_inputs; ++k) {
            if (strcmp(c->op_name, "REVERSE_SUBSEQUENCES") == 0 && strcmp(c->inputs[k].slot, "SequenceLengthsTensor") == 0)
                continue;
            write_tensor(&g, o, &c->inputs[k], &f->in[k], first);
            first = 0;
        }
        /* the constants' text starts with ",\n": with no input before it, drop the comma */
        const char *ct = consts.text ? consts.text : "";
        if (first && ct[0] == ',') ++ct;
        fputs(ct, o);
        fprintf(o, "\n    },\n    \"operators\": [%s\n    ],\n    \"expectedOutputs\": {", ops.text ? ops.text : "");
        for (uint32_t k = 0; k < c->n_outputs; ++k) write_tensor(&g, o, &c->outputs[k], &f->out[k], k == 0);
        fputs("\n    }\n  }\n}\n", o);
        rc = memout_close(&doc);
    }
    free(ops.text);
    free(consts.text);
    if (rc || g.oom) {
        free(doc.text);
        return CASE_OUT_OF_MEMORY;
    }
    w->expressible = 1;
    w->text = doc.text;
    w->len = doc.len;
    return 0;
}
