/*
 * Element values as JSON text, for every data type (the conventions of
 * docs/case-format.md): numbers in the DataType's range, FLOAT16/FLOAT32 rounded
 * to nearest-even from the decimal text, "nan" / "inf" / "-inf", and "0x..."
 * exact bit patterns of the element's width.
 */
#ifndef DMLREF_CLI_VALUE_H
#define DMLREF_CLI_VALUE_H

#include "dmlref.h"

#include <stddef.h>
#include <stdint.h>

/* Longest text value_format writes, with its NUL. */
#define VALUE_TEXT_MAX 32

/*
 * A JSON number's text (exactly as written in the file) to the element's
 * bytes (host order) at out.  Returns 0, or -1 with a reason in why.
 */
int value_from_number(const char *text, DMLREF_TENSOR_DATA_TYPE dt, void *out, char *why, size_t whycap);

/*
 * A JSON string ("nan", "inf", "-inf", "0x<hex>" of exactly 2*size digits)
 * to the element's bytes.  *is_nan_word is set when the text is "nan".
 */
int value_from_string(const char *text, DMLREF_TENSOR_DATA_TYPE dt, void *out, int *is_nan_word, char *why,
                      size_t whycap);

/*
 * The element at p as JSON text: a number that reads back to the same bits
 * (shortest such decimal for floats), "inf"/"-inf", "nan" for the canonical
 * quiet NaN, "0x..." for any other NaN.  Strings come with their quotes.
 * Returns buf.
 */
const char *value_format(const void *p, DMLREF_TENSOR_DATA_TYPE dt, char *buf, size_t cap);

/* value_format's flags. */
enum {
    /* INT64 and UINT64 elements as their "0x..." bit pattern (16 hex digits, two's complement for
     * INT64), a form every case file accepts: JavaScript's JSON.parse reads it without rounding
     * (BigInt(s), BigInt.asIntN(64, BigInt(s)) for INT64), where a number beyond 2^53 is rounded */
    VALUE_INT64_STRINGS = 1
};

/* value_format with flags (VALUE_*). */
const char *value_format_ex(const void *p, DMLREF_TENSOR_DATA_TYPE dt, unsigned flags, char *buf, size_t cap);

/*
 * The element of `size` bytes (1, 2, 4 or 8) at p, in host byte order, as an
 * integer of its width (zero-extended): the same number on every host.
 */
uint64_t value_load_bits(const void *p, uint32_t size);
/* Stores the low `size` bytes' worth of bits at out as an integer of that width, in host order. */
void value_store_bits(void *out, uint32_t size, uint64_t bits);

/* 1 for FLOAT16/32/64. */
int value_is_float(DMLREF_TENSOR_DATA_TYPE dt);
/* 1 when the element at p is a NaN (floats only). */
int value_is_nan(const void *p, DMLREF_TENSOR_DATA_TYPE dt);

/* "FLOAT32" -> type; 0 (UNKNOWN) when unknown.  Accepts the 11 types plus UINT4/INT4. */
DMLREF_TENSOR_DATA_TYPE value_type_from_name(const char *name);

#endif
