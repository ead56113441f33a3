/*
 * Case files (docs/case-format.md) read into the case model (case.h): the
 * JSON's structure and keys, each tensor's fields, the desc (parameters through
 * fields.c, tensor slots by the schema), validation at the case's feature level,
 * then the buffers (case_data.c) and `expected`.
 */
#include "case.h"
#include "case_internal.h"
#include "descbuf.h"
#include "value.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tensors: structure ------------------------------------------------------- */

static int parse_tensor(case_ctx *x, const jv *obj, case_tensor *t, const char *name, int is_output, tensor_src *src) {
    char path[PATH_MAX_LEN];
    const jv *dt = NULL, *sizes = NULL, *strides = NULL, *total = NULL, *dimcount = NULL, *flags = NULL, *align = NULL;
    snprintf(t->name, sizeof t->name, "%s", name);
    t->is_output = is_output;
    src->kind = SRC_NONE;
    src->value = NULL;
    if (!jv_is(obj, JV_OBJECT)) return case_fail(x, "%s: expected a tensor object, got %s", name, jv_kind_name(obj));
    for (size_t i = 0; i < jv_count(obj); ++i) {
        const char *key = jv_key(obj, i);
        const jv *val = fields_given(jv_value(obj, i));
        if (strcmp(key, "DataType") == 0) dt = val;
        else if (strcmp(key, "Sizes") == 0) sizes = val;
        else if (strcmp(key, "Strides") == 0) strides = val;
        else if (strcmp(key, "TotalTensorSizeInBytes") == 0) total = val;
        else if (strcmp(key, "DimensionCount") == 0) dimcount = val;
        else if (strcmp(key, "Flags") == 0) flags = val;
        else if (strcmp(key, "GuaranteedBaseOffsetAlignment") == 0) align = val;
        else if (strcmp(key, "data") == 0 || strcmp(key, "npy") == 0 || strcmp(key, "random") == 0 ||
                 strcmp(key, "distinct") == 0 || strcmp(key, "pooled") == 0) {
            if (src->kind != SRC_NONE)
                return case_fail(x, "%s: give only one of data, npy, random, distinct and pooled", name);
            src->kind = strcmp(key, "data") == 0 ? SRC_DATA
                        : key[0] == 'n'          ? SRC_NPY
                        : key[0] == 'r'          ? SRC_RANDOM
                        : key[0] == 'p'          ? SRC_POOLED
                                                 : SRC_DISTINCT;
            src->value = val;
        } else if (!case_ignorable(key))
            return case_fail(x, "%s: unknown key \"%.60s\" (a tensor has DataType, Sizes, Strides, "
                           "TotalTensorSizeInBytes, data, npy, random, distinct, pooled)", name, key);
    }
    if (!dt) return case_fail(x, "%s: missing DataType", name);
    if (!jv_is(dt, JV_STRING)) return case_fail(x, "%s.DataType: expected a string, got %s", name, jv_kind_name(dt));
    t->buf.DataType = value_type_from_name(jv_string(dt));
    if (t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_UNKNOWN)
        return case_fail(x, "%s.DataType: unknown data type \"%.40s\" (FLOAT64 FLOAT32 FLOAT16 INT64 INT32 INT16 INT8 "
                       "UINT64 UINT32 UINT16 UINT8)", name, jv_string(dt));
    if (is_output && x->derive) {
        /* "derive_output_sizes": Sizes, when given, is the placeholder dmlref_output_sizes reads
         * where the inputs and parameters leave the shape free; the output is packed */
        if (strides || total || dimcount)
            return case_fail(x, "%s: %s is not given with \"derive_output_sizes\" (the output is packed, its "
                           "Sizes derived)", name, strides ? "Strides" : total ? "TotalTensorSizeInBytes" : "DimensionCount");
        if (!sizes) {
            t->buf.DimensionCount = 0;
            return 0;
        }
    }
    if (!sizes) return case_fail(x, "%s: missing Sizes", name);
    if (!jv_is(sizes, JV_ARRAY)) return case_fail(x, "%s.Sizes: expected an array, got %s", name, jv_kind_name(sizes));
    const size_t n = jv_count(sizes);
    if (n > 64) return case_fail(x, "%s.Sizes: %zu entries (at most 8 dimensions exist)", name, n);
    t->sizes = calloc(n ? n : 1, sizeof *t->sizes);
    if (!t->sizes) return case_oom(x, "%s: out of memory", name);
    for (size_t i = 0; i < n; ++i) {
        uint64_t v;
        snprintf(path, sizeof path, "%s.Sizes[%zu]", name, i);
        if (case_get_uint(x, jv_at(sizes, i), path, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
        t->sizes[i] = (uint32_t)v;
    }
    if (dimcount) {
        uint64_t v;
        snprintf(path, sizeof path, "%s.DimensionCount", name);
        if (case_get_uint(x, dimcount, path, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
        if (v != n) return case_fail(x, "%s: DimensionCount (%" PRIu64 ") differs from the length of Sizes (%zu)", name, v, n);
    }
    if (strides) {
        if (!jv_is(strides, JV_ARRAY))
            return case_fail(x, "%s.Strides: expected an array, got %s", name, jv_kind_name(strides));
        if (jv_count(strides) != n)
            return case_fail(x, "%s.Strides: %zu entries, but Sizes has %zu", name, jv_count(strides), n);
        t->strides = calloc(n ? n : 1, sizeof *t->strides);
        if (!t->strides) return case_oom(x, "%s: out of memory", name);
        for (size_t i = 0; i < n; ++i) {
            uint64_t v;
            snprintf(path, sizeof path, "%s.Strides[%zu]", name, i);
            if (case_get_uint(x, jv_at(strides, i), path, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
            t->strides[i] = (uint32_t)v;
        }
    }
    if (flags) {
        uint64_t v;
        snprintf(path, sizeof path, "%s.Flags", name);
        if (case_get_uint(x, flags, path, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
        t->buf.Flags = (DMLREF_TENSOR_FLAGS)v;
    }
    if (align) {
        uint64_t v;
        snprintf(path, sizeof path, "%s.GuaranteedBaseOffsetAlignment", name);
        if (case_get_uint(x, align, path, 0, UINT32_MAX, &v)) return CASE_MALFORMED;
        t->buf.GuaranteedBaseOffsetAlignment = (uint32_t)v;
    }
    t->buf.DimensionCount = (uint32_t)n;
    t->buf.Sizes = t->sizes;
    t->buf.Strides = t->strides;
    if (total) {
        snprintf(path, sizeof path, "%s.TotalTensorSizeInBytes", name);
        if (case_get_uint(x, total, path, 0, UINT64_MAX, &t->buf.TotalTensorSizeInBytes)) return CASE_MALFORMED;
        t->total_given = 1;
    } else {
        t->buf.TotalTensorSizeInBytes =
            dmlref_calc_buffer_tensor_size(t->buf.DataType, t->buf.DimensionCount, t->sizes, t->strides);
    }
    if (!is_output && src->kind == SRC_NONE)
        return case_fail(x, "%s: missing data (give data, npy, random, distinct or pooled)", name);
    return 0;
}


/* Where each tensor slot of the schema sits among the case's inputs or outputs. */
#define CASE_MAX_SLOTS 16

typedef struct slot_map {
    const jv *value;     /* the tensor, or the array of tensors; NULL: absent (or null) */
    uint32_t first, count;
} slot_map;

static void output_names(const dmlref_schema *s, char *buf, size_t cap) {
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < s->n_slots && len < cap; ++i)
        if (s->slots[i].is_output) len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", s->slots[i].name);
}

/* `expected` (what == "expected") or `actual` (another backend's outputs, the same form). */
static int parse_expected(case_ctx *x, const jv *exp, dmlref_case *c, const slot_map *map, const char *what) {
    char base[PATH_MAX_LEN], names[256];
    const dmlref_schema *s = c->schema;
    const int actual = strcmp(what, "actual") == 0;
    if (!jv_is(exp, JV_OBJECT))
        return case_fail(x, "%s: expected an object mapping output names to lists, got %s", what, jv_kind_name(exp));
    for (size_t m = 0; m < jv_count(exp); ++m) {
        const char *key = jv_key(exp, m);
        const jv *val = fields_given(jv_value(exp, m));
        if (case_ignorable(key)) continue;
        uint32_t k = 0;
        while (k < s->n_slots && !(s->slots[k].is_output && strcmp(key, s->slots[k].name) == 0)) ++k;
        if (k == s->n_slots) {
            output_names(s, names, sizeof names);
            return case_fail(x, "%s: unknown output \"%.60s\" (%s has %s)", what, key, c->op_name, names);
        }
        const dmlref_tensor_slot *sl = &s->slots[k];
        if (!map[k].value) return case_fail(x, "%s.%s: the case has no %s", what, sl->name, sl->name);
        const int is_array = sl->is_array;
        size_t n = 1;
        if (is_array) {
            if (!jv_is(val, JV_ARRAY))
                return case_fail(x, "%s.%s: expected an array of lists, got %s", what, sl->name, jv_kind_name(val));
            n = jv_count(val);
            if (n != map[k].count)
                return case_fail(x, "%s.%s: %zu lists, but the case has %u outputs", what, sl->name, n,
                                 (unsigned)map[k].count);
        }
        for (size_t i = 0; i < n; ++i) {
            const jv *list = is_array ? jv_at(val, i) : val;
            case_tensor *t = &c->outputs[map[k].first + i];
            if (is_array && jv_is(list, JV_NULL)) continue; /* null: not compared */
            if (is_array) snprintf(base, sizeof base, "%s.%s[%zu]", what, sl->name, i);
            else snprintf(base, sizeof base, "%s.%s", what, sl->name);
            const uint64_t need = t->total_slots * t->esize;
            if (need > x->max_bytes - x->bytes) return case_fail(x, "%s: beyond the memory limit", base);
            uint64_t *slots = actual ? &t->actual_slots : &t->expected_slots;
            const int rc = actual ? case_read_list(x, list, t, base, &t->actual, &t->actual_nan, slots)
                                  : case_read_list(x, list, t, base, &t->expected, &t->any_nan, slots);
            if (rc) return rc;
            x->bytes += *slots * t->esize;
            if (actual) t->has_actual = 1;
            else t->has_expected = 1;
            c->has_expected = 1;
        }
    }
    return 0;
}

/* The tensors' weights in case_bytes_moved: `bytes_moved` {"Slot": k, ...}, or by default
 * 2 for every output and 1 for every index input (docs/performance.md). */
static int parse_moved(case_ctx *x, const jv *moved, dmlref_case *c) {
    const dmlref_schema *s = c->schema;
    case_tensor *lists[2] = {c->inputs, c->outputs};
    const uint32_t counts[2] = {c->n_inputs, c->n_outputs};
    for (int k = 0; k < 2; ++k)
        for (uint32_t i = 0; i < counts[k]; ++i) {
            case_tensor *t = &lists[k][i];
            uint32_t j = 0;
            while (j < s->n_slots && strcmp(s->slots[j].name, t->slot) != 0) ++j;
            t->moved_times = moved ? 0 : t->is_output ? 2 : j < s->n_slots && s->slots[j].is_index ? 1 : 0;
        }
    if (!moved) return 0;
    if (!jv_is(moved, JV_OBJECT))
        return case_fail(x, "bytes_moved: expected an object {\"OutputTensor\": 2, ...}, got %s", jv_kind_name(moved));
    for (size_t m = 0; m < jv_count(moved); ++m) {
        const char *key = jv_key(moved, m);
        const jv *val = fields_given(jv_value(moved, m));
        if (case_ignorable(key)) continue;
        char path[PATH_MAX_LEN];
        int64_t v;
        snprintf(path, sizeof path, "bytes_moved.%.60s", key);
        if (fields_get_int(val, path, 0, 16, &v, x->err, x->errcap)) return CASE_MALFORMED;
        int found = 0;
        for (int k = 0; k < 2; ++k)
            for (uint32_t i = 0; i < counts[k]; ++i)
                if (strcmp(lists[k][i].slot, key) == 0) lists[k][i].moved_times = (uint32_t)v, found = 1;
        if (!found) return case_fail(x, "bytes_moved: \"%.60s\" is not a tensor of this case", key);
    }
    return 0;
}

uint64_t case_bytes_moved(const dmlref_case *c) {
    const case_tensor *lists[2] = {c->inputs, c->outputs};
    const uint32_t counts[2] = {c->n_inputs, c->n_outputs};
    uint64_t sum = 0;
    for (int k = 0; k < 2; ++k)
        for (uint32_t i = 0; i < counts[k]; ++i) {
            const case_tensor *t = &lists[k][i];
            uint64_t n = dmlref_data_type_size(t->buf.DataType);
            for (uint32_t d = 0; d < t->buf.DimensionCount; ++d) n *= t->sizes[d];
            sum += t->moved_times * n;
        }
    return sum;
}

static int parse_root(case_ctx *x, const jv *root, dmlref_case *c) {
    const jv *op = NULL, *fl = NULL, *expected = NULL, *actual = NULL, *moved = NULL;
    char names[512];
    if (!jv_is(root, JV_OBJECT)) return case_fail(x, "the case must be a JSON object, got %s", jv_kind_name(root));
    op = fields_member(root, "operator");
    if (!op) return case_fail(x, "missing \"operator\" (%s)", case_operator_names(names, sizeof names));
    const char *op_name = jv_string(op);
    if (!op_name) return case_fail(x, "operator: expected a string, got %s", jv_kind_name(op));
    const dmlref_schema *sc = x->opts->schema && strcmp(op_name, x->opts->schema->name) == 0
                                  ? x->opts->schema
                                  : case_schema_from_name(op_name);
    if (!sc) {
        /* one dmlref knows but this build left out (make OPS=...) */
        for (uint32_t t = 1; t < 256; ++t) {
            const char *known = dmlref_operator_name((DMLREF_OPERATOR_TYPE)t);
            if (known && (strcmp(known, op_name) == 0 ||
                          (t == DMLREF_OPERATOR_SCATTER_ELEMENTS && strcmp(op_name, "SCATTER_ELEMENTS") == 0)))
                return case_fail(x, "operator: %s is not built into this dmlref (make OPS=\"...\" left it out; this build has %s)",
                            known, case_operator_names(names, sizeof names));
        }
        return case_fail(x, "operator: unknown operator \"%.40s\" (%s)", op_name,
                    case_operator_names(names, sizeof names));
    }
    if (sc->n_slots > CASE_MAX_SLOTS) return case_fail(x, "%s: more than %d tensor fields", sc->name, CASE_MAX_SLOTS);
    c->schema = sc;
    c->type = sc->type;
    c->op_name = sc->name;

    slot_map map[CASE_MAX_SLOTS];
    memset(map, 0, sizeof map);
    for (size_t m = 0; m < jv_count(root); ++m) {
        const char *key = jv_key(root, m);
        const jv *val = fields_given(jv_value(root, m));
        int known = 0;
        if (strcmp(key, "operator") == 0) known = 1;
        else if (strcmp(key, "feature_level") == 0) fl = val, known = 1;
        else if (strcmp(key, "expected") == 0) expected = val, known = 1;
        else if (strcmp(key, "actual") == 0) actual = val, known = 1;
        else if (strcmp(key, "bytes_moved") == 0) moved = val, known = 1;
        else if (strcmp(key, "derive_output_sizes") == 0) {
            if (!jv_is(val, JV_BOOL))
                return case_fail(x, "derive_output_sizes: expected true or false, got %s", jv_kind_name(val));
            x->derive = val->u.b != 0;
            known = 1;
        }
        else if (strcmp(key, "features") == 0) {
            /* gen's summary of what the case uses: informative, its contents ignored */
            if (!jv_is(val, JV_OBJECT))
                return case_fail(x, "features: expected an object (what the case uses, as gen writes it), got %s",
                            jv_kind_name(val));
            known = 1;
        } else if (case_ignorable(key)) known = 1;
        for (uint32_t i = 0; i < sc->n_params && !known; ++i)
            if (strcmp(key, sc->params[i].name) == 0) known = 1;
        for (uint32_t i = 0; i < sc->n_slots && !known; ++i)
            if (strcmp(key, sc->slots[i].name) == 0) map[i].value = val, known = 1;
        if (!known) return case_fail(x, "unknown key \"%.60s\" (not a field of %s or of a case file)", key, c->op_name);
    }

    c->feature_level = DMLREF_FEATURE_LEVEL_LATEST;
    if (fl) {
        if (!jv_is(fl, JV_STRING)) return case_fail(x, "feature_level: expected a string such as \"4_1\", got %s", jv_kind_name(fl));
        const uint32_t v = case_feature_level_from_name(jv_string(fl));
        if (!v) return case_fail(x, "feature_level: unknown level \"%.20s\" (1_0 2_0 2_1 3_0 3_1 4_0 4_1 5_0 5_1 5_2 6_0 6_1 6_2 6_3 6_4)",
                            jv_string(fl));
        c->feature_level = (DMLREF_FEATURE_LEVEL)v;
    }
    if (x->opts->feature_level) c->feature_level = (DMLREF_FEATURE_LEVEL)x->opts->feature_level;

    /* parameters, then single tensors, then tensor arrays (and their counts) */
    c->desc_mem = desc_alloc(sc);
    if (!c->desc_mem) return case_oom(x, "%s: out of memory", sc->name);
    const int frc = fields_read_params(sc, root, c->desc_mem, &c->store, x->err, x->errcap);
    if (frc) return case_failure(frc, CASE_MALFORMED);
    for (uint32_t i = 0; i < sc->n_slots; ++i)
        if (!sc->slots[i].is_array && !sc->slots[i].is_optional && !map[i].value)
            return case_fail(x, "missing \"%s\" (a tensor of %s)", sc->slots[i].name, c->op_name);
    for (uint32_t i = 0; i < sc->n_slots; ++i) {
        const dmlref_tensor_slot *sl = &sc->slots[i];
        if (!sl->is_array) {
            map[i].count = map[i].value ? 1 : 0;
            continue;
        }
        const jv *array = map[i].value;
        if (!array) {
            if (sl->is_optional) continue;
            return case_fail(x, "missing \"%s\" (an array of tensors)", sl->name);
        }
        if (!jv_is(array, JV_ARRAY))
            return case_fail(x, "%s: expected an array of tensors, got %s", sl->name, jv_kind_name(array));
        const size_t n_array = jv_count(array);
        const jv *count = sl->count_name ? fields_member(root, sl->count_name) : NULL;
        if (count) {
            int64_t v;
            if (fields_get_int(count, sl->count_name, 0, UINT32_MAX, &v, x->err, x->errcap)) return CASE_MALFORMED;
            if ((uint64_t)v != n_array)
                return case_fail(x, "%s (%" PRId64 ") differs from the length of %s (%zu)", sl->count_name, v, sl->name, n_array);
        }
        if (n_array > UINT32_MAX / 2) return case_fail(x, "%s: too many tensors", sl->name);
        map[i].count = (uint32_t)n_array;
    }

    /* tensors, in binding order: input slots in schema order, then output slots */
    for (uint32_t i = 0; i < sc->n_slots; ++i) {
        uint32_t *n = sc->slots[i].is_output ? &c->n_outputs : &c->n_inputs;
        map[i].first = *n;
        if (map[i].count > UINT32_MAX / 2 - *n) return case_fail(x, "too many tensors");
        *n += map[i].count;
    }
    c->inputs = calloc(c->n_inputs ? c->n_inputs : 1, sizeof *c->inputs);
    c->outputs = calloc(c->n_outputs ? c->n_outputs : 1, sizeof *c->outputs);
    c->in_descs = calloc(c->n_inputs ? c->n_inputs : 1, sizeof *c->in_descs);
    c->out_descs = calloc(c->n_outputs ? c->n_outputs : 1, sizeof *c->out_descs);
    c->in_bufs = calloc(c->n_inputs ? c->n_inputs : 1, sizeof *c->in_bufs);
    c->out_bufs = calloc(c->n_outputs ? c->n_outputs : 1, sizeof *c->out_bufs);
    tensor_src *in_src = calloc(c->n_inputs ? c->n_inputs : 1, sizeof *in_src);
    tensor_src *out_src = calloc(c->n_outputs ? c->n_outputs : 1, sizeof *out_src);
    int rc = 0;
    if (!c->inputs || !c->outputs || !c->in_descs || !c->out_descs || !c->in_bufs || !c->out_bufs || !in_src || !out_src) {
        rc = case_oom(x, "%s: out of memory", sc->name);
        goto done;
    }
    char name[40];
    for (uint32_t i = 0; i < sc->n_slots && !rc; ++i) {
        const dmlref_tensor_slot *sl = &sc->slots[i];
        const int out = sl->is_output;
        for (uint32_t k = 0; k < map[i].count && !rc; ++k) {
            case_tensor *t = out ? &c->outputs[map[i].first + k] : &c->inputs[map[i].first + k];
            tensor_src *src = out ? &out_src[map[i].first + k] : &in_src[map[i].first + k];
            if (sl->is_array) snprintf(name, sizeof name, "%s[%u]", sl->name, (unsigned)k);
            else snprintf(name, sizeof name, "%s", sl->name);
            rc = parse_tensor(x, sl->is_array ? jv_at(map[i].value, k) : map[i].value, t, name, out, src);
            t->slot = sl->name;
            t->index = sl->is_array ? (int32_t)k : -1;
        }
    }
    if (!rc) rc = parse_moved(x, moved, c);
    if (rc) goto done;

    /* the desc: each slot points at its tensors (an array at the first, its count set) */
    for (uint32_t i = 0; i < c->n_inputs; ++i) c->in_descs[i] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &c->inputs[i].buf};
    for (uint32_t i = 0; i < c->n_outputs; ++i) c->out_descs[i] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &c->outputs[i].buf};
    for (uint32_t i = 0; i < sc->n_slots; ++i) {
        const dmlref_tensor_slot *sl = &sc->slots[i];
        const DMLREF_TENSOR_DESC *p = NULL;
        if (map[i].value) p = sl->is_output ? &c->out_descs[map[i].first] : &c->in_descs[map[i].first];
        memcpy((unsigned char *)c->desc_mem + sl->offset, &p, sizeof p);
        if (sl->is_array) desc_set_u32(c->desc_mem, sl->count_offset, map[i].count);
    }
    c->desc.Type = c->type;
    c->desc.Desc = c->desc_mem;

    dmlref_error derr;
    /* "derive_output_sizes": each output's DimensionCount and Sizes from the library (TFLite's
     * Prepare), its TotalTensorSizeInBytes packed; a broken rule is the case's verdict */
    dmlref_status vst = DMLREF_OK;
    for (uint32_t i = 0; x->derive && i < c->n_outputs && vst == DMLREF_OK; ++i) {
        case_tensor *t = &c->outputs[i];
        uint32_t dc = 0, sz[8];
        vst = dmlref_output_sizes(&c->desc, c->feature_level, i, &dc, sz, &derr);
        if (vst != DMLREF_OK) break;
        uint32_t *mem = calloc(dc ? dc : 1, sizeof *mem);
        if (!mem) {
            rc = case_oom(x, "%s: out of memory", t->name);
            goto done;
        }
        memcpy(mem, sz, dc * sizeof *mem);
        free(t->sizes);
        t->sizes = mem;
        t->buf.DimensionCount = dc;
        t->buf.Sizes = t->sizes;
        t->buf.TotalTensorSizeInBytes = dmlref_calc_buffer_tensor_size(t->buf.DataType, dc, t->sizes, NULL);
    }
    if (vst == DMLREF_OK) vst = dmlref_validate(&c->desc, c->feature_level, &derr);
    if (vst == DMLREF_ERROR_OUT_OF_MEMORY) { /* no verdict: the library could not finish */
        rc = case_oom(x, "out of memory validating the descriptor");
        goto done;
    }
    if (vst != DMLREF_OK) {
        snprintf(x->err, x->errcap, "%s", derr.message);
        if (x->opts->verdict) *x->opts->verdict = derr;
        rc = vst == DMLREF_ERROR_CANNOT_VERIFY ? CASE_CANNOT_VERIFY : CASE_INVALID;
        goto done;
    }

    for (uint32_t i = 0; i < c->n_inputs && !rc; ++i) {
        case_tensor *t = &c->inputs[i];
        t->esize = dmlref_data_type_size(t->buf.DataType);
        rc = case_alloc_buffer(x, t);
    }
    for (uint32_t i = 0; i < c->n_outputs && !rc; ++i) {
        case_tensor *t = &c->outputs[i];
        t->esize = dmlref_data_type_size(t->buf.DataType);
        rc = case_alloc_buffer(x, t);
    }
    for (uint32_t i = 0; i < c->n_inputs && !rc; ++i) rc = case_fill_tensor(x, &c->inputs[i], &in_src[i]);
    for (uint32_t i = 0; i < c->n_outputs && !rc; ++i) rc = case_fill_tensor(x, &c->outputs[i], &out_src[i]);
    if (!rc && expected) rc = parse_expected(x, expected, c, map, "expected");
    if (!rc && actual) rc = parse_expected(x, actual, c, map, "actual");
    if (rc) goto done;
    for (uint32_t i = 0; i < c->n_inputs; ++i) c->in_bufs[i] = (dmlref_cbuffer){c->inputs[i].data, c->inputs[i].bytes};
    for (uint32_t i = 0; i < c->n_outputs; ++i) c->out_bufs[i] = (dmlref_buffer){c->outputs[i].data, c->outputs[i].bytes};
done:
    free(in_src);
    free(out_src);
    return rc;
}

int case_parse_ex(const char *json_text, size_t len, const case_options *opts, dmlref_case *out, char *err,
                  size_t errcap) {
    static const case_options defaults = {NULL, 0, 0, NULL, NULL, NULL, NULL};
    char dummy[8];
    if (!err || errcap == 0) {
        err = dummy;
        errcap = sizeof dummy;
    }
    err[0] = '\0';
    memset(out, 0, sizeof *out);
    case_ctx x = {err, errcap, opts ? opts : &defaults, 0, 0, 0};
    x.max_bytes = x.opts->max_bytes ? x.opts->max_bytes : CASE_DEFAULT_MAX_BYTES;
    json_doc doc;
    const json_status st = json_parse(json_text, len, &doc, err, errcap);
    if (st == JSON_OOM) return CASE_OUT_OF_MEMORY; /* "out of memory reading JSON ..." */
    if (st != JSON_OK) return CASE_MALFORMED;
    const int rc = parse_root(&x, doc.root, out);
    json_free(&doc);
    if (rc) case_free(out);
    return rc;
}

int case_parse(const char *json_text, size_t len, const char *base_dir, dmlref_case *out, char *err, size_t errcap) {
    const case_options o = {base_dir, 0, 0, NULL, NULL, NULL, NULL};
    return case_parse_ex(json_text, len, &o, out, err, errcap);
}
