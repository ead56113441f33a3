/* Executing a loaded case for a subcommand (execute.h). */
#include "execute.h"

#include <stdio.h>

/* Executes with index checking first; on a clamp or duplicate warns (or fails with --strict) and reruns. */
int cli_execute_case(const char *path, dmlref_case *c, uint32_t threads, int strict) {
    return cli_execute_case_ex(path, c, threads, strict, NULL);
}

int cli_mark_defined(dmlref_case *c, const dmlref_operator *op) {
    for (uint32_t k = 0; k < c->n_outputs; ++k) {
        uint64_t defined;
        if (dmlref_defined_elements(op, c->out_bufs, c->n_outputs, k, &defined, NULL) != DMLREF_OK) continue;
        if (case_mark_defined(&c->outputs[k], defined) != CASE_OK) return CASE_OUT_OF_MEMORY;
    }
    return CASE_OK;
}

int cli_execute_case_ex(const char *path, dmlref_case *c, uint32_t threads, int strict, int *index_issue) {
    if (index_issue) *index_issue = 0;
    dmlref_options o = {.flags = DMLREF_OPTION_CHECK_INDICES, .threads = threads};
    dmlref_operator *op = NULL;
    dmlref_error err;
    dmlref_status st = dmlref_compile(&c->desc, c->feature_level, &o, &op, &err);
    if (st == DMLREF_OK) st = dmlref_execute(op, c->in_bufs, c->n_inputs, c->out_bufs, c->n_outputs, &err);
    if (st == DMLREF_OK && cli_mark_defined(c, op) != CASE_OK) {
        dmlref_release(op);
        fprintf(stderr, "dmlref: %s: out of memory recording the undefined output elements\n", path);
        return CASE_OUT_OF_MEMORY;
    }
    dmlref_release(op);
    op = NULL;
    if (st == DMLREF_ERROR_INDEX_OUT_OF_RANGE || st == DMLREF_ERROR_DUPLICATE_INDEX) {
        if (index_issue) *index_issue = st == DMLREF_ERROR_INDEX_OUT_OF_RANGE ? 1 : 2;
        if (strict) {
            fprintf(stderr, "dmlref: %s: %s (--strict)\n", path, err.message);
            return CASE_INVALID;
        }
        fprintf(stderr, "dmlref: warning: %s: %s; %s (--strict makes this an error)\n", path, err.message,
                st == DMLREF_ERROR_INDEX_OUT_OF_RANGE ? "out-of-range indices are clamped"
                                                      : "the last update in row-major order wins");
        o.flags = 0;
        st = dmlref_compile(&c->desc, c->feature_level, &o, &op, &err);
        if (st == DMLREF_OK) st = dmlref_execute(op, c->in_bufs, c->n_inputs, c->out_bufs, c->n_outputs, &err);
        if (st == DMLREF_OK && cli_mark_defined(c, op) != CASE_OK) {
            dmlref_release(op);
            fprintf(stderr, "dmlref: %s: out of memory recording the undefined output elements\n", path);
            return CASE_OUT_OF_MEMORY;
        }
        dmlref_release(op);
    }
    if (st != DMLREF_OK) {
        fprintf(stderr, "dmlref: %s: %s\n", path, err.message);
        return cli_exit_status(st);
    }
    return CASE_OK;
}

int cli_exit_status(dmlref_status st) {
    switch (st) {
    case DMLREF_OK: return CASE_OK;
    case DMLREF_ERROR_HOST_LIMIT: return CASE_HOST_LIMIT;
    case DMLREF_ERROR_CANNOT_VERIFY: return CASE_CANNOT_VERIFY;
    case DMLREF_ERROR_OUT_OF_MEMORY: return CASE_OUT_OF_MEMORY; /* no verdict on the case */
    case DMLREF_ERROR_OPTIONS: return CASE_USAGE; /* a bad DMLREF_* variable (docs/environment.md) */
    case DMLREF_ERROR_BINDING: return CASE_SYSTEM;
    default: return CASE_INVALID;
    }
}
