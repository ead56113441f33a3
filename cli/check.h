/*
 * dmlref check (check.c) and its shrinker (shrink.c): a backend command run over
 * exported cases, every result classified (case/classify.h), and one failing case
 * of each class shrunk to the smallest that still fails the same way.
 */
#ifndef DMLREF_CLI_CHECK_H
#define DMLREF_CLI_CHECK_H

#include "case/case.h"
#include "case/classify.h"

#include <stddef.h>
#include <stdint.h>

typedef struct check_ctx {
    const char *backend;  /* the command, with {case} and {out}                      */
    const char *form;     /* --form: "onnx", "webnn", ... (the manifest's "expressible"), or NULL */
    unsigned forms;       /* EXPORT_ONNX, EXPORT_WEBNN: what {case} holds besides the .npy files */
    unsigned timeout_s;   /* per backend run                                         */
    char *work;           /* the work directory (removed at the end)                 */
    char *case_dir;       /* work/case: the {case} of a case file's run              */
    char *out_dir;        /* work/out: the {out} of every run                        */
    char *cand_path;      /* work/candidate.json: the shrinker's current candidate    */
    char *log_path;       /* work/backend.log: the backend's stdout and stderr       */
    unsigned long runs;   /* backend runs so far                                     */
} check_ctx;

typedef struct check_result {
    check_class cls;
    char op[48];          /* the manifest's operator                                 */
    char detail[600];     /* why (empty for pass)                                    */
} check_result;

/* Helpers of check_run.c that check.c uses too: "a/b" (malloc'd); removing a tree (links are
 * removed, never followed; 0 or -1); the backend's command with {case} and {out} replaced by the
 * shell-quoted paths (malloc'd, NULL when out of memory); a growing string, shell quoting. */
char *check_join_path(const char *a, const char *b);
int check_rm_tree(const char *path, int depth);
char *check_command_line(const char *tmpl, const char *case_dir, const char *out_dir);
typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;
void check_sb_put(sbuf *b, const char *s, size_t n);
void check_sb_quoted(sbuf *b, const char *s); /* s in '...', a ' as '\'' */

/* Runs the backend over the exported case in dir and classifies the result (r).
 * CASE_OK, or the exit status of a failure of check itself (message on stderr). */
int check_run_dir(check_ctx *x, const char *dir, check_result *r);

/* Exports the executed case c (read from case_path) into x->case_dir (with x->forms;
 * index_issue as export_write_dir takes it) and runs check_run_dir. */
int check_run_case(check_ctx *x, const char *case_path, const dmlref_case *c, int index_issue, check_result *r);

typedef struct shrink_result {
    char *text;           /* the minimal case file (malloc'd), or NULL               */
    size_t len;
    uint64_t elements_before, elements_after;
    unsigned runs;        /* backend runs the shrinker used                          */
    int reproduced;       /* the case as loaded gave the target class again          */
    int refused;          /* dmlref refuses it with index checking: not shrunk       */
    check_result last;    /* the minimal case's result                               */
} shrink_result;

/*
 * Shrinks the case file at case_path, which failed with class `target`: edits of
 * its JSON (fewer pieces, smaller and fewer dimensions, packed strides, simpler
 * index and data values), each validated and executed by dmlref, kept when the
 * backend still gives `target`; at most max_runs backend runs.  CASE_OK (s filled)
 * or an exit status.
 */
int check_shrink(check_ctx *x, const char *case_path, check_class target, unsigned max_runs, shrink_result *s);

#endif
