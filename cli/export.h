/* export's writer as an internal API: `dmlref check` writes each case's {case} directory with it. */
#ifndef DMLREF_CLI_EXPORT_H
#define DMLREF_CLI_EXPORT_H

#include "case/case.h"

/*
 * Writes the executed case c (read from case_path) into the directory out as
 * `dmlref export` does: every tensor's T.npy, T.slots.npy, T.logical.npy, then
 * manifest.json.  value_flags: VALUE_INT64_STRINGS or 0.  Returns the exit status
 * (CASE_OK, CASE_SYSTEM or CASE_OUT_OF_MEMORY, with a message on stderr).
 */
int export_write_dir(const char *out, const char *case_path, const dmlref_case *c, unsigned value_flags);

#endif
