/* The outputs of a run as JSON: whole buffers (case_print_outputs, case.h) or logical views. */
#ifndef DMLREF_CLI_PRINT_H
#define DMLREF_CLI_PRINT_H

#include "case/case.h"

#include <stdio.h>

/* case_print_outputs_ex's flags, beside value_format_ex's (VALUE_INT64_STRINGS). */
enum {
    /* each output as a packed tensor of its logical shape: DataType, Sizes and `data` nested in
     * the shape, only the addressed elements (row-major over Sizes); no Strides or
     * TotalTensorSizeInBytes */
    PRINT_LOGICAL = 0x100
};

/* The outputs as JSON on f, as flags say.  0, or -1 when out of memory (nothing printed). */
int case_print_outputs_ex(const dmlref_case *c, FILE *f, unsigned flags);

#endif
