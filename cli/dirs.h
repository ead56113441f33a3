/* Output directories, created like `mkdir -p`. */
#ifndef DMLREF_CLI_DIRS_H
#define DMLREF_CLI_DIRS_H

#include <stddef.h>

/* Creates path and every missing parent (mode 0777 before the umask); a path
 * that exists as a directory is fine.  0, or -1 with a message naming the
 * component that could not be created (or that exists but is no directory), or
 * CASE_OUT_OF_MEMORY (case/status.h) with one when out of memory. */
int dir_create_path(const char *path, char *err, size_t errcap);

#endif
