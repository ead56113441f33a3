/*
 * NumPy .npy files (format versions 1.0, 2.0, 3.0), little-endian numeric
 * dtypes only: '<f2' '<f4' '<f8' '<i2' '<i4' '<i8' '<u2' '<u4' '<u8' and
 * '|i1' '|u1' (any byte-order mark is accepted for the 1-byte types).
 * Refused, with a message: big-endian data, fortran_order True, structured,
 * object, boolean, complex, string and datetime dtypes, truncated files.
 */
#ifndef DMLREF_CLI_NPY_H
#define DMLREF_CLI_NPY_H

#include "dmlref.h"

#include <stddef.h>
#include <stdint.h>

#define NPY_MAX_DIMS 64

typedef struct npy_array {
    DMLREF_TENSOR_DATA_TYPE dtype;
    uint32_t esize;
    uint32_t ndim;
    uint64_t shape[NPY_MAX_DIMS];
    uint64_t count;      /* product of shape (1 for shape ())       */
    const void *data;    /* points into the parsed bytes             */
    size_t data_bytes;   /* count * esize                            */
    int version;         /* 1, 2 or 3                                */
} npy_array;

/* Parses a whole .npy file held in memory.  0, or -1 with a message. */
int npy_parse(const void *bytes, size_t len, npy_array *out, char *err, size_t errcap);

/*
 * Writes a version 1.0 .npy with a 1-D shape (count,) to path, through a
 * temporary file in the same directory that is rename()d into place, so the
 * file appears whole or not at all.  0, or -1 with a message.
 */
int npy_write_file(const char *path, DMLREF_TENSOR_DATA_TYPE dt, const void *data, uint64_t count, char *err,
                   size_t errcap);

/* The descr string for a data type ("<f4"), or NULL. */
const char *npy_descr(DMLREF_TENSOR_DATA_TYPE dt);

#endif
