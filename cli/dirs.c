/* Output directories, created like `mkdir -p` (dirs.h). */
#include "dirs.h"

#include "case/status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir of one component; an existing directory is fine, an existing file is not. */
static int make_one(const char *p, char *err, size_t errcap) {
    struct stat st;
    if (mkdir(p, 0777) == 0) return 0;
    const int e = errno;
    if (stat(p, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return 0;
        snprintf(err, errcap, "cannot create %s: it exists and is not a directory", p);
        return -1;
    }
    /* mkdir's EEXIST with nothing stat() reaches: a link to nowhere, or a loop of links */
    const int se = errno;
    if (e == EEXIST && se == ENOENT && lstat(p, &st) == 0 && S_ISLNK(st.st_mode))
        snprintf(err, errcap, "cannot create %s: a dangling symbolic link is in the way", p);
    else snprintf(err, errcap, "cannot create %s: %s", p, strerror(e == EEXIST ? se : e));
    return -1;
}

int dir_create_path(const char *path, char *err, size_t errcap) {
    const size_t n = strlen(path);
    char *p = malloc(n + 1);
    if (!p) {
        snprintf(err, errcap, "cannot create %s: out of memory", path);
        return CASE_OUT_OF_MEMORY;
    }
    memcpy(p, path, n + 1);
    int rc = 0;
    /* each prefix that ends before a '/' (not the root's), then the whole path */
    for (size_t i = 1; i < n && rc == 0; ++i) {
        if (p[i] != '/' || p[i - 1] == '/') continue;
        p[i] = '\0';
        rc = make_one(p, err, errcap);
        p[i] = '/';
    }
    if (rc == 0) rc = make_one(p, err, errcap);
    free(p);
    return rc;
}
