/*
 * The case reader's internals (case/case_read.c, case_list.c, case_data.c): the
 * error context every step reports through, and the steps the reader's files
 * share.  Not part of the case library's interface (case.h).
 */
#ifndef DMLREF_CASE_INTERNAL_H
#define DMLREF_CASE_INTERNAL_H

#include "case.h"
#include "fields.h"
#include "json.h"

#include <stdint.h>

#define PATH_MAX_LEN 160

/* Where a message goes, the options, and the bytes allocated so far against the cap. */
typedef struct case_ctx {
    char *err;
    size_t errcap;
    const case_options *opts;
    uint64_t max_bytes;
    uint64_t bytes; /* allocated so far for buffers */
    int derive;     /* "derive_output_sizes": the outputs' Sizes come from dmlref_output_sizes */
} case_ctx;

/* The message into x->err; returns CASE_MALFORMED. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int case_fail(case_ctx *x, const char *fmt, ...);

/* An allocation failed: the message (it says "out of memory") into x->err; returns
 * CASE_OUT_OF_MEMORY. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int case_oom(case_ctx *x, const char *fmt, ...);

/* A JSON integer in [lo, hi] (an exact decimal, "-0" for 0): 0, or CASE_MALFORMED naming path. */
int case_get_uint(case_ctx *x, const jv *v, const char *path, uint64_t lo, uint64_t hi, uint64_t *out);

/* Keys every object of a case file may hold and the reader skips ("comment", "name", ...). */
int case_ignorable(const char *key);

/*
 * Reads a flat or nested element list for tensor t into *dst (allocated when
 * NULL) and its count into *count; *nan_flags (when not NULL): per slot, written
 * as "nan".  The count is the whole buffer's slots or the slots its elements span.
 */
int case_read_list(case_ctx *x, const jv *a, const case_tensor *t, const char *base, unsigned char **dst,
                   unsigned char **nan_flags, uint64_t *count);

/* Where a tensor's data comes from in the file. */
enum { SRC_NONE, SRC_DATA, SRC_NPY, SRC_RANDOM, SRC_DISTINCT, SRC_POOLED };

typedef struct tensor_src {
    int kind;
    const jv *value;
} tensor_src;

/* t's buffer: span_slots and total_slots, TotalTensorSizeInBytes allocated (against the
 * cap), inputs zero and outputs 0xCD.  0, CASE_MALFORMED (beyond the cap), CASE_HOST_LIMIT
 * or CASE_OUT_OF_MEMORY. */
int case_alloc_buffer(case_ctx *x, case_tensor *t);

/* t's data from its source (data, npy, random, distinct, pooled); nothing for SRC_NONE. */
int case_fill_tensor(case_ctx *x, case_tensor *t, const tensor_src *src);

/* The schema for an operator's name in a case file (SCATTER_ELEMENTS: SCATTER's other name), or NULL. */
const dmlref_schema *case_schema_from_name(const char *name);

#endif
