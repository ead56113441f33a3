/*
 * A case in the WPT WebNN conformance-test form (dmlref export --webnn; docs/cli.md and
 * docs/testing-your-backend.md, "ONNX and WebNN forms"): web-platform-tests'
 * webnn/conformance_tests/ (gather.https.any.js, ...) write each test as
 *   {name, graph: {inputs: {x: {data, descriptor: {shape, dataType}}}, operators: [{name,
 *    arguments: [{input: 'x'}, {options: {...}}], outputs: 'out'}], expectedOutputs: {out:
 *    {data, descriptor}}}}
 * and this writes one such object as JSON, or the reason WebNN cannot express the case.
 */
#ifndef DMLREF_CLI_WEBNN_H
#define DMLREF_CLI_WEBNN_H

#include "framework.h"

#include <stddef.h>

typedef struct webnn_test {
    int expressible;  /* 0: `why` says why not */
    char why[200];
    char ops[120];    /* the operators, "reverse, slice" */
    char *text;       /* the JSON (malloc'd), len bytes */
    size_t len;
} webnn_test;

/* The test of the executed case c with framework form f (NULL: none); index_issue is
 * onnx.h's IDX_*; name is the test's name (NULL: only decide whether it is expressible, no
 * text).  0 (w->expressible says whether there is a
 * test; free it with webnn_test_free), or CASE_OUT_OF_MEMORY. */
int webnn_build(const dmlref_case *c, const fw_form *f, int index_issue, const char *name, webnn_test *w);
void webnn_test_free(webnn_test *w);

/* Why WebNN expresses no case of the operator (ONE_HOT: WebNN has no oneHot), or NULL. */
const char *webnn_unsupported(const char *op_name);

#endif
