/*
 * numpy_driver: runs dmlref on the cases diff.py writes, so that numpy can
 * check the bytes.
 *
 *   numpy_driver MANIFEST BLOB_IN BLOB_OUT
 *   numpy_driver --byte-order      prints "little" or "big": this host's byte order, in which
 *                                  the index tensors of BLOB_IN must be written
 *
 * MANIFEST is text, one token stream of cases:
 *   case ID OPERATOR FEATURE_LEVEL FLAGS P0 P1
 *       OPERATOR: GATHER (P0 Axis, P1 IndexDimensions), GATHER_ELEMENTS (P0 Axis),
 *       SCATTER_ND (P0 InputDimensionCount, P1 IndicesDimensionCount), SPLIT, JOIN (P0 Axis)
 *   in|out DATATYPE N SIZES[N] HAS_STRIDES [STRIDES[N]] TOTAL_BYTES OFFSET
 *       tensors in binding order (dmlref_execute's), inputs and outputs
 *   run
 * Each tensor's bytes are BLOB_IN[OFFSET, OFFSET + TOTAL_BYTES): the input data, or the
 * output's prefill.  Every buffer is malloc'd at exactly TOTAL_BYTES (so ASan sees any
 * access past it).  BLOB_OUT is BLOB_IN with each output's bytes after the run.
 * stdout gets one line per case: "result ID STATUS_NAME MESSAGE".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmlref.h"

#define MAX_TENSORS 16

typedef struct tensor {
    int is_output;
    uint32_t sizes[8], strides[8];
    unsigned long long offset;
    DMLREF_BUFFER_TENSOR_DESC buf;
    DMLREF_TENSOR_DESC desc;
    unsigned char *data;
} tensor;

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
    if (p && n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *len = n > 0 ? (size_t)n : 0;
    return p;
}

static void die(const char *what) {
    fprintf(stderr, "numpy_driver: %s\n", what);
    exit(2);
}

static DMLREF_OPERATOR_TYPE op_type(const char *name) {
    if (!strcmp(name, "GATHER")) return DMLREF_OPERATOR_GATHER;
    if (!strcmp(name, "GATHER_ELEMENTS")) return DMLREF_OPERATOR_GATHER_ELEMENTS;
    if (!strcmp(name, "SCATTER_ND")) return DMLREF_OPERATOR_SCATTER_ND;
    if (!strcmp(name, "SPLIT")) return DMLREF_OPERATOR_SPLIT;
    if (!strcmp(name, "JOIN")) return DMLREF_OPERATOR_JOIN;
    die("unknown operator in manifest");
    return DMLREF_OPERATOR_INVALID;
}

/* Runs one case; outputs are copied back into out_blob. */
static void run_case(unsigned long id, DMLREF_OPERATOR_TYPE type, unsigned fl, unsigned flags, unsigned p0,
                     unsigned p1, tensor *t, unsigned nt, unsigned char *out_blob) {
    const DMLREF_TENSOR_DESC *in_d[MAX_TENSORS], *out_d[MAX_TENSORS];
    DMLREF_TENSOR_DESC in_arr[MAX_TENSORS], out_arr[MAX_TENSORS];
    dmlref_cbuffer ins[MAX_TENSORS];
    dmlref_buffer outs[MAX_TENSORS];
    uint32_t ni = 0, no = 0;
    for (unsigned i = 0; i < nt; ++i) {
        if (t[i].is_output) {
            out_d[no] = &t[i].desc;
            out_arr[no] = t[i].desc;
            outs[no++] = (dmlref_buffer){t[i].data, (size_t)t[i].buf.TotalTensorSizeInBytes};
        } else {
            in_d[ni] = &t[i].desc;
            in_arr[ni] = t[i].desc;
            ins[ni++] = (dmlref_cbuffer){t[i].data, (size_t)t[i].buf.TotalTensorSizeInBytes};
        }
    }
    DMLREF_GATHER_OPERATOR_DESC g;
    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC ge;
    DMLREF_SCATTER_ND_OPERATOR_DESC s;
    DMLREF_SPLIT_OPERATOR_DESC sp;
    DMLREF_JOIN_OPERATOR_DESC j;
    DMLREF_OPERATOR_DESC d = {type, NULL};
    const int two_in_one_out = ni == 2 && no == 1, three_in_one_out = ni == 3 && no == 1;
    switch (type) {
    case DMLREF_OPERATOR_GATHER:
        if (!two_in_one_out) die("GATHER needs 2 inputs and 1 output");
        g = (DMLREF_GATHER_OPERATOR_DESC){in_d[0], in_d[1], out_d[0], p0, p1};
        d.Desc = &g;
        break;
    case DMLREF_OPERATOR_GATHER_ELEMENTS:
        if (!two_in_one_out) die("GATHER_ELEMENTS needs 2 inputs and 1 output");
        ge = (DMLREF_GATHER_ELEMENTS_OPERATOR_DESC){in_d[0], in_d[1], out_d[0], p0};
        d.Desc = &ge;
        break;
    case DMLREF_OPERATOR_SCATTER_ND:
        if (!three_in_one_out) die("SCATTER_ND needs 3 inputs and 1 output");
        s = (DMLREF_SCATTER_ND_OPERATOR_DESC){in_d[0], in_d[1], in_d[2], out_d[0], p0, p1};
        d.Desc = &s;
        break;
    case DMLREF_OPERATOR_SPLIT:
        if (ni != 1 || no < 1) die("SPLIT needs 1 input and outputs");
        sp = (DMLREF_SPLIT_OPERATOR_DESC){in_d[0], no, out_arr, p0};
        d.Desc = &sp;
        break;
    default:
        if (no != 1 || ni < 1) die("JOIN needs inputs and 1 output");
        j = (DMLREF_JOIN_OPERATOR_DESC){ni, in_arr, out_d[0], p0};
        d.Desc = &j;
        break;
    }
    const dmlref_options opt = {flags, 0};
    dmlref_error err;
    memset(&err, 0, sizeof err);
    const dmlref_status st = dmlref_run(&d, (DMLREF_FEATURE_LEVEL)fl, &opt, ins, ni, outs, no, &err);
    for (char *c = err.message; *c; ++c)
        if (*c == '\n') *c = ' ';
    printf("result %lu %s %s\n", id, dmlref_status_name(st), err.message);
    for (unsigned i = 0; i < nt; ++i)
        if (t[i].is_output) memcpy(out_blob + t[i].offset, t[i].data, (size_t)t[i].buf.TotalTensorSizeInBytes);
}

/* "little" or "big": how this host stores a uint32_t (index tensors are read in host order). */
static const char *byte_order(void) {
    const uint32_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1 ? "little" : "big";
}

int main(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[1], "--byte-order")) {
        printf("%s\n", byte_order());
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: %s MANIFEST BLOB_IN BLOB_OUT | --byte-order\n", argv[0]);
        return 2;
    }
    size_t blob_len;
    unsigned char *blob = read_file(argv[2], &blob_len);
    if (!blob) die("cannot read BLOB_IN");
    unsigned char *out_blob = malloc(blob_len ? blob_len : 1);
    if (!out_blob) die("out of memory");
    memcpy(out_blob, blob, blob_len);
    FILE *m = fopen(argv[1], "r");
    if (!m) die("cannot read MANIFEST");

    static tensor t[MAX_TENSORS];
    unsigned nt = 0, fl = 0, flags = 0, p0 = 0, p1 = 0;
    unsigned long id = 0;
    DMLREF_OPERATOR_TYPE type = DMLREF_OPERATOR_INVALID;
    char word[32];
    while (fscanf(m, "%31s", word) == 1) {
        if (!strcmp(word, "case")) {
            char name[32];
            if (fscanf(m, "%lu %31s %x %u %u %u", &id, name, &fl, &flags, &p0, &p1) != 6) die("bad case line");
            type = op_type(name);
            nt = 0;
        } else if (!strcmp(word, "in") || !strcmp(word, "out")) {
            if (nt == MAX_TENSORS) die("too many tensors");
            tensor *x = &t[nt++];
            unsigned dt, n, has_strides;
            unsigned long long total;
            memset(x, 0, sizeof *x);
            x->is_output = word[0] == 'o';
            if (fscanf(m, "%u %u", &dt, &n) != 2 || n < 1 || n > 8) die("bad tensor line");
            for (unsigned i = 0; i < n; ++i)
                if (fscanf(m, "%u", &x->sizes[i]) != 1) die("bad sizes");
            if (fscanf(m, "%u", &has_strides) != 1) die("bad strides flag");
            for (unsigned i = 0; has_strides && i < n; ++i)
                if (fscanf(m, "%u", &x->strides[i]) != 1) die("bad strides");
            if (fscanf(m, "%llu %llu", &total, &x->offset) != 2) die("bad total/offset");
            if (x->offset > blob_len || total > blob_len - x->offset) die("tensor outside the blob");
            x->buf = (DMLREF_BUFFER_TENSOR_DESC){(DMLREF_TENSOR_DATA_TYPE)dt, DMLREF_TENSOR_FLAG_NONE, n, x->sizes,
                                                has_strides ? x->strides : NULL, total, 0};
            x->desc = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &x->buf};
            x->data = malloc(total ? (size_t)total : 1);
            if (!x->data) die("out of memory");
            memcpy(x->data, blob + x->offset, (size_t)total);
        } else if (!strcmp(word, "run")) {
            run_case(id, type, fl, flags, p0, p1, t, nt, out_blob);
            for (unsigned i = 0; i < nt; ++i) free(t[i].data);
            nt = 0;
        } else {
            die("unknown manifest word");
        }
    }
    fclose(m);
    FILE *o = fopen(argv[3], "wb");
    if (!o || fwrite(out_blob, 1, blob_len, o) != blob_len || fclose(o) != 0) die("cannot write BLOB_OUT");
    free(blob);
    free(out_blob);
    return 0;
}
