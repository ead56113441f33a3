/*
 * numpy_driver: runs dmlref on the cases diff.py writes, so that numpy can
 * check the bytes.
 *
 *   numpy_driver MANIFEST BLOB_IN BLOB_OUT
 *   numpy_driver --byte-order      prints "little" or "big": this host's byte order, in which
 *                                  the index tensors of BLOB_IN must be written
 *
 * MANIFEST is text, one token stream of cases:
 *   case ID OPERATOR FEATURE_LEVEL FLAGS
 *       OPERATOR: any the library's schema list names (dmlref_operator_schema_at)
 *   param NAME VALUE
 *       a UINT, INT, ENUM or BOOL parameter of the operator's desc, by its schema name (Axis,
 *       ValueDataType, ...); count fields (InputCount, OutputCount) come from the tensors
 *   bits NAME HEX
 *       a FLOAT parameter's 32-bit pattern, or a SCALAR_UNION's element bits (the width
 *       of the type its data-type field holds, set before), stored in host order from byte 0
 *   array NAME COUNT VALUE[COUNT]
 *       a UINT_ARRAY or INT_ARRAY parameter (TILE's Repeats, ...); its count field
 *       (RepeatsCount) is set to COUNT
 *   farray NAME COUNT BITS[COUNT]
 *       a FLOAT_ARRAY parameter (RESAMPLE2's Scales, ...): COUNT binary32 bit patterns in
 *       hex; its count field (DimensionCount) is set to COUNT
 *   size2d NAME WIDTH HEIGHT
 *       a DML_SIZE_2D parameter (UPSAMPLE_2D's ScaleSize)
 *   struct NAME COUNT BITS[COUNT]
 *       an optional STRUCT parameter of FLOAT fields (ELEMENT_WISE_IDENTITY's ScaleBias):
 *       its COUNT fields as binary32 bit patterns in hex (0x3f800000), one struct a case;
 *       absent: NULL
 *   in|out DATATYPE N SIZES[N] HAS_STRIDES [STRIDES[N]] TOTAL_BYTES OFFSET
 *       tensors in binding order (dmlref_execute's), inputs and outputs; an optional
 *       input slot with no tensor stays NULL (DIAGONAL_MATRIX1 without its InputTensor)
 *   run
 * The desc is built generically: parameters set by name through the schema, tensor
 * fields bound by desc_bind (case/descbuf.c: single slots one tensor each, an array
 * slot the rest), so the driver knows no operator.
 * Each tensor's bytes are BLOB_IN[OFFSET, OFFSET + TOTAL_BYTES): the input data, or the
 * output's prefill.  Every buffer is malloc'd at exactly TOTAL_BYTES (so ASan sees any
 * access past it).  BLOB_OUT is BLOB_IN with each output's bytes after the run.
 * stdout gets one line per case: "result ID STATUS_NAME MESSAGE".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case/descbuf.h"
#include "dmlref.h"

#define MAX_TENSORS 16
#define MAX_ARRAYS 5   /* array parameters per case (UNFOLD) */
#define MAX_ARRAY_LEN 64 /* entries per array parameter        */

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

_Noreturn static void die(const char *what) {
    fprintf(stderr, "numpy_driver: %s\n", what);
    exit(2);
}

static const dmlref_schema *op_schema(const char *name) {
    const dmlref_schema *s;
    for (uint32_t i = 0; (s = dmlref_operator_schema_at(i)) != NULL; ++i)
        if (!strcmp(s->name, name)) return s;
    die("unknown operator in manifest");
    return NULL;
}

/* Sets the parameter `name` of desc to v (UINT, INT or ENUM kinds; an ENUM by its value). */
static void set_param(const dmlref_schema *s, void *desc, const char *name, long long v) {
    const dmlref_param *p = desc_param(s, name);
    if (!p) die("unknown parameter in manifest");
    if (p->kind == DMLREF_PARAM_UINT || p->kind == DMLREF_PARAM_ENUM || p->kind == DMLREF_PARAM_BOOL) {
        if (v < 0 || v > 0xFFFFFFFFLL) die("UINT parameter out of range");
        desc_set_u32(desc, p->offset, (uint32_t)v);
    } else if (p->kind == DMLREF_PARAM_INT) {
        if (v < INT32_MIN || v > INT32_MAX) die("INT parameter out of range");
        const int32_t x = (int32_t)v;
        memcpy((unsigned char *)desc + p->offset, &x, sizeof x);
    } else {
        die("the manifest has no form for this parameter's kind");
    }
}

/* Sets the FLOAT or SCALAR_UNION parameter `name` of desc from raw bits. */
static void set_bits(const dmlref_schema *s, void *desc, const char *name, unsigned long long v) {
    const dmlref_param *p = desc_param(s, name);
    unsigned char *at = p ? (unsigned char *)desc + p->offset : NULL;
    if (!p) die("unknown parameter in manifest");
    if (p->kind == DMLREF_PARAM_FLOAT) {
        const uint32_t x = (uint32_t)v;
        memcpy(at, &x, 4);
        return;
    }
    if (p->kind != DMLREF_PARAM_SCALAR_UNION) die("bits: not a FLOAT or SCALAR_UNION parameter");
    const uint32_t es = dmlref_data_type_size((DMLREF_TENSOR_DATA_TYPE)desc_get_u32(desc, p->type_offset));
    const uint8_t b1 = (uint8_t)v;
    const uint16_t b2 = (uint16_t)v;
    const uint32_t b4 = (uint32_t)v;
    const uint64_t b8 = (uint64_t)v;
    memset(at, 0, 8);
    if (es == 1) memcpy(at, &b1, 1);
    else if (es == 2) memcpy(at, &b2, 2);
    else if (es == 4) memcpy(at, &b4, 4);
    else if (es == 8) memcpy(at, &b8, 8);
    else die("bits: the union's data type has no element size");
}

/* Reads COUNT values into the next of arrays[] and points the array parameter
 * `name` of desc at them, its count field set to COUNT. */
static void set_array(FILE *m, const dmlref_schema *s, void *desc, const char *name, uint32_t arrays[][MAX_ARRAY_LEN],
                      unsigned *n_arrays) {
    const dmlref_param *p = desc_param(s, name);
    unsigned count;
    if (!p) die("unknown parameter in manifest");
    if (p->kind != DMLREF_PARAM_UINT_ARRAY && p->kind != DMLREF_PARAM_INT_ARRAY) die("not an array parameter");
    if (*n_arrays == MAX_ARRAYS) die("too many array parameters");
    if (fscanf(m, "%u", &count) != 1 || count > MAX_ARRAY_LEN) die("bad array count");
    uint32_t *a = arrays[(*n_arrays)++];
    for (unsigned i = 0; i < count; ++i) {
        long long v;
        if (fscanf(m, "%lld", &v) != 1) die("bad array value");
        if (p->kind == DMLREF_PARAM_UINT_ARRAY ? (v < 0 || v > 0xFFFFFFFFLL) : (v < INT32_MIN || v > INT32_MAX))
            die("array value out of range");
        a[i] = (uint32_t)v; /* an INT32's two's-complement bits */
    }
    const uint32_t *ptr = a;
    memcpy((unsigned char *)desc + p->offset, &ptr, sizeof ptr);
    if (p->count_name) desc_set_u32(desc, p->count_offset, count);
}

/* Reads COUNT binary32 bit patterns into the next of farrays[] and points the FLOAT_ARRAY
 * parameter `name` of desc at them, its count field set to COUNT. */
static void set_farray(FILE *m, const dmlref_schema *s, void *desc, const char *name, float farrays[][MAX_ARRAY_LEN],
                       unsigned *n_farrays) {
    const dmlref_param *p = desc_param(s, name);
    unsigned count;
    if (!p) die("unknown parameter in manifest");
    if (p->kind != DMLREF_PARAM_FLOAT_ARRAY) die("not a FLOAT array parameter");
    if (*n_farrays == MAX_ARRAYS) die("too many FLOAT array parameters");
    if (fscanf(m, "%u", &count) != 1 || count > MAX_ARRAY_LEN) die("bad farray count");
    float *a = farrays[(*n_farrays)++];
    for (unsigned i = 0; i < count; ++i) {
        unsigned bits;
        if (fscanf(m, "%x", &bits) != 1) die("bad farray value");
        const uint32_t b = bits;
        memcpy(&a[i], &b, sizeof b);
    }
    const float *ptr = a;
    memcpy((unsigned char *)desc + p->offset, &ptr, sizeof ptr);
    if (p->count_name) desc_set_u32(desc, p->count_offset, count);
}

/* Reads COUNT binary32 bit patterns into st and points the STRUCT parameter `name` of
 * desc at them. */
static void set_struct(FILE *m, const dmlref_schema *s, void *desc, const char *name, float *st) {
    const dmlref_param *p = desc_param(s, name);
    unsigned count;
    if (!p) die("unknown parameter in manifest");
    if (p->kind != DMLREF_PARAM_STRUCT) die("not a struct parameter");
    if (fscanf(m, "%u", &count) != 1 || count != p->field_count || p->struct_size != count * sizeof(float))
        die("bad struct field count");
    for (unsigned i = 0; i < count; ++i) {
        unsigned bits;
        if (fscanf(m, "%x", &bits) != 1) die("bad struct field");
        const uint32_t b = bits;
        memcpy(&st[i], &b, sizeof b); /* the bits as they are (a NaN's payload too) */
    }
    const float *ptr = st;
    memcpy((unsigned char *)desc + p->offset, &ptr, sizeof ptr);
}

/* Runs one case; outputs are copied back into out_blob. */
static void run_case(unsigned long id, const dmlref_schema *sc, void *desc, unsigned fl, unsigned flags, tensor *t,
                     unsigned nt, unsigned char *out_blob) {
    DMLREF_TENSOR_DESC in_arr[MAX_TENSORS], out_arr[MAX_TENSORS];
    dmlref_cbuffer ins[MAX_TENSORS];
    dmlref_buffer outs[MAX_TENSORS];
    uint32_t ni = 0, no = 0;
    for (unsigned i = 0; i < nt; ++i) {
        if (t[i].is_output) {
            out_arr[no] = t[i].desc;
            outs[no++] = (dmlref_buffer){t[i].data, (size_t)t[i].buf.TotalTensorSizeInBytes};
        } else {
            in_arr[ni] = t[i].desc;
            ins[ni++] = (dmlref_cbuffer){t[i].data, (size_t)t[i].buf.TotalTensorSizeInBytes};
        }
    }
    if (desc_bind(sc, desc, in_arr, ni, out_arr, no)) die("the tensors do not fit the operator's slots");
    const DMLREF_OPERATOR_DESC d = {sc->type, desc};
    const dmlref_options opt = {.flags = flags, .threads = 0};
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
    static uint32_t arrays[MAX_ARRAYS][MAX_ARRAY_LEN];
    static float fields[MAX_ARRAY_LEN];
    static float farrays[MAX_ARRAYS][MAX_ARRAY_LEN];
    unsigned nt = 0, fl = 0, flags = 0, n_arrays = 0, n_farrays = 0;
    unsigned long id = 0;
    const dmlref_schema *sc = NULL;
    void *desc = NULL;
    char word[64];
    while (fscanf(m, "%63s", word) == 1) {
        if (!strcmp(word, "case")) {
            char name[64];
            if (fscanf(m, "%lu %63s %x %u", &id, name, &fl, &flags) != 4) die("bad case line");
            sc = op_schema(name);
            free(desc);
            desc = desc_alloc(sc);
            if (!desc) die("out of memory");
            nt = 0;
            n_arrays = 0;
            n_farrays = 0;
        } else if (!strcmp(word, "param")) {
            char name[64];
            long long v = 0;
            if (!desc || fscanf(m, "%63s %lld", name, &v) != 2) die("bad param line");
            set_param(sc, desc, name, v);
        } else if (!strcmp(word, "bits")) {
            char name[64];
            unsigned long long v = 0;
            if (!desc || fscanf(m, "%63s %llx", name, &v) != 2) die("bad bits line");
            set_bits(sc, desc, name, v);
        } else if (!strcmp(word, "array")) {
            char name[64];
            if (!desc || fscanf(m, "%63s", name) != 1) die("bad array line");
            set_array(m, sc, desc, name, arrays, &n_arrays);
        } else if (!strcmp(word, "farray")) {
            char name[64];
            if (!desc || fscanf(m, "%63s", name) != 1) die("bad farray line");
            set_farray(m, sc, desc, name, farrays, &n_farrays);
        } else if (!strcmp(word, "size2d")) {
            char name[64];
            unsigned w, h;
            if (!desc || fscanf(m, "%63s %u %u", name, &w, &h) != 3) die("bad size2d line");
            const dmlref_param *p = desc_param(sc, name);
            if (!p || p->kind != DMLREF_PARAM_SIZE_2D) die("not a DML_SIZE_2D parameter");
            desc_set_u32(desc, p->offset, w);
            desc_set_u32(desc, p->offset + 4, h);
        } else if (!strcmp(word, "struct")) {
            char name[64];
            if (!desc || fscanf(m, "%63s", name) != 1) die("bad struct line");
            set_struct(m, sc, desc, name, fields);
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
            if (!desc) die("run before case");
            run_case(id, sc, desc, fl, flags, t, nt, out_blob);
            for (unsigned i = 0; i < nt; ++i) free(t[i].data);
            nt = 0;
        } else {
            die("unknown manifest word");
        }
    }
    fclose(m);
    free(desc);
    FILE *o = fopen(argv[3], "wb");
    if (!o || fwrite(out_blob, 1, blob_len, o) != blob_len || fclose(o) != 0) die("cannot write BLOB_OUT");
    free(blob);
    free(out_blob);
    return 0;
}
