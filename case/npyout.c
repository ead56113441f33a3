/* A case's tensors as .npy files (npyout.h). */
#include "npyout.h"

#include "logical.h"
#include "npy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *npyout_base(const case_tensor *t, char *buf, size_t cap) {
    if (t->index >= 0) snprintf(buf, cap, "%.40s_%u", t->slot, (unsigned)t->index);
    else snprintf(buf, cap, "%.40s", t->slot);
    return buf;
}

char *npyout_path(const char *dir, const case_tensor *t, const char *suffix) {
    char base[64];
    const size_t n = strlen(dir) + strlen(suffix) + sizeof base + 8;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s%s.npy", dir, npyout_base(t, base, sizeof base), suffix);
    return p;
}

static int out_of_memory(const char *dir, char *err, size_t errcap) {
    snprintf(err, errcap, "%s: out of memory", dir);
    return CASE_OUT_OF_MEMORY;
}

int npyout_buffer(const char *dir, const case_tensor *t, const unsigned char *data, uint64_t slots, char *err,
                  size_t errcap) {
    char *path = npyout_path(dir, t, "");
    if (!path) return out_of_memory(dir, err, errcap);
    const int rc = npy_write_file(path, t->buf.DataType, data, slots, err, errcap);
    free(path);
    return rc;
}

int npyout_logical(const char *dir, const case_tensor *t, const unsigned char *buf, char *err, size_t errcap) {
    uint64_t shape[NPY_MAX_DIMS];
    char *path = npyout_path(dir, t, ".logical");
    unsigned char *view = logical_gather_alloc(t, buf);
    int rc;
    if (path && view) {
        logical_shape(t, shape);
        rc = npy_write_file_shaped(path, t->buf.DataType, view, t->buf.DimensionCount, shape, err, errcap);
    } else {
        rc = out_of_memory(dir, err, errcap);
    }
    free(view);
    free(path);
    return rc;
}

int npyout_slots(const char *dir, const case_tensor *t, char *err, size_t errcap) {
    uint64_t shape[NPY_MAX_DIMS];
    const uint64_t n = logical_count(t);
    char *path = npyout_path(dir, t, ".slots");
    uint64_t *slots = n <= SIZE_MAX / sizeof *slots ? malloc(n ? (size_t)n * sizeof *slots : 1) : NULL;
    int rc;
    if (path && slots) {
        logical_slots(t, slots);
        logical_shape(t, shape);
        rc = npy_write_file_shaped(path, DMLREF_TENSOR_DATA_TYPE_UINT64, slots, t->buf.DimensionCount, shape, err,
                                   errcap);
    } else {
        rc = out_of_memory(dir, err, errcap);
    }
    free(slots);
    free(path);
    return rc;
}
