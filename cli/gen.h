/*
 * dmlref gen's two halves: cli/gen.c (the command line, the files) asks
 * cli/gen_case.c for one case at a time.
 */
#ifndef DMLREF_CLI_GEN_H
#define DMLREF_CLI_GEN_H

#include "builders/builder.h"

#include <stddef.h>
#include <stdint.h>

/* What gen was asked for: the helpers' settings, the filters only gen checks, the
 * options as the comment names them, the file names' prefix. */
typedef struct gen_cfg {
    bld_settings b;
    uint32_t level;    /* --feature-level; 0: none */
    uint32_t max_dims; /* --max-dims; 0: none */
    unsigned expressible; /* --expressible: GEN_ONNX | GEN_WEBNN; 0: none */
    char args[256];    /* " --data-types ... --bits": "" for the plain flavour */
    const char *prefix; /* "gen", "gen-bits", "gen-large", "gen-bits-large", each + "-scale-bias" */
} gen_cfg;

/* --expressible's frameworks. */
#define GEN_ONNX 1u
#define GEN_WEBNN 2u

/* gen_make_case's results besides case.h's CASE_OK, CASE_SYSTEM and CASE_OUT_OF_MEMORY. */
#define GEN_UNMET (-1)      /* no case met the filters (err says what they broke) */
#define GEN_SELF_CHECK (-2) /* a case failed one of gen's own checks: an internal error, which the
                               same arguments reproduce (gen prints the `repro:` line) */

/*
 * Case i of the operator, drawn from its own stream of (seed, flavour, operator, i)
 * through the operator's builder until it is valid and meets cfg's filters; its
 * expected values from the oracle; checked (run again, and its file text read back
 * with case_parse, run and compared).  CASE_OK (*text, *len: the file, malloc'd),
 * CASE_SYSTEM, CASE_OUT_OF_MEMORY (an allocation failed, in gen or in the library: the
 * case was not made, and no check failed), GEN_UNMET or GEN_SELF_CHECK, with a message in
 * err.
 */
int gen_make_case(DMLREF_OPERATOR_TYPE type, uint64_t seed, uint64_t i, const gen_cfg *cfg, char **text, size_t *len,
                  char *err, size_t errcap);

/* "GATHER" -> "gather" (file names). */
void gen_lower_name(const char *op, char *lower, size_t cap);

#endif
