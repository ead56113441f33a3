/*
 * A case as an ONNX model and its test data (dmlref export --onnx; docs/cli.md and
 * docs/testing-your-backend.md, "ONNX and WebNN forms"): one node where ONNX has the
 * operator, a small graph where it needs one, built from the case's framework form
 * (framework.h), or the reason ONNX cannot express the case.  Written with the
 * protobuf encoder of pb.h, so the bytes are the same on every host.
 */
#ifndef DMLREF_CLI_ONNX_H
#define DMLREF_CLI_ONNX_H

#include "framework.h"
#include "pb.h"

#include <stddef.h>

/* What the execution found about the case's indices (export's run). */
enum { IDX_OK = 0, IDX_OUT_OF_RANGE = 1, IDX_DUPLICATE = 2 };

typedef struct onnx_model {
    int expressible;     /* 0: `why` says why not, nothing else is set */
    char why[200];
    int opset;           /* the default domain's opset the model imports */
    char graph[120];     /* the nodes, "Cast, GatherND" */
    pb_buf model;        /* the ModelProto's bytes */
} onnx_model;

/*
 * Builds the model of the executed case c with framework form f (NULL: the case has
 * none) into m; index_issue is IDX_*.  0 (m->expressible says whether there is a
 * model; free it with onnx_model_free), or CASE_OUT_OF_MEMORY.
 */
int onnx_build(const dmlref_case *c, const fw_form *f, int index_issue, onnx_model *m);

/* CAST's data that ONNX Cast (and WebNN cast) leave undefined: the reason, or NULL.  A float
 * input to an integer output holding NaN, an infinity or a value whose truncation is outside
 * the output's range (dmlref saturates, NaN -> 0); a float input to another float type holding
 * a NaN (dmlref keeps its sign and top payload bits, quiet bit forced). */
const char *onnx_cast_issue(const dmlref_case *c);
void onnx_model_free(onnx_model *m);

/*
 * DIR/model.onnx and DIR/test_data_set_0/input_<k>.pb, output_<k>.pb (TensorProto, the
 * logical views in the framework shapes, raw_data little-endian), ONNX's node-test layout.
 * 0, -1 with a message, or CASE_OUT_OF_MEMORY.
 */
int onnx_write(const char *dir, const dmlref_case *c, const fw_form *f, const onnx_model *m, char *err,
               size_t errcap);

/* The case's tensor t as a TensorProto named `name` with shape s, into b. */
void onnx_tensor_proto(pb_buf *b, const case_tensor *t, const fw_shape *s, const char *name);

#endif
