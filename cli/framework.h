/*
 * The "framework form" of a case: the operator as ONNX, WebNN and PyTorch take it,
 * with DirectML's padding undone.  DirectML descs pad every tensor to one
 * DimensionCount and crop or pad the index dimensions (GATHER's IndexDimensions,
 * SCATTER_ND's InputDimensionCount and IndicesDimensionCount); the framework
 * form gives each tensor its rank-reduced shape (a reshape of its logical view:
 * only size-1 dimensions are dropped) and the parameters in the reduced
 * numbering (ONNX Gather's axis, Split's sizes).  docs/testing-your-backend.md
 * describes the mapping of every operator.
 *
 * One function per operator, in the table of framework.c: an operator added to
 * the library gets its form by adding its function there.  Their fill values and
 * numpy type names: framework_fill.c; the JSON: framework_write.c.
 */
#ifndef DMLREF_CLI_FRAMEWORK_H
#define DMLREF_CLI_FRAMEWORK_H

#include "case/case.h"

#include <stdint.h>
#include <stdio.h>

#define FW_MAX_DIMS 8

typedef struct fw_shape {
    uint32_t rank;
    uint32_t dims[FW_MAX_DIMS];
} fw_shape;

/* A per-dimension integer parameter in the reduced numbering ("repeats": [2, 3]; Pad's "pads",
 * two per dimension). */
typedef struct fw_list {
    const char *name;
    uint32_t n;
    int64_t v[2 * FW_MAX_DIMS];
} fw_list;

#define FW_MAX_LISTS 4
#define FW_MAX_INTS 3

/* A scalar integer parameter ("blocksize": 2, "batch_dims": 1, "depth": 5). */
typedef struct fw_int {
    const char *name;
    int64_t v;
} fw_int;

typedef struct fw_form {
    const char *onnx, *webnn, *pytorch; /* the operator's name in each ("Gather", "gather", "index_select") */
    int has_axis;
    uint32_t axis;                      /* in the reduced numbering                                */
    int has_split;                      /* SPLIT: its sizes along axis (from the outputs' shapes)   */
    const char *mode;                   /* DepthToSpace's "DCR" / "CRD", Pad's "reflect", ..., or NULL */
    const char *dtype;                  /* DIAGONAL_MATRIX(1), PADDING(1) CONSTANT: the output's numpy type */
    char dtype_name[16];                /* what dtype points at (framework_fill.c's fw_set_dtype)   */
    int has_value;
    uint64_t value_bits;                /* DIAGONAL_MATRIX(1), PADDING(1): the fill as one element's bits */
    int has_delta;
    uint64_t delta_bits;                /* FILL_VALUE_SEQUENCE: ValueDelta as one element's bits (value_bits: ValueStart) */
    uint32_t n_ints;
    fw_int ints[FW_MAX_INTS];           /* DepthToSpace's blocksize, GatherND's batch_dims, ...    */
    uint32_t n_lists;
    fw_list lists[FW_MAX_LISTS];        /* TILE's repeats, ...                                     */
    const char *nearest_mode;           /* Resize: "floor" or "ceil" (mode: its coordinate_transformation_mode) */
    uint32_t n_scales;
    uint32_t scales_bits[FW_MAX_DIMS];  /* Resize: its scales, as float32 bit patterns           */
    fw_shape *in, *out;                 /* parallel to the case's inputs and outputs (the caller's) */
} fw_form;

/*
 * Fills form for the case (form->in and form->out point to n_inputs and
 * n_outputs shapes).  0, -1 when this command knows no framework form for
 * the case's operator, or CASE_OUT_OF_MEMORY when the library ran out of memory
 * converting a fill value (framework_fill.h): then there is no verdict on the form.
 */
int framework_form(const dmlref_case *c, fw_form *form);

/*
 * The form as one JSON object: {"onnx": ..., "webnn": ..., "pytorch": ...,
 * "axis": A, "split": [...], "mode": "DCR", "dtype": "float32", "value_bits":
 * "0x3f800000", "delta_bits": "0x...", the ints ("blocksize": 2), the lists ("repeats": [...]), Resize's
 * "nearest_mode": "floor" and "scales": [0.6, 2] (float32 values, shortest round trip),
 * "shapes": {"InputTensor": [...], ...}}, tensors named as their files are
 * (npyout_base).  Continuation lines are indented by
 * `indent` spaces.
 */
void framework_write(FILE *f, const dmlref_case *c, const fw_form *form, unsigned indent);

#endif
