/*
 * export's manifest.json: what the directory holds and how to read it (the
 * operator, feature level, parameters, every tensor's files, data type, shape
 * and layout, and the framework form).  docs/cli.md, "dmlref export", lists
 * every key.
 */
#ifndef DMLREF_CLI_MANIFEST_H
#define DMLREF_CLI_MANIFEST_H

#include "case/case.h"

#include <stddef.h>

/* The manifest's "format". */
#define MANIFEST_FORMAT "dmlref-export-1"

/*
 * Writes DIR/manifest.json (atomically) for the executed case read from
 * case_path; value_flags are value_format_ex's (VALUE_INT64_STRINGS); extra (NULL:
 * none) is written after the framework form, before the closing brace (export's
 * ",\n  \"onnx\": {...}" entries).  0, or -1 with a message, or CASE_OUT_OF_MEMORY
 * with one ("out of memory").
 */
int manifest_write(const char *dir, const dmlref_case *c, const char *case_path, unsigned value_flags,
                   const char *extra, char *err, size_t errcap);

#endif
