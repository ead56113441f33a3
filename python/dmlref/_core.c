/*
 * dmlref._core: the C library, linked statically, seen from Python.
 *
 * Deliberately small and generic: the Python layer (dmlref/_ops.py) walks the
 * public schema that schemas() returns and calls run() with, for every tensor
 * slot of the operator, a (DataType, Sizes, Strides or None, TotalTensorSizeInBytes)
 * tuple, the parameters in schema order, and the buffers as (object, size in
 * bytes) pairs.  run() builds the DMLREF_*_OPERATOR_DESC byte for byte from the
 * schema's offsets, so a new operator in the registry needs nothing here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dmlref.h>

#include "case/case.h"
#include "cli/framework.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BUFFERS_ON_STACK 16

static PyObject *core_version(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    return PyUnicode_FromString(dmlref_version());
}

static PyObject *str_or_none(const char *s) {
    if (!s) Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

static PyObject *names_list(const char *const *names, uint32_t n) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (uint32_t i = 0; i < n; ++i) {
        PyObject *s = str_or_none(names ? names[i] : NULL);
        if (!s) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, s);
    }
    return l;
}

static PyObject *slot_dict(const dmlref_tensor_slot *s) {
    PyObject *count = str_or_none(s->count_name);
    if (!count) return NULL;
    return Py_BuildValue("{s:s,s:O,s:O,s:O,s:O,s:N}", "name", s->name, "is_output", s->is_output ? Py_True : Py_False,
                         "is_index", s->is_index ? Py_True : Py_False, "is_array", s->is_array ? Py_True : Py_False,
                         "is_optional", s->is_optional ? Py_True : Py_False, "count_name", count);
}

static PyObject *param_dict(const dmlref_param *p) {
    PyObject *count = str_or_none(p->count_name);
    PyObject *enums = count ? names_list(p->enum_names, p->enum_names ? p->enum_count : 0) : NULL;
    PyObject *fields = enums ? names_list(p->field_names, p->field_names ? p->field_count : 0) : NULL;
    if (!fields) {
        Py_XDECREF(count);
        Py_XDECREF(enums);
        return NULL;
    }
    return Py_BuildValue("{s:s,s:i,s:O,s:O,s:N,s:N,s:N}", "name", p->name, "kind", (int)p->kind, "is_optional",
                         p->is_optional ? Py_True : Py_False, "is_count", p->is_count ? Py_True : Py_False, "count_name",
                         count, "enum_names", enums, "field_names", fields);
}

/* [{"name", "type", "introduced", "in_place", "slots": [...], "params": [...]}, ...] in registry order. */
static PyObject *core_schemas(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (uint32_t i = 0;; ++i) {
        const dmlref_schema *s = dmlref_operator_schema_at(i);
        if (!s) break;
        PyObject *slots = PyList_New(s->n_slots), *params = PyList_New(s->n_params);
        int bad = !slots || !params;
        for (uint32_t k = 0; !bad && k < s->n_slots; ++k) {
            PyObject *d = slot_dict(&s->slots[k]);
            if (!d) bad = 1;
            else PyList_SET_ITEM(slots, k, d);
        }
        for (uint32_t k = 0; !bad && k < s->n_params; ++k) {
            PyObject *d = param_dict(&s->params[k]);
            if (!d) bad = 1;
            else PyList_SET_ITEM(params, k, d);
        }
        PyObject *d = bad ? NULL
                          : Py_BuildValue("{s:s,s:i,s:s,s:O,s:N,s:N}", "name", s->name, "type", (int)s->type,
                                          "introduced", dmlref_feature_level_name(s->introduced), "in_place",
                                          (s->flags & DMLREF_SCHEMA_IN_PLACE) ? Py_True : Py_False, "slots", slots,
                                          "params", params);
        if (!d) {
            if (bad) {
                Py_XDECREF(slots);
                Py_XDECREF(params);
            }
            Py_DECREF(out);
            return NULL;
        }
        if (PyList_Append(out, d) < 0) {
            Py_DECREF(d);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(d);
    }
    return out;
}

/* [(name, value), ...] for every feature level the library knows, oldest first. */
static PyObject *core_feature_levels(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (uint32_t v = 0x1000; v <= 0xff00; v += 0x100) {
        const char *name = dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)v);
        if (!name) continue;
        PyObject *t = Py_BuildValue("(sI)", name, (unsigned)v);
        if (!t || PyList_Append(out, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(t);
    }
    return out;
}

/* [(code, name, size), ...] for the data types with an element size. */
static PyObject *core_data_types(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int c = 1; c < 64; ++c) {
        const char *name = dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)c);
        const uint32_t size = dmlref_data_type_size((DMLREF_TENSOR_DATA_TYPE)c);
        if (!name || !size) continue;
        PyObject *t = Py_BuildValue("(isI)", c, name, (unsigned)size);
        if (!t || PyList_Append(out, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(t);
    }
    return out;
}

static PyObject *core_calc_size(PyObject *self, PyObject *args) {
    (void)self;
    int dtype;
    PyObject *sizes_o, *strides_o;
    if (!PyArg_ParseTuple(args, "iOO", &dtype, &sizes_o, &strides_o)) return NULL;
    uint32_t sizes[64], strides[64];
    Py_ssize_t n = PySequence_Size(sizes_o);
    if (n < 0) return NULL;
    if (n > 64) return PyLong_FromLong(0);
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject *v = PySequence_GetItem(sizes_o, i);
        if (!v) return NULL;
        unsigned long x = PyLong_AsUnsignedLong(v);
        Py_DECREF(v);
        if (PyErr_Occurred()) return NULL;
        if (x > UINT32_MAX) return PyLong_FromLong(0);
        sizes[i] = (uint32_t)x;
    }
    const uint32_t *sp = NULL;
    if (strides_o != Py_None) {
        if (PySequence_Size(strides_o) != n) {
            PyErr_SetString(PyExc_ValueError, "strides and sizes differ in length");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; ++i) {
            PyObject *v = PySequence_GetItem(strides_o, i);
            if (!v) return NULL;
            unsigned long x = PyLong_AsUnsignedLong(v);
            Py_DECREF(v);
            if (PyErr_Occurred()) return NULL;
            if (x > UINT32_MAX) return PyLong_FromLong(0);
            strides[i] = (uint32_t)x;
        }
        sp = strides;
    }
    return PyLong_FromUnsignedLongLong(
        dmlref_calc_buffer_tensor_size((DMLREF_TENSOR_DATA_TYPE)dtype, (uint32_t)n, sizes, sp));
}

/* ---- run ----------------------------------------------------------------- */

/* Everything one call allocates, freed at once: as many blocks as the call needs (a JOIN
 * or SPLIT of any number of pieces), the list of them growing by doubling. */
typedef struct arena {
    void **blocks;
    size_t n, cap;
} arena;

static void *arena_alloc(arena *a, size_t n) {
    if (a->n == a->cap) {
        const size_t cap = a->cap ? a->cap * 2 : 64;
        void **b = cap <= SIZE_MAX / sizeof *b ? realloc(a->blocks, cap * sizeof *b) : NULL;
        if (!b) {
            PyErr_NoMemory();
            return NULL;
        }
        a->blocks = b;
        a->cap = cap;
    }
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        PyErr_NoMemory();
        return NULL;
    }
    a->blocks[a->n++] = p;
    return p;
}

/* count elements of `size` bytes, MemoryError where the product overflows. */
static void *arena_array(arena *a, size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) {
        PyErr_NoMemory();
        return NULL;
    }
    return arena_alloc(a, count * size);
}

static void arena_free(arena *a) {
    for (size_t i = 0; i < a->n; ++i) free(a->blocks[i]);
    free(a->blocks);
    a->blocks = NULL;
    a->n = a->cap = 0;
}

static int to_u32(PyObject *v, uint32_t *out, const char *what) {
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_OverflowError, "%s must be an integer in [0, 2^32 - 1]", what);
        return -1;
    }
    if (x > UINT32_MAX) {
        PyErr_Format(PyExc_OverflowError, "%s (%llu) must be in [0, 2^32 - 1]", what, x);
        return -1;
    }
    *out = (uint32_t)x;
    return 0;
}

/* An INT32 field: OverflowError naming the field, whatever the integer's size. */
static int to_i32(PyObject *v, int32_t *out, const char *what, Py_ssize_t index) {
    long long x = PyLong_AsLongLong(v);
    if (x == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1; /* not an integer: TypeError */
        PyErr_Clear();
        x = INT64_MAX; /* beyond int64 too: reported as out of range below */
    }
    if (x < INT32_MIN || x > INT32_MAX) {
        if (index < 0) PyErr_Format(PyExc_OverflowError, "%s must be an integer in [-2^31, 2^31 - 1]", what);
        else PyErr_Format(PyExc_OverflowError, "%s[%zd] must be an integer in [-2^31, 2^31 - 1]", what, index);
        return -1;
    }
    *out = (int32_t)x;
    return 0;
}

static int u32_list(PyObject *seq, uint32_t **out, uint32_t *n, arena *a, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    const Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    uint32_t *v = arena_array(a, (size_t)len, sizeof *v);
    int rc = v ? 0 : -1;
    for (Py_ssize_t i = 0; rc == 0 && i < len; ++i) rc = to_u32(PySequence_Fast_GET_ITEM(fast, i), &v[i], what);
    Py_DECREF(fast);
    *out = v;
    *n = (uint32_t)len;
    return rc;
}

/* (DataType, Sizes, Strides or None, TotalTensorSizeInBytes[, Flags, GuaranteedBaseOffsetAlignment])
 * -> a DMLREF_TENSOR_DESC.  TotalTensorSizeInBytes is checked, not wrapped ("K" would take -1
 * as 2^64 - 1 and 2^64 + 16 as 16). */
static int fill_tensor(PyObject *t, DMLREF_TENSOR_DESC *td, DMLREF_BUFFER_TENSOR_DESC *bd, arena *a) {
    PyObject *sizes, *strides, *total_o, *flags_o = NULL, *align_o = NULL;
    int dtype;
    uint32_t flags = 0, align = 0;
    if (!PyArg_ParseTuple(t, "iOOO|OO", &dtype, &sizes, &strides, &total_o, &flags_o, &align_o)) return -1;
    const unsigned long long total = PyLong_AsUnsignedLongLong(total_o);
    if (total == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1; /* not an integer: TypeError */
        PyErr_Clear();
        PyErr_SetString(PyExc_OverflowError, "TotalTensorSizeInBytes must be an integer in [0, 2^64 - 1]");
        return -1;
    }
    if (flags_o && to_u32(flags_o, &flags, "Flags") < 0) return -1;
    if (align_o && to_u32(align_o, &align, "GuaranteedBaseOffsetAlignment") < 0) return -1;
    uint32_t n = 0, ns = 0;
    uint32_t *sz = NULL, *st = NULL;
    if (u32_list(sizes, &sz, &n, a, "Sizes") < 0) return -1;
    if (strides != Py_None) {
        if (u32_list(strides, &st, &ns, a, "Strides") < 0) return -1;
        if (ns != n) {
            PyErr_SetString(PyExc_ValueError, "Strides and Sizes differ in length");
            return -1;
        }
    }
    bd->DataType = (DMLREF_TENSOR_DATA_TYPE)dtype;
    bd->Flags = (DMLREF_TENSOR_FLAGS)flags;
    bd->DimensionCount = n;
    bd->Sizes = sz;
    bd->Strides = st;
    bd->TotalTensorSizeInBytes = total;
    bd->GuaranteedBaseOffsetAlignment = align;
    td->Type = DMLREF_TENSOR_TYPE_BUFFER;
    td->Desc = bd;
    return 0;
}

/* A FLOAT field: the nearest FLOAT32; a finite value that rounds beyond FLOAT32's range
 * (|x| >= FLT_MAX + half an ulp) is a ValueError, as the command refuses it. */
static int to_f32(PyObject *v, float *out, const char *what, const char *field) {
    const double d = PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    if (isfinite(d) && fabs(d) >= 0x1.ffffffp127) {
        PyErr_Format(PyExc_ValueError, "%s%s%s: %R is beyond the finite range of FLOAT32 (give inf for infinity)", what,
                     field ? "." : "", field ? field : "", v);
        return -1;
    }
    *out = (float)d;
    return 0;
}

static int fill_param(const dmlref_schema *s, const dmlref_param *p, PyObject *v, unsigned char *desc, arena *a) {
    switch (p->kind) {
    case DMLREF_PARAM_UINT:
    case DMLREF_PARAM_ENUM: {
        uint32_t x;
        if (to_u32(v, &x, p->name) < 0) return -1;
        memcpy(desc + p->offset, &x, sizeof x);
        return 0;
    }
    case DMLREF_PARAM_INT: {
        int32_t y;
        if (to_i32(v, &y, p->name, -1) < 0) return -1;
        memcpy(desc + p->offset, &y, sizeof y);
        return 0;
    }
    case DMLREF_PARAM_FLOAT: {
        float f;
        if (to_f32(v, &f, p->name, NULL) < 0) return -1;
        memcpy(desc + p->offset, &f, sizeof f);
        return 0;
    }
    case DMLREF_PARAM_UINT_ARRAY:
    case DMLREF_PARAM_INT_ARRAY: {
        PyObject *fast = PySequence_Fast(v, p->name);
        if (!fast) return -1;
        const Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
        uint32_t *arr = arena_array(a, (size_t)len, sizeof *arr);
        int rc = arr ? 0 : -1;
        for (Py_ssize_t i = 0; rc == 0 && i < len; ++i) {
            PyObject *e = PySequence_Fast_GET_ITEM(fast, i);
            if (p->kind == DMLREF_PARAM_UINT_ARRAY) {
                rc = to_u32(e, &arr[i], p->name);
            } else {
                int32_t y;
                rc = to_i32(e, &y, p->name, i);
                if (rc == 0) memcpy(&arr[i], &y, sizeof y);
            }
        }
        Py_DECREF(fast);
        if (rc < 0) return -1;
        const uint32_t count = (uint32_t)len;
        /* arrays sharing one count field (SLICE's Offsets, Sizes, Strides: DimensionCount) must
         * be as long as each other: the library reads that many values from each */
        uint32_t before;
        memcpy(&before, desc + p->count_offset, sizeof before);
        for (const dmlref_param *q = s->params; q < p; ++q) {
            if ((q->kind == DMLREF_PARAM_UINT_ARRAY || q->kind == DMLREF_PARAM_INT_ARRAY ||
                 q->kind == DMLREF_PARAM_FLOAT_ARRAY) && q->count_name &&
                q->count_offset == p->count_offset && before != count) {
                PyErr_Format(PyExc_ValueError, "%s: %u entries, but %s has %u (both are counted by %s)", p->name,
                             (unsigned)count, q->name, (unsigned)before, p->count_name);
                return -1;
            }
        }
        const void *ptr = arr;
        memcpy(desc + p->offset, &ptr, sizeof ptr);
        memcpy(desc + p->count_offset, &count, sizeof count);
        return 0;
    }
    case DMLREF_PARAM_FLOAT_ARRAY: {
        PyObject *fast = PySequence_Fast(v, p->name);
        if (!fast) return -1;
        const Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
        float *arr = arena_array(a, (size_t)len, sizeof *arr);
        int rc = arr ? 0 : -1;
        for (Py_ssize_t i = 0; rc == 0 && i < len; ++i) rc = to_f32(PySequence_Fast_GET_ITEM(fast, i), &arr[i], p->name, NULL);
        Py_DECREF(fast);
        if (rc < 0) return -1;
        const uint32_t count = (uint32_t)len;
        uint32_t before;
        memcpy(&before, desc + p->count_offset, sizeof before);
        for (const dmlref_param *q = s->params; q < p; ++q) {
            if ((q->kind == DMLREF_PARAM_UINT_ARRAY || q->kind == DMLREF_PARAM_INT_ARRAY ||
                 q->kind == DMLREF_PARAM_FLOAT_ARRAY) &&
                q->count_name && q->count_offset == p->count_offset && before != count) {
                PyErr_Format(PyExc_ValueError, "%s: %u entries, but %s has %u (both are counted by %s)", p->name,
                             (unsigned)count, q->name, (unsigned)before, p->count_name);
                return -1;
            }
        }
        const void *ptr = arr;
        memcpy(desc + p->offset, &ptr, sizeof ptr);
        memcpy(desc + p->count_offset, &count, sizeof count);
        return 0;
    }
    case DMLREF_PARAM_SIZE_2D: { /* (Width, Height) */
        PyObject *fast = PySequence_Fast(v, p->name);
        if (!fast) return -1;
        int rc = 0;
        if (PySequence_Fast_GET_SIZE(fast) != 2) {
            PyErr_Format(PyExc_ValueError, "%s takes 2 values (Width, Height)", p->name);
            rc = -1;
        }
        uint32_t wh[2] = {0, 0};
        for (int i = 0; rc == 0 && i < 2; ++i) rc = to_u32(PySequence_Fast_GET_ITEM(fast, i), &wh[i], p->name);
        Py_DECREF(fast);
        if (rc < 0) return -1;
        memcpy(desc + p->offset, wh, sizeof wh);
        return 0;
    }
    case DMLREF_PARAM_BOOL: {
        const int t = PyObject_IsTrue(v);
        if (t < 0) return -1;
        const int32_t y = t ? 1 : 0;
        memcpy(desc + p->offset, &y, sizeof y);
        return 0;
    }
    case DMLREF_PARAM_SCALAR_UNION: {
        /* 8 raw bytes, the caller's encoding of the value in its data type */
        Py_buffer b;
        if (PyObject_GetBuffer(v, &b, PyBUF_SIMPLE) < 0) return -1;
        int rc = 0;
        if (b.len != 8) {
            PyErr_Format(PyExc_ValueError, "%s: 8 bytes expected", p->name);
            rc = -1;
        } else {
            memcpy(desc + p->offset, b.buf, 8);
        }
        PyBuffer_Release(&b);
        return rc;
    }
    case DMLREF_PARAM_STRUCT: {
        if (v == Py_None) return 0; /* optional: stays NULL */
        PyObject *fast = PySequence_Fast(v, p->name);
        if (!fast) return -1;
        const Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
        if ((uint32_t)len != p->field_count || p->struct_size < p->field_count * sizeof(float)) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s takes %u values", p->name, (unsigned)p->field_count);
            return -1;
        }
        float *st = arena_alloc(a, p->struct_size);
        int rc = st ? 0 : -1;
        for (Py_ssize_t i = 0; rc == 0 && i < len; ++i)
            rc = to_f32(PySequence_Fast_GET_ITEM(fast, i), &st[i], p->name,
                        p->field_names ? p->field_names[i] : NULL);
        Py_DECREF(fast);
        if (rc < 0) return -1;
        const void *ptr = st;
        memcpy(desc + p->offset, &ptr, sizeof ptr);
        return 0;
    }
    }
    PyErr_Format(PyExc_ValueError, "%s: unknown parameter kind %d", p->name, (int)p->kind);
    return -1;
}

/* The DMLREF_*_OPERATOR_DESC of schema s from run's tensors and params, in a's memory;
 * *n_in, *n_out: the tensors bound as inputs, as outputs.  null_outputs: an output slot may
 * be None (output_sizes).  NULL with a Python exception on failure. */
/* The operator's schema, its tensor list one entry per slot; NULL with the error set. */
static const dmlref_schema *call_schema(int op_type, PyObject *tensors) {
    const dmlref_schema *s = dmlref_operator_schema((DMLREF_OPERATOR_TYPE)op_type);
    if (!s) {
        PyErr_Format(PyExc_ValueError, "operator %d is not in this build", op_type);
        return NULL;
    }
    if ((uint32_t)PyList_GET_SIZE(tensors) != s->n_slots) {
        PyErr_Format(PyExc_ValueError, "%s has %u tensor slots", s->name, (unsigned)s->n_slots);
        return NULL;
    }
    return s;
}

static unsigned char *build_desc(const dmlref_schema *s, PyObject *tensors, PyObject *params, int null_outputs,
                                 arena *a, uint32_t *n_in_out, uint32_t *n_out_out) {
    unsigned char *desc = arena_alloc(a, s->desc_size);
    if (!desc) return NULL;

    uint32_t n_in = 0, n_out = 0;
    for (uint32_t k = 0; k < s->n_slots; ++k) {
        const dmlref_tensor_slot *slot = &s->slots[k];
        PyObject *t = PyList_GET_ITEM(tensors, k);
        const void *ptr = NULL;
        uint32_t count = 0;
        if (t == Py_None) {
            if (!slot->is_optional && !(slot->is_output && null_outputs)) {
                PyErr_Format(PyExc_ValueError, "%s: %s is required", s->name, slot->name);
                return NULL;
            }
        } else if (slot->is_array) {
            if (!PyList_Check(t)) {
                PyErr_Format(PyExc_TypeError, "%s: %s takes a list of tensors", s->name, slot->name);
                return NULL;
            }
            if ((size_t)PyList_GET_SIZE(t) > UINT32_MAX) {
                PyErr_Format(PyExc_OverflowError, "%s: %s holds at most 2^32 - 1 tensors", s->name, slot->name);
                return NULL;
            }
            count = (uint32_t)PyList_GET_SIZE(t);
            DMLREF_TENSOR_DESC *tds = arena_array(a, count, sizeof *tds);
            DMLREF_BUFFER_TENSOR_DESC *bds = arena_array(a, count, sizeof *bds);
            if (!tds || !bds) return NULL;
            for (uint32_t i = 0; i < count; ++i)
                if (fill_tensor(PyList_GET_ITEM(t, i), &tds[i], &bds[i], a) < 0) return NULL;
            ptr = tds;
            memcpy(desc + slot->count_offset, &count, sizeof count);
        } else {
            DMLREF_TENSOR_DESC *td = arena_alloc(a, sizeof *td);
            DMLREF_BUFFER_TENSOR_DESC *bd = arena_alloc(a, sizeof *bd);
            if (!td || !bd) return NULL;
            if (fill_tensor(t, td, bd, a) < 0) return NULL;
            ptr = td;
            count = 1;
        }
        memcpy(desc + slot->offset, &ptr, sizeof ptr);
        if (slot->is_output) n_out += count;
        else n_in += count;
    }
    Py_ssize_t pi = 0;
    for (uint32_t k = 0; k < s->n_params; ++k) {
        const dmlref_param *p = &s->params[k];
        if (p->is_count) continue; /* written with its array */
        if (pi >= PyList_GET_SIZE(params)) {
            PyErr_Format(PyExc_ValueError, "%s: parameter %s missing", s->name, p->name);
            return NULL;
        }
        if (fill_param(s, p, PyList_GET_ITEM(params, pi++), desc, a) < 0) return NULL;
    }
    if (pi != PyList_GET_SIZE(params)) {
        PyErr_Format(PyExc_ValueError, "%s: too many parameters", s->name);
        return NULL;
    }

    *n_in_out = n_in;
    *n_out_out = n_out;
    return desc;
}

/*
 * run(op_type, feature_level, flags, threads, tensors, params, buffers, validate_only)
 *   tensors: per schema slot, None (an absent optional tensor), a tensor tuple, or
 *            for an array slot a list of them
 *   params:  per schema parameter that is not a count, its value
 *   buffers: (object, size) pairs in binding order (inputs, then outputs), the
 *            object exporting the buffer protocol; data starts at its first
 *            element, and the caller guarantees `size` bytes are there
 * Returns None, or (status, status_name, message, rule, field) on failure.
 */
static PyObject *core_run(PyObject *self, PyObject *args) {
    (void)self;
    int op_type, validate_only;
    unsigned int fl, flags;
    uint32_t threads;
    PyObject *tensors, *params, *buffers, *threads_o;
    if (!PyArg_ParseTuple(args, "iIIOO!O!O!p", &op_type, &fl, &flags, &threads_o, &PyList_Type, &tensors, &PyList_Type,
                          &params, &PyList_Type, &buffers, &validate_only))
        return NULL;
    if (to_u32(threads_o, &threads, "threads") < 0) return NULL; /* "I" would wrap -1 and 2^32 */
    const dmlref_schema *s = call_schema(op_type, tensors);
    if (!s) return NULL;
    arena a = {NULL, 0, 0};
    PyObject *result = NULL;
    dmlref_error err;
    memset(&err, 0, sizeof err);
    uint32_t n_in = 0, n_out = 0;
    unsigned char *desc = build_desc(s, tensors, params, 0, &a, &n_in, &n_out);
    if (!desc) goto done;

    const DMLREF_OPERATOR_DESC od = {(DMLREF_OPERATOR_TYPE)op_type, desc};
    dmlref_status st = DMLREF_OK;
    if (validate_only) {
        st = dmlref_validate(&od, (DMLREF_FEATURE_LEVEL)fl, &err);
    } else {
        const Py_ssize_t nb = PyList_GET_SIZE(buffers);
        if (nb != (Py_ssize_t)n_in + (Py_ssize_t)n_out) {
            PyErr_Format(PyExc_ValueError, "%s: %u buffers expected, %zd given", s->name, (unsigned)(n_in + n_out), nb);
            goto done;
        }
        Py_buffer *views = arena_array(&a, (size_t)nb, sizeof *views);
        dmlref_cbuffer *ins = arena_array(&a, n_in ? n_in : 1, sizeof *ins);
        dmlref_buffer *outs = arena_array(&a, n_out ? n_out : 1, sizeof *outs);
        if (!views || !ins || !outs) goto done;
        Py_ssize_t got = 0;
        int ok = 1;
        for (Py_ssize_t i = 0; i < nb && ok; ++i) {
            PyObject *obj;
            unsigned long long size;
            if (!PyArg_ParseTuple(PyList_GET_ITEM(buffers, i), "OK", &obj, &size)) {
                ok = 0;
                break;
            }
            const int is_out = i >= (Py_ssize_t)n_in;
            if (PyObject_GetBuffer(obj, &views[i], is_out ? PyBUF_STRIDED : PyBUF_STRIDED_RO) < 0) {
                ok = 0;
                break;
            }
            ++got;
            if (size > SIZE_MAX) {
                PyErr_SetString(PyExc_OverflowError, "buffer larger than this host can address");
                ok = 0;
                break;
            }
            if (is_out) outs[i - n_in] = (dmlref_buffer){views[i].buf, (size_t)size};
            else ins[i] = (dmlref_cbuffer){views[i].buf, (size_t)size};
        }
        if (ok) {
            const dmlref_options opt = {.flags = flags, .threads = threads};
            Py_BEGIN_ALLOW_THREADS
            st = dmlref_run(&od, (DMLREF_FEATURE_LEVEL)fl, &opt, ins, n_in, outs, n_out, &err);
            Py_END_ALLOW_THREADS
        }
        for (Py_ssize_t i = 0; i < got; ++i) PyBuffer_Release(&views[i]);
        if (!ok) goto done;
    }
    if (st == DMLREF_OK) {
        Py_INCREF(Py_None);
        result = Py_None;
    } else {
        result = Py_BuildValue("(isyyy)", (int)st, dmlref_status_name(st), err.message, err.rule, err.field);
    }
done:
    arena_free(&a);
    return result;
}

/*
 * output_sizes(operator type, feature level, tensors, params, output): dmlref_output_sizes
 * on the desc run would build (tensors and params as run takes them; an output slot may be
 * None, or hold tensors whose Sizes give what the inputs and parameters leave free: SPLIT's
 * share of Axis, ONE_HOT's depth, DIAGONAL_MATRIX's shape).  Returns the output's sizes as
 * a tuple, or (status, status_name, message, rule, field) as a list on failure.
 */
static PyObject *core_output_sizes(PyObject *self, PyObject *args) {
    (void)self;
    int op_type;
    unsigned int fl, output;
    PyObject *tensors, *params;
    if (!PyArg_ParseTuple(args, "iIO!O!I", &op_type, &fl, &PyList_Type, &tensors, &PyList_Type, &params, &output))
        return NULL;
    const dmlref_schema *s = call_schema(op_type, tensors);
    if (!s) return NULL;
    arena a = {NULL, 0, 0};
    PyObject *result = NULL;
    dmlref_error err;
    memset(&err, 0, sizeof err);
    uint32_t n_in = 0, n_out = 0, n = 0, sizes[8];
    unsigned char *desc = build_desc(s, tensors, params, 1, &a, &n_in, &n_out);
    if (desc) {
        const DMLREF_OPERATOR_DESC od = {(DMLREF_OPERATOR_TYPE)op_type, desc};
        const dmlref_status st = dmlref_output_sizes(&od, (DMLREF_FEATURE_LEVEL)fl, output, &n, sizes, &err);
        if (st == DMLREF_OK) {
            result = PyTuple_New((Py_ssize_t)n);
            for (uint32_t d = 0; result && d < n; ++d) {
                PyObject *v = PyLong_FromUnsignedLong(sizes[d]);
                if (!v) {
                    Py_CLEAR(result);
                    break;
                }
                PyTuple_SET_ITEM(result, (Py_ssize_t)d, v);
            }
        } else {
            result = Py_BuildValue("[isyyy]", (int)st, dmlref_status_name(st), err.message, err.rule, err.field);
        }
    }
    arena_free(&a);
    return result;
}

/* ---- the cached fast path ------------------------------------------------ */

/*
 * fast(op_type, inputs, params, extras, out, feature_level, check_indices, threads, force_oracle)
 * (METH_FASTCALL): the generated functions (dmlref/_functions.py) call it first.  A call
 * whose every input is a numpy array passed as is (aligned, native, non-negative strides
 * that are multiples of the item size, a span of a multiple of 4 bytes), whose parameters
 * are plain integers, floats and lists of integers, and whose out= (if any) is laid out the
 * same way, is keyed by (operator, level, options, each tensor's data type, shape and byte
 * strides, the parameters, the extra arguments, out='s layout); the compiled operator
 * (dmlref_compile) of a key is kept in a bounded table (CACHE_SIZE entries, least
 * recently used evicted), so the call is a lookup, the output's allocation and
 * dmlref_execute.  Anything else, a key not seen yet that the planner (dmlref._ops.plan,
 * the Python path's own marshalling) declines, and any failure return MISS: the caller
 * then takes the Python path, which raises what it raises.  The table is touched only with
 * the GIL held; an entry is in use (users) while its operator executes without the GIL,
 * and is never released then (dmlref_execute may run on several threads at once).
 */
#define CACHE_SIZE 256
#define CACHE_WAYS 8
#define KEY_MAX 1024
#define FAST_MAX_TENSORS 64

typedef struct cache_entry {
    uint64_t hash, last_used;
    uint64_t *key;
    size_t key_len;
    dmlref_operator *op;
    PyObject *out_shapes; /* tuple of shape tuples (out= not given), or NULL */
    PyObject *out_dtype;  /* numpy dtype of the outputs, or NULL */
    int array_out;        /* the outputs form a list (SPLIT) */
    uint32_t users;
} cache_entry;

static cache_entry cache[CACHE_SIZE];
static uint64_t cache_clock, cache_hits, cache_misses;
static PyObject *fast_miss, *fast_ndarray, *fast_empty, *fast_levels, *fast_plan;

static void entry_clear(cache_entry *e) {
    if (e->op) dmlref_release(e->op);
    free(e->key);
    Py_CLEAR(e->out_shapes);
    Py_CLEAR(e->out_dtype);
    memset(e, 0, sizeof *e);
}

typedef struct key_buf {
    uint64_t w[KEY_MAX];
    size_t n;
    int full;
} key_buf;

static void key_add(key_buf *k, uint64_t v) {
    if (k->n < KEY_MAX) k->w[k->n++] = v;
    else k->full = 1;
}

/* The DirectML data type of a buffer's format, 0 for any other. */
static int format_code(const char *f, Py_ssize_t itemsize) {
    if (!f) return 0;
    if (*f == '@' || *f == '=') ++f;
#if PY_LITTLE_ENDIAN
    if (*f == '<') ++f;
#else
    if (*f == '>') ++f;
#endif
    if (!f[0] || f[1]) return 0;
    switch (f[0]) {
    case 'e': return itemsize == 2 ? DMLREF_TENSOR_DATA_TYPE_FLOAT16 : 0;
    case 'f': return itemsize == 4 ? DMLREF_TENSOR_DATA_TYPE_FLOAT32 : 0;
    case 'd': return itemsize == 8 ? DMLREF_TENSOR_DATA_TYPE_FLOAT64 : 0;
    case 'b': case 'h': case 'i': case 'l': case 'q':
        return itemsize == 1 ? DMLREF_TENSOR_DATA_TYPE_INT8 : itemsize == 2 ? DMLREF_TENSOR_DATA_TYPE_INT16
             : itemsize == 4 ? DMLREF_TENSOR_DATA_TYPE_INT32 : itemsize == 8 ? DMLREF_TENSOR_DATA_TYPE_INT64 : 0;
    case 'B': case 'H': case 'I': case 'L': case 'Q':
        return itemsize == 1 ? DMLREF_TENSOR_DATA_TYPE_UINT8 : itemsize == 2 ? DMLREF_TENSOR_DATA_TYPE_UINT16
             : itemsize == 4 ? DMLREF_TENSOR_DATA_TYPE_UINT32 : itemsize == 8 ? DMLREF_TENSOR_DATA_TYPE_UINT64 : 0;
    }
    return 0;
}

typedef struct fast_views {
    Py_buffer v[FAST_MAX_TENSORS];
    int n;
} fast_views;

static void views_release(fast_views *fv) {
    for (int i = 0; i < fv->n; ++i) PyBuffer_Release(&fv->v[i]);
    fv->n = 0;
}

/* An array bound as is: its layout into the key, its buffer (size: the span) into *ptr, *size.
 * 0, or -1 when the fast path does not take it (no exception left set). */
static int fast_tensor(PyObject *o, int writable, fast_views *fv, key_buf *k, void **ptr, size_t *size) {
    if (Py_TYPE(o) != (PyTypeObject *)fast_ndarray || fv->n >= FAST_MAX_TENSORS) return -1;
    Py_buffer *b = &fv->v[fv->n];
    if (PyObject_GetBuffer(o, b, writable ? PyBUF_RECORDS : PyBUF_RECORDS_RO) < 0) {
        PyErr_Clear();
        return -1;
    }
    ++fv->n;
    const Py_ssize_t isz = b->itemsize;
    const int code = format_code(b->format, isz);
    if (!code || b->ndim < 1 || b->ndim > 8 || isz <= 0 || ((uintptr_t)b->buf % (uintptr_t)isz) != 0) return -1;
    uint64_t last = 0;
    key_add(k, (uint64_t)code);
    key_add(k, (uint64_t)b->ndim);
    for (int d = 0; d < b->ndim; ++d) {
        const Py_ssize_t n = b->shape[d], st = b->strides[d];
        if (n <= 0 || st < 0 || st % isz || (uint64_t)(st / isz) > UINT32_MAX || (uint64_t)n > UINT32_MAX) return -1;
        last += (uint64_t)(n - 1) * (uint64_t)(st / isz);
        key_add(k, (uint64_t)n);
        key_add(k, (uint64_t)st);
    }
    const uint64_t span = (last + 1) * (uint64_t)isz;
    if (span % 4) return -1; /* TotalTensorSizeInBytes would reach past the span: the Python path decides */
    *ptr = b->buf;
    *size = (size_t)span;
    return 0;
}

/* An int that fits in 64 bits into the key; -1 for anything else. */
static int fast_long(PyObject *v, key_buf *k) {
    if (!PyLong_CheckExact(v)) return -1;
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return -1;
    }
    key_add(k, (uint64_t)x);
    return 0;
}

/* An int (that fits in 64 bits) or a float into the key, tagged by its type (the Python path
 * converts each to the field's type the same way every time); -1 for anything else. */
static int fast_number(PyObject *v, key_buf *k) {
    if (PyFloat_CheckExact(v)) {
        const double d = PyFloat_AS_DOUBLE(v);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        key_add(k, 0xF10A7ull);
        key_add(k, bits);
        return 0;
    }
    key_add(k, 0x1A7ull);
    return fast_long(v, k);
}

/* A parameter's value into the key; -1 when the fast path does not take it.  Each value starts
 * with a word that says its kind and, for a list, its length (None 0xA11CE, a number 0x1A7 or
 * 0xF10A7, a bool, a list of ints or of numbers), so that the key of a whole call cannot be
 * read two ways. */
static int fast_param(const dmlref_param *p, PyObject *v, key_buf *k) {
    if (v == Py_None) {
        key_add(k, 0xA11CEull);
        return 0;
    }
    switch (p->kind) {
    case DMLREF_PARAM_UINT:
    case DMLREF_PARAM_INT:
    case DMLREF_PARAM_ENUM: /* tagged, as every value: None (0xA11CE) and an int of that value differ */
        key_add(k, 0x1A7ull);
        return fast_long(v, k);
    case DMLREF_PARAM_FLOAT: /* tagged too: a double whose bits are 0xA11CE is not None */
        return PyFloat_CheckExact(v) ? fast_number(v, k) : -1;
    case DMLREF_PARAM_UINT_ARRAY:
    case DMLREF_PARAM_INT_ARRAY: {
        if (!PyList_CheckExact(v) && !PyTuple_CheckExact(v)) return -1;
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
        key_add(k, 0x5E0ull << 32 | (uint64_t)n);
        for (Py_ssize_t i = 0; i < n; ++i)
            if (fast_long(PySequence_Fast_GET_ITEM(v, i), k) < 0) return -1;
        return 0;
    }
    case DMLREF_PARAM_BOOL:
        if (v == Py_True || v == Py_False) {
            key_add(k, 0xB0013ull << 8 | (v == Py_True));
            return 0;
        }
        if (!PyLong_CheckExact(v)) return -1;
        {
            const dmlref_param q = {.kind = DMLREF_PARAM_INT};
            return fast_param(&q, v, k);
        }
    case DMLREF_PARAM_SIZE_2D: {
        const dmlref_param q = {.kind = DMLREF_PARAM_UINT_ARRAY};
        return fast_param(&q, v, k);
    }
    case DMLREF_PARAM_SCALAR_UNION: /* the value as given (an int or a float; the Python path encodes it) */
        return fast_number(v, k);
    case DMLREF_PARAM_FLOAT_ARRAY:
    case DMLREF_PARAM_STRUCT: { /* a list or tuple of numbers (a STRUCT of floats: ScaleBias) */
        if (!PyList_CheckExact(v) && !PyTuple_CheckExact(v)) return -1;
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
        key_add(k, 0xF1Aull << 32 | (uint64_t)n);
        for (Py_ssize_t i = 0; i < n; ++i)
            if (fast_number(PySequence_Fast_GET_ITEM(v, i), k) < 0) return -1;
        return 0;
    }
    default:
        return -1;
    }
}

/* An extra argument (SPLIT's sizes, ONE_HOT's depth, the fills' dtype): None, an int, a list
 * of ints, or a str (a dtype's name, its bytes in the key). */
static int fast_extra(PyObject *v, key_buf *k) {
    if (v == Py_None) {
        key_add(k, 0xA11CEull);
        return 0;
    }
    if (PyUnicode_CheckExact(v)) {
        Py_ssize_t n = 0;
        const char *u = PyUnicode_AsUTF8AndSize(v, &n);
        if (!u) {
            PyErr_Clear();
            return -1;
        }
        key_add(k, 0x57Aull << 32 | (uint64_t)n);
        for (Py_ssize_t i = 0; i < n; i += 8) {
            uint64_t w = 0;
            memcpy(&w, u + i, (size_t)(n - i < 8 ? n - i : 8));
            key_add(k, w);
        }
        return 0;
    }
    if (PyLong_CheckExact(v)) {
        const dmlref_param p = {.kind = DMLREF_PARAM_INT};
        return fast_param(&p, v, k);
    }
    if (PyList_CheckExact(v) || PyTuple_CheckExact(v)) {
        const dmlref_param p = {.kind = DMLREF_PARAM_INT_ARRAY};
        return fast_param(&p, v, k);
    }
    return -1;
}

static uint64_t key_hash(const key_buf *k) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < k->n; ++i) {
        h ^= k->w[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

static cache_entry *cache_find(const key_buf *k, uint64_t h) {
    for (int i = 0; i < CACHE_WAYS; ++i) {
        cache_entry *e = &cache[(h + (uint64_t)i) % CACHE_SIZE];
        if (e->op && e->hash == h && e->key_len == k->n && memcmp(e->key, k->w, k->n * sizeof *k->w) == 0) return e;
    }
    return NULL;
}

/* A free entry for hash h: an empty one, else the least recently used one not in use. */
static cache_entry *cache_slot(uint64_t h) {
    cache_entry *best = NULL;
    for (int i = 0; i < CACHE_WAYS; ++i) {
        cache_entry *e = &cache[(h + (uint64_t)i) % CACHE_SIZE];
        if (!e->op) return e;
        if (!e->users && (!best || e->last_used < best->last_used)) best = e;
    }
    if (best) entry_clear(best);
    return best;
}

/* Compiles the key's operator from what the planner returns; NULL (no exception) when it declines. */
static cache_entry *cache_fill(int op_type, const key_buf *k, uint64_t h, PyObject *const *args, unsigned fl,
                               unsigned flags, uint32_t threads) {
    PyObject *plan = PyObject_Vectorcall(fast_plan, args, 9, NULL);
    if (!plan) {
        PyErr_Clear();
        return NULL;
    }
    cache_entry *e = NULL;
    PyObject *tensors, *params, *shapes, *dtype;
    int array_out;
    if (plan == Py_None || !PyTuple_Check(plan) ||
        !PyArg_ParseTuple(plan, "O!O!OOp", &PyList_Type, &tensors, &PyList_Type, &params, &shapes, &dtype, &array_out)) {
        PyErr_Clear();
        Py_DECREF(plan);
        return NULL;
    }
    const dmlref_schema *s = call_schema(op_type, tensors);
    arena a = {NULL, 0, 0};
    uint32_t n_in = 0, n_out = 0;
    unsigned char *desc = s ? build_desc(s, tensors, params, 0, &a, &n_in, &n_out) : NULL;
    dmlref_operator *op = NULL;
    if (desc) {
        const DMLREF_OPERATOR_DESC od = {(DMLREF_OPERATOR_TYPE)op_type, desc};
        const dmlref_options opt = {.flags = flags, .threads = threads};
        if (dmlref_compile(&od, (DMLREF_FEATURE_LEVEL)fl, &opt, &op, NULL) != DMLREF_OK) op = NULL;
    }
    arena_free(&a);
    PyErr_Clear();
    uint64_t *key = op ? malloc(k->n * sizeof *key) : NULL;
    if (op && key) e = cache_slot(h);
    if (!e) {
        if (op) dmlref_release(op);
        free(key);
        Py_DECREF(plan);
        return NULL;
    }
    memcpy(key, k->w, k->n * sizeof *key);
    e->hash = h;
    e->key = key;
    e->key_len = k->n;
    e->op = op;
    e->array_out = array_out;
    if (shapes != Py_None) {
        Py_INCREF(shapes);
        e->out_shapes = shapes;
        Py_INCREF(dtype);
        e->out_dtype = dtype;
    }
    Py_DECREF(plan);
    return e;
}

static PyObject *core_fast(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 9 || !fast_plan) {
        PyErr_SetString(PyExc_TypeError, "fast() takes 9 arguments (after setup_fast)");
        return NULL;
    }
    PyObject *inputs = args[1], *params = args[2], *extras = args[3], *out = args[4], *level = args[5];
    const int op_type = (int)PyLong_AsLong(args[0]);
    if (op_type == -1 && PyErr_Occurred()) return NULL;
    if (!PyTuple_CheckExact(inputs) || !PyTuple_CheckExact(params)) goto miss_now;
    if ((args[6] != Py_True && args[6] != Py_False) || (args[8] != Py_True && args[8] != Py_False) ||
        !PyLong_CheckExact(args[7]))
        goto miss_now;
    int overflow = 0;
    const long long threads_ll = PyLong_AsLongLongAndOverflow(args[7], &overflow);
    if (overflow || threads_ll < 0 || threads_ll > UINT32_MAX) {
        PyErr_Clear();
        goto miss_now;
    }
    unsigned fl = DMLREF_FEATURE_LEVEL_LATEST;
    if (level != Py_None) {
        PyObject *v = PyUnicode_CheckExact(level) ? PyDict_GetItemWithError(fast_levels, level) : NULL;
        if (!v) {
            PyErr_Clear();
            goto miss_now;
        }
        fl = (unsigned)PyLong_AsUnsignedLong(v);
    }
    const unsigned flags = (args[6] == Py_True ? DMLREF_OPTION_CHECK_INDICES : 0) |
                           (args[8] == Py_True ? DMLREF_OPTION_FORCE_ORACLE : 0);
    const dmlref_schema *s = dmlref_operator_schema((DMLREF_OPERATOR_TYPE)op_type);
    if (!s) goto miss_now;

    key_buf *k = PyMem_Malloc(sizeof *k);
    fast_views *fv = PyMem_Malloc(sizeof *fv);
    dmlref_cbuffer ins[FAST_MAX_TENSORS];
    dmlref_buffer outs[FAST_MAX_TENSORS];
    PyObject *results[FAST_MAX_TENSORS];
    cache_entry *held = NULL; /* the entry in use, released on every way out */
    uint32_t n_in = 0, n_out = 0, n_results = 0;
    PyObject *ret = NULL;
    if (!k || !fv) {
        PyMem_Free(k);
        PyMem_Free(fv);
        goto miss_now;
    }
    k->n = 0;
    k->full = 0;
    fv->n = 0;
    key_add(k, (uint64_t)op_type);
    key_add(k, fl);
    key_add(k, flags);
    key_add(k, (uint64_t)threads_ll);
    /* inputs, slot by slot */
    Py_ssize_t ii = 0, n_input_slots = 0;
    for (uint32_t j = 0; j < s->n_slots; ++j) n_input_slots += !s->slots[j].is_output;
    if (PyTuple_GET_SIZE(inputs) != n_input_slots) goto miss;
    for (uint32_t j = 0; j < s->n_slots; ++j) {
        const dmlref_tensor_slot *sl = &s->slots[j];
        if (sl->is_output) continue;
        PyObject *o = PyTuple_GET_ITEM(inputs, ii++);
        if (o == Py_None) {
            if (!sl->is_optional) goto miss;
            key_add(k, 0xA11CEull);
            continue;
        }
        if (sl->is_array) {
            if (!PyList_CheckExact(o) && !PyTuple_CheckExact(o)) goto miss;
            const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
            if (n < 1 || n_in + (uint32_t)n > FAST_MAX_TENSORS) goto miss;
            key_add(k, 0x5E0ull << 32 | (uint64_t)n);
            for (Py_ssize_t i = 0; i < n; ++i) {
                void *p;
                size_t sz;
                if (fast_tensor(PySequence_Fast_GET_ITEM(o, i), 0, fv, k, &p, &sz) < 0) goto miss;
                ins[n_in++] = (dmlref_cbuffer){p, sz};
            }
        } else {
            void *p;
            size_t sz;
            if (n_in >= FAST_MAX_TENSORS || fast_tensor(o, 0, fv, k, &p, &sz) < 0) goto miss;
            ins[n_in++] = (dmlref_cbuffer){p, sz};
        }
    }
    /* parameters, in schema order (counts excluded) */
    Py_ssize_t pi = 0;
    for (uint32_t j = 0; j < s->n_params; ++j) {
        if (s->params[j].is_count) continue;
        if (pi >= PyTuple_GET_SIZE(params) || fast_param(&s->params[j], PyTuple_GET_ITEM(params, pi++), k) < 0) goto miss;
    }
    if (pi != PyTuple_GET_SIZE(params)) goto miss;
    if (extras != Py_None) {
        if (!PyTuple_CheckExact(extras)) goto miss;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(extras); ++i)
            if (fast_extra(PyTuple_GET_ITEM(extras, i), k) < 0) goto miss;
    }
    /* out= */
    if (out == Py_None) {
        key_add(k, 0xA11CEull);
    } else {
        if (PyList_CheckExact(out) || PyTuple_CheckExact(out)) {
            const Py_ssize_t n = PySequence_Fast_GET_SIZE(out);
            if (n < 1 || n > FAST_MAX_TENSORS) goto miss;
            key_add(k, 0x5E0ull << 32 | (uint64_t)n);
            for (Py_ssize_t i = 0; i < n; ++i) {
                void *p;
                size_t sz;
                if (fast_tensor(PySequence_Fast_GET_ITEM(out, i), 1, fv, k, &p, &sz) < 0) goto miss;
                outs[n_out++] = (dmlref_buffer){p, sz};
            }
        } else {
            void *p;
            size_t sz;
            if (fast_tensor(out, 1, fv, k, &p, &sz) < 0) goto miss;
            outs[n_out++] = (dmlref_buffer){p, sz};
        }
    }
    if (k->full) goto miss;
    const uint64_t h = key_hash(k);
    cache_entry *e = cache_find(k, h);
    if (e) {
        ++cache_hits;
    } else {
        ++cache_misses;
        e = cache_fill(op_type, k, h, args, fl, flags, (uint32_t)threads_ll);
        if (!e) goto miss;
    }
    e->last_used = ++cache_clock;
    /* in use from here: numpy.empty may run Python code (a finalizer) that lets another
     * thread evict entries, and the operator executes without the GIL */
    ++e->users;
    held = e;
    if (out == Py_None) {
        if (!e->out_shapes) goto miss;
        const Py_ssize_t n = PyTuple_GET_SIZE(e->out_shapes);
        if (n > FAST_MAX_TENSORS) goto miss;
        for (Py_ssize_t i = 0; i < n; ++i) {
            PyObject *call_args[2] = {PyTuple_GET_ITEM(e->out_shapes, i), e->out_dtype};
            PyObject *arr = PyObject_Vectorcall(fast_empty, call_args, 2, NULL);
            if (!arr) goto fail;
            results[n_results++] = arr;
            void *p;
            size_t sz;
            if (fast_tensor(arr, 1, fv, k, &p, &sz) < 0) goto miss;
            outs[n_out++] = (dmlref_buffer){p, sz};
        }
    }
    if (n_in != dmlref_input_count(e->op) || n_out != dmlref_output_count(e->op)) goto miss;
    {
        dmlref_status st;
        const dmlref_operator *op = e->op;
        Py_BEGIN_ALLOW_THREADS
        st = dmlref_execute(op, ins, n_in, outs, n_out, NULL);
        Py_END_ALLOW_THREADS
        if (st != DMLREF_OK) goto miss; /* the Python path reports it */
    }
    --held->users;
    held = NULL;
    views_release(fv);
    if (out != Py_None) {
        if (e->array_out) ret = PySequence_List(out);
        else {
            Py_INCREF(out);
            ret = out;
        }
    } else if (e->array_out) {
        ret = PyList_New((Py_ssize_t)n_results);
        for (uint32_t i = 0; ret && i < n_results; ++i) {
            PyList_SET_ITEM(ret, i, results[i]);
            results[i] = NULL;
        }
    } else if (n_results == 1) {
        ret = results[0];
        results[0] = NULL;
    }
    for (uint32_t i = 0; i < n_results; ++i) Py_XDECREF(results[i]);
    PyMem_Free(k);
    PyMem_Free(fv);
    if (!ret && !PyErr_Occurred()) goto miss_now;
    return ret;
miss:
    if (held) --held->users;
    views_release(fv);
    for (uint32_t i = 0; i < n_results; ++i) Py_XDECREF(results[i]);
    PyMem_Free(k);
    PyMem_Free(fv);
    PyErr_Clear();
miss_now:
    Py_INCREF(fast_miss);
    return fast_miss;
fail:
    if (held) --held->users;
    views_release(fv);
    for (uint32_t i = 0; i < n_results; ++i) Py_XDECREF(results[i]);
    PyMem_Free(k);
    PyMem_Free(fv);
    return NULL;
}

/*
 * framework(case JSON text, base directory): the case's framework form as the command's
 * `export` writes it in manifest.json (cli/framework.c, compiled into this extension), as
 * JSON text ("null" for an operator without one); or (status, message) when the case does
 * not parse (case_parse's CASE_* status).
 */
static PyObject *core_framework(PyObject *self, PyObject *args) {
    (void)self;
    const char *text, *base;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "s#s", &text, &len, &base)) return NULL;
    dmlref_case c;
    memset(&c, 0, sizeof c);
    char err[1024] = "";
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = case_parse(text, (size_t)len, base, &c, err, sizeof err);
    Py_END_ALLOW_THREADS
    if (rc) {
        case_free(&c);
        return Py_BuildValue("(is)", rc, err);
    }
    PyObject *result = NULL;
    char *buf = NULL;
    size_t n = 0;
    fw_form form;
    memset(&form, 0, sizeof form);
    form.in = calloc(c.n_inputs + 1, sizeof *form.in);
    form.out = calloc(c.n_outputs + 1, sizeof *form.out);
    FILE *f = form.in && form.out ? open_memstream(&buf, &n) : NULL;
    if (f) {
        if (framework_form(&c, &form) == 0) framework_write(f, &c, &form, 0);
        else fputs("null", f);
        if (fclose(f) == 0 && buf) result = PyUnicode_FromStringAndSize(buf, (Py_ssize_t)n);
        else PyErr_NoMemory();
    } else {
        PyErr_NoMemory();
    }
    free(buf);
    free(form.in);
    free(form.out);
    case_free(&c);
    return result;
}

/* setup_fast(miss sentinel, numpy.ndarray, numpy.empty, {level name: value}, planner) */
static PyObject *core_setup_fast(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *miss, *nd, *empty, *levels, *plan;
    if (!PyArg_ParseTuple(args, "OOOO!O", &miss, &nd, &empty, &PyDict_Type, &levels, &plan)) return NULL;
    if (!PyType_Check(nd)) {
        PyErr_SetString(PyExc_TypeError, "setup_fast: numpy.ndarray expected");
        return NULL;
    }
    Py_INCREF(miss);
    Py_INCREF(nd);
    Py_INCREF(empty);
    Py_INCREF(levels);
    Py_INCREF(plan);
    Py_XSETREF(fast_miss, miss);
    Py_XSETREF(fast_ndarray, nd);
    Py_XSETREF(fast_empty, empty);
    Py_XSETREF(fast_levels, levels);
    Py_XSETREF(fast_plan, plan);
    Py_RETURN_NONE;
}

/* cache_info(): (hits, misses, entries, capacity). */
static PyObject *core_cache_info(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    unsigned long long used = 0;
    for (int i = 0; i < CACHE_SIZE; ++i) used += cache[i].op != NULL;
    return Py_BuildValue("(KKKi)", (unsigned long long)cache_hits, (unsigned long long)cache_misses, used, CACHE_SIZE);
}

/* cache_clear(): releases every compiled operator not in use; counters reset. */
static PyObject *core_cache_clear(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    for (int i = 0; i < CACHE_SIZE; ++i)
        if (cache[i].op && !cache[i].users) entry_clear(&cache[i]);
    cache_hits = cache_misses = 0;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"version", core_version, METH_NOARGS, "dmlref_version(): the library's version string."},
    {"schemas", core_schemas, METH_NOARGS, "The public operator schemas, in registry order."},
    {"feature_levels", core_feature_levels, METH_NOARGS, "[(name, value)] of the known feature levels."},
    {"data_types", core_data_types, METH_NOARGS, "[(code, name, element size)] of the data types."},
    {"calc_buffer_tensor_size", core_calc_size, METH_VARARGS, "dmlref_calc_buffer_tensor_size(dtype, sizes, strides)."},
    {"run", core_run, METH_VARARGS, "Builds a descriptor from the schema; validates, or runs it on buffers."},
    {"output_sizes", core_output_sizes, METH_VARARGS, "dmlref_output_sizes on the descriptor run would build."},
    {"fast", (PyCFunction)(void (*)(void))core_fast, METH_FASTCALL, "The cached compiled-operator path, or MISS."},
    {"setup_fast", core_setup_fast, METH_VARARGS, "setup_fast(miss, ndarray, empty, levels, plan)."},
    {"framework", core_framework, METH_VARARGS, "framework(case text, base dir): export's framework form (JSON)."},
    {"cache_info", core_cache_info, METH_NOARGS, "(hits, misses, entries, capacity) of the compiled-operator cache."},
    {"cache_clear", core_cache_clear, METH_NOARGS, "Releases the cached compiled operators."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "dmlref._core", "dmlref's C library (linked statically).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "OPTION_CHECK_INDICES", DMLREF_OPTION_CHECK_INDICES) < 0 ||
        PyModule_AddIntConstant(m, "OPTION_FORCE_ORACLE", DMLREF_OPTION_FORCE_ORACLE) < 0 ||
        PyModule_AddIntConstant(m, "FEATURE_LEVEL_LATEST", DMLREF_FEATURE_LEVEL_LATEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
