/* export's writer as an internal API: `dmlref check` writes each case's {case} directory with it. */
#ifndef DMLREF_CLI_EXPORT_H
#define DMLREF_CLI_EXPORT_H

#include "case/case.h"

#define EXPORT_ONNX 1u  /* export --onnx: model.onnx, test_data_set_0/, the manifest's "onnx" */
#define EXPORT_WEBNN 2u /* export --webnn: webnn.json, the manifest's "webnn"                */

/*
 * Writes the executed case c (read from case_path) into the directory out as
 * `dmlref export` does: every tensor's T.npy, T.slots.npy, T.logical.npy, the
 * forms asked for (EXPORT_ONNX, EXPORT_WEBNN: the model or test, or in the manifest
 * why the form cannot express the case), then manifest.json.  value_flags:
 * VALUE_INT64_STRINGS or 0.  index_issue: the execute clamped an index or met a
 * duplicate scatter target (cli_execute_case_ex), which no form expresses.  Returns
 * the exit status (CASE_OK, CASE_SYSTEM or CASE_OUT_OF_MEMORY, with a message on stderr).
 */
int export_write_dir(const char *out, const char *case_path, const dmlref_case *c, unsigned value_flags,
                     unsigned forms_wanted, int index_issue);

#endif
