/*
 * dmlref check --backend 'CMD {case} {out}' PATH...: any backend, in any language,
 * run as a subprocess over exported cases (docs/cli.md, "dmlref check").  Every
 * PATH is a case file, a directory `export` wrote (manifest.json), or a directory
 * of either (what `gen` writes); a case file is exported into a work directory
 * first.  {case} is the exported directory, {out} an empty directory where the
 * backend writes <OutputTensorName>.npy per output (any shape with the output's
 * element count, or the whole buffer).  Each result is classified (case/classify.h),
 * a per-operator table closes the run, and one failing case of each class is
 * shrunk (shrink.c) into --min DIR with a repro line.  Running and classifying: check_run.c.
 */
#include "check.h"

#include "args.h"
#include "case/file_atomic.h"
#include "case/json.h"
#include "case/npy.h"
#include "case/value.h"
#include "cli.h"
#include "dirs.h"
#include "execute.h"
#include "export.h"
#include "load.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef __EMSCRIPTEN__
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#endif

static const char usage_check[] =
    "usage: dmlref check --backend 'CMD {case} {out}' PATH... [--min DIR] [--junit FILE]\n"
    "                    [--form F] [--max-runs N] [--timeout S] [--no-shrink]\n"
    "\n"
    "Runs a backend command (through /bin/sh -c; {case} and {out} are replaced by\n"
    "shell-quoted paths) once per case: {case} is a directory `dmlref export` wrote,\n"
    "{out} an empty directory where the backend writes <OutputTensorName>.npy for each\n"
    "output (its elements in the framework shape or flat, or the whole buffer).  PATH is\n"
    "a case file, an exported directory, or a directory of either (`gen`'s output).\n"
    "Every result is classified: pass, nan-payload, zero-sign, int64-53bit,\n"
    "unaddressed-bytes, other, backend-error, type-unsupported (the backend exits 77 or\n"
    "writes {out}/UNSUPPORTED), not-expressible; a table per operator follows.  One\n"
    "failing case of each class is shrunk to the smallest case that fails the same way,\n"
    "written to DIR/<op>_<NNNN>.json (and exported to DIR/<op>_<NNNN>/), with repro lines.\n"
    "\n"
    "  --backend CMD      the backend command (required)\n"
    "  --min DIR          where the minimal cases go (default check-min)\n"
    "  --junit FILE       also write the results as JUnit XML\n"
    "  --form F           the framework the backend takes (onnx, webnn, ...): a case whose\n"
    "                     manifest says \"expressible\": {F: \"reason\"} is not-expressible\n"
    "  --max-runs N       backend runs per shrunk class (default 500)\n"
    "  --timeout S        seconds per backend run before it is killed (default 60)\n"
    "  --no-shrink        classify only\n"
    "\n"
    "exit status: 0 no case failed (pass, unaddressed-bytes, type-unsupported and\n"
    "not-expressible only), 1 a case failed (a difference or backend-error), 2 or 3 a\n"
    "case file is invalid or malformed, 4 bad command line, 5 a file could not be\n"
    "written or the backend could not be started, 8 out of memory\n";

#ifdef __EMSCRIPTEN__
int cmd_check(int argc, char **argv) {
    for (int i = 0; i < argc; ++i)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_check, stdout);
            return 0;
        }
    fprintf(stderr, "dmlref check: this build cannot start processes (wasm32): run check from a native build\n");
    return CASE_USAGE;
}
#else

static int usage(const char *fmt, const char *arg) {
    fprintf(stderr, "dmlref check: ");
    fprintf(stderr, fmt, arg ? arg : "");
    fprintf(stderr, " (dmlref check --help)\n");
    return CASE_USAGE;
}

/* ---- the command ------------------------------------------------------------------- */

typedef struct item {
    char *path;   /* a case file, or an exported directory */
    int exported;
} item;

typedef struct items {
    item *v;
    size_t n, cap;
} items;

static int add_item(items *l, const char *path, int exported) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        item *v = realloc(l->v, cap * sizeof *v);
        if (!v) return CASE_OUT_OF_MEMORY;
        l->v = v;
        l->cap = cap;
    }
    if ((l->v[l->n].path = malloc(strlen(path) + 1)) == NULL) return CASE_OUT_OF_MEMORY;
    strcpy(l->v[l->n].path, path);
    l->v[l->n++].exported = exported;
    return 0;
}

static int is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_manifest(const char *dir) {
    char *p = check_join_path(dir, "manifest.json");
    struct stat st;
    int r = p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return r;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int ends_with(const char *s, const char *suf) {
    const size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

/* PATH: a case file, an exported directory, or a directory of them and of such directories
 * (sorted by name; at most 4 levels down). */
static int collect(items *l, const char *path, int depth) {
    if (!is_dir(path)) return add_item(l, path, 0);
    if (has_manifest(path)) return add_item(l, path, 1);
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "dmlref check: cannot read %s: %s\n", path, strerror(errno));
        return CASE_MALFORMED;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while (!rc && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            char **v = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *v);
            if (!v) rc = CASE_OUT_OF_MEMORY;
            else names = v;
        }
        if (!rc && (names[n] = check_join_path(path, e->d_name)) == NULL) rc = CASE_OUT_OF_MEMORY;
        if (!rc) ++n;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; ++i) {
        if (!rc && is_dir(names[i]) && has_manifest(names[i])) rc = add_item(l, names[i], 1);
        else if (!rc && is_dir(names[i]) && depth < 4) rc = collect(l, names[i], depth + 1); /* gen --suite's small/, bits/ */
        else if (!rc && !is_dir(names[i]) && ends_with(names[i], ".json")) rc = add_item(l, names[i], 0);
        free(names[i]);
    }
    free(names);
    return rc;
}

/* The operator's table row. */
typedef struct op_row {
    char op[48];
    unsigned long count[CLS_N];
} op_row;

static void xml_text(FILE *f, const char *s) {
    for (; *s; ++s) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc((unsigned char)*s >= 32 ? *s : ' ', f);
        }
    }
}

typedef struct record {
    const char *path;
    check_result r;
} record;

static int write_junit(const char *file, const record *rec, size_t n) {
    unsigned long fails = 0, errs = 0, skips = 0;
    for (size_t i = 0; i < n; ++i) {
        const check_class c = rec[i].r.cls;
        if (c == CLS_BACKEND_ERROR) ++errs;
        else if (check_class_fails(c)) ++fails;
        else if (c == CLS_TYPE_UNSUPPORTED || c == CLS_NOT_EXPRESSIBLE) ++skips;
    }
    FILE *f = fopen(file, "w");
    if (!f) {
        fprintf(stderr, "dmlref check: cannot write %s: %s\n", file, strerror(errno));
        return CASE_SYSTEM;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
               "<testsuite name=\"dmlref check\" tests=\"%zu\" failures=\"%lu\" errors=\"%lu\" skipped=\"%lu\">\n",
            n, fails, errs, skips);
    for (size_t i = 0; i < n; ++i) {
        const check_result *r = &rec[i].r;
        fputs("  <testcase classname=\"dmlref.", f);
        xml_text(f, r->op);
        fputs("\" name=\"", f);
        xml_text(f, rec[i].path);
        fputs("\">", f);
        const char *tag = r->cls == CLS_BACKEND_ERROR ? "error" : check_class_fails(r->cls) ? "failure"
                          : (r->cls == CLS_TYPE_UNSUPPORTED || r->cls == CLS_NOT_EXPRESSIBLE) ? "skipped" : NULL;
        if (tag) {
            fprintf(f, "<%s type=\"%s\" message=\"", tag, check_class_name(r->cls));
            xml_text(f, r->detail);
            fputs("\"/>", f);
        } else if (r->cls == CLS_UNADDRESSED_BYTES) {
            fputs("<system-out>unaddressed-bytes: ", f);
            xml_text(f, r->detail);
            fputs("</system-out>", f);
        }
        fputs("</testcase>\n", f);
    }
    fputs("</testsuite>\n</testsuites>\n", f);
    int bad = ferror(f) != 0;
    if (fclose(f) != 0) bad = 1;
    if (bad) {
        fprintf(stderr, "dmlref check: cannot write %s\n", file);
        return CASE_SYSTEM;
    }
    return CASE_OK;
}

static void print_table(const record *rec, size_t n) {
    op_row rows[64];
    size_t nr = 0;
    op_row total;
    memset(&total, 0, sizeof total);
    snprintf(total.op, sizeof total.op, "all");
    for (size_t i = 0; i < n; ++i) {
        size_t k = 0;
        while (k < nr && strcmp(rows[k].op, rec[i].r.op) != 0) ++k;
        if (k == nr && nr < 64) {
            memset(&rows[nr], 0, sizeof rows[nr]);
            snprintf(rows[nr].op, sizeof rows[nr].op, "%s", rec[i].r.op);
            ++nr;
        }
        if (k < nr) ++rows[k].count[rec[i].r.cls];
        ++total.count[rec[i].r.cls];
    }
    /* rows by operator name */
    for (size_t a = 1; a < nr; ++a)
        for (size_t b = a; b > 0 && strcmp(rows[b - 1].op, rows[b].op) > 0; --b) {
            op_row t = rows[b];
            rows[b] = rows[b - 1];
            rows[b - 1] = t;
        }
    printf("\n%-24s", "operator");
    for (int c = 0; c < CLS_N; ++c) printf(" %*s", (int)strlen(check_class_name((check_class)c)), check_class_name((check_class)c));
    printf("\n");
    for (size_t k = 0; k <= nr; ++k) {
        const op_row *r = k < nr ? &rows[k] : &total;
        printf("%-24s", r->op);
        for (int c = 0; c < CLS_N; ++c) printf(" %*lu", (int)strlen(check_class_name((check_class)c)), r->count[c]);
        printf("\n");
    }
}

/* The lower-case operator name into buf. */
static void lower(const char *s, char *buf, size_t cap) {
    size_t k = 0;
    for (; *s && k + 1 < cap; ++s) buf[k++] = (char)tolower((unsigned char)*s);
    buf[k] = '\0';
}

/* One class's example shrunk and written to min_dir; prints the repro lines. */
static int shrink_class(check_ctx *x, const char *min_dir, const record *rec, size_t index, unsigned max_runs) {
    const char *case_path = rec->path;
    char *src = NULL;
    int rc = 0;
    if (has_manifest(rec->path)) { /* an exported directory: the case file its manifest names */
        char *mp = check_join_path(rec->path, "manifest.json"), *text = NULL;
        size_t len;
        char err[300];
        json_doc doc;
        if (mp && case_read_file(mp, (size_t)64 << 20, &text, &len, err, sizeof err) == 0 &&
            json_parse(text, len, &doc, err, sizeof err) == JSON_OK) {
            const char *cp = jv_string(jv_get(doc.root, "case"));
            if (cp && (src = malloc(strlen(cp) + 1)) != NULL) strcpy(src, cp);
            json_free(&doc);
        }
        free(mp);
        free(text);
        struct stat st;
        if (!src || stat(src, &st) != 0 || !S_ISREG(st.st_mode)) {
            printf("shrink %s: %s: its manifest's case file %s cannot be read: not shrunk\n",
                   check_class_name(rec->r.cls), rec->path, src ? src : "(none)");
            free(src);
            return 0;
        }
        case_path = src;
    }
    shrink_result s;
    rc = check_shrink(x, case_path, rec->r.cls, max_runs, &s);
    if (rc == 0 && s.refused) {
        printf("shrink %s: %s: has an out-of-range index or a duplicate scatter target (dmlref clamps; the "
               "shrinker keeps to cases DirectML defines): not shrunk\n",
               check_class_name(rec->r.cls), case_path);
    } else if (rc == 0 && !s.reproduced) {
        printf("shrink %s: %s: the case did not fail the same way again (a backend that varies): not shrunk\n",
               check_class_name(rec->r.cls), case_path);
    } else if (rc == 0) {
        char op[48], base[80], err[512] = "";
        lower(rec->r.op, op, sizeof op);
        snprintf(base, sizeof base, "%s_%04zu", op, index);
        char *file = NULL, *dir = check_join_path(min_dir, base), *outd = NULL;
        const size_t fl = strlen(min_dir) + strlen(base) + 8;
        if ((file = malloc(fl)) != NULL) snprintf(file, fl, "%s/%s.json", min_dir, base);
        if ((outd = malloc(fl + 4)) != NULL) snprintf(outd, fl + 4, "%s/%s.out", min_dir, base);
        rc = file && dir && outd ? dir_create_path(min_dir, err, sizeof err) : CASE_OUT_OF_MEMORY;
        if (!rc) {
            const file_part part = {s.text, s.len};
            rc = file_write_atomic(file, &part, 1, err, sizeof err);
        }
        dmlref_case c;
        if (!rc && (rc = cli_load_case(file, 0, &c, CLI_VERDICT_STDERR)) == 0) {
            rc = cli_execute_case(file, &c, 0, 1);
            if (!rc) rc = check_rm_tree(dir, 0) == 0 ? export_write_dir(dir, file, &c, 0, x->forms, 0) : CASE_SYSTEM;
            case_free(&c);
        } else if (rc && err[0]) { /* creating the directory or writing the file (cli_load_case says its own) */
            fprintf(stderr, "dmlref check: %s\n", err);
            rc = case_failure(rc, CASE_SYSTEM);
        }
        if (!rc) {
            char *cmd = check_command_line(x->backend, dir, outd);
            printf("shrink %s: %s (%" PRIu64 " elements) -> %s (%" PRIu64 " elements) in %u backend runs: %s\n",
                   check_class_name(rec->r.cls), case_path, s.elements_before, file, s.elements_after, s.runs,
                   s.last.detail);
            printf("repro: dmlref run %s\n", file);
            sbuf b = {0};
            check_sb_put(&b, "mkdir -p ", 9);
            check_sb_quoted(&b, outd);
            check_sb_put(&b, " && ", 4);
            if (cmd) check_sb_put(&b, cmd, strlen(cmd));
            printf("repro: %s\n", b.oom || !cmd ? "(out of memory)" : b.p);
            free(b.p);
            free(cmd);
        }
        free(file);
        free(dir);
        free(outd);
    }
    free(s.text);
    free(src);
    return rc;
}

int cmd_check(int argc, char **argv) {
    const char *backend = NULL, *min_dir = "check-min", *junit = NULL, *form = NULL, *v;
    uint64_t max_runs = 500, timeout = 60;
    int shrink = 1, rc = 0;
    items l = {0};
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    size_t np = 0;
    if (!paths) return CASE_OUT_OF_MEMORY;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
#define OPTV(NAME) (strncmp(a, NAME, strlen(NAME)) == 0 && (a[strlen(NAME)] == '=' || a[strlen(NAME)] == '\0') && \
                    ((v = a[strlen(NAME)] == '=' ? a + strlen(NAME) + 1 : i + 1 < argc ? argv[++i] : NULL), 1))
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_check, stdout);
            free(paths);
            return 0;
        } else if (strcmp(a, "--no-shrink") == 0) {
            shrink = 0;
        } else if (OPTV("--backend")) {
            if (!v || !*v) rc = usage("--backend needs a command%s", "");
            backend = v;
        } else if (OPTV("--min")) {
            if (!v || !*v) rc = usage("--min needs a directory%s", "");
            min_dir = v;
        } else if (OPTV("--junit")) {
            if (!v || !*v) rc = usage("--junit needs a file%s", "");
            junit = v;
        } else if (OPTV("--form")) {
            if (!v || !*v) rc = usage("--form needs a framework name (onnx, webnn)%s", "");
            form = v;
        } else if (OPTV("--max-runs")) {
            if (cli_parse_u64(v, 1000000, &max_runs) || !max_runs) rc = usage("--max-runs needs a number in [1, 1000000], got '%s'", v);
        } else if (OPTV("--timeout")) {
            if (cli_parse_u64(v, 86400, &timeout) || !timeout) rc = usage("--timeout needs seconds in [1, 86400], got '%s'", v);
        } else if (a[0] == '-' && a[1] != '\0') {
            rc = usage("unknown option '%s'", a);
        } else {
            paths[np++] = a;
        }
#undef OPTV
        if (rc) {
            free(paths);
            return rc;
        }
    }
    if (!backend) rc = usage("missing --backend 'CMD {case} {out}'%s", "");
    else if (!np) rc = usage("missing PATH (case files or exported directories)%s", "");
    for (size_t i = 0; !rc && i < np; ++i) {
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            fprintf(stderr, "dmlref check: %s: %s\n", paths[i], strerror(errno));
            rc = CASE_MALFORMED;
        } else {
            rc = collect(&l, paths[i], 0);
        }
    }
    free(paths);
    check_ctx x;
    memset(&x, 0, sizeof x);
    x.backend = backend;
    x.form = form;
    x.forms = !form ? 0 : strcmp(form, "onnx") == 0 ? EXPORT_ONNX : strcmp(form, "webnn") == 0 ? EXPORT_WEBNN : 0;
    x.timeout_s = (unsigned)timeout;
    record *rec = NULL;
    if (!rc && !l.n) {
        fprintf(stderr, "dmlref check: no case files or exported directories found\n");
        rc = CASE_USAGE;
    }
    if (!rc) {
        const char *tmp = getenv("TMPDIR");
        const char *base = tmp && *tmp ? tmp : "/tmp";
        char *tmpl = check_join_path(base, "dmlref-check-XXXXXX");
        if (!tmpl || !(rec = calloc(l.n, sizeof *rec))) rc = CASE_OUT_OF_MEMORY;
        else if (!mkdtemp(tmpl)) {
            fprintf(stderr, "dmlref check: cannot create a work directory in %s: %s\n", base, strerror(errno));
            rc = CASE_SYSTEM;
        }
        x.work = tmpl;
        if (!rc) {
            x.case_dir = check_join_path(tmpl, "case");
            x.out_dir = check_join_path(tmpl, "out");
            x.cand_path = check_join_path(tmpl, "candidate.json");
            x.log_path = check_join_path(tmpl, "backend.log");
            if (!x.case_dir || !x.out_dir || !x.cand_path || !x.log_path) rc = CASE_OUT_OF_MEMORY;
        }
    }
    unsigned long failed = 0, passed = 0, skipped = 0;
    for (size_t i = 0; !rc && i < l.n; ++i) {
        rec[i].path = l.v[i].path;
        if (l.v[i].exported) {
            rc = check_run_dir(&x, l.v[i].path, &rec[i].r);
        } else {
            dmlref_case c;
            if ((rc = cli_load_case(l.v[i].path, 0, &c, CLI_VERDICT_STDERR)) == 0) {
                int index_issue = 0;
                rc = cli_execute_case_ex(l.v[i].path, &c, 0, 0, &index_issue);
                if (!rc && c.has_expected && case_compare(&c, stderr, 10) != 0) {
                    fprintf(stderr, "dmlref check: %s: dmlref's outputs differ from the case's expected\n", l.v[i].path);
                    rc = CASE_DIFFER;
                }
                if (!rc) rc = check_run_case(&x, l.v[i].path, &c, index_issue, &rec[i].r);
            }
            case_free(&c);
        }
        if (rc) break;
        const check_class cls = rec[i].r.cls;
        if (check_class_fails(cls)) ++failed;
        else if (cls == CLS_TYPE_UNSUPPORTED || cls == CLS_NOT_EXPRESSIBLE) ++skipped;
        else ++passed;
        if (cls != CLS_PASS) printf("%s %s: %s\n", check_class_name(cls), rec[i].path, rec[i].r.detail);
        fflush(stdout);
    }
    if (!rc) {
        print_table(rec, l.n);
        printf("check: %lu passed, %lu failed, %lu skipped\n", passed, failed, skipped);
        if (junit) rc = write_junit(junit, rec, l.n);
    }
    /* one example of each failing class, the first in PATH order, shrunk */
    for (int c = 0; !rc && shrink && c < CLS_N; ++c) {
        if (!check_class_fails((check_class)c)) continue;
        size_t i = 0;
        while (i < l.n && rec[i].r.cls != (check_class)c) ++i;
        if (i < l.n) rc = shrink_class(&x, min_dir, &rec[i], i, (unsigned)max_runs);
    }
    fflush(stdout);
    if (x.work) check_rm_tree(x.work, 0);
    free(x.work);
    free(x.case_dir);
    free(x.out_dir);
    free(x.cand_path);
    free(x.log_path);
    for (size_t i = 0; i < l.n; ++i) free(l.v[i].path);
    free(l.v);
    free(rec);
    if (rc) return rc;
    return failed ? CASE_DIFFER : CASE_OK;
}
#endif
