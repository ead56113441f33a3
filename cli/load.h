/* Loading a case file for a subcommand. */
#ifndef DMLREF_CLI_LOAD_H
#define DMLREF_CLI_LOAD_H

#include "case.h"

#include <stdint.h>

/*
 * Reads and parses a case file for a subcommand; prints problems to stderr
 * prefixed with the path (an invalid descriptor's message to stdout instead
 * when verdict_stdout).  Returns the exit status (CASE_OK on success).
 * DMLREF_MAX_BYTES in the environment caps the case's buffers.
 */
int cli_load_case(const char *path, uint32_t feature_level, dmlref_case *c, int verdict_stdout);

#endif
