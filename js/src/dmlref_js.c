/*
 * The JavaScript package's C side (js/README.md): one case in, its outputs or its error out.
 * The same case reader (case/case_read.c: case_parse_ex) and the same library calls as the
 * command's `run` (cli/execute.c: compile with DMLREF_OPTION_CHECK_INDICES, execute, record the
 * defined elements; on an out-of-range index or a duplicate scatter target a warning and a
 * second run without the check, or with `strict` an error), so the outputs are the command's.
 * `npy` references are read from emscripten's in-memory file system under base_dir, where the
 * JavaScript side wrote them.  No global state: everything a call makes lives in its handle.
 */
#include "case/case.h"

#include <emscripten/emscripten.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dmlref_js_result {
    int rc;                  /* the command's exit status (case/status.h): CASE_OK, CASE_INVALID, ... */
    int has_error;           /* err holds the library's error (status, rule, field, message)       */
    dmlref_error err;
    char message[1024];      /* the message the command prints after "dmlref: PATH: "              */
    char warning[1200];      /* the command's warning (indices clamped), else ""                   */
    int parsed;              /* c holds a parsed case (case_free)                                  */
    dmlref_case c;
} dmlref_js_result;

/* The compile/execute/mark sequence once; DMLREF_OK or the failing status (err filled). */
static dmlref_status execute_once(dmlref_case *c, uint32_t flags, dmlref_error *err, int *oom) {
    dmlref_options o = {.flags = flags, .threads = 0};
    dmlref_operator *op = NULL;
    dmlref_status st = dmlref_compile(&c->desc, c->feature_level, &o, &op, err);
    if (st == DMLREF_OK) st = dmlref_execute(op, c->in_bufs, c->n_inputs, c->out_bufs, c->n_outputs, err);
    if (st == DMLREF_OK) {
        for (uint32_t k = 0; k < c->n_outputs; ++k) {
            uint64_t defined;
            if (dmlref_defined_elements(op, c->out_bufs, c->n_outputs, k, &defined, NULL) != DMLREF_OK) continue;
            if (case_mark_defined(&c->outputs[k], defined) != CASE_OK) *oom = 1;
        }
    }
    dmlref_release(op);
    return st;
}

static int exit_status(dmlref_status st) {
    switch (st) {
    case DMLREF_OK: return CASE_OK;
    case DMLREF_ERROR_HOST_LIMIT: return CASE_HOST_LIMIT;
    case DMLREF_ERROR_CANNOT_VERIFY: return CASE_CANNOT_VERIFY;
    case DMLREF_ERROR_OUT_OF_MEMORY: return CASE_OUT_OF_MEMORY;
    case DMLREF_ERROR_OPTIONS: return CASE_USAGE;
    case DMLREF_ERROR_BINDING: return CASE_SYSTEM;
    default: return CASE_INVALID;
    }
}

/* Parses and runs one case; the handle (NULL only when it cannot be allocated) says how it went. */
EMSCRIPTEN_KEEPALIVE
dmlref_js_result *dmlref_js_run(const char *json, size_t len, const char *base_dir, int strict) {
    dmlref_js_result *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    case_options o = {base_dir, 0, 0, NULL, &r->err, NULL, NULL};
    r->rc = case_parse_ex(json, len, &o, &r->c, r->message, sizeof r->message);
    if (r->rc != CASE_OK) {
        case_free(&r->c);
        /* the reader's verdict on a descriptor: the library's error */
        r->has_error = (r->rc == CASE_INVALID || r->rc == CASE_CANNOT_VERIFY) && r->err.code != DMLREF_OK;
        return r;
    }
    r->parsed = 1;
    dmlref_case *c = &r->c;
    int oom = 0;
    dmlref_status st = execute_once(c, DMLREF_OPTION_CHECK_INDICES, &r->err, &oom);
    if (!oom && (st == DMLREF_ERROR_INDEX_OUT_OF_RANGE || st == DMLREF_ERROR_DUPLICATE_INDEX)) {
        if (strict) {
            snprintf(r->message, sizeof r->message, "%s (--strict)", r->err.message);
            r->has_error = 1;
            r->rc = CASE_INVALID;
            return r;
        }
        snprintf(r->warning, sizeof r->warning, "%s; %s", r->err.message,
                 st == DMLREF_ERROR_INDEX_OUT_OF_RANGE ? "out-of-range indices are clamped"
                                                       : "the last update in row-major order wins");
        st = execute_once(c, 0, &r->err, &oom);
    }
    if (oom) {
        snprintf(r->message, sizeof r->message, "out of memory recording the undefined output elements");
        r->rc = CASE_OUT_OF_MEMORY;
        return r;
    }
    if (st != DMLREF_OK) {
        snprintf(r->message, sizeof r->message, "%s", r->err.message);
        r->has_error = 1;
        r->rc = exit_status(st);
        return r;
    }
    /* as `run`: outputs that differ from the case's `expected` (or `actual`) make exit 1 */
    if (c->has_expected && case_compare(c, NULL, 0) != 0) {
        snprintf(r->message, sizeof r->message, "outputs differ from expected");
        r->rc = CASE_DIFFER;
        return r;
    }
    r->rc = CASE_OK;
    return r;
}

EMSCRIPTEN_KEEPALIVE void dmlref_js_free(dmlref_js_result *r) {
    if (!r) return;
    if (r->parsed) case_free(&r->c);
    free(r);
}

EMSCRIPTEN_KEEPALIVE int dmlref_js_rc(const dmlref_js_result *r) { return r->rc; }
EMSCRIPTEN_KEEPALIVE const char *dmlref_js_message(const dmlref_js_result *r) { return r->message; }
EMSCRIPTEN_KEEPALIVE const char *dmlref_js_warning(const dmlref_js_result *r) { return r->warning; }
/* The library's error: its status name ("DMLREF_ERROR_SIZES"), rule, field; "" without one. */
EMSCRIPTEN_KEEPALIVE const char *dmlref_js_status(const dmlref_js_result *r) {
    return r->has_error ? dmlref_status_name(r->err.code) : "";
}
EMSCRIPTEN_KEEPALIVE const char *dmlref_js_rule(const dmlref_js_result *r) { return r->has_error ? r->err.rule : ""; }
EMSCRIPTEN_KEEPALIVE const char *dmlref_js_field(const dmlref_js_result *r) { return r->has_error ? r->err.field : ""; }
EMSCRIPTEN_KEEPALIVE const char *dmlref_js_library_message(const dmlref_js_result *r) {
    return r->has_error ? r->err.message : "";
}
/* The case's operator ("GATHER"), or "" when the case was not read (the reader clears it on a
 * failure: the JavaScript side then takes it from the case text). */
EMSCRIPTEN_KEEPALIVE const char *dmlref_js_operator(const dmlref_js_result *r) {
    return r->parsed && r->c.op_name ? r->c.op_name : "";
}

/* The outputs (a successful run), in binding order. */
EMSCRIPTEN_KEEPALIVE uint32_t dmlref_js_n_outputs(const dmlref_js_result *r) { return r->parsed ? r->c.n_outputs : 0; }
static const case_tensor *out(const dmlref_js_result *r, uint32_t k) { return &r->c.outputs[k]; }
/* "OutputTensor", "OutputTensors[2]" */
EMSCRIPTEN_KEEPALIVE const char *dmlref_js_out_name(const dmlref_js_result *r, uint32_t k) { return out(r, k)->name; }
EMSCRIPTEN_KEEPALIVE const char *dmlref_js_out_slot(const dmlref_js_result *r, uint32_t k) { return out(r, k)->slot; }
EMSCRIPTEN_KEEPALIVE int32_t dmlref_js_out_index(const dmlref_js_result *r, uint32_t k) { return out(r, k)->index; }
EMSCRIPTEN_KEEPALIVE uint32_t dmlref_js_out_type(const dmlref_js_result *r, uint32_t k) {
    return (uint32_t)out(r, k)->buf.DataType;
}
EMSCRIPTEN_KEEPALIVE uint32_t dmlref_js_out_dims(const dmlref_js_result *r, uint32_t k) {
    return out(r, k)->buf.DimensionCount;
}
EMSCRIPTEN_KEEPALIVE const uint32_t *dmlref_js_out_sizes(const dmlref_js_result *r, uint32_t k) {
    return out(r, k)->buf.Sizes;
}
/* NULL when the case gave no Strides. */
EMSCRIPTEN_KEEPALIVE const uint32_t *dmlref_js_out_strides(const dmlref_js_result *r, uint32_t k) {
    return out(r, k)->buf.Strides;
}
/* The whole buffer, as `run --npy` writes it: total_slots elements of esize bytes. */
EMSCRIPTEN_KEEPALIVE uint32_t dmlref_js_out_esize(const dmlref_js_result *r, uint32_t k) { return out(r, k)->esize; }
EMSCRIPTEN_KEEPALIVE double dmlref_js_out_slots(const dmlref_js_result *r, uint32_t k) {
    return (double)out(r, k)->total_slots;
}
EMSCRIPTEN_KEEPALIVE const unsigned char *dmlref_js_out_data(const dmlref_js_result *r, uint32_t k) {
    return out(r, k)->data;
}
/* The library's version ("0.1.0"). */
EMSCRIPTEN_KEEPALIVE const char *dmlref_js_version(void) { return dmlref_version(); }
