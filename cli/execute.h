/* Executing a loaded case for a subcommand (run, export). */
#ifndef DMLREF_CLI_EXECUTE_H
#define DMLREF_CLI_EXECUTE_H

#include "case/case.h"

#include <stdint.h>

/*
 * Executes the case into its output buffers, with index checking first: an
 * out-of-range index or a duplicate scatter target is a warning on stderr and
 * the case runs again without the check (indices clamped, the last update
 * wins), or with `strict` an error (CASE_INVALID).  Messages name `path`.
 * Returns the exit status (CASE_OK, CASE_INVALID, CASE_SYSTEM, CASE_HOST_LIMIT,
 * CASE_CANNOT_VERIFY, CASE_OUT_OF_MEMORY, CASE_USAGE for a bad DMLREF_* variable).
 */
int cli_execute_case(const char *path, dmlref_case *c, uint32_t threads, int strict);

/* The same; *index_issue (when not NULL) is 1 when an index was out of range, 2 for a
 * duplicate scatter target (onnx.h's IDX_*), else 0. */
int cli_execute_case_ex(const char *path, dmlref_case *c, uint32_t threads, int strict, int *index_issue);

/* After op (c's compiled operator) wrote c's outputs: each output's defined elements
 * (dmlref_defined_elements) recorded with case_mark_defined, so that case_compare and
 * export's manifest leave the undefined ones (NONZERO_COORDINATES' rows past the count)
 * out.  CASE_OK or CASE_OUT_OF_MEMORY. */
int cli_mark_defined(dmlref_case *c, const dmlref_operator *op);

/* The exit status for a status of dmlref_compile, dmlref_execute or dmlref_run:
 * CASE_OUT_OF_MEMORY for DMLREF_ERROR_OUT_OF_MEMORY (never a verdict), CASE_HOST_LIMIT,
 * CASE_CANNOT_VERIFY, CASE_USAGE (DMLREF_ERROR_OPTIONS: a bad DMLREF_* variable),
 * CASE_SYSTEM (DMLREF_ERROR_BINDING), CASE_INVALID for the rest. */
int cli_exit_status(dmlref_status st);

#endif
