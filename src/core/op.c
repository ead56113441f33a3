/* The compiled operator object: what every operator's compile uses. */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>

dmlref_status op_alloc_tensors(op_t *op, uint32_t n_inputs, uint32_t n_outputs, dmlref_error *err) {
    /* at least one element each: calloc(0, ...) may return NULL (DIAGONAL_MATRIX has no input) */
    op->inputs = calloc(n_inputs ? n_inputs : 1, sizeof *op->inputs);
    op->outputs = calloc(n_outputs ? n_outputs : 1, sizeof *op->outputs);
    if (!op->inputs || !op->outputs)
        return set_error(err, DMLREF_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for %" PRIu32 " input and %" PRIu32 " output tensor descriptions",
                         op->name, n_inputs, n_outputs);
    op->n_inputs = n_inputs;
    op->n_outputs = n_outputs;
    return DMLREF_OK;
}
