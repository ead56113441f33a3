/* Writing JSON text (the command's outputs and `gen`'s case files). */
#ifndef DMLREF_CLI_JSON_OUT_H
#define DMLREF_CLI_JSON_OUT_H

#include "dmlref.h"

#include <stdint.h>
#include <stdio.h>

/* A JSON string with its quotes, escaped: \" \\ \n \t \r, \u00xx for the other control
 * characters, every other byte as it is. */
void jout_string(FILE *f, const char *s);

/* The same with \b and \f for U+0008 and U+000C (the form of `validate --json`'s verdict). */
void jout_string_short(FILE *f, const char *s);

/* [a, b, c] */
void jout_u32_list(FILE *f, const uint32_t *v, uint32_t n);

/*
 * count elements of type dt at data as a flat JSON array, each element as
 * value_format() writes it.  Breaks the line every `per_line` values
 * (0 = never), indenting continuation lines by `indent` spaces.
 */
void jout_values(FILE *f, const void *data, uint64_t count, DMLREF_TENSOR_DATA_TYPE dt, unsigned per_line,
                 unsigned indent);

/* jout_values with value_format_ex's flags (VALUE_INT64_STRINGS). */
void jout_values_ex(FILE *f, const void *data, uint64_t count, DMLREF_TENSOR_DATA_TYPE dt, unsigned flags,
                    unsigned per_line, unsigned indent);

/*
 * The elements at data (row-major over sizes[0..ndim)) as nested JSON arrays in
 * that shape, the innermost ones as jout_values_ex writes them (a line break every
 * 16 values); continuation lines are indented by `indent` spaces plus the depth.
 */
void jout_nested(FILE *f, const void *data, const uint32_t *sizes, uint32_t ndim, DMLREF_TENSOR_DATA_TYPE dt,
                 unsigned flags, unsigned indent);

#endif
