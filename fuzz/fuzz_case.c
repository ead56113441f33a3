/*
 * libFuzzer target: the case-file reader of the `dmlref` command (JSON case
 * files and .npy), through the entries the command uses: case_parse_ex and
 * npy_parse (case/case.h, case/npy.h), then what `dmlref run` does with a case
 * that parsed: execute with the checking option, rerun on an index error,
 * compare with `expected`, print the outputs.
 *
 * Input: a JSON case, optionally followed by the line "#NPY" and the bytes of
 * a .npy file.  The .npy bytes always go through npy_parse; they are also
 * written to a private temporary directory as "a.npy", which the JSON may
 * reference ({"npy": "a.npy"}) because that directory is the case's base
 * directory.  An input that starts with the .npy magic is a .npy file only.
 *
 * Checked (abort() on violation): return codes are those docs/case-format.md
 * lists, every failure has a message, a parsed case validates and binds
 * buffers at least TotalTensorSizeInBytes long, a parsed .npy array's data
 * lies inside the input, and nothing crashes, leaks or overruns (ASan/UBSan).
 *
 * FUZZ_CASE_VERBOSE=1 in the environment prints each input's parse result.
 */
#include "case/case.h"
#include "case/npy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CASE_BYTES (UINT64_C(1) << 20) /* buffers of one case together */

#define FAIL(...)                                   \
    do {                                            \
        fprintf(stderr, "fuzz_case: " __VA_ARGS__); \
        fputc('\n', stderr);                        \
        abort();                                    \
    } while (0)

static char tmpdir[64], npy_path[96];
static FILE *devnull;

static void cleanup(void) {
    if (npy_path[0]) unlink(npy_path);
    if (tmpdir[0]) rmdir(tmpdir);
    if (devnull) fclose(devnull);
}

static void setup(void) {
    if (tmpdir[0]) return;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/fuzz_case.XXXXXX");
    if (!mkdtemp(tmpdir)) FAIL("mkdtemp failed");
    snprintf(npy_path, sizeof npy_path, "%s/a.npy", tmpdir);
    devnull = fopen("/dev/null", "w");
    if (!devnull) FAIL("cannot open /dev/null");
    atexit(cleanup);
}

static void check_npy(const uint8_t *data, size_t size) {
    npy_array a;
    char err[256];
    err[0] = '\0';
    if (npy_parse(data, size, &a, err, sizeof err) != 0) {
        if (!err[0]) FAIL("npy_parse failed without a message");
        return;
    }
    const uint8_t *p = a.data;
    if (a.esize == 0 || a.esize != dmlref_data_type_size(a.dtype)) FAIL("npy: element size %u for dtype %d", a.esize, (int)a.dtype);
    if (a.data_bytes / a.esize != a.count || a.data_bytes % a.esize) FAIL("npy: data_bytes != count * esize");
    if (a.data_bytes && (p < data || p > data + size || a.data_bytes > (size_t)(data + size - p)))
        FAIL("npy: the array's data lies outside the input");
}

/* What `dmlref run` does with a parsed case. */
static void run_case(dmlref_case *c) {
    if (dmlref_validate(&c->desc, c->feature_level, NULL) != DMLREF_OK) FAIL("a parsed case does not validate");
    for (uint32_t k = 0; k < c->n_inputs; ++k)
        if ((uint64_t)c->in_bufs[k].size < c->inputs[k].buf.TotalTensorSizeInBytes || !c->in_bufs[k].data)
            FAIL("input %u is bound to %zu bytes, below TotalTensorSizeInBytes", k, c->in_bufs[k].size);
    for (uint32_t k = 0; k < c->n_outputs; ++k)
        if ((uint64_t)c->out_bufs[k].size < c->outputs[k].buf.TotalTensorSizeInBytes || !c->out_bufs[k].data)
            FAIL("output %u is bound to %zu bytes, below TotalTensorSizeInBytes", k, c->out_bufs[k].size);

    const dmlref_options checking = {.flags = DMLREF_OPTION_CHECK_INDICES, .threads = 1}, plain = {.flags = 0, .threads = 1};
    dmlref_error err;
    dmlref_status st = dmlref_run(&c->desc, c->feature_level, &checking, c->in_bufs, c->n_inputs, c->out_bufs,
                                  c->n_outputs, &err);
    if (st == DMLREF_ERROR_INDEX_OUT_OF_RANGE || st == DMLREF_ERROR_DUPLICATE_INDEX)
        st = dmlref_run(&c->desc, c->feature_level, &plain, c->in_bufs, c->n_inputs, c->out_bufs, c->n_outputs, &err);
    if (st != DMLREF_OK && st != DMLREF_ERROR_OUT_OF_MEMORY)
        FAIL("executing a parsed case: %s: %s", dmlref_status_name(st), err.message);
    case_compare(c, devnull, 3);
    case_print_outputs(c, devnull);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    setup();
    if (size >= 6 && memcmp(data, "\x93NUMPY", 6) == 0) {
        check_npy(data, size);
        return 0;
    }
    size_t json_len = size;
    static const char sep[] = "\n#NPY\n";
    const uint8_t *npy = NULL;
    for (size_t i = 0; i + sizeof sep - 1 <= size; ++i)
        if (memcmp(data + i, sep, sizeof sep - 1) == 0) {
            json_len = i;
            npy = data + i + sizeof sep - 1;
            break;
        }
    const size_t npy_len = npy ? size - (size_t)(npy - data) : 0;
    if (npy) {
        check_npy(npy, npy_len);
        FILE *f = fopen(npy_path, "wb");
        if (!f) FAIL("cannot write %s", npy_path);
        if (npy_len) fwrite(npy, 1, npy_len, f);
        fclose(f);
    } else {
        unlink(npy_path);
    }

    /* a private NUL-terminated copy, exactly sized */
    char *text = malloc(json_len + 1);
    if (!text) abort();
    memcpy(text, data, json_len);
    text[json_len] = '\0';

    const case_options opts = {tmpdir, 0, MAX_CASE_BYTES, NULL, NULL, NULL, NULL};
    dmlref_case c;
    char err[512];
    const int rc = case_parse_ex(text, json_len, &opts, &c, err, sizeof err);
    if (rc != CASE_OK && rc != CASE_INVALID && rc != CASE_MALFORMED) FAIL("case_parse_ex returned %d", rc);
    if (rc != CASE_OK && !err[0]) FAIL("case_parse_ex returned %d without a message", rc);
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_CASE_VERBOSE") != NULL;
    if (verbose) fprintf(stderr, "case_parse_ex: %d %s\n", rc, rc ? err : "");
    if (rc == CASE_OK) run_case(&c);
    case_free(&c);
    free(text);
    return 0;
}
