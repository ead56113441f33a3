/* Command-line argument helpers shared by the subcommands. */
#ifndef DMLREF_CLI_ARGS_H
#define DMLREF_CLI_ARGS_H

#include <stdint.h>

/* Parses a non-negative decimal option value; 0 on success. */
int cli_parse_u64(const char *s, uint64_t max, uint64_t *out);

#endif
