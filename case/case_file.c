/* Reading a whole file into memory (case files; .npy sources are read header first, npy.h): case_read_file (case.h). */
#include "case.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int case_read_file(const char *path, size_t max_bytes, char **text, size_t *len, char *err, size_t errcap) {
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f && errno == ENOMEM) {
        snprintf(err, errcap, "%s: out of memory opening the file", path);
        return CASE_OUT_OF_MEMORY;
    }
    if (!f) {
        snprintf(err, errcap, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    int read_errno = 0; /* why fread stopped short: EISDIR for a directory, EIO, ... */
    while (buf) {
        errno = 0;
        const size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            read_errno = errno;
            break;
        }
        if (cap >= max_bytes) {
            free(buf);
            fclose(f);
            snprintf(err, errcap, "%s is larger than %zu bytes", path, max_bytes);
            return -1;
        }
        cap = cap > max_bytes / 2 ? max_bytes : cap * 2;
        char *nb = realloc(buf, cap + 1);
        if (!nb) free(buf);
        buf = nb;
    }
    if (!buf) {
        fclose(f);
        snprintf(err, errcap, "%s: out of memory reading the file", path);
        return CASE_OUT_OF_MEMORY;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        if (read_errno) snprintf(err, errcap, "cannot read %s: %s", path, strerror(read_errno));
        else snprintf(err, errcap, "cannot read %s", path);
        return -1;
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}
