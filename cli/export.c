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
#include "onnx.h"
#include "webnn.h"
#include "case/file_atomic.h"
#include "case/json_out.h"
#include "case/memout.h"
#include "case/npyout.h"
#include "case/value.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_export[] =
    "usage: dmlref export CASE.json --out DIR [--onnx] [--webnn] [--feature-level L] [--strict]\n"
    "                    [--threads T] [--int64-strings]\n"
    "       dmlref export CASE.json... | SUITE_DIR... --out DIR [options]   (batch)\n"
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
    "  model.onnx, test_data_set_0/input_N.pb, output_N.pb   (--onnx) the case as an ONNX\n"
    "                 model and its data, ONNX's node-test layout (onnx_test_runner)\n"
    "  webnn.json     (--webnn) the case as a WPT WebNN conformance test\n"
    "A case ONNX or WebNN cannot express gets no model or test; the manifest says why.\n"
    "\n"
    "Batch: several case files, or directories (searched for *.json, recursively, in sorted\n"
    "order), write DIR/<NNNN>_<case file stem>/ each, numbered from 0 and zero-padded so\n"
    "they sort; a progress line every 100 cases and \"wrote N cases to DIR\" on stderr.\n"
    "\n"
    "  --out DIR            where to write (required)\n"
    "  --onnx               also the ONNX model and test data\n"
    "  --webnn              also the WebNN test (webnn.json)\n"
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
    const char *path, *out; /* this case's file and directory */
    char **paths;           /* the arguments that are not options (argv's), n_paths of them */
    uint32_t n_paths;
    uint32_t feature_level, threads;
    int strict, onnx, webnn;
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
static int parse_args(int argc, char **argv, export_args *a, char **paths) {
    const char *v;
    uint64_t t;
    memset(a, 0, sizeof *a);
    a->paths = paths;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_export, stdout);
            return -1;
        } else if (strcmp(argv[i], "--strict") == 0) {
            a->strict = 1;
        } else if (strcmp(argv[i], "--onnx") == 0) {
            a->onnx = 1;
        } else if (strcmp(argv[i], "--webnn") == 0) {
            a->webnn = 1;
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
        } else {
            a->paths[a->n_paths++] = argv[i];
        }
    }
    if (!a->n_paths) return usage("missing CASE.json%s", "");
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

/* DIR/name in a new string (NULL when out of memory). */
static char *join(const char *dir, const char *name) {
    const size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* The framework form, the ONNX model and the WebNN test of one case, built before any file is
 * written. */
typedef struct forms {
    fw_form fw;
    int has_fw;
    onnx_model onnx;
    webnn_test webnn;
} forms;

/* Every file export writes (T.npy, T.slots.npy, T.logical.npy of each tensor, manifest.json, the
 * ONNX and WebNN files) checked against the files it read, before any is written or the old
 * manifest removed. */
static int guard_all(const export_args *a, const dmlref_case *c, const forms *fm, char *err, size_t errcap) {
    static const char *const suffixes[3] = {"", ".slots", ".logical"};
    static const char *const fixed[3] = {"manifest.json", "model.onnx", "webnn.json"};
    int bad = 0;
    for (int k = 0; !bad && k < 3; ++k) {
        char *p = join(a->out, fixed[k]);
        bad = p ? guard_output(p, a->path, c, err, errcap) : CASE_OUT_OF_MEMORY;
        free(p);
    }
    for (uint32_t k = 0; !bad && k < c->n_inputs + c->n_outputs; ++k) {
        const case_tensor *t = k < c->n_inputs ? &c->inputs[k] : &c->outputs[k - c->n_inputs];
        for (int s = 0; !bad && s < 3; ++s) {
            char *p = npyout_path(a->out, t, suffixes[s]);
            bad = p ? guard_output(p, a->path, c, err, errcap) : CASE_OUT_OF_MEMORY;
            free(p);
        }
        if (!bad && fm->onnx.expressible) {
            char name[64];
            const int is_out = k >= c->n_inputs;
            snprintf(name, sizeof name, "test_data_set_0/%s_%u.pb", is_out ? "output" : "input",
                     (unsigned)(is_out ? k - c->n_inputs : k));
            char *p = join(a->out, name);
            bad = p ? guard_output(p, a->path, c, err, errcap) : CASE_OUT_OF_MEMORY;
            free(p);
        }
    }
    if (bad == CASE_OUT_OF_MEMORY && !err[0]) snprintf(err, errcap, "%s: out of memory", a->out);
    return bad;
}

/* A file of an earlier export that this one does not write (model.onnx of a case that is no
 * longer expressible) goes, so the directory never holds a model of another case. */
static int remove_stale(const char *dir, const char *name, char *err, size_t errcap) {
    char *p = join(dir, name);
    if (!p) {
        snprintf(err, errcap, "%s: out of memory", dir);
        return CASE_OUT_OF_MEMORY;
    }
    int rc = 0;
    if (remove(p) != 0 && errno != ENOENT) {
        snprintf(err, errcap, "cannot remove the old %s: %s", p, strerror(errno));
        rc = -1;
    }
    free(p);
    return rc;
}

/* The manifest's "onnx" and "webnn" entries (export --onnx, --webnn). */
static void write_entries(FILE *f, const export_args *a, const forms *fm) {
    if (a->onnx) {
        fputs(",\n  \"onnx\": ", f);
        if (fm->onnx.expressible) {
            fprintf(f, "{\"expressible\": true, \"opset\": %d, \"graph\": ", fm->onnx.opset);
            jout_string(f, fm->onnx.graph);
            fputs(", \"model\": \"model.onnx\", \"test_data\": \"test_data_set_0\"}", f);
        } else {
            fputs("{\"expressible\": false, \"reason\": ", f);
            jout_string(f, fm->onnx.why);
            fputc('}', f);
        }
    }
    if (a->webnn) {
        fputs(",\n  \"webnn\": ", f);
        if (fm->webnn.expressible) {
            fputs("{\"expressible\": true, \"operators\": ", f);
            jout_string(f, fm->webnn.ops);
            fputs(", \"test\": \"webnn.json\"}", f);
        } else {
            fputs("{\"expressible\": false, \"reason\": ", f);
            jout_string(f, fm->webnn.why);
            fputc('}', f);
        }
    }
}

static int write_all(const export_args *a, const dmlref_case *c, const forms *fm) {
    char err[1024] = "";
    int bad = dir_create_path(a->out, err, sizeof err);
    if (!bad) bad = guard_all(a, c, fm, err, sizeof err);
    if (!bad) bad = remove_manifest(a->out, err, sizeof err);
    for (uint32_t k = 0; !bad && k < c->n_inputs; ++k) bad = write_tensor_files(a->out, &c->inputs[k], err, sizeof err);
    for (uint32_t k = 0; !bad && k < c->n_outputs; ++k) bad = write_tensor_files(a->out, &c->outputs[k], err, sizeof err);
    if (!bad && a->onnx && fm->onnx.expressible) bad = onnx_write(a->out, c, &fm->fw, &fm->onnx, err, sizeof err);
    else if (!bad && a->onnx) bad = remove_stale(a->out, "model.onnx", err, sizeof err);
    if (!bad && a->webnn && fm->webnn.expressible) {
        char *p = join(a->out, "webnn.json");
        const file_part part = {fm->webnn.text, fm->webnn.len};
        bad = p ? file_write_atomic(p, &part, 1, err, sizeof err) : CASE_OUT_OF_MEMORY;
        free(p);
    } else if (!bad && a->webnn) {
        bad = remove_stale(a->out, "webnn.json", err, sizeof err);
    }
    char *extra = NULL;
    if (!bad && (a->onnx || a->webnn)) {
        memout m;
        bad = memout_open(&m);
        if (!bad) {
            write_entries(m.f, a, fm);
            bad = memout_close(&m);
            extra = m.text;
        }
    }
    if (!bad) bad = manifest_write(a->out, c, a->path, a->value_flags, extra, err, sizeof err);
    free(extra);
    if (bad == CASE_OUT_OF_MEMORY && !err[0]) snprintf(err, sizeof err, "%s: out of memory", a->out);
    if (bad) fprintf(stderr, "dmlref export: %s\n", err);
    return case_failure(bad, CASE_SYSTEM);
}

/* Builds the forms the options ask for.  0 or CASE_OUT_OF_MEMORY (a message printed). */
static int build_forms(const export_args *a, const dmlref_case *c, int index_issue, forms *fm) {
    memset(fm, 0, sizeof *fm);
    fm->fw.in = calloc(c->n_inputs + 1, sizeof *fm->fw.in);
    fm->fw.out = calloc(c->n_outputs + 1, sizeof *fm->fw.out);
    int rc = fm->fw.in && fm->fw.out ? 0 : CASE_OUT_OF_MEMORY;
    if (!rc) {
        const int frc = framework_form(c, &fm->fw);
        if (frc == CASE_OUT_OF_MEMORY) rc = frc;
        fm->has_fw = frc == 0;
    }
    const fw_form *f = fm->has_fw ? &fm->fw : NULL;
    if (!rc && a->onnx) rc = onnx_build(c, f, index_issue, &fm->onnx);
    if (!rc && a->webnn) {
        const char *slash = strrchr(a->path, '/');
        rc = webnn_build(c, f, index_issue, slash ? slash + 1 : a->path, &fm->webnn);
    }
    if (rc) fprintf(stderr, "dmlref export: %s: out of memory building the ONNX or WebNN form\n", a->path);
    return rc;
}

static void free_forms(forms *fm) {
    onnx_model_free(&fm->onnx);
    webnn_test_free(&fm->webnn);
    free(fm->fw.in);
    free(fm->fw.out);
}

/* One case: a->path into a->out.  The exit status; *onnx_ok, *webnn_ok count what was written. */
static int export_one(const export_args *a, uint32_t *onnx_ok, uint32_t *webnn_ok) {
    dmlref_case c;
    int rc, index_issue = 0;
    if ((rc = cli_load_case(a->path, a->feature_level, &c, CLI_VERDICT_STDERR))) return rc;
    rc = cli_execute_case_ex(a->path, &c, a->threads, a->strict, &index_issue);
    if (rc == CASE_OK && c.has_expected && case_compare(&c, stderr, 10) != 0) {
        fprintf(stderr, "dmlref export: %s: dmlref's outputs differ from the case's expected; nothing written\n",
                a->path);
        rc = CASE_DIFFER;
    }
    forms fm;
    memset(&fm, 0, sizeof fm);
    if (rc == CASE_OK) rc = build_forms(a, &c, index_issue, &fm);
    if (rc == CASE_OK) rc = write_all(a, &c, &fm);
    if (rc == CASE_OK) {
        *onnx_ok += fm.onnx.expressible != 0;
        *webnn_ok += fm.webnn.expressible != 0;
    }
    free_forms(&fm);
    case_free(&c);
    return rc;
}

/* ---- batch ---------------------------------------------------------------------------------- */

typedef struct path_list {
    char **v;
    uint32_t n, cap;
} path_list;

static int add_path(path_list *l, const char *p) {
    if (l->n == l->cap) {
        const uint32_t cap = l->cap ? 2 * l->cap : 64;
        char **v = cap > l->cap ? realloc(l->v, cap * sizeof *v) : NULL;
        if (!v) return CASE_OUT_OF_MEMORY;
        l->v = v;
        l->cap = cap;
    }
    if (!(l->v[l->n] = malloc(strlen(p) + 1))) return CASE_OUT_OF_MEMORY;
    strcpy(l->v[l->n++], p);
    return 0;
}

static int by_name(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

static int is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory that is not a symbolic link (the search does not follow links to directories, so
 * a link loop cannot multiply it). */
static int is_real_dir(const char *p) {
    struct stat st;
    return lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The *.json files under dir, recursively (not manifest.json or webnn.json: export's own; not
 * through symbolic links to directories; at most 16 levels down), in sorted order of their paths.  0, CASE_MALFORMED with a message, or CASE_OUT_OF_MEMORY. */
static int list_dir(const char *dir, path_list *l, int depth) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "dmlref export: cannot read %s: %s\n", dir, strerror(errno));
        return CASE_MALFORMED;
    }
    path_list here = {0};
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        char *p = join(dir, e->d_name);
        if (!p) rc = CASE_OUT_OF_MEMORY;
        else rc = add_path(&here, p);
        free(p);
    }
    closedir(d);
    if (here.n) qsort(here.v, here.n, sizeof *here.v, by_name);
    for (uint32_t k = 0; !rc && k < here.n; ++k) {
        const char *p = here.v[k], *slash = strrchr(p, '/');
        const char *name = slash ? slash + 1 : p;
        const size_t n = strlen(name);
        if (is_real_dir(p)) {
            if (depth < 16) rc = list_dir(p, l, depth + 1);
        } else if (n > 5 && strcmp(name + n - 5, ".json") == 0 && strcmp(name, "manifest.json") != 0 &&
                   strcmp(name, "webnn.json") != 0) {
            rc = add_path(l, p);
        }
    }
    for (uint32_t k = 0; k < here.n; ++k) free(here.v[k]);
    free(here.v);
    if (rc == CASE_OUT_OF_MEMORY) fprintf(stderr, "dmlref export: %s: out of memory listing the cases\n", dir);
    return rc;
}

/* Every case into DIR/<NNNN>_<stem>/: the first failing case's status (after trying the rest;
 * out of memory stops at once), "wrote N cases to DIR" on stderr. */
static int export_batch(export_args *a) {
    path_list l = {0};
    int rc = 0;
    for (uint32_t k = 0; !rc && k < a->n_paths; ++k) {
        if (is_dir(a->paths[k])) rc = list_dir(a->paths[k], &l, 0);
        else if ((rc = add_path(&l, a->paths[k])) != 0) fprintf(stderr, "dmlref export: out of memory\n");
    }
    const char *out = a->out;
    uint32_t width = 4, written = 0, onnx_ok = 0, webnn_ok = 0;
    for (uint32_t n = l.n; n >= 10000; n /= 10) ++width;
    int first = rc;
    for (uint32_t k = 0; rc != CASE_OUT_OF_MEMORY && k < l.n; ++k) {
        const char *p = l.v[k], *slash = strrchr(p, '/');
        const char *stem = slash ? slash + 1 : p;
        size_t n = strlen(stem);
        if (n > 5 && strcmp(stem + n - 5, ".json") == 0) n -= 5;
        const size_t cap = strlen(out) + n + 32;
        char *dir = malloc(cap);
        if (!dir) {
            fprintf(stderr, "dmlref export: out of memory\n");
            rc = CASE_OUT_OF_MEMORY;
        } else {
            snprintf(dir, cap, "%s/%0*u_%.*s", out, (int)width, (unsigned)k, (int)n, stem);
            a->path = p;
            a->out = dir;
            rc = export_one(a, &onnx_ok, &webnn_ok);
            a->out = out;
            written += rc == CASE_OK;
        }
        free(dir);
        if (rc && !first) first = rc;
        if ((k + 1) % 100 == 0 || k + 1 == l.n)
            fprintf(stderr, "dmlref export: %u/%u cases\n", (unsigned)(k + 1), (unsigned)l.n);
    }
    fprintf(stderr, "dmlref export: wrote %u cases to %s", (unsigned)written, out);
    if (a->onnx) fprintf(stderr, "; ONNX: %u models, %u not expressible", (unsigned)onnx_ok, (unsigned)(written - onnx_ok));
    if (a->webnn)
        fprintf(stderr, "; WebNN: %u tests, %u not expressible", (unsigned)webnn_ok, (unsigned)(written - webnn_ok));
    if (written != l.n) fprintf(stderr, "; %u failed", (unsigned)(l.n - written));
    fputc('\n', stderr);
    for (uint32_t k = 0; k < l.n; ++k) free(l.v[k]);
    free(l.v);
    return rc == CASE_OUT_OF_MEMORY ? rc : first;
}

int cmd_export(int argc, char **argv) {
    export_args a;
    char **paths = malloc(((size_t)argc + 1) * sizeof *paths);
    if (!paths) {
        fprintf(stderr, "dmlref export: out of memory\n");
        return CASE_OUT_OF_MEMORY;
    }
    int rc = parse_args(argc, argv, &a, paths);
    if (rc == 0) {
        uint32_t onnx_ok = 0, webnn_ok = 0;
        if (a.n_paths == 1 && !is_dir(a.paths[0])) {
            a.path = a.paths[0];
            rc = export_one(&a, &onnx_ok, &webnn_ok);
        } else {
            rc = export_batch(&a);
        }
    }
    free(paths);
    return rc < 0 ? CASE_OK : rc;
}

int export_write_dir(const char *out, const char *case_path, const dmlref_case *c, unsigned value_flags,
                     unsigned forms_wanted, int index_issue) {
    export_args a;
    memset(&a, 0, sizeof a);
    a.path = case_path;
    a.out = out;
    a.value_flags = value_flags;
    a.onnx = (forms_wanted & EXPORT_ONNX) != 0;
    a.webnn = (forms_wanted & EXPORT_WEBNN) != 0;
    forms fm;
    int rc = build_forms(&a, c, index_issue, &fm);
    if (!rc) rc = write_all(&a, c, &fm);
    free_forms(&fm);
    return rc;
}
