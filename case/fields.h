/*
 * An operator descriptor's parameter fields in case files, generic over the
 * library's schema (dmlref_schema): reading them from a case's top-level JSON
 * object into a desc buffer, and writing them back.  The rules are those of
 * case-format.md, "Operators with array, enum, float and union fields" (and
 * docs/cli.md, "Fields of a case file"):
 *
 *   UINT, INT        a JSON integer in the field's range
 *   UINT_ARRAY,      a JSON array of such integers; its count field may be
 *   INT_ARRAY        given and must then equal the length (arrays that share
 *                    a count field must have equal lengths)
 *   ENUM             the enumerator's name without its type prefix; numbers
 *                    are refused
 *   FLOAT            a JSON number rounded to the nearest FLOAT32 (beyond its
 *                    finite range: refused), "nan", "inf", "-inf" or "0x..."
 *                    (8 hex digits)
 *   SCALAR_UNION     an element of the type its DataType field names, as a
 *                    tensor element is written; stored from byte 0, rest zero
 *   STRUCT           absent or null for NULL (when optional), else an object
 *                    of its float fields, each as FLOAT
 *   FLOAT_ARRAY      a JSON array of FLOAT values (each as FLOAT); its count
 *                    field as for UINT_ARRAY
 *   SIZE_2D          {"Width": w, "Height": h}, both keys required, UINT each
 *   BOOL             true or false (numbers refused)
 *
 * Count fields (is_count) are derived from arrays: tensor arrays are the case
 * reader's (case.c), parameter arrays these functions'.
 */
#ifndef DMLREF_CLI_FIELDS_H
#define DMLREF_CLI_FIELDS_H

#include "descbuf.h"
#include "dmlref.h"
#include "json.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The memory the reader allocated for a desc's arrays and structs. */
typedef struct fields_store {
    void **blocks;
    size_t n, cap;
} fields_store;

void fields_store_free(fields_store *st);
/* A zeroed block of `bytes` kept in st (freed with it); NULL when out of memory. */
void *fields_store_alloc(fields_store *st, size_t bytes);

/*
 * Reads every parameter of s except the counts of tensor arrays from the
 * object root into desc (desc_size bytes, zeroed), allocating arrays and
 * structs in st.  Parameters are read in schema order (unions last, after
 * the DataType fields they depend on).  Returns 0, or -1 with a message
 * naming the field in err ("missing \"Axis\" (a field of GATHER)",
 * "PaddingMode: unknown value \"X\" (CONSTANT, EDGE, ...)"), or CASE_OUT_OF_MEMORY (status.h)
 * with "NAME: out of memory" when an array or struct cannot be allocated.
 */
int fields_read_params(const dmlref_schema *s, const jv *root, void *desc, fields_store *st, char *err,
                       size_t errcap);

/*
 * Writes the parameters of desc as top-level members, each as
 * `<indent>"Name": value,\n`: the fields in schema order, then the count
 * fields (an optional struct that is NULL is left out).
 */
void fields_write_params(FILE *f, const dmlref_schema *s, const void *desc, unsigned indent);

/* The same parameters as one JSON object on one line, {"Axis": 0, "IndexDimensions": 1};
 * value_flags are value_format_ex's (VALUE_INT64_STRINGS for scalar unions). */
void fields_write_params_object(FILE *f, const dmlref_schema *s, const void *desc, unsigned value_flags);

/* The formatted message into err[0..errcap); returns -1 (the field readers' failure). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int fields_fail(char *err, size_t errcap, const char *fmt, ...);

/* Reads a JSON integer in [lo, hi] (an exact decimal, "-0" for 0).  0, or -1 with a message. */
int fields_get_int(const jv *v, const char *path, int64_t lo, int64_t hi, int64_t *out, char *err, size_t errcap);

/* A member whose value is null means what an absent one means (docs/cli.md, "Fields of a case
 * file"): the value of key in object obj, or NULL when it is absent or null. */
const jv *fields_member(const jv *obj, const char *key);

/* The same rule for a member's value met while walking an object: v, or NULL for a null. */
const jv *fields_given(const jv *v);

#endif
