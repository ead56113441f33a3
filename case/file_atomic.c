#include "file_atomic.h"
#include "status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int file_write_atomic(const char *path, const file_part *parts, size_t n_parts, char *err, size_t errcap) {
    const size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        snprintf(err, errcap, "%s: out of memory", path);
        return CASE_OUT_OF_MEMORY;
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", 12);
    const int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errcap, "%s: cannot create a temporary file: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    (void)fchmod(fd, 0644);
    FILE *f = fdopen(fd, "wb");
    int ok = f != NULL, nomem = !f && errno == ENOMEM;
    if (ok) {
        for (size_t i = 0; ok && i < n_parts; ++i)
            ok = parts[i].len == 0 || fwrite(parts[i].data, 1, parts[i].len, f) == parts[i].len;
        ok = fclose(f) == 0 && ok;
    } else {
        close(fd);
    }
    if (ok && rename(tmp, path) != 0) ok = 0;
    if (!ok) {
        if (nomem) snprintf(err, errcap, "%s: out of memory", path);
        else snprintf(err, errcap, "%s: write failed: %s", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return ok ? 0 : nomem ? CASE_OUT_OF_MEMORY : -1;
}
