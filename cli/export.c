/*
 * dmlref export CASE.json --out DIR: the case as files any language reads
 * without JSON (docs/cli.md, "dmlref export").  For every input and output
 * tensor: its whole buffer (<T>.npy: the input's data, the output's expected
 * values), its slot map (<T>.slots.npy) and its logical view
 * (<T>.logical.npy); then manifest.json, written last, so a directory holding a
 * manifest is complete.  The expected outputs are dmlref's own, executed here:
 * when the case has `expected`, they must agree with it (exit 1 otherwise,
 * nothing written).
 */
#include "args.h"
#include "case/case.h"
#include "cli.h"
#include "dirs.h"
#include "execute.h"
#include "export.h"
#include "guard.h"
#include "load.h"
#include "manifest.h"
#include "case/npyout.h"
#include "case/value.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_export[] =
    "usage: dmlref export CASE.json --out DIR [--feature-level L] [--strict] [--threads T]\n"
    "                    [--int64-strings]\n"
    "\n"
    "Runs the case and writes it into DIR (created like mkdir -p) as .npy files and a\n"
    "manifest, so a harness in any language needs no JSON decoding.  For every input and\n"
    "output tensor T (InputTensor, OutputTensors_2, ...):\n"
    "  T.npy          the whole buffer, 1-D (inputs: the case's data; outputs: the expected\n"
    "                 values, computed by dmlref and checked against the case's `expected`)\n"
    "  T.slots.npy    uint64, in T's logical shape: each element's slot in T.npy\n"
    "  T.logical.npy  the elements alone, in T's logical shape (row-major over Sizes)\n"
    "  manifest.json  operator, feature level, parameters, every tensor's files, data type,\n"
    "                 Sizes and Strides, and the framework form (ONNX/WebNN/PyTorch shapes\n"
    "                 and parameters); written last: a directory with it is complete\n"
    "\n"
    "  --out DIR            where to write (required)\n"
    "  --feature-level L    validate at level L (e.g. 4_1) instead of the case's\n"
    "  --strict             an out-of-range index or a duplicate scatter target is an error\n"
    "  --threads T          threads for execution (0 = the library's default)\n"
    "  --int64-strings      64-bit parameter values in the manifest as \"0x...\" strings\n"
    "\n"
    "exit status: 0 ok, 1 dmlref's outputs differ from the case's `expected` (nothing\n"
    "written), 2 descriptor invalid, 3 case file unreadable or malformed, 4 bad command\n"
    "line, 5 a file could not be written, 6 too large for this host's address space,\n"
    "8 out of memory (no verdict on the case)\n";

static int usage(const char *fmt, const char *arg) {
    fprintf(stderr, "dmlref export: ");
    fprintf(stderr, fmt, arg ? arg : "");
    fprintf(stderr, " (dmlref export --help)\n");
    return CASE_USAGE;
}

typedef struct export_args {
    const char *path, *out;
    uint32_t feature_level, threads;
    int strict;
    unsigned value_flags;
} export_args;

/* "--name VALUE" or "--name=VALUE" at argv[*i]; 1 when matched (value NULL if missing). */
static int opt(int argc, char **argv, int *i, const char *name, const char **value) {
    const size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0 || (argv[*i][n] != '=' && argv[*i][n] != '\0')) return 0;
    *value = argv[*i][n] == '=' ? argv[*i] + n + 1 : *i + 1 < argc ? argv[++*i] : NULL;
    return 1;
}

/* 0, CASE_USAGE after a message, or -1 for --help (printed). */
static int parse_args(int argc, char **argv, export_args *a) {
    const char *v;
    uint64_t t;
    memset(a, 0, sizeof *a);
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_export, stdout);
            return -1;
        } else if (strcmp(argv[i], "--strict") == 0) {
            a->strict = 1;
        } else if (strcmp(argv[i], "--int64-strings") == 0) {
            a->value_flags |= VALUE_INT64_STRINGS;
        } else if (opt(argc, argv, &i, "--out", &v)) {
            if (!v || !*v) return usage("--out needs a directory%s", "");
            a->out = v;
        } else if (opt(argc, argv, &i, "--feature-level", &v)) {
            if (!v) return usage("--feature-level needs a value such as 4_1%s", "");
            if (!(a->feature_level = case_feature_level_from_name(v))) return usage("unknown feature level '%s' (1_0 ... 6_4)", v);
        } else if (opt(argc, argv, &i, "--threads", &v)) {
            if (cli_parse_u64(v, UINT32_MAX, &t)) return usage("--threads needs a number, got '%s'", v);
            a->threads = (uint32_t)t;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage("unknown option '%s'", argv[i]);
        } else if (!a->path) {
            a->path = argv[i];
        } else {
            return usage("unexpected argument '%s'", argv[i]);
        }
    }
    if (!a->path) return usage("missing CASE.json%s", "");
    if (!a->out) return usage("missing --out DIR%s", "");
    return 0;
}

/* T.npy, T.slots.npy, T.logical.npy of one tensor (its buffer: the input's data, the output's
 * result).  0, -1 or CASE_OUT_OF_MEMORY (npyout.h). */
static int write_tensor_files(const char *dir, const case_tensor *t, char *err, size_t errcap) {
    int rc = npyout_buffer(dir, t, t->data, t->total_slots, err, errcap);
    if (!rc) rc = npyout_slots(dir, t, err, errcap);
    if (!rc) rc = npyout_logical(dir, t, t->data, err, errcap);
    return rc;
}

/* An old manifest goes first: until the new one is written the directory says it is incomplete. */
static int remove_manifest(const char *dir, char *err, size_t errcap) {
    const size_t n = strlen(dir) + sizeof "/manifest.json";
    char *path = malloc(n);
    int rc = path ? 0 : CASE_OUT_OF_MEMORY;
    if (path) {
        snprintf(path, n, "%s/manifest.json", dir);
        if (remove(path) != 0 && errno != ENOENT) rc = -1;
        if (rc) snprintf(err, errcap, "cannot remove the old %s: %s", path, strerror(errno));
    } else {
        snprintf(err, errcap, "%s: out of memory", dir);
    }
    free(path);
    return rc;
}

/* Every file export writes (T.npy, T.slots.npy, T.logical.npy of each tensor, manifest.json)
 * checked against the files it read, before any is written or the old manifest removed. */
static int guard_all(const export_args *a, const dmlref_case *c, char *err, size_t errcap) {
    static const char *const suffixes[3] = {"", ".slots", ".logical"};
    const size_t n = strlen(a->out) + sizeof "/manifest.json";
    char *manifest = malloc(n);
    int bad = manifest ? 0 : CASE_OUT_OF_MEMORY;
    if (manifest) {
        snprintf(manifest, n, "%s/manifest.json", a->out);
        bad = guard_output(manifest, a->path, c, err, errcap);
    }
    free(manifest);
    for (uint32_t k = 0; !bad && k < c->n_inputs + c->n_outputs; ++k) {
        const case_tensor *t = k < c->n_inputs ? &c->inputs[k] : &c->outputs[k - c->n_inputs];
        for (int s = 0; !bad && s < 3; ++s) {
            char *p = npyout_path(a->out, t, suffixes[s]);
            bad = p ? guard_output(p, a->path, c, err, errcap) : CASE_OUT_OF_MEMORY;
            free(p);
        }
    }
    if (bad == CASE_OUT_OF_MEMORY && !err[0]) snprintf(err, errcap, "%s: out of memory", a->out);
    return bad;
}

static int write_all(const export_args *a, const dmlref_case *c) {
    char err[1024] = "";
    int bad = dir_create_path(a->out, err, sizeof err);
    if (!bad) bad = guard_all(a, c, err, sizeof err);
    if (!bad) bad = remove_manifest(a->out, err, sizeof err);
    for (uint32_t k = 0; !bad && k < c->n_inputs; ++k) bad = write_tensor_files(a->out, &c->inputs[k], err, sizeof err);
    for (uint32_t k = 0; !bad && k < c->n_outputs; ++k) bad = write_tensor_files(a->out, &c->outputs[k], err, sizeof err);
    if (!bad) bad = manifest_write(a->out, c, a->path, a->value_flags, err, sizeof err);
    if (bad) fprintf(stderr, "dmlref export: %s\n", err);
    return case_failure(bad, CASE_SYSTEM);
}

int cmd_export(int argc, char **argv) {
    export_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc < 0 ? CASE_OK : rc;
    dmlref_case c;
    if ((rc = cli_load_case(a.path, a.feature_level, &c, CLI_VERDICT_STDERR))) return rc;
    rc = cli_execute_case(a.path, &c, a.threads, a.strict);
    if (rc == CASE_OK && c.has_expected && case_compare(&c, stderr, 10) != 0) {
        fprintf(stderr, "dmlref export: %s: dmlref's outputs differ from the case's expected; nothing written\n",
                a.path);
        rc = CASE_DIFFER;
    }
    if (rc == CASE_OK) rc = write_all(&a, &c);
    case_free(&c);
    return rc;
}

int export_write_dir(const char *out, const char *case_path, const dmlref_case *c, unsigned value_flags) {
    export_args a;
    memset(&a, 0, sizeof a);
    a.path = case_path;
    a.out = out;
    a.value_flags = value_flags;
    return write_all(&a, c);
}
