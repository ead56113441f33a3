/* Loading a case file for a subcommand. */
#ifndef DMLREF_CLI_LOAD_H
#define DMLREF_CLI_LOAD_H

#include "case/case.h"

#include <stdint.h>

/* Where cli_load_case reports a descriptor that does not validate. */
enum {
    CLI_VERDICT_STDERR = 0, /* "dmlref: PATH: invalid descriptor: MESSAGE" on stderr          */
    CLI_VERDICT_TEXT = 1,   /* the library's message on stdout (validate)                      */
    CLI_VERDICT_JSON = 2,   /* {"valid": false, "status", "rule", "field", "message"} on stdout */
    CLI_VERDICT_NAMED = 4   /* with TEXT or JSON: the line names the case ("PATH: ", "case") */
};

/*
 * Reads and parses a case file for a subcommand; prints problems to stderr
 * prefixed with the path, an invalid descriptor's verdict as verdict_stdout
 * says (CLI_VERDICT_*).  Returns the exit status (CASE_OK on success).
 * DMLREF_MAX_BYTES in the environment caps the case's buffers.
 */
int cli_load_case(const char *path, uint32_t feature_level, dmlref_case *c, int verdict_stdout);

/* {"valid": true} on stdout (validate --json); {"case": PATH, "valid": true} when path is not NULL. */
void cli_print_valid_json(const char *path);

#endif
