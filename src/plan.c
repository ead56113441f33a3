/* Fast-path planning.  For now every operator runs the oracle. */
#include "plan.h"

dmlref_status plan_fast_path(op_t *op, dmlref_error *err) {
    (void)op;
    (void)err;
    return DMLREF_OK;
}
