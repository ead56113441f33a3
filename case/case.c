/*
 * The case model (case.h): what a case holds, however it was made -- read from a
 * file (case_read.c) or drawn by a builder (builders/) -- and freeing it.
 */
#include "case.h"

#include <stdlib.h>
#include <string.h>

void case_free(dmlref_case *c) {
    if (!c) return;
    case_tensor *lists[2] = {c->inputs, c->outputs};
    const uint32_t counts[2] = {c->n_inputs, c->n_outputs};
    for (int k = 0; k < 2; ++k) {
        for (uint32_t i = 0; lists[k] && i < counts[k]; ++i) {
            case_tensor *t = &lists[k][i];
            free(t->sizes);
            free(t->strides);
            free(t->data);
            free(t->expected);
            free(t->any_nan);
            free(t->actual);
            free(t->actual_nan);
            free(t->undefined);
            free(t->npy_path);
        }
        free(lists[k]);
    }
    free(c->in_descs);
    free(c->out_descs);
    free(c->desc_mem);
    fields_store_free(&c->store);
    free(c->in_bufs);
    free(c->out_bufs);
    memset(c, 0, sizeof *c);
}
