/* The compiled operator object: what every operator's compile uses. */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>

dmlref_status op_alloc_tensors(op_t *op, uint32_t n_inputs, uint32_t n_outputs, dmlref_error *err) {
    /* at least one element each (DIAGONAL_MATRIX has no input); in the operator itself when
     * they fit, else allocated, the second only when the first succeeded */
#if OP_INLINE_TENSORS
    const uint64_t ni = n_inputs ? n_inputs : 1, no = n_outputs ? n_outputs : 1;
    if (ni + no <= OP_INLINE_TENSORS && !op->inputs) {
        op->inputs = op->tensor_store;
        op->outputs = op->tensor_store + ni; /* zeroed with the operator */
        op->n_inputs = n_inputs;
        op->n_outputs = n_outputs;
        return DMLREF_OK;
    }
#endif
    op->inputs = mem_array(&op->alloc, n_inputs ? n_inputs : 1, sizeof *op->inputs);
    op->outputs = op->inputs ? mem_array(&op->alloc, n_outputs ? n_outputs : 1, sizeof *op->outputs) : NULL;
    if (!op->inputs || !op->outputs)
        return set_error(err, DMLREF_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for %" PRIu32 " input and %" PRIu32 " output tensor descriptions",
                         op->name, n_inputs, n_outputs);
    /* The tensors are filled whole by the checks that follow (tensor_check zeroes each first);
     * only the placeholder of an empty side is zeroed here. */
    if (!n_inputs) *op->inputs = tensor_zero;
    if (!n_outputs) *op->outputs = tensor_zero;
    op->n_inputs = n_inputs;
    op->n_outputs = n_outputs;
    return DMLREF_OK;
}

void *op_exec_alloc(const op_t *op, const char *what, dmlref_error *err) {
    void *p = op->exec_request <= (uint64_t)SIZE_MAX ? mem_alloc(&op->alloc, (size_t)op->exec_request) : NULL;
    if (!p)
        set_error(err, DMLREF_ERROR_OUT_OF_MEMORY, "%s: out of memory for %s (%" PRIu64 " bytes)", op->name, what,
                  op->exec_request);
    return p;
}
