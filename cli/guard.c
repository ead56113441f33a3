/* Outputs that would overwrite an input of the same command (guard.h). */
#define _XOPEN_SOURCE 700 /* realpath (POSIX, but glibc hides it under _POSIX_C_SOURCE alone) */
#include "guard.h"

#include <errno.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* realpath of path's folder, then '/' and its last component, in a new string; NULL when the
 * folder does not resolve (then nothing there can be an input) or, with *nomem set, when out
 * of memory. */
static char *resolve(const char *path, int *nomem) {
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    char *dir;
    if (!slash) dir = realpath(".", NULL);
    else if (slash == path) dir = realpath("/", NULL);
    else {
        char *d = malloc((size_t)(slash - path) + 1);
        if (!d) {
            *nomem = 1;
            return NULL;
        }
        memcpy(d, path, (size_t)(slash - path));
        d[slash - path] = '\0';
        dir = realpath(d, NULL);
        free(d);
    }
    if (!dir) {
        if (errno == ENOMEM) *nomem = 1;
        return NULL;
    }
    const size_t n = strlen(dir) + strlen(name) + 2;
    char *r = malloc(n);
    if (r) snprintf(r, n, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
    else *nomem = 1;
    free(dir);
    return r;
}

/* 1 when out and in name the same file, or would once out is written; 0 when not; -1 when out
 * of memory. */
static int same_file(const char *out, const char *in) {
    struct stat so, si;
    const int out_exists = stat(out, &so) == 0, in_exists = stat(in, &si) == 0;
    if (out_exists && in_exists) return so.st_dev == si.st_dev && so.st_ino == si.st_ino;
    if (out_exists != in_exists) return 0;
    int nomem = 0;
    char *ro = resolve(out, &nomem), *ri = resolve(in, &nomem);
    const int same = ro && ri && strcmp(ro, ri) == 0;
    free(ro);
    free(ri);
    return nomem ? -1 : same;
}

static int refuse(const char *out, const char *in, char *err, size_t errcap) {
    snprintf(err, errcap, "%s: the output would overwrite an input of this command (%s); nothing written", out, in);
    return -1;
}

static int check(const char *out, const char *in, char *err, size_t errcap) {
    const int same = same_file(out, in);
    if (same > 0) return refuse(out, in, err, errcap);
    if (same < 0) {
        snprintf(err, errcap, "out of memory checking %s against the inputs", out);
        return CASE_OUT_OF_MEMORY;
    }
    return 0;
}

int guard_output(const char *out, const char *case_path, const dmlref_case *c, char *err, size_t errcap) {
    int rc = check(out, case_path, err, errcap);
    const case_tensor *lists[2] = {c->inputs, c->outputs};
    const uint32_t counts[2] = {c->n_inputs, c->n_outputs};
    for (int k = 0; k < 2 && !rc; ++k)
        for (uint32_t i = 0; lists[k] && i < counts[k] && !rc; ++i)
            if (lists[k][i].npy_path) rc = check(out, lists[k][i].npy_path, err, errcap);
    return rc;
}
