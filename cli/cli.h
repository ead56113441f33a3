/* The dmlref command's subcommands (main.c dispatches). */
#ifndef DMLREF_CLI_CLI_H
#define DMLREF_CLI_CLI_H

#include "case.h"

#include <stdint.h>

/*
 * Reads and parses a case file for a subcommand; prints problems to stderr
 * prefixed with the path (an invalid descriptor's message to stdout instead
 * when verdict_stdout).  Returns the exit status (CASE_OK on success).
 */
int cli_load_case(const char *path, uint32_t feature_level, dmlref_case *c, int verdict_stdout);

/* Parses a non-negative decimal option value; 0 on success. */
int cli_parse_u64(const char *s, uint64_t max, uint64_t *out);

int cmd_bench(int argc, char **argv);
int cmd_gen(int argc, char **argv);

#endif
