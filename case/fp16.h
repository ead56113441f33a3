/*
 * IEEE 754 binary16 (FLOAT16) conversions for the dmlref command.
 *
 * Data movement never converts element values; these functions exist only to
 * read and write FLOAT16 values as JSON text.  Every conversion is exact or
 * correctly rounded (round to nearest, ties to even).
 */
#ifndef DMLREF_CLI_FP16_H
#define DMLREF_CLI_FP16_H

#include <stdint.h>

/* The exact value of a half (NaN payloads are not preserved: use the bits). */
double fp16_to_double(uint16_t h);

/* Round a double to the nearest half, ties to even.  Overflow gives +-inf. */
uint16_t fp16_from_double(double d);

/*
 * Correctly rounded conversion of a decimal number's text (strtod syntax) to
 * half: the exact decimal value is rounded once, to nearest, ties to even.
 * Returns 0 and sets *out, or -1 when the text is not a complete number.
 * A finite number whose rounding overflows gives +-inf (callers decide).
 */
int fp16_from_decimal(const char *text, uint16_t *out);

#endif
