/*
 * The environment variables the library reads (docs/environment.md): read
 * once, on the first compile, parsed strictly, and kept; a bad value makes
 * every dmlref_compile fail with DMLREF_ERROR_OPTIONS (see env_force_oracle).
 */
#ifndef DMLREF_ENV_H
#define DMLREF_ENV_H

#include "internal.h"

typedef enum env_knob {
    ENV_PAR_GRAIN,  /* DMLREF_PAR_GRAIN: bytes of work per thread      */
    ENV_STREAM_MIN, /* DMLREF_STREAM_MIN: bytes for streaming stores   */
    ENV_SLAB_MIN,   /* DMLREF_SLAB_MIN: input bytes for GATHER slabs   */
    ENV_BYTE_KNOBS
} env_knob;

#define ENV_VALUE_SHOWN 48 /* a bad value is quoted up to this many bytes */

typedef struct dmlref_env {
    int force_oracle;                /* DMLREF_FORCE_ORACLE                        */
    int has[ENV_BYTE_KNOBS];         /* the byte knob is set (and valid)           */
    uint64_t bytes[ENV_BYTE_KNOBS];
    const char *bad_name;            /* the first variable with a bad value, or NULL */
    char bad_value[ENV_VALUE_SHOWN + 4]; /* its value, truncated with "..."       */
} dmlref_env;

/* The variables as read on the first call (thread-safe; later calls return the
 * same values, whatever the host's setenv does meanwhile). */
const dmlref_env *env_get(void);

/* For the tests and the fuzz targets only (not thread-safe): reads the
 * variables again, as if for the first time. */
void env_reload(void);

/* The compile-time check api.c makes: 1 when the oracle is forced, by the
 * option flag DMLREF_OPTION_FORCE_ORACLE or DMLREF_FORCE_ORACLE; and 1 with
 * *st = DMLREF_ERROR_OPTIONS (message in err) when a variable has a bad value,
 * so that the compile fails before any planning. */
int env_force_oracle(uint32_t option_flags, dmlref_status *st, dmlref_error *err);

/* The parsers (exposed for the tests): env_parse_bool gives 1, 0, or -1 for a
 * value that is none of 1/0/true/false/yes/no/on/off (any case);
 * env_parse_bytes gives 1 and *out for decimal digits below 2^64, else 0. */
int env_parse_bool(const char *v);
int env_parse_bytes(const char *v, uint64_t *out);

/* The byte knob's value, or dflt when it is not set. */
uint64_t env_bytes(env_knob k, uint64_t dflt);

#endif
