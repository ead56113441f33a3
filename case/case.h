/*
 * The case model: one operator's desc, its tensors and buffers, and the expected
 * outputs -- what a case file (docs/case-format.md) holds.  The reader
 * (case_parse) fills one from JSON text, the builders (builders/) draw one, and
 * case_write writes one as a case file.  Reading works on bytes in memory so a
 * fuzzer can drive it; only `npy` references open files, and only when a base
 * directory is given.
 */
#ifndef DMLREF_CLI_CASE_H
#define DMLREF_CLI_CASE_H

#include "dmlref.h"
#include "fields.h"
#include "status.h" /* the exit statuses, CASE_OK ... CASE_OUT_OF_MEMORY */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Default cap on the bytes of all buffers of one case together. */
#define CASE_DEFAULT_MAX_BYTES (UINT64_C(4) << 30)

typedef struct case_tensor {
    char name[40];                   /* "InputTensors[2]"                        */
    const char *slot;                /* the desc's field: "InputTensors"         */
    int32_t index;                   /* in an array slot, else -1                */
    int is_output;
    DMLREF_BUFFER_TENSOR_DESC buf;   /* what the library sees                    */
    uint32_t *sizes, *strides;       /* owned; strides NULL when not given (a
                                        builder keeps the strides it computed here
                                        even then: buf.Strides says what is given) */
    int total_given;                 /* TotalTensorSizeInBytes was in the file   */
    int whole;                       /* data: the whole buffer's slots, not only
                                        the slots its elements span              */
    int nested;                      /* data: nested lists in the tensor's shape */
    uint32_t esize;
    uint64_t span_slots;             /* IndexOfLastElement + 1                   */
    uint64_t total_slots;            /* TotalTensorSizeInBytes / element size    */
    unsigned char *data;             /* TotalTensorSizeInBytes bytes (owned)     */
    size_t bytes;
    /* outputs: the `expected` list, if any */
    int has_expected;
    uint64_t expected_slots;         /* total_slots or span_slots                */
    unsigned char *expected;         /* expected_slots elements                  */
    unsigned char *any_nan;          /* per slot: written as "nan"               */
    /* outputs: the `actual` list (another backend's output, compared with dmlref's), if any */
    int has_actual;
    uint64_t actual_slots;
    unsigned char *actual;
    unsigned char *actual_nan;
    /* outputs: DirectML defines only the first `defined` elements (row-major logical
     * order) after an execution; undefined[slot] is 1 at the slots of the others, which
     * no comparison looks at (NULL: every element defined, `defined` unset).  Set by
     * case_mark_defined from dmlref_defined_elements: NONZERO_COORDINATES' rows past
     * the count. */
    uint64_t defined;
    unsigned char *undefined;
    uint32_t moved_times;            /* its weight in case_bytes_moved           */
    char *npy_path;                  /* the .npy file its data came from, as opened
                                        (owned); NULL for any other source       */
} case_tensor;

typedef struct dmlref_case {
    DMLREF_OPERATOR_TYPE type;
    const char *op_name;             /* "GATHER", ...                            */
    const dmlref_schema *schema;      /* the operator's fields                    */
    DMLREF_FEATURE_LEVEL feature_level;
    uint32_t n_inputs, n_outputs;    /* binding order of dmlref_execute          */
    case_tensor *inputs, *outputs;
    DMLREF_TENSOR_DESC *in_descs, *out_descs; /* contiguous, parallel to the above */
    void *desc_mem;                  /* the DMLREF_*_OPERATOR_DESC: schema->desc_size bytes */
    fields_store store;              /* its arrays and structs                   */
    DMLREF_OPERATOR_DESC desc;
    dmlref_cbuffer *in_bufs;         /* n_inputs                                 */
    dmlref_buffer *out_bufs;         /* n_outputs                                */
    int has_expected;                /* any output has `expected` or `actual`    */
} dmlref_case;

typedef struct case_options {
    const char *base_dir;            /* where `npy` paths are relative to; NULL: refuse npy */
    uint32_t feature_level;          /* overrides the file's feature_level when != 0 */
    uint64_t max_bytes;              /* cap on all buffers together; 0 = CASE_DEFAULT_MAX_BYTES */
    const dmlref_schema *schema;     /* tests: a case whose "operator" is this schema's name is
                                        read against it (then validated by the library); NULL: none */
    dmlref_error *verdict;           /* when not NULL: the library's error (status, rule, field,
                                        message) of a descriptor that does not validate */
    /* when not NULL: allocates each tensor's buffer (`bytes` bytes at a multiple of `align`, a
     * power of two), released with free(); the bench program's large, huge-page buffers */
    void *(*alloc)(size_t bytes, size_t align, void *user);
    void *alloc_user;
} case_options;

/*
 * Parses a case from json_text[0..len): structure, descriptor (validated with
 * dmlref_validate at the case's feature level), buffers (inputs filled,
 * outputs 0xCD unless given data) and `expected`.  Returns CASE_OK,
 * CASE_INVALID (the library's message in err), CASE_MALFORMED (the JSON
 * path and the problem in err), CASE_CANNOT_VERIFY, CASE_HOST_LIMIT or
 * CASE_OUT_OF_MEMORY (an allocation failed, here or in dmlref_validate: no
 * verdict, err says "out of memory").  On failure *out holds nothing to free
 * (case_free is harmless).  The order of checks: JSON structure and keys,
 * then the descriptor, then data.
 */
int case_parse(const char *json_text, size_t len, const char *base_dir, dmlref_case *out, char *err,
               size_t errcap);
int case_parse_ex(const char *json_text, size_t len, const case_options *opts, dmlref_case *out, char *err,
                  size_t errcap);

void case_free(dmlref_case *c);

/*
 * Bytes moved, as `dmlref bench` and the bench program count them: the sum over
 * the tensors of elements x element size x weight, the weights the case's
 * `bytes_moved` gives, else 2 for every output and 1 for every index input
 * (2 x output bytes + index bytes, docs/performance.md).
 */
uint64_t case_bytes_moved(const dmlref_case *c);

/* Reads a whole file (at most max_bytes).  0, or -1 with a message, or CASE_OUT_OF_MEMORY with
 * one ("PATH: out of memory reading the file"). */
int case_read_file(const char *path, size_t max_bytes, char **text, size_t *len, char *err, size_t errcap);

/*
 * Compares every output that has `expected`, byte for byte (a slot written
 * "nan" matches any NaN), and every output that has `actual` (another
 * backend's output: "OutputTensor[3]: dmlref gives 10, actual 42").  Reports
 * up to `max_report` differences per output to `report` (may be NULL).
 * Returns the number of differing slots.
 */
uint64_t case_compare(const dmlref_case *c, FILE *report, unsigned max_report);

/*
 * Records that only the first `defined` elements of output t (row-major logical
 * order) are defined (dmlref_defined_elements): t->undefined marks the slots of the
 * others, which case_compare skips; nothing when defined covers every element.
 * CASE_OK or CASE_OUT_OF_MEMORY.
 */
int case_mark_defined(case_tensor *t, uint64_t defined);

/*
 * Writes c as a case file (case_write.c): `{`, "name" and "comment" (each left out
 * when NULL), "operator", "feature_level"; then -- after any members the caller
 * writes between the two calls, each as `  "key": value,\n` -- the parameters
 * (fields_write_params), the tensors slot by slot (inputs with "data": the whole
 * buffer or the span, flat or nested as each tensor says; outputs without), and
 * "expected" (the outputs that have it), then `}`.
 */
void case_write_begin(FILE *f, const dmlref_case *c, const char *name, const char *comment);
void case_write_end(FILE *f, const dmlref_case *c);

/* Writes the outputs as JSON (whole buffers). */
void case_print_outputs(const dmlref_case *c, FILE *f);

/* The DMLREF_FEATURE_LEVEL for "4_1", or 0. */
uint32_t case_feature_level_from_name(const char *name);

/* The operator type for "GATHER", ... (every operator of the schema list, and
 * SCATTER_ELEMENTS for SCATTER when it is built), or 0. */
DMLREF_OPERATOR_TYPE case_operator_from_name(const char *name);

/* The operators' names as the command's messages list them: "GATHER, GATHER_ELEMENTS, ...". */
const char *case_operator_names(char *buf, size_t cap);

#endif
