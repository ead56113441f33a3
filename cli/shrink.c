/*
 * dmlref check's shrinker (check.h): greedy delta debugging over a case file's
 * JSON.  The case is written in a canonical form first (flat data lists holding
 * the whole buffer or the span, no `expected`), then edited: a piece of JOIN or
 * SPLIT dropped, a dimension's size set to 1, halved or decremented (in one
 * tensor, in every tensor of that size, or with the tensors on the other side
 * following), a dimension of size 1 dropped everywhere (Axis and per-dimension
 * parameter lists follow), strides and TotalTensorSizeInBytes removed (data
 * repacked), index values set to 0 or halved, data set to zeros (in halves,
 * quarters, ... down to single elements) or small integers.  Each edit must be
 * simpler (fewer elements; then fewer layouts given, data slots, nonzero values;
 * then smaller values), valid (dmlref validates it and executes it with index
 * checking: no out-of-range index, no duplicate scatter target) and give the
 * backend the same class again; the first such edit is kept and the edits start
 * over, until none is kept or the runs (or 64 times as many edits tried) are spent.
 * Elements are counted as the sum over all the case's tensors, inputs and outputs, of the
 * product of Sizes.
 */
#include "check.h"

#include "case/descbuf.h"
#include "case/fields.h"
#include "case/json.h"
#include "case/memout.h"
#include "case/value.h"
#include "load.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef __EMSCRIPTEN__

/* ---- a mutable JSON tree ------------------------------------------------------------ */

typedef struct mj {
    jv_kind kind;
    char *s;       /* NUMBER: the text; STRING: the decoded text */
    int b;
    size_t n;      /* ARRAY: items; OBJECT: members */
    struct mj *v;  /* n values */
    char **k;      /* OBJECT: n keys */
} mj;

static char *dup_str(const char *s) {
    char *p = malloc(strlen(s) + 1);
    if (p) strcpy(p, s);
    return p;
}

static void mj_free(mj *m) {
    if (!m) return;
    for (size_t i = 0; i < m->n && m->v; ++i) {
        mj_free(&m->v[i]);
        if (m->k) free(m->k[i]);
    }
    free(m->v);
    free(m->k);
    free(m->s);
    memset(m, 0, sizeof *m);
}

static int mj_from(const jv *j, mj *m) {
    memset(m, 0, sizeof *m);
    m->kind = j->kind;
    if (j->kind == JV_BOOL) m->b = j->u.b;
    if (j->kind == JV_NUMBER || j->kind == JV_STRING) return (m->s = dup_str(j->u.s)) ? 0 : -1;
    if (j->kind != JV_ARRAY && j->kind != JV_OBJECT) return 0;
    if (!j->len) return 0;
    m->v = calloc(j->len, sizeof *m->v);
    if (!m->v) return -1;
    if (j->kind == JV_OBJECT && !(m->k = calloc(j->len, sizeof *m->k))) return -1;
    for (size_t i = 0; i < j->len; ++i) {
        ++m->n;
        const jv *val = j->kind == JV_OBJECT ? &j->u.items[2 * i + 1] : &j->u.items[i];
        if (j->kind == JV_OBJECT && !(m->k[i] = dup_str(j->u.items[2 * i].u.s))) return -1;
        if (mj_from(val, &m->v[i])) return -1;
    }
    return 0;
}

static int mj_copy(const mj *a, mj *m) {
    memset(m, 0, sizeof *m);
    m->kind = a->kind;
    m->b = a->b;
    if (a->s && !(m->s = dup_str(a->s))) return -1;
    if (!a->n) return 0;
    m->v = calloc(a->n, sizeof *m->v);
    if (!m->v) return -1;
    if (a->k && !(m->k = calloc(a->n, sizeof *m->k))) return -1;
    for (size_t i = 0; i < a->n; ++i) {
        ++m->n;
        if (a->k && !(m->k[i] = dup_str(a->k[i]))) return -1;
        if (mj_copy(&a->v[i], &m->v[i])) return -1;
    }
    return 0;
}

static void write_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; ++s) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 32) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void mj_write(FILE *f, const mj *m, int depth) {
    switch (m->kind) {
    case JV_NULL: fputs("null", f); break;
    case JV_BOOL: fputs(m->b ? "true" : "false", f); break;
    case JV_NUMBER: fputs(m->s, f); break;
    case JV_STRING: write_str(f, m->s); break;
    case JV_ARRAY:
        fputc('[', f);
        for (size_t i = 0; i < m->n; ++i) {
            if (i) fputs(depth < 1 ? ",\n    " : ", ", f);
            mj_write(f, &m->v[i], depth + 1);
        }
        fputc(']', f);
        break;
    case JV_OBJECT:
        fputs(depth ? "{" : "{\n  ", f);
        for (size_t i = 0; i < m->n; ++i) {
            if (i) fputs(depth ? ", " : ",\n  ", f);
            write_str(f, m->k[i]);
            fputs(": ", f);
            mj_write(f, &m->v[i], depth + 1);
        }
        fputs(depth ? "}" : "\n}\n", f);
        break;
    }
}

static mj *mj_get(mj *o, const char *key) {
    if (!o || o->kind != JV_OBJECT) return NULL;
    for (size_t i = 0; i < o->n; ++i)
        if (strcmp(o->k[i], key) == 0) return &o->v[i];
    return NULL;
}

static void mj_del(mj *o, const char *key) {
    if (!o || o->kind != JV_OBJECT) return;
    for (size_t i = 0; i < o->n; ++i)
        if (strcmp(o->k[i], key) == 0) {
            mj_free(&o->v[i]);
            free(o->k[i]);
            memmove(&o->v[i], &o->v[i + 1], (o->n - i - 1) * sizeof *o->v);
            memmove(&o->k[i], &o->k[i + 1], (o->n - i - 1) * sizeof *o->k);
            --o->n;
            return;
        }
}

/* Removes item i of an array. */
static void mj_remove_at(mj *a, size_t i) {
    mj_free(&a->v[i]);
    memmove(&a->v[i], &a->v[i + 1], (a->n - i - 1) * sizeof *a->v);
    --a->n;
}

static int mj_set_number(mj *m, const char *text) {
    char *s = dup_str(text);
    if (!s) return -1;
    mj_free(m);
    m->kind = JV_NUMBER;
    m->s = s;
    return 0;
}

/* The array's items replaced by n numbers. */
static int mj_set_u32s(mj *a, const uint32_t *v, uint32_t n) {
    mj_free(a);
    a->kind = JV_ARRAY;
    if (!n) return 0;
    if (!(a->v = calloc(n, sizeof *a->v))) return -1;
    for (uint32_t i = 0; i < n; ++i) {
        char t[16];
        snprintf(t, sizeof t, "%" PRIu32, v[i]);
        ++a->n;
        a->v[i].kind = JV_NUMBER;
        if (!(a->v[i].s = dup_str(t))) return -1;
    }
    return 0;
}

/* ---- the case's tensors in the tree ------------------------------------------------- */

#define MAX_T 256 /* tensors of a case the shrinker edits (JOIN pieces and the rest); more: not shrunk */
typedef struct tg {
    mj *obj;
    const dmlref_tensor_slot *slot;
    uint32_t nd, sz[8], st[8];
    int has_st;
} tg;

static int read_u32s(const mj *a, uint32_t *v, uint32_t *n) {
    if (!a || a->kind != JV_ARRAY || a->n > 8) return -1;
    for (size_t i = 0; i < a->n; ++i) {
        if (a->v[i].kind != JV_NUMBER) return -1;
        v[i] = (uint32_t)strtoul(a->v[i].s, NULL, 10);
    }
    *n = (uint32_t)a->n;
    return 0;
}

static int tensors(mj *root, const dmlref_schema *s, tg *t, uint32_t *n) {
    *n = 0;
    for (uint32_t k = 0; k < s->n_slots; ++k) {
        mj *m = mj_get(root, s->slots[k].name);
        if (!m) continue;
        const size_t cnt = m->kind == JV_ARRAY ? m->n : m->kind == JV_OBJECT ? 1 : 0;
        for (size_t i = 0; i < cnt; ++i) {
            if (*n >= MAX_T) return -1;
            tg *g = &t[(*n)++];
            memset(g, 0, sizeof *g);
            g->obj = m->kind == JV_ARRAY ? &m->v[i] : m;
            g->slot = &s->slots[k];
            if (g->obj->kind != JV_OBJECT || read_u32s(mj_get(g->obj, "Sizes"), g->sz, &g->nd)) return -1;
            uint32_t ns = 0;
            if (mj_get(g->obj, "Strides")) {
                if (read_u32s(mj_get(g->obj, "Strides"), g->st, &ns) || ns != g->nd) return -1;
                g->has_st = 1;
            }
        }
    }
    return 0;
}

static uint64_t tg_count(const tg *t) {
    uint64_t e = 1;
    for (uint32_t d = 0; d < t->nd; ++d) e *= t->sz[d];
    return e;
}

static void packed(const uint32_t *sz, uint32_t nd, uint64_t *st) {
    uint64_t s = 1;
    for (uint32_t d = nd; d-- > 0;) {
        st[d] = s;
        s *= sz[d];
    }
}

/* data (an array) replaced by the elements of the box sz[0..nd) at off (NULL: at 0), row-major:
 * element c is data's slot sum((c[d] + off[d]) * st[d]).  0, 1 when a slot lies past the data
 * (data unchanged), -1 out of memory. */
static int regather(mj *data, const uint32_t *sz, uint32_t nd, const uint32_t *off, const uint64_t *st) {
    uint64_t n = 1, c[8] = {0};
    for (uint32_t d = 0; d < nd; ++d) n *= sz[d];
    mj out;
    memset(&out, 0, sizeof out);
    out.kind = JV_ARRAY;
    if (!(out.v = calloc(n ? n : 1, sizeof *out.v))) return -1;
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t slot = 0;
        for (uint32_t d = 0; d < nd; ++d) slot += (c[d] + (off ? off[d] : 0)) * st[d];
        if (slot >= data->n) {
            mj_free(&out);
            return 1;
        }
        ++out.n;
        if (mj_copy(&data->v[slot], &out.v[i])) {
            mj_free(&out);
            return -1;
        }
        for (uint32_t d = nd; d-- > 0;) {
            if (++c[d] < sz[d]) break;
            c[d] = 0;
        }
    }
    mj_free(data);
    *data = out;
    return 0;
}

/* Sets new sizes on t; an input's data keeps the elements of the sub-box at off (NULL: the
 * leading one; strided: the span from the box's first slot; packed: gathered).  0, 1 when not
 * possible, -1 out of memory. */
static int crop_at(tg *t, const uint32_t *nsz, const uint32_t *off) {
    mj *data = mj_get(t->obj, "data");
    if (!t->slot->is_output && data) {
        if (data->kind != JV_ARRAY) return 1;
        if (t->has_st) {
            uint64_t span = 1, base = 0;
            for (uint32_t d = 0; d < t->nd; ++d) span += (uint64_t)(nsz[d] - 1) * t->st[d];
            for (uint32_t d = 0; off && d < t->nd; ++d) base += (uint64_t)off[d] * t->st[d];
            if (base + span > data->n) return 1;
            while (data->n > base + span) mj_remove_at(data, data->n - 1);
            for (uint64_t j = 0; j < base; ++j) mj_free(&data->v[j]);
            memmove(data->v, data->v + base, (data->n - base) * sizeof *data->v);
            data->n -= base;
        } else {
            uint64_t ost[8];
            packed(t->sz, t->nd, ost);
            const int rc = regather(data, nsz, t->nd, off, ost);
            if (rc) return rc;
        }
    }
    mj_del(t->obj, "TotalTensorSizeInBytes");
    mj_del(t->obj, "DimensionCount");
    memcpy(t->sz, nsz, t->nd * sizeof *nsz);
    return mj_set_u32s(mj_get(t->obj, "Sizes"), nsz, t->nd) ? -1 : 0;
}

static int crop(tg *t, const uint32_t *nsz) { return crop_at(t, nsz, NULL); }

/* crop_at keeping the leading (tail 0) or the trailing (tail 1) part of dimension d. */
static int crop_dim(tg *t, uint32_t d, uint32_t v, int tail) {
    uint32_t nsz[8], off[8] = {0};
    memcpy(nsz, t->sz, sizeof nsz);
    if (tail) off[d] = t->sz[d] - v;
    nsz[d] = v;
    return crop_at(t, nsz, off);
}

/* Strides and TotalTensorSizeInBytes removed; an input's data repacked from its logical view. */
static int pack(tg *t) {
    mj *data = mj_get(t->obj, "data");
    if (!t->has_st && !mj_get(t->obj, "TotalTensorSizeInBytes")) return 1;
    if (t->has_st && !t->slot->is_output && data) {
        if (data->kind != JV_ARRAY) return 1;
        uint64_t st[8];
        for (uint32_t d = 0; d < t->nd; ++d) st[d] = t->st[d];
        const int rc = regather(data, t->sz, t->nd, NULL, st);
        if (rc) return rc;
    } else if (!t->slot->is_output && data && mj_get(t->obj, "TotalTensorSizeInBytes")) {
        /* packed already: keep the span (the elements), drop the padded tail */
        const uint64_t n = tg_count(t);
        if (data->kind != JV_ARRAY || data->n < n) return 1;
        while (data->n > n) mj_remove_at(data, data->n - 1);
    }
    mj_del(t->obj, "Strides");
    mj_del(t->obj, "TotalTensorSizeInBytes");
    t->has_st = 0;
    return 0;
}

static char *to_text(const mj *root, size_t *len);

/* Every output's Sizes computed by the library from the inputs and parameters
 * (dmlref_output_sizes); an output whose Sizes change loses its Strides and
 * TotalTensorSizeInBytes.  0, 1 when the library refuses, -1 out of memory. */
static int recompute_outputs(mj *root, const dmlref_schema *s) {
    tg t[MAX_T];
    uint32_t n, nin = 0, nout = 0;
    if (tensors(root, s, t, &n)) return 1;
    DMLREF_BUFFER_TENSOR_DESC b[MAX_T];
    DMLREF_TENSOR_DESC in[MAX_T], out[MAX_T];
    uint32_t osz[MAX_T][8];
    for (int pass = 0; pass < 2; ++pass)
        for (uint32_t i = 0; i < n; ++i) {
            if ((int)t[i].slot->is_output != pass) continue;
            const mj *dtm = mj_get(t[i].obj, "DataType");
            memset(&b[i], 0, sizeof b[i]);
            b[i].DataType = value_type_from_name(dtm && dtm->kind == JV_STRING ? dtm->s : "");
            b[i].DimensionCount = t[i].nd;
            b[i].Sizes = t[i].sz;
            b[i].Strides = t[i].has_st ? t[i].st : NULL;
            b[i].TotalTensorSizeInBytes = dmlref_calc_buffer_tensor_size(b[i].DataType, t[i].nd, t[i].sz, b[i].Strides);
            DMLREF_TENSOR_DESC *d = pass ? &out[nout++] : &in[nin++];
            d->Type = DMLREF_TENSOR_TYPE_BUFFER;
            d->Desc = &b[i];
        }
    size_t len;
    char *text = to_text(root, &len);
    if (!text) return -1;
    json_doc doc;
    char err[256];
    json_status js = json_parse(text, len, &doc, err, sizeof err);
    free(text);
    if (js != JSON_OK) return js == JSON_OOM ? -1 : 1;
    void *desc = desc_alloc(s);
    fields_store st;
    memset(&st, 0, sizeof st);
    int rc = desc ? 0 : -1;
    if (!rc && fields_read_params(s, doc.root, desc, &st, err, sizeof err)) rc = 1;
    json_free(&doc);
    if (!rc && desc_bind(s, desc, in, nin, out, nout)) rc = 1;
    const mj *flm = mj_get(root, "feature_level");
    const uint32_t fl = flm && flm->kind == JV_STRING ? case_feature_level_from_name(flm->s) : DMLREF_FEATURE_LEVEL_LATEST;
    DMLREF_OPERATOR_DESC od = {s->type, desc};
    for (uint32_t k = 0; !rc && k < nout; ++k) {
        uint32_t nd = 0;
        dmlref_error derr;
        dmlref_status ds = dmlref_output_sizes(&od, (DMLREF_FEATURE_LEVEL)fl, k, &nd, osz[k], &derr);
        if (ds == DMLREF_ERROR_OUT_OF_MEMORY) rc = -1;
        else if (ds != DMLREF_OK || nd == 0 || nd > 8) rc = 1;
        if (!rc) { /* output k: the k-th output tensor of the tree */
            uint32_t j = 0, seen = 0;
            for (; j < n; ++j)
                if (t[j].slot->is_output && seen++ == k) break;
            if (j == n) {
                rc = 1;
            } else if (nd != t[j].nd || memcmp(osz[k], t[j].sz, nd * sizeof *osz[k]) != 0) {
                mj_del(t[j].obj, "Strides");
                mj_del(t[j].obj, "TotalTensorSizeInBytes");
                mj_del(t[j].obj, "DimensionCount");
                if (mj_set_u32s(mj_get(t[j].obj, "Sizes"), osz[k], nd)) rc = -1;
            }
        }
    }
    fields_store_free(&st);
    free(desc);
    return rc;
}

/* ---- edits ---------------------------------------------------------------------------- */

enum { E_PIECE, E_SIZE, E_DROP_DIM, E_PARAM, E_PACK_ALL, E_PACK, E_IDX_ZERO_ALL, E_IDX, E_ZERO, E_SMALL };
enum { M_COMPUTED, M_ALL_EQ, M_ALONE, M_PLUS_EQ, M_PLUS_DELTA };

typedef struct edit {
    int kind, mode;
    uint32_t t, d, v, old; /* tensor, dimension, new value, old value */
    int tail;              /* E_SIZE: keep the trailing part of the dimension */
    uint64_t from, count;  /* data range; E_IDX: element and 0 (zero) / 1 (halve) in count */
} edit;

typedef struct edits {
    edit *v;
    size_t n, cap;
} edits;

static int push(edits *l, edit e) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        edit *v = realloc(l->v, cap * sizeof *v);
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = e;
    return 0;
}

static int is_zero_text(const mj *m) { return m->kind == JV_NUMBER && (strcmp(m->s, "0") == 0); }

/* An integer value's text as a signed number (index data), or 0 when not an integer. */
static int int_value(const mj *m, long long *v) {
    if (m->kind != JV_NUMBER) return 0;
    char *end;
    *v = strtoll(m->s, &end, 10);
    return *end == '\0';
}

/* The top-level member k when it is a parameter whose value an edit may simplify: a number or a
 * list of numbers, not a tensor, not a count, not the case's own keys. */
static mj *param_member(mj *root, const dmlref_schema *s, size_t k) {
    static const char *const skip[] = {"operator", "feature_level", "name", "comment", "expected", "features", "bytes_moved"};
    const char *key = root->k[k];
    for (size_t i = 0; i < sizeof skip / sizeof *skip; ++i)
        if (strcmp(key, skip[i]) == 0) return NULL;
    for (uint32_t j = 0; j < s->n_slots; ++j)
        if (strcmp(key, s->slots[j].name) == 0 || (s->slots[j].count_name && strcmp(key, s->slots[j].count_name) == 0))
            return NULL;
    if (desc_is_array_count(s, key) || !desc_param(s, key)) return NULL;
    mj *m = &root->v[k];
    if (m->kind == JV_NUMBER) return m;
    if (m->kind != JV_ARRAY || !m->n) return NULL;
    for (size_t j = 0; j < m->n; ++j)
        if (m->v[j].kind != JV_NUMBER) return NULL;
    return m;
}

/* Every edit of the current case, in the order they are tried. */
static int list_edits(mj *root, const dmlref_schema *s, edits *l) {
    tg t[MAX_T];
    uint32_t n;
    l->n = 0;
    if (tensors(root, s, t, &n)) return 0;
    edit e;
    /* pieces of an array slot (JOIN's inputs, SPLIT's outputs), the last first */
    for (uint32_t k = 0; k < s->n_slots; ++k) {
        mj *m = mj_get(root, s->slots[k].name);
        if (m && m->kind == JV_ARRAY && m->n > 1 && mj_get(root, "Axis"))
            for (size_t p = m->n; p-- > 0;) {
                memset(&e, 0, sizeof e);
                e.kind = E_PIECE;
                e.t = k;
                e.from = p;
                if (push(l, e)) return -1;
            }
    }
    /* sizes: to 1, to half, minus 1 */
    for (int step = 0; step < 3; ++step)
        for (uint32_t i = 0; i < n; ++i)
            for (uint32_t d = 0; d < t[i].nd; ++d) {
                const uint32_t o = t[i].sz[d];
                const uint32_t v = step == 0 ? 1 : step == 1 ? o / 2 : o - 1;
                if (o <= 1 || v < 1 || v >= o || (step == 1 && v == 1) || (step == 2 && (v == 1 || v == o / 2))) continue;
                for (int tail = 0; tail < 2; ++tail)
                    for (int mode = t[i].slot->is_output ? M_ALL_EQ : M_COMPUTED; mode <= M_PLUS_DELTA; ++mode) {
                        if (tail && mode == M_PLUS_DELTA) continue;
                        memset(&e, 0, sizeof e);
                        e.kind = E_SIZE;
                        e.mode = mode;
                        e.t = i;
                        e.d = d;
                        e.v = v;
                        e.old = o;
                        e.tail = tail;
                        if (push(l, e)) return -1;
                    }
            }
    /* dimensions of size 1 everywhere */
    for (uint32_t d = 0; n && d < t[0].nd; ++d) {
        int all = t[0].nd > 1;
        for (uint32_t i = 0; all && i < n; ++i) all = t[i].nd == t[0].nd && t[i].sz[d] == 1;
        memset(&e, 0, sizeof e);
        e.kind = E_DROP_DIM;
        e.d = d;
        if (all && push(l, e)) return -1;
    }
    /* parameters: each number to 0, or halved */
    for (size_t k = 0; k < root->n; ++k) {
        mj *m = param_member(root, s, k);
        const size_t cnt = !m ? 0 : m->kind == JV_ARRAY ? m->n : 1;
        for (size_t j = 0; j < cnt; ++j) {
            const mj *x = m->kind == JV_ARRAY ? &m->v[j] : m;
            long long v = 0;
            const int is_int = int_value(x, &v);
            for (int half = 0; half < 2; ++half) {
                if (is_zero_text(x) || (half && (!is_int || (v < 2 && v > -2)))) continue;
                memset(&e, 0, sizeof e);
                e.kind = E_PARAM;
                e.t = (uint32_t)k;
                e.from = j;
                e.count = (uint64_t)half;
                if (push(l, e)) return -1;
            }
        }
    }
    /* layouts */
    memset(&e, 0, sizeof e);
    e.kind = E_PACK_ALL;
    if (push(l, e)) return -1;
    for (uint32_t i = 0; i < n; ++i) {
        e.kind = E_PACK;
        e.t = i;
        if ((t[i].has_st || mj_get(t[i].obj, "TotalTensorSizeInBytes")) && push(l, e)) return -1;
    }
    /* values */
    for (uint32_t i = 0; i < n; ++i) {
        mj *data = mj_get(t[i].obj, "data");
        if (t[i].slot->is_output || !data || data->kind != JV_ARRAY) continue;
        memset(&e, 0, sizeof e);
        e.t = i;
        if (t[i].slot->is_index) {
            e.kind = E_IDX_ZERO_ALL;
            if (push(l, e)) return -1;
            for (uint64_t j = 0; j < data->n; ++j) {
                long long v;
                if (!int_value(&data->v[j], &v) || v == 0) continue;
                e.kind = E_IDX;
                e.from = j;
                e.count = 0;
                if (push(l, e)) return -1;
                e.count = 1;
                if ((v > 1 || v < -1) && push(l, e)) return -1;
            }
        } else {
            /* halves, quarters, ...: single elements only once the tensor is small */
            const uint64_t finest = data->n > 64 ? data->n / 32 : 1;
            for (uint64_t chunk = data->n; chunk >= finest; chunk /= 2) {
                for (uint64_t from = 0; from < data->n; from += chunk) {
                    e.kind = E_ZERO;
                    e.from = from;
                    e.count = chunk;
                    if (push(l, e)) return -1;
                }
                if (chunk <= finest) break;
            }
            e.kind = E_SMALL;
            if (push(l, e)) return -1;
        }
    }
    return 0;
}

/* Applies e to root (a copy of the case).  0 applied, 1 not applicable, -1 out of memory. */
static int apply(mj *root, const dmlref_schema *s, const edit *e) {
    tg t[MAX_T];
    uint32_t n;
    if (tensors(root, s, t, &n)) return 1;
    switch (e->kind) {
    case E_PIECE: {
        mj *m = mj_get(root, s->slots[e->t].name), *ax = mj_get(root, "Axis");
        if (!m || m->kind != JV_ARRAY || e->from >= m->n || !ax || ax->kind != JV_NUMBER) return 1;
        const uint32_t axis = (uint32_t)strtoul(ax->s, NULL, 10);
        uint32_t psz[8], pn;
        if (read_u32s(mj_get(&m->v[e->from], "Sizes"), psz, &pn) || axis >= pn) return 1;
        const uint32_t delta = psz[axis];
        mj_remove_at(m, e->from);
        const char *cn = s->slots[e->t].count_name;
        if (cn && mj_get(root, cn)) {
            char num[16];
            snprintf(num, sizeof num, "%zu", m->n);
            if (mj_set_number(mj_get(root, cn), num)) return -1;
        }
        if (tensors(root, s, t, &n)) return 1;
        for (uint32_t i = 0; i < n; ++i) {
            if (t[i].slot == &s->slots[e->t] || axis >= t[i].nd) continue;
            uint32_t nsz[8];
            memcpy(nsz, t[i].sz, sizeof nsz);
            if (nsz[axis] <= delta) return 1;
            nsz[axis] -= delta;
            int r = crop(&t[i], nsz);
            if (r) return r;
        }
        return 0;
    }
    case E_SIZE: {
        if (e->t >= n) return 1;
        const tg *base = &t[e->t];
        const uint32_t delta = e->old - e->v;
        if (e->mode == M_COMPUTED) { /* this input alone, the outputs as the library computes them */
            int r = crop_dim(&t[e->t], e->d, e->v, e->tail);
            return r ? r : recompute_outputs(root, s);
        }
        int touched = 0;
        for (uint32_t i = 0; i < n; ++i) {
            if (e->d >= t[i].nd) continue;
            const uint32_t o = t[i].sz[e->d];
            uint32_t nv = 0;
            if (i == e->t) nv = e->v;
            else if (e->mode == M_ALL_EQ && o == e->old) nv = e->v;
            else if (e->mode == M_PLUS_EQ && t[i].slot->is_output != base->slot->is_output && o == e->old) nv = e->v;
            else if (e->mode == M_PLUS_DELTA && t[i].slot->is_output != base->slot->is_output && o > delta) nv = o - delta;
            if (!nv) continue;
            int r = crop_dim(&t[i], e->d, nv, e->tail);
            if (r) return r;
            ++touched;
        }
        return (e->mode == M_ALONE) == (touched == 1) ? 0 : 1;
    }
    case E_DROP_DIM: {
        const uint32_t nd = n ? t[0].nd : 0;
        for (uint32_t i = 0; i < n; ++i) {
            if (t[i].nd != nd || e->d >= nd || t[i].sz[e->d] != 1) return 1;
            mj *a = mj_get(t[i].obj, "Sizes");
            mj_remove_at(a, e->d);
            if ((a = mj_get(t[i].obj, "Strides")) != NULL) mj_remove_at(a, e->d);
            mj_del(t[i].obj, "DimensionCount");
        }
        for (size_t k = 0; k < root->n; ++k) {
            mj *m = &root->v[k];
            int is_slot = 0;
            for (uint32_t j = 0; j < s->n_slots; ++j) is_slot |= strcmp(root->k[k], s->slots[j].name) == 0;
            if (is_slot) continue;
            if (m->kind == JV_ARRAY && m->n == nd) {
                int nums = 1;
                for (size_t j = 0; j < m->n; ++j) nums &= m->v[j].kind == JV_NUMBER;
                if (nums) mj_remove_at(m, e->d);
            } else if (m->kind == JV_NUMBER && strcmp(root->k[k], "Axis") == 0) {
                const uint32_t axis = (uint32_t)strtoul(m->s, NULL, 10);
                if (axis == e->d) return 1;
                if (axis > e->d) {
                    char num[16];
                    snprintf(num, sizeof num, "%" PRIu32, axis - 1);
                    if (mj_set_number(m, num)) return -1;
                }
            }
        }
        return 0;
    }
    case E_PARAM: {
        if (e->t >= root->n) return 1;
        mj *m = param_member(root, s, e->t);
        if (!m || (m->kind == JV_ARRAY && e->from >= m->n)) return 1;
        mj *x = m->kind == JV_ARRAY ? &m->v[e->from] : m;
        long long v = 0;
        char num[32] = "0";
        if (e->count) {
            if (!int_value(x, &v)) return 1;
            snprintf(num, sizeof num, "%lld", v / 2);
        }
        if (mj_set_number(x, num)) return -1;
        return recompute_outputs(root, s);
    }
    case E_PACK_ALL: {
        int any = 0;
        for (uint32_t i = 0; i < n; ++i) {
            int r = pack(&t[i]);
            if (r < 0) return r;
            any |= r == 0;
        }
        return any ? 0 : 1;
    }
    case E_PACK: return e->t < n ? pack(&t[e->t]) : 1;
    case E_IDX_ZERO_ALL:
    case E_IDX:
    case E_ZERO:
    case E_SMALL: {
        if (e->t >= n) return 1;
        mj *data = mj_get(t[e->t].obj, "data");
        if (!data || data->kind != JV_ARRAY) return 1;
        int changed = 0;
        uint64_t from = e->kind == E_IDX_ZERO_ALL || e->kind == E_SMALL ? 0 : e->from;
        uint64_t to = e->kind == E_IDX ? e->from + 1 : e->kind == E_ZERO ? e->from + e->count : data->n;
        if (to > data->n) to = data->n;
        for (uint64_t j = from; j < to; ++j) {
            mj *m = &data->v[j];
            char num[32];
            long long v = 0;
            if (e->kind == E_SMALL) {
                if (is_zero_text(m) || (int_value(m, &v) && v >= 0 && v < 10)) continue;
                snprintf(num, sizeof num, "%d", (int)(j % 7) + 1);
            } else if (e->kind == E_IDX && e->count == 1) {
                if (!int_value(m, &v) || (v < 2 && v > -2)) continue;
                snprintf(num, sizeof num, "%lld", v / 2);
            } else {
                if (is_zero_text(m)) continue;
                snprintf(num, sizeof num, "0");
            }
            if (mj_set_number(m, num)) return -1;
            changed = 1;
        }
        return changed ? 0 : 1;
    }
    }
    return 1;
}

/* How complex a case is: compared in order; an edit is kept only when it makes this smaller. */
typedef struct measure {
    uint64_t m[6];
} measure;

static measure measure_of(mj *root, const dmlref_schema *s) {
    measure r = {{UINT64_MAX, 0, 0, 0, 0, 0}};
    tg t[MAX_T];
    uint32_t n;
    if (tensors(root, s, t, &n)) return r;
    r.m[0] = 0;
    for (size_t k = 0; k < root->n; ++k) {
        const mj *m = param_member(root, s, k);
        const size_t cnt = !m ? 0 : m->kind == JV_ARRAY ? m->n : 1;
        for (size_t j = 0; j < cnt; ++j) {
            const mj *x = m->kind == JV_ARRAY ? &m->v[j] : m;
            long long v;
            if (int_value(x, &v)) r.m[5] += v < 0 ? (v < -1000000 ? 1000000 : (uint64_t)-v) : (v > 1000000 ? 1000000 : (uint64_t)v);
            else r.m[5] += !is_zero_text(x) * 1000000;
        }
    }
    for (uint32_t i = 0; i < n; ++i) {
        r.m[0] += tg_count(&t[i]);
        r.m[1] += (uint64_t)t[i].has_st + (mj_get(t[i].obj, "TotalTensorSizeInBytes") != NULL);
        const mj *data = mj_get(t[i].obj, "data");
        if (!data || data->kind != JV_ARRAY) continue;
        r.m[2] += data->n;
        for (size_t j = 0; j < data->n; ++j) {
            const mj *m = &data->v[j];
            long long v;
            r.m[3] += !is_zero_text(m);
            if (int_value(m, &v)) r.m[4] += v < 0 ? (v < -1000000 ? 1000000 : (uint64_t)-v) : (v > 1000000 ? 1000000 : (uint64_t)v);
            else r.m[4] += 1000000 + strlen(m->s ? m->s : "");
        }
    }
    return r;
}

static int smaller(const measure *a, const measure *b) {
    for (int i = 0; i < 6; ++i)
        if (a->m[i] != b->m[i]) return a->m[i] < b->m[i];
    return 0;
}

/* The tree as text (malloc'd). */
static char *to_text(const mj *root, size_t *len) {
    memout m;
    if (memout_open(&m)) return NULL;
    mj_write(m.f, root, 0);
    if (memout_close(&m)) return NULL;
    *len = m.len;
    return m.text;
}

/* Validates and executes the candidate (quietly: an invalid one is only skipped), then runs
 * the backend over its export.  0 ran (*r), 1 invalid, or an exit status. */
static int evaluate(check_ctx *x, const char *text, size_t len, check_result *r) {
    dmlref_case c;
    char err[512];
    case_options o;
    memset(&o, 0, sizeof o);
    int rc = case_parse_ex(text, len, &o, &c, err, sizeof err);
    if (rc) {
        case_free(&c);
        return rc == CASE_OUT_OF_MEMORY ? rc : 1;
    }
    dmlref_options opt = {.flags = DMLREF_OPTION_CHECK_INDICES};
    dmlref_operator *op = NULL;
    dmlref_error derr;
    dmlref_status st = dmlref_compile(&c.desc, c.feature_level, &opt, &op, &derr);
    if (st == DMLREF_OK) st = dmlref_execute(op, c.in_bufs, c.n_inputs, c.out_bufs, c.n_outputs, &derr);
    dmlref_release(op);
    if (st != DMLREF_OK) {
        case_free(&c);
        return st == DMLREF_ERROR_OUT_OF_MEMORY ? CASE_OUT_OF_MEMORY : 1;
    }
    FILE *f = fopen(x->cand_path, "wb");
    if (!f || fwrite(text, 1, len, f) != len) rc = CASE_SYSTEM;
    if (f && fclose(f) != 0) rc = CASE_SYSTEM;
    if (rc) fprintf(stderr, "dmlref check: cannot write %s\n", x->cand_path);
    if (!rc) rc = check_run_case(x, x->cand_path, &c, 0, r);
    case_free(&c);
    return rc;
}

/* The case file as the shrinker's canonical tree: flat data, no expected. */
static int canonical(const char *case_path, mj *root, const dmlref_schema **schema) {
    dmlref_case c;
    int rc = cli_load_case(case_path, 0, &c, CLI_VERDICT_STDERR);
    if (rc) return rc;
    for (uint32_t k = 0; k < c.n_inputs; ++k) c.inputs[k].nested = 0;
    for (uint32_t k = 0; k < c.n_outputs; ++k) c.outputs[k].has_expected = 0;
    *schema = c.schema;
    memout m;
    rc = memout_open(&m);
    if (!rc) {
        case_write_begin(m.f, &c, NULL, NULL);
        case_write_end(m.f, &c);
        rc = memout_close(&m);
    }
    case_free(&c);
    if (rc) return rc;
    json_doc doc;
    char err[256];
    json_status js = json_parse(m.text, m.len, &doc, err, sizeof err);
    free(m.text);
    if (js != JSON_OK) {
        fprintf(stderr, "dmlref check: %s: the canonical form does not read back: %s\n", case_path, err);
        return js == JSON_OOM ? CASE_OUT_OF_MEMORY : CASE_SYSTEM;
    }
    rc = mj_from(doc.root, root) ? CASE_OUT_OF_MEMORY : 0;
    json_free(&doc);
    mj_del(root, "expected");
    return rc;
}

int check_shrink(check_ctx *x, const char *case_path, check_class target, unsigned max_runs, shrink_result *s) {
    memset(s, 0, sizeof *s);
    mj best;
    memset(&best, 0, sizeof best);
    const dmlref_schema *schema = NULL;
    int rc = canonical(case_path, &best, &schema);
    if (rc) {
        mj_free(&best);
        return rc;
    }
    size_t len = 0;
    char *text = to_text(&best, &len);
    const unsigned long runs0 = x->runs;
    int progress;
    if (!text) rc = CASE_OUT_OF_MEMORY;
    if (!rc) rc = evaluate(x, text, len, &s->last);
    if (rc == 1) { /* refused with index checking (an out-of-range index, a duplicate target): not shrunk */
        s->refused = 1;
        rc = 0;
    }
    s->reproduced = !rc && s->last.cls == target;
    progress = s->reproduced;
    measure bm = measure_of(&best, schema);
    s->elements_before = bm.m[0];
    if (bm.m[0] == UINT64_MAX) { /* more tensors than the shrinker edits: the case as it is */
        s->elements_before = 0;
        progress = 0;
    }
    edits l = {0};
    /* edits tried (copied and applied) are bounded too, so that a large case whose edits are
     * mostly refused before any run still ends */
    unsigned long tried = 0;
    const unsigned long max_tried = 64UL * max_runs;
    while (!rc && progress && x->runs - runs0 < max_runs && tried < max_tried) {
        progress = 0;
        if (list_edits(&best, schema, &l)) rc = CASE_OUT_OF_MEMORY;
        for (size_t i = 0; !rc && i < l.n && x->runs - runs0 < max_runs && tried++ < max_tried; ++i) {
            mj cand;
            if (mj_copy(&best, &cand)) {
                mj_free(&cand);
                rc = CASE_OUT_OF_MEMORY;
                break;
            }
            int a = apply(&cand, schema, &l.v[i]);
            measure cm = measure_of(&cand, schema);
            if (a < 0) rc = CASE_OUT_OF_MEMORY;
            if (a || !smaller(&cm, &bm)) {
                mj_free(&cand);
                continue;
            }
            size_t clen = 0;
            char *ctext = to_text(&cand, &clen);
            check_result r;
            int er = ctext ? evaluate(x, ctext, clen, &r) : CASE_OUT_OF_MEMORY;
            if (er == 0 && r.cls == target) {
                mj_free(&best);
                best = cand;
                bm = cm;
                free(text);
                text = ctext;
                len = clen;
                s->last = r;
                progress = 1;
                break;
            }
            free(ctext);
            mj_free(&cand);
            if (er != 0 && er != 1) rc = er;
        }
    }
    free(l.v);
    s->runs = (unsigned)(x->runs - runs0);
    s->elements_after = bm.m[0] == UINT64_MAX ? 0 : bm.m[0];
    /* the minimal case with a comment saying what it shows */
    if (!rc && s->reproduced) {
        char comment[900];
        snprintf(comment, sizeof comment, "dmlref check: shrunk from %s; %s: %s", case_path, check_class_name(target),
                 s->last.detail);
        mj c;
        memset(&c, 0, sizeof c);
        c.kind = JV_STRING;
        mj *v = realloc(best.v, (best.n + 1) * sizeof *v);
        char **k = v ? realloc(best.k, (best.n + 1) * sizeof *k) : NULL;
        if (v) best.v = v;
        if (k) best.k = k;
        if (!v || !k || !(c.s = dup_str(comment)) || !(best.k[best.n] = dup_str("comment"))) {
            free(c.s);
            rc = CASE_OUT_OF_MEMORY;
        } else {
            best.v[best.n++] = c;
            free(text);
            text = to_text(&best, &len);
            if (!text) rc = CASE_OUT_OF_MEMORY;
        }
    }
    mj_free(&best);
    if (rc) {
        free(text);
        return rc;
    }
    s->text = text;
    s->len = len;
    return CASE_OK;
}

#endif
