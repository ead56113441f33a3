/* Files that appear whole or not at all. */
#ifndef DMLREF_CLI_FILE_ATOMIC_H
#define DMLREF_CLI_FILE_ATOMIC_H

#include <stddef.h>

typedef struct file_part {
    const void *data;
    size_t len;
} file_part;

/* Writes the parts in order to a temporary file next to path (mode 0644), then
 * rename()s it into place.  On failure nothing is left behind, err says why
 * (naming path) and the result is -1, or CASE_OUT_OF_MEMORY (status.h) when an
 * allocation failed; 0 on success. */
int file_write_atomic(const char *path, const file_part *parts, size_t n_parts, char *err, size_t errcap);

#endif
