/* Outputs that would overwrite an input of the same command (issue 23, item 7). */
#ifndef DMLREF_CLI_GUARD_H
#define DMLREF_CLI_GUARD_H

#include "case/case.h"

#include <stddef.h>

/*
 * 0 when writing the file `out` leaves every file the command read intact: the
 * case file `case_path` and the .npy files its tensors were read from.  -1, with
 * "OUT: the output would overwrite an input of this command (IN); nothing
 * written" in err, when out is one of them or a link to one: the same device and
 * inode where both exist (stat, following links), else the same resolved path
 * (realpath of the folder, then the name).  CASE_OUT_OF_MEMORY, with "out of
 * memory checking OUT against the inputs" in err, when an allocation failed on
 * the way (the check was not made: nothing may be written).
 */
int guard_output(const char *out, const char *case_path, const dmlref_case *c, char *err, size_t errcap);

#endif
