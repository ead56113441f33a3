/*
 * dmlref_output_sizes over every documented example (the .json files of tests/cases, read with the
 * case library): each output's DimensionCount and Sizes as the file gives them, computed
 * from the inputs and parameters.  Then again with every output slot NULL: the same sizes,
 * except for the operators whose shape the inputs and parameters leave partly free
 * (SPLIT, ONE_HOT, DIAGONAL_MATRIX, DIAGONAL_MATRIX1 without an input, the FILL_VALUE
 * operators, SLICE_GRAD's forward input shape, MAX_UNPOOLING's unpooled shape, the RESAMPLE
 * family's free output, NONZERO_COORDINATES' output DimensionCounts and N), which must say
 * DMLREF_ERROR_NULL_POINTER.  Prints "shape: N passed, N failed".
 * Argument: the case folder (default tests/cases).
 */
#include "case/case.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

static void fail(const char *file, const char *fmt, const char *a, uint32_t k) {
    ++failed;
    printf("FAIL: %s: ", file);
    printf(fmt, a, k);
    printf("\n");
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The output slots' pointers in a copy of the desc set to NULL. */
static void null_outputs(const dmlref_schema *s, unsigned char *mem) {
    for (uint32_t i = 0; i < s->n_slots; ++i)
        if (s->slots[i].is_output) memset(mem + s->slots[i].offset, 0, sizeof(void *));
}

static int leaves_free(const dmlref_case *c) {
    return c->type == DMLREF_OPERATOR_SPLIT || c->type == DMLREF_OPERATOR_ONE_HOT ||
           c->type == DMLREF_OPERATOR_DIAGONAL_MATRIX || c->type == DMLREF_OPERATOR_FILL_VALUE_CONSTANT ||
           c->type == DMLREF_OPERATOR_FILL_VALUE_SEQUENCE ||
           (c->type == DMLREF_OPERATOR_DIAGONAL_MATRIX1 && c->n_inputs == 0) ||
           c->type == DMLREF_OPERATOR_SLICE_GRAD || c->type == DMLREF_OPERATOR_MAX_UNPOOLING ||
           c->type == DMLREF_OPERATOR_RESAMPLE || c->type == DMLREF_OPERATOR_RESAMPLE1 ||
           c->type == DMLREF_OPERATOR_RESAMPLE2 ||
           c->type == DMLREF_OPERATOR_RESAMPLE3 || /* the RESAMPLE family: Output.Sizes free (Q11.3) */
           c->type == DMLREF_OPERATOR_NONZERO_COORDINATES; /* the outputs' DimensionCounts and N (Q10.3) */
}

static void check_case(const char *dir, const char *name) {
    char path[1024], err[512];
    char *text = NULL;
    size_t len = 0;
    dmlref_case c;
    memset(&c, 0, sizeof c);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (case_read_file(path, (size_t)1 << 26, &text, &len, err, sizeof err) != 0 ||
        case_parse(text, len, dir, &c, err, sizeof err) != CASE_OK) {
        fail(name, "%s%.0u", err, 0);
        free(text);
        return;
    }
    unsigned char *mem = malloc(c.schema->desc_size);
    memcpy(mem, c.desc_mem, c.schema->desc_size);
    null_outputs(c.schema, mem);
    const DMLREF_OPERATOR_DESC bare = {c.type, mem};
    for (uint32_t k = 0; k < c.n_outputs; ++k) {
        const DMLREF_BUFFER_TENSOR_DESC *want = &c.outputs[k].buf;
        uint32_t n = 99, sizes[8];
        dmlref_error e;
        dmlref_status st = dmlref_output_sizes(&c.desc, c.feature_level, k, &n, sizes, &e);
        if (st != DMLREF_OK) fail(name, "output %s: %u", e.message, k);
        else if (n != want->DimensionCount || memcmp(sizes, want->Sizes, n * sizeof *sizes) != 0)
            fail(name, "%soutput %u: sizes differ from the file's", "", k);
        else ++passed;
        st = dmlref_output_sizes(&bare, c.feature_level, k, &n, sizes, &e);
        if (leaves_free(&c)) {
            if (st != DMLREF_ERROR_NULL_POINTER) fail(name, "%sNULL outputs, output %u: want NULL_POINTER", "", k);
            else ++passed;
        } else if (st != DMLREF_OK) fail(name, "NULL outputs: %s (output %u)", e.message, k);
        else if (n != want->DimensionCount || memcmp(sizes, want->Sizes, n * sizeof *sizes) != 0)
            fail(name, "%sNULL outputs, output %u: sizes differ from the file's", "", k);
        else ++passed;
    }
    uint32_t n, sizes[8];
    dmlref_error e;
    if (dmlref_output_sizes(&c.desc, c.feature_level, c.n_outputs, &n, sizes, &e) != DMLREF_ERROR_PARAMETER)
        fail(name, "%soutput %u (one past the last): want PARAMETER", "", c.n_outputs);
    else ++passed;
    free(mem);
    case_free(&c);
    free(text);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "tests/cases";
    DIR *d = opendir(dir);
    if (!d) {
        printf("shape: cannot open %s\nshape: 0 passed, 1 failed\n", dir);
        return 1;
    }
    char *names[1024];
    size_t count = 0;
    errno = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && count < 1024; errno = 0) {
        const size_t l = strlen(e->d_name);
        if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0) names[count++] = strdup(e->d_name);
    }
    if (errno != 0) fail(dir, "readdir: %s%.0u", strerror(errno), 0);
    closedir(d);
    qsort(names, count, sizeof names[0], cmp_name);
    for (size_t i = 0; i < count; ++i) {
        check_case(dir, names[i]);
        free(names[i]);
    }
    if (count == 0) fail(dir, "%sno case files%.0u", "", 0);
    printf("shape: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
