/* Loading a case file for a subcommand (load.h). */
#include "load.h"

#include "args.h"
#include "case/json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CASE_FILE_BYTES ((size_t)1 << 30)

/* The verdict on a descriptor as one JSON object on one line of stdout, without spaces:
 * {"valid":false,"status":"...","rule":"...","field":"...","message":"..."}, led by
 * "case":PATH when path is not NULL (a failed write shows in stdout's error flag, which the
 * command checks before it exits). */
static void print_verdict_json(const char *path, const dmlref_error *e) {
    fputc('{', stdout);
    if (path) {
        fputs("\"case\":", stdout);
        jout_string_short(stdout, path);
        fputc(',', stdout);
    }
    fputs(e ? "\"valid\":false" : "\"valid\":true", stdout);
    if (e) {
        const char *keys[4] = {"status", "rule", "field", "message"};
        const char *values[4] = {dmlref_status_name(e->code), e->rule, e->field, e->message};
        for (int k = 0; k < 4; ++k) {
            printf(",\"%s\":", keys[k]);
            jout_string_short(stdout, values[k]);
        }
    }
    fputs("}\n", stdout);
}

void cli_print_valid_json(const char *path) { print_verdict_json(path, NULL); }

int cli_load_case(const char *path, uint32_t feature_level, dmlref_case *c, int verdict_stdout) {
    char err[1024];
    char *text = NULL;
    size_t len = 0;
    memset(c, 0, sizeof *c);
    const int frc = case_read_file(path, MAX_CASE_FILE_BYTES, &text, &len, err, sizeof err);
    if (frc) {
        fprintf(stderr, "dmlref: %s\n", err);
        return case_failure(frc, CASE_MALFORMED);
    }
    /* npy paths are relative to the case file's directory */
    char *dir = strdup(path);
    if (!dir) {
        free(text);
        fprintf(stderr, "dmlref: %s: out of memory reading the case file\n", path);
        return CASE_OUT_OF_MEMORY;
    }
    char *slash = strrchr(dir, '/');
    if (slash) slash[slash == dir ? 1 : 0] = '\0';
    else strcpy(dir, ".");
    dmlref_error verdict;
    memset(&verdict, 0, sizeof verdict);
    case_options o = {dir, feature_level, 0, NULL, &verdict, NULL, NULL};
    const char *env = getenv("DMLREF_MAX_BYTES");
    uint64_t cap;
    if (env && *env) {
        if (cli_parse_u64(env, UINT64_MAX, &cap) || cap == 0) {
            fprintf(stderr, "dmlref: DMLREF_MAX_BYTES=%s is not a positive integer\n", env);
            free(dir);
            free(text);
            return CASE_USAGE;
        }
        o.max_bytes = cap;
    }
    const int rc = case_parse_ex(text, len, &o, c, err, sizeof err);
    free(dir);
    free(text);
    const char *named = (verdict_stdout & CLI_VERDICT_NAMED) ? path : NULL;
    const int where = verdict_stdout & ~CLI_VERDICT_NAMED;
    if ((rc == CASE_INVALID || rc == CASE_CANNOT_VERIFY) && where == CLI_VERDICT_JSON) print_verdict_json(named, &verdict);
    else if ((rc == CASE_INVALID || rc == CASE_CANNOT_VERIFY) && where) printf("%s%s%s\n", named ? named : "", named ? ": " : "", err);
    else if (rc == CASE_INVALID) fprintf(stderr, "dmlref: %s: invalid descriptor: %s\n", path, err);
    else if (rc) fprintf(stderr, "dmlref: %s: %s\n", path, err);
    return rc;
}
