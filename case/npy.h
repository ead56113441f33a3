/*
 * NumPy .npy files (format versions 1.0, 2.0, 3.0), numeric dtypes of either
 * byte order: '<f2' '>f2' '<f4' '>f4' '<f8' '>f8' '<i2' ... '>u8' and '|i1'
 * '|u1' (any byte-order mark is accepted for the 1-byte types; '=' and '|'
 * are refused for the others: they do not say which order the file holds).
 * Values are converted to host order when copied out (npy_copy_host).
 * Files are always written little-endian ('<', '|' for 1-byte types), the
 * same bytes on every host.  Refused, with a message: fortran_order True,
 * structured, object, boolean, complex, string and datetime dtypes,
 * truncated files.
 */
#ifndef DMLREF_CLI_NPY_H
#define DMLREF_CLI_NPY_H

#include "dmlref.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NPY_MAX_DIMS 64

/* The longest header (the dict text after the magic, version and length) read from a file:
 * numpy's own reader refuses more than 10000 bytes by default, and a header of this format's
 * dtypes and NPY_MAX_DIMS dimensions needs under 2 KiB. */
#define NPY_MAX_HEADER_BYTES 65536

typedef struct npy_array {
    DMLREF_TENSOR_DATA_TYPE dtype;
    uint32_t esize;
    uint32_t ndim;
    uint64_t shape[NPY_MAX_DIMS];
    uint64_t count;      /* product of shape (1 for shape ())       */
    const void *data;    /* points into the parsed bytes (NULL from npy_read_header) */
    size_t data_bytes;   /* count * esize                            */
    size_t data_offset;  /* where the data starts in the file        */
    int version;         /* 1, 2 or 3                                */
    int big_endian;      /* 1 when the file's elements are big-endian ('>', multi-byte types) */
} npy_array;

/* Parses a whole .npy file held in memory.  0, or -1 with a message. */
int npy_parse(const void *bytes, size_t len, npy_array *out, char *err, size_t errcap);

/*
 * Reads the header of the .npy file open as f, positioned at its start: out gets all but
 * data (NULL); f is left at out->data_offset.  Reads only the header's bytes (at most
 * NPY_MAX_HEADER_BYTES + 12), so a huge or endless file costs nothing here: check out's
 * dtype and count before npy_read_data.  0, or -1 with a message (not naming the file), or
 * CASE_OUT_OF_MEMORY (status.h) with one when the header's buffer cannot be allocated.
 */
int npy_read_header(FILE *f, npy_array *out, char *err, size_t errcap);

/*
 * Reads the data that npy_read_header described, exactly a->data_bytes, from f into dst,
 * converted to host byte order, and refuses a file with more bytes than that (a regular
 * file by its size, before reading; anything else by one more byte read).  0, or -1 with
 * a message (not naming the file).
 */
int npy_read_data(FILE *f, const npy_array *a, void *dst, char *err, size_t errcap);

/* Copies the array's data_bytes to dst, each element converted to host byte order. */
void npy_copy_host(const npy_array *a, void *dst);

/*
 * Writes a version 1.0 .npy with a 1-D shape (count,) to path, through a
 * temporary file in the same directory that is rename()d into place, so the
 * file appears whole or not at all.  data holds count elements in host byte
 * order; the file holds them little-endian (the descr's '<'), so it has the
 * same bytes on every host.  0, or -1 with a message, or CASE_OUT_OF_MEMORY (status.h)
 * with one when an allocation failed.
 */
int npy_write_file(const char *path, DMLREF_TENSOR_DATA_TYPE dt, const void *data, uint64_t count, char *err,
                   size_t errcap);

/* npy_write_file with the shape (shape[0], ..., shape[ndim - 1]) (ndim 0: a scalar); data
 * holds the product of shape elements, row-major. */
int npy_write_file_shaped(const char *path, DMLREF_TENSOR_DATA_TYPE dt, const void *data, uint32_t ndim,
                          const uint64_t *shape, char *err, size_t errcap);

/* The descr string for a data type ("<f4"), or NULL. */
const char *npy_descr(DMLREF_TENSOR_DATA_TYPE dt);

/* 1 on a big-endian host (the byte order of buffers; files carry their own). */
int host_big_endian(void);

#endif
