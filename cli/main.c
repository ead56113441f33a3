/*
 * dmlref: the command-line face of the library (docs/case-format.md).
 *
 *   dmlref run CASE.json [--npy DIR] [--logical] [--int64-strings] [--strict]
 *                        [--feature-level L] [--threads T]
 *   dmlref validate CASE.json [--feature-level L]
 *   dmlref bench CASE.json [--repeat N] [--threads T]
 *   dmlref gen --operator OP --count N --seed S --out DIR
 *   dmlref export CASE.json... --out DIR [--onnx] [--webnn]
 *
 * Exit status: 0 ok, 1 outputs differ from `expected`, 2 descriptor invalid
 * (or, with --strict, an index out of range / duplicate scatter target),
 * 3 case file unreadable or malformed, 4 bad command line, 5 an output file
 * could not be written or another system failure, 6 the descriptor is valid
 * but a buffer is larger than this host can address (32-bit hosts), 7 dmlref
 * cannot verify the descriptor, 8 out of memory (no verdict on the case).
 */
#include "args.h"
#include "case/case.h"
#include "cli.h"
#include "dirs.h"
#include "execute.h"
#include "guard.h"
#include "load.h"
#include "case/npy.h"
#include "case/npyout.h"
#include "case/print.h"
#include "case/value.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_main[] =
    "usage: dmlref <command> [options]\n"
    "\n"
    "commands:\n"
    "  run CASE.json [--npy DIR] [--logical] [--int64-strings] [--strict] [--feature-level L]\n"
    "      [--threads T]  validate, execute, print the outputs, compare with `expected`\n"
    "  validate CASE.json... [--feature-level L] [--json]\n"
    "                     check the descriptor only; prints `valid` or the error\n"
    "  bench CASE.json [--repeat N] [--threads T]\n"
    "                     time dmlref_execute alone; prints JSON\n"
    "  gen --operator OP --count N --seed S --out DIR\n"
    "                     write N random valid cases with `expected` (a golden suite)\n"
    "  export CASE.json... --out DIR [--onnx] [--webnn]\n"
    "                     the case as .npy files (buffers, slot maps, logical views) and a\n"
    "                     manifest with the framework form: golden files for any harness;\n"
    "                     with --onnx an ONNX model and its test data, with --webnn a WPT\n"
    "                     WebNN test; many cases or a suite directory in one batch\n"
    "  check --backend 'CMD {case} {out}' PATH...\n"
    "                     run a backend over cases, classify every result, shrink failures\n"
    "\n"
    "  dmlref <command> --help   details of one command\n"
    "  dmlref --version          the library version\n"
    "\n"
    "exit status: 0 ok, 1 outputs differ, 2 descriptor invalid, 3 case file unreadable\n"
    "or malformed, 4 bad command line, 5 output not written / system failure, 6 valid but\n"
    "too large for this host's address space, 7 cannot verify, 8 out of memory (no verdict)\n";

static const char usage_run[] =
    "usage: dmlref run CASE.json [--npy DIR] [--logical] [--int64-strings] [--strict]\n"
    "                            [--feature-level L] [--threads T]\n"
    "\n"
    "Validates the case's descriptor, executes it, prints every output buffer whole\n"
    "(TotalTensorSizeInBytes / element size slots, in memory order) as JSON on stdout and\n"
    "compares outputs with the case's `expected` lists byte for byte.  Output buffers start\n"
    "as 0xCD bytes unless the case gives them data.\n"
    "\n"
    "  --npy DIR            write DIR/OutputTensor.npy (or DIR/OutputTensors_<i>.npy) instead\n"
    "                       of printing; each whole buffer as a 1-D array, written atomically;\n"
    "                       DIR is created like mkdir -p\n"
    "  --logical            each output in its logical shape: only the elements, row-major over\n"
    "                       Sizes (JSON: nested lists, no Strides; --npy: DIR/<T>.logical.npy)\n"
    "  --int64-strings      INT64 and UINT64 values as \"0x...\" bit patterns (16 hex digits), for\n"
    "                       JavaScript's JSON.parse, which rounds numbers beyond 2^53\n"
    "  --strict             an out-of-range index or a duplicate scatter target is an error\n"
    "                       (exit 2) instead of a warning (indices are clamped, last update wins)\n"
    "  --feature-level L    validate at level L (e.g. 4_1) instead of the case's\n"
    "  --threads T          threads for execution (0 = the library's default)\n"
    "\n"
    "exit status: 0 ok, 1 outputs differ from `expected`, 2 descriptor invalid, 3 case file\n"
    "unreadable or malformed, 4 bad command line, 5 an output file could not be written,\n"
    "6 valid but a buffer is too large for this host's address space, 8 out of memory\n";

static const char usage_validate[] =
    "usage: dmlref validate CASE.json... [--feature-level L] [--json]\n"
    "\n"
    "Reads the case (structure, descriptor, data) and validates the descriptor with the\n"
    "library at the case's feature level (or L).  Prints `valid` on stdout, or the\n"
    "library's message naming the operator, the field and the rule.  With several cases,\n"
    "one line each, led by `CASE.json: ` (with --json, an object whose \"case\" is the path);\n"
    "a case with no verdict (unreadable, malformed, out of memory) prints no line there,\n"
    "only its message on stderr.\n"
    "\n"
    "  --json               print the verdict as one JSON object: {\"valid\": true}, or\n"
    "                       {\"valid\": false, \"status\": \"DMLREF_ERROR_...\", \"rule\": \"G9\",\n"
    "                       \"field\": \"IndicesTensor.Sizes\", \"message\": \"...\"}\n"
    "\n"
    "exit status (with several cases, the first case's that is not 0): 0 valid, 2 invalid,\n"
    "3 case file unreadable or malformed, 4 bad command line,\n"
    "6 valid, but reading its data needs a buffer larger than this host can address,\n"
    "7 cannot verify (no verdict), 8 out of memory (no verdict)\n";

/* "--name VALUE" or "--name=VALUE" at argv[*i]; 1 when matched (value or NULL if missing). */
static int opt(int argc, char **argv, int *i, const char *name, const char **value) {
    const size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return 0;
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return 1;
    }
    if (argv[*i][n] != '\0') return 0;
    *value = *i + 1 < argc ? argv[++*i] : NULL;
    return 1;
}

static int usage_error(const char *cmd, const char *fmt, const char *arg) {
    fprintf(stderr, "dmlref %s: ", cmd);
    fprintf(stderr, fmt, arg ? arg : "");
    fprintf(stderr, " (dmlref %s --help)\n", cmd);
    return CASE_USAGE;
}

static int parse_level(const char *cmd, const char *v, uint32_t *fl) {
    if (!v) return usage_error(cmd, "--feature-level needs a value such as 4_1%s", "");
    *fl = case_feature_level_from_name(v);
    if (!*fl) return usage_error(cmd, "unknown feature level '%s' (1_0 ... 6_4)", v);
    return 0;
}

/* DIR/<slot>.npy (whole buffers) or DIR/<slot>.logical.npy (logical views) for every output. */
static int write_npy_outputs(const char *dir, const char *case_path, const dmlref_case *c, int logical) {
    char err[1024];
    int bad = dir_create_path(dir, err, sizeof err);
    /* none of them over the case file or an .npy input: checked before any is written */
    for (uint32_t k = 0; !bad && k < c->n_outputs; ++k) {
        char *p = npyout_path(dir, &c->outputs[k], logical ? ".logical" : "");
        bad = p ? guard_output(p, case_path, c, err, sizeof err) : CASE_OUT_OF_MEMORY;
        if (!p) snprintf(err, sizeof err, "%s: out of memory", dir);
        free(p);
    }
    for (uint32_t k = 0; !bad && k < c->n_outputs; ++k) {
        const case_tensor *t = &c->outputs[k];
        bad = logical ? npyout_logical(dir, t, t->data, err, sizeof err)
                      : npyout_buffer(dir, t, t->data, t->total_slots, err, sizeof err);
    }
    if (bad) fprintf(stderr, "dmlref: %s\n", err);
    return case_failure(bad, CASE_SYSTEM);
}

static int cmd_run(int argc, char **argv) {
    const char *path = NULL, *npy_dir = NULL, *v;
    uint32_t fl = 0, threads = 0;
    int strict = 0, logical = 0, rc;
    unsigned flags = 0;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_run, stdout);
            return 0;
        } else if (strcmp(argv[i], "--strict") == 0) {
            strict = 1;
        } else if (strcmp(argv[i], "--logical") == 0) {
            logical = 1;
        } else if (strcmp(argv[i], "--int64-strings") == 0) {
            flags |= VALUE_INT64_STRINGS;
        } else if (opt(argc, argv, &i, "--npy", &v)) {
            if (!v || !*v) return usage_error("run", "--npy needs a directory%s", "");
            npy_dir = v;
        } else if (opt(argc, argv, &i, "--feature-level", &v)) {
            if ((rc = parse_level("run", v, &fl))) return rc;
        } else if (opt(argc, argv, &i, "--threads", &v)) {
            uint64_t t;
            if (cli_parse_u64(v, UINT32_MAX, &t)) return usage_error("run", "--threads needs a number, got '%s'", v);
            threads = (uint32_t)t;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error("run", "unknown option '%s'", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else {
            return usage_error("run", "unexpected argument '%s'", argv[i]);
        }
    }
    if (!path) return usage_error("run", "missing CASE.json%s", "");
    dmlref_case c;
    if ((rc = cli_load_case(path, fl, &c, 0))) return rc;
    rc = cli_execute_case(path, &c, threads, strict);
    if (rc == CASE_OK && npy_dir) {
        rc = write_npy_outputs(npy_dir, path, &c, logical);
    } else if (rc == CASE_OK && case_print_outputs_ex(&c, stdout, flags | (logical ? PRINT_LOGICAL : 0))) {
        fprintf(stderr, "dmlref: %s: out of memory for the logical views\n", path);
        rc = CASE_OUT_OF_MEMORY;
    }
    if (rc == CASE_OK && c.has_expected && case_compare(&c, stderr, 10) != 0) {
        fprintf(stderr, "dmlref: %s: outputs differ from expected\n", path);
        rc = CASE_DIFFER;
    }
    case_free(&c);
    return rc; /* a failed write to stdout: main's finish() */
}

static int cmd_validate(int argc, char **argv) {
    const char *v;
    uint32_t fl = 0;
    int rc, json = 0, n = 0;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_validate, stdout);
            return 0;
        } else if (opt(argc, argv, &i, "--feature-level", &v)) {
            if ((rc = parse_level("validate", v, &fl))) return rc;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error("validate", "unknown option '%s'", argv[i]);
        } else {
            argv[n++] = argv[i]; /* the cases, gathered at the front (n <= i) */
        }
    }
    if (n == 0) return usage_error("validate", "missing CASE.json%s", "");
    /* the verdicts go to stdout, one line per case (naming it when there are several); a
     * malformed file is reported on stderr; the exit status is the first case's that is not 0 */
    const int named = n > 1 ? CLI_VERDICT_NAMED : 0;
    int first = CASE_OK;
    for (int i = 0; i < n; ++i) {
        const char *path = argv[i];
        dmlref_case c;
        rc = cli_load_case(path, fl, &c, (json ? CLI_VERDICT_JSON : CLI_VERDICT_TEXT) | named);
        if (rc == CASE_OK && json) cli_print_valid_json(named ? path : NULL);
        else if (rc == CASE_OK) printf("%s%svalid\n", named ? path : "", named ? ": " : "");
        case_free(&c);
        if (first == CASE_OK) first = rc;
    }
    return first;
}

/* What every command's standard output came to: a write that failed (a full disk, a closed
 * descriptor) is exit 5 with a message, whatever the command found; printed text is its result. */
static int finish(int rc) {
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        fprintf(stderr, "dmlref: cannot write standard output%s%s\n", e ? ": " : "", e ? strerror(e) : "");
        rc = CASE_SYSTEM;
    }
    return rc;
}

static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage_main, stderr);
        return CASE_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        /* the library linked (its run-time version) and the host it runs on,
         * for bug reports: verdicts and files do not depend on the host */
        printf("dmlref %s (library %s; host: %u-bit, %s-endian)\n", DMLREF_VERSION_STRING, dmlref_version(),
               (unsigned)(8 * sizeof(void *)), host_big_endian() ? "big" : "little");
        return 0;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_main, stdout);
        return 0;
    }
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
    if (strcmp(cmd, "validate") == 0) return cmd_validate(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 2, argv + 2);
    if (strcmp(cmd, "gen") == 0) return cmd_gen(argc - 2, argv + 2);
    if (strcmp(cmd, "export") == 0) return cmd_export(argc - 2, argv + 2);
    if (strcmp(cmd, "check") == 0) return cmd_check(argc - 2, argv + 2);
    fprintf(stderr, "dmlref: unknown command '%s'\n\n%s", cmd, usage_main);
    return CASE_USAGE;
}

int main(int argc, char **argv) { return finish(dispatch(argc, argv)); }
