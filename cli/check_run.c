/*
 * dmlref check's runner (check.h): the backend started through /bin/sh with {case} and {out}
 * substituted, waited for (with a timeout, its process group killed), and its outputs read and
 * classified against the exported case (case/classify.h).  check.c is the command, shrink.c the
 * shrinker; both run cases through here.
 */
#include "check.h"

#include "case/json.h"
#include "case/npy.h"
#include "case/value.h"
#include "export.h"

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

/* ---- small helpers ----------------------------------------------------------------- */

char *check_join_path(const char *a, const char *b) {
    const size_t n = strlen(a) + strlen(b) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", a, b);
    return p;
}

/* Removes path and everything under it (links are removed, never followed); depth-limited. */
int check_rm_tree(const char *path, int depth) {
    struct stat st;
    if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode)) return unlink(path);
    if (depth > 64) return -1;
    DIR *d = opendir(path);
    if (!d) return -1;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char *p = check_join_path(path, e->d_name);
        if (!p || check_rm_tree(p, depth + 1) != 0) rc = -1;
        free(p);
    }
    closedir(d);
    return rmdir(path) != 0 ? -1 : rc;
}

/* A fresh empty directory at path. */
static int fresh_dir(const char *path) {
    if (check_rm_tree(path, 0) != 0) {
        fprintf(stderr, "dmlref check: cannot clear %s: %s\n", path, strerror(errno));
        return CASE_SYSTEM;
    }
    if (mkdir(path, 0777) != 0) {
        fprintf(stderr, "dmlref check: cannot create %s: %s\n", path, strerror(errno));
        return CASE_SYSTEM;
    }
    return CASE_OK;
}

void check_sb_put(sbuf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

void check_sb_quoted(sbuf *b, const char *s) {
    check_sb_put(b, "'", 1);
    for (; *s; ++s) {
        if (*s == '\'') check_sb_put(b, "'\\''", 4);
        else check_sb_put(b, s, 1);
    }
    check_sb_put(b, "'", 1);
}

/* The backend command with {case} and {out} replaced by the quoted paths (malloc'd). */
char *check_command_line(const char *tmpl, const char *case_dir, const char *out_dir) {
    sbuf b = {0};
    check_sb_put(&b, "", 0);
    for (const char *s = tmpl; *s;) {
        if (strncmp(s, "{case}", 6) == 0) {
            check_sb_quoted(&b, case_dir);
            s += 6;
        } else if (strncmp(s, "{out}", 5) == 0) {
            check_sb_quoted(&b, out_dir);
            s += 5;
        } else {
            check_sb_put(&b, s++, 1);
        }
    }
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* The last non-empty line of a file (at most cap - 1 bytes of it, printable ASCII only), or "". */
static void last_line(const char *path, char *line, size_t cap) {
    line[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) return;
    char buf[4096];
    long size = (fseek(f, 0, SEEK_END) == 0) ? ftell(f) : -1;
    long from = size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0;
    size_t n = 0;
    if (size >= 0 && fseek(f, from, SEEK_SET) == 0) n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ')) buf[--n] = '\0';
    const char *s = strrchr(buf, '\n');
    s = s ? s + 1 : buf;
    size_t k = 0;
    for (; *s && k + 1 < cap; ++s) line[k++] = (*s >= 32 && *s < 127) ? *s : '?';
    line[k] = '\0';
}

extern char **environ;

/* Runs the backend once: {case} = case_dir, {out} = x->out_dir (emptied first).  *status:
 * the exit status, or 128 + the signal, or -1 after the timeout.  CASE_OK or a failure of check. */
static int run_backend(check_ctx *x, const char *case_dir, int *status) {
    int rc = fresh_dir(x->out_dir);
    if (rc) return rc;
    char *cmd = check_command_line(x->backend, case_dir, x->out_dir);
    if (!cmd) {
        fprintf(stderr, "dmlref check: out of memory building the backend command\n");
        return CASE_OUT_OF_MEMORY;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    pid_t pid = 0;
    int e = posix_spawn_file_actions_init(&fa);
    if (!e) {
        e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        if (!e) e = posix_spawn_file_actions_addopen(&fa, 1, x->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (!e) e = posix_spawn_file_actions_adddup2(&fa, 1, 2);
        if (!e) e = posix_spawnattr_init(&at);
        if (!e) {
            e = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
            if (!e) e = posix_spawnattr_setpgroup(&at, 0);
            char *argv[] = {"/bin/sh", "-c", cmd, NULL};
            if (!e) e = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
            posix_spawnattr_destroy(&at);
        }
        posix_spawn_file_actions_destroy(&fa);
    }
    free(cmd);
    if (e) {
        fprintf(stderr, "dmlref check: cannot start /bin/sh: %s\n", strerror(e));
        return CASE_SYSTEM;
    }
    ++x->runs;
    /* wait, polling, until it ends or the time is up; then the whole process group goes */
    const struct timespec tick = {0, 2000000};
    unsigned long waited_ms = 0;
    int ws = 0;
    for (;;) {
        /* exited? (not reaped yet: its process group cannot be reused while it is a zombie) */
        siginfo_t info;
        memset(&info, 0, sizeof info);
        const int w = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT);
        if ((w == 0 && info.si_pid == pid) || (w != 0 && errno != EINTR)) break; /* waitpid says why */
        if (waited_ms >= 1000UL * x->timeout_s) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
            }
            *status = -1;
            return CASE_OK;
        }
        nanosleep(&tick, NULL);
        waited_ms += 2;
    }
    kill(-pid, SIGKILL); /* what it left running in its group */
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "dmlref check: waiting for the backend: %s\n", strerror(errno));
            return CASE_SYSTEM;
        }
    }
    *status = WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : 255;
    return CASE_OK;
}

/* ---- reading the manifest and the backend's outputs ---------------------------------- */

/* A regular file read whole (at most max bytes), without blocking on a FIFO. */
static int read_regular(const char *path, size_t max, unsigned char **data, size_t *len, char *why, size_t cap) {
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        snprintf(why, cap, "%s", errno == ENOENT ? "missing" : strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, cap, "not a regular file");
        close(fd);
        return -1;
    }
    if ((uint64_t)st.st_size > max) {
        snprintf(why, cap, "%" PRIu64 " bytes, more than the %zu expected", (uint64_t)st.st_size, max);
        close(fd);
        return -1;
    }
    unsigned char *p = malloc((size_t)st.st_size + 1);
    if (!p) {
        close(fd);
        return CASE_OUT_OF_MEMORY;
    }
    size_t n = 0;
    while (n < (size_t)st.st_size) {
        ssize_t r = read(fd, p + n, (size_t)st.st_size - n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        n += (size_t)r;
    }
    close(fd);
    *data = p;
    *len = n;
    return 0;
}

static uint64_t jnum_u64(const jv *v) {
    const char *s = jv_number(v);
    return s ? strtoull(s, NULL, 10) : 0;
}

/* A manifest's npy file (want: dtype dt, count elements) into memory it allocates, in host order. */
static int load_npy(const char *path, DMLREF_TENSOR_DATA_TYPE dt, uint64_t count, unsigned char **out, char *why,
                    size_t cap) {
    unsigned char *bytes;
    size_t len;
    const uint32_t es = dmlref_data_type_size(dt);
    *out = NULL;
    if (count > (SIZE_MAX - 65536) / (es ? es : 1)) {
        snprintf(why, cap, "too large");
        return -1;
    }
    int rc = read_regular(path, (size_t)count * es + NPY_MAX_HEADER_BYTES + 16, &bytes, &len, why, cap);
    if (rc) return rc;
    npy_array a;
    char err[256];
    if (npy_parse(bytes, len, &a, err, sizeof err) != 0) {
        snprintf(why, cap, "not a .npy file: %s", err);
        free(bytes);
        return -1;
    }
    if (a.dtype != dt || a.count != count) {
        snprintf(why, cap, "holds %" PRIu64 " elements of '%s', expected %" PRIu64 " of '%s'", a.count,
                 npy_descr(a.dtype) ? npy_descr(a.dtype) : "?", count, npy_descr(dt));
        free(bytes);
        return -1;
    }
    unsigned char *dst = malloc(a.data_bytes ? a.data_bytes : 1);
    if (!dst) {
        free(bytes);
        return CASE_OUT_OF_MEMORY;
    }
    npy_copy_host(&a, dst);
    free(bytes);
    *out = dst;
    return 0;
}

static const char *dtype_name_of(const jv *t) { return jv_string(jv_get(t, "DataType")); }

/* Bits as hex for a message. */
static void hex_of(const unsigned char *p, uint32_t es, char *buf, size_t cap) {
    snprintf(buf, cap, "0x%0*" PRIx64, (int)(2 * es), value_load_bits(p, es));
}

/* One output: the backend's <name>.npy against T.logical.npy (and T.npy for a whole buffer). */
/* The manifest's output t, checked: its name, data type and element counts. */
static int output_info(const jv *t, const char **name, DMLREF_TENSOR_DATA_TYPE *dt, uint64_t *n, uint64_t *nb) {
    *name = jv_string(jv_get(t, "name"));
    *dt = value_type_from_name(dtype_name_of(t) ? dtype_name_of(t) : "");
    *n = jnum_u64(jv_get(t, "elements"));
    *nb = jnum_u64(jv_get(t, "buffer_elements"));
    return *name && !strchr(*name, '/') && *dt && npy_descr(*dt) && jv_string(jv_get(t, "logical")) &&
                   jv_string(jv_get(t, "buffer")) && jv_string(jv_get(t, "slots"))
               ? 0
               : CASE_MALFORMED;
}

/* The expected elements of output t (T.logical.npy), read before the backend runs. */
static int load_want(const char *dir, const jv *t, unsigned char **want) {
    const char *name;
    DMLREF_TENSOR_DATA_TYPE dt;
    uint64_t n, nb;
    char why[300];
    *want = NULL;
    if (output_info(t, &name, &dt, &n, &nb)) {
        fprintf(stderr, "dmlref check: %s/manifest.json: an output is malformed\n", dir);
        return CASE_MALFORMED;
    }
    char *wp = check_join_path(dir, jv_string(jv_get(t, "logical")));
    int rc = wp ? load_npy(wp, dt, n, want, why, sizeof why) : CASE_OUT_OF_MEMORY;
    if (rc && rc != CASE_OUT_OF_MEMORY) fprintf(stderr, "dmlref check: %s: %s\n", wp, why);
    free(wp);
    return rc == CASE_OUT_OF_MEMORY ? rc : rc ? CASE_MALFORMED : 0;
}

static int classify_output(const char *dir, const char *out_dir, const jv *t, const unsigned char *want,
                           check_class *cls, char *detail, size_t cap) {
    const char *name, *buffer = jv_string(jv_get(t, "buffer")), *slotsf = jv_string(jv_get(t, "slots"));
    DMLREF_TENSOR_DATA_TYPE dt;
    uint64_t n, nb;
    if (output_info(t, &name, &dt, &n, &nb)) return CASE_MALFORMED;
    const uint32_t es = dmlref_data_type_size(dt);
    /* only the first `nd_def` elements (row-major) are defined (the manifest's defined_elements:
     * NONZERO_COORDINATES' rows past the count); the others are not compared */
    const jv *dv = jv_get(t, "defined_elements");
    const uint64_t nd_def = dv && jnum_u64(dv) < n ? jnum_u64(dv) : n;
    char why[300];
    int rc = 0;
    unsigned char *got = NULL, *wbuf = NULL, *slots = NULL;
    char *gp = NULL, *fname = NULL;
    const size_t fl = strlen(name) + 5;
    if ((fname = malloc(fl)) != NULL) snprintf(fname, fl, "%s.npy", name);
    if (fname) gp = check_join_path(out_dir, fname);
    if (!gp) rc = CASE_OUT_OF_MEMORY;
    /* the backend's file: the logical count first, else the whole buffer's */
    if (!rc) {
        unsigned char *bytes;
        size_t len;
        int r = read_regular(gp, (size_t)(nb > n ? nb : n) * es + NPY_MAX_HEADER_BYTES + 16, &bytes, &len, why,
                             sizeof why);
        npy_array a;
        char err[256];
        if (r == CASE_OUT_OF_MEMORY) {
            rc = r;
        } else if (r) {
            snprintf(detail, cap, "%s: %s", fname, why);
            *cls = CLS_BACKEND_ERROR;
        } else if (npy_parse(bytes, len, &a, err, sizeof err) != 0) {
            snprintf(detail, cap, "%s: not a .npy file: %s", fname, err);
            *cls = CLS_BACKEND_ERROR;
        } else if (a.dtype != dt) {
            snprintf(detail, cap, "%s: dtype '%s', expected '%s'", fname, npy_descr(a.dtype) ? npy_descr(a.dtype) : "?",
                     npy_descr(dt));
            *cls = CLS_BACKEND_ERROR;
        } else if (a.count != n && a.count != nb) {
            snprintf(detail, cap, "%s: %" PRIu64 " elements, expected %" PRIu64 " (or the whole buffer's %" PRIu64 ")",
                     fname, a.count, n, nb);
            *cls = CLS_BACKEND_ERROR;
        } else if ((got = malloc(a.data_bytes ? a.data_bytes : 1)) == NULL) {
            rc = CASE_OUT_OF_MEMORY;
        } else {
            npy_copy_host(&a, got);
            uint64_t nd = 0, first = 0;
            if (a.count == n) {
                *cls = check_classify_elements(dt, want, got, nd_def, &nd, &first);
            } else { /* a whole buffer: the addressed elements through the slot map, then the rest */
                char *sp = check_join_path(dir, slotsf), *bp = check_join_path(dir, buffer);
                unsigned char *g2 = malloc(n ? n * es : 1);
                rc = sp && bp && g2 ? 0 : CASE_OUT_OF_MEMORY;
                if (!rc && (rc = load_npy(sp, DMLREF_TENSOR_DATA_TYPE_UINT64, n, &slots, why, sizeof why)) != 0)
                    rc = rc == CASE_OUT_OF_MEMORY ? rc : CASE_MALFORMED;
                if (!rc && (rc = load_npy(bp, dt, nb, &wbuf, why, sizeof why)) != 0)
                    rc = rc == CASE_OUT_OF_MEMORY ? rc : CASE_MALFORMED;
                for (uint64_t i = 0; !rc && i < n; ++i) {
                    const uint64_t s = value_load_bits(slots + 8 * i, 8);
                    if (s >= nb) rc = CASE_MALFORMED;
                    else memcpy(g2 + i * es, got + s * es, es);
                }
                if (!rc) {
                    *cls = check_classify_elements(dt, want, g2, nd_def, &nd, &first);
                    /* the undefined elements' slots take dmlref's bytes: no unaddressed-bytes note for them */
                    for (uint64_t i = nd_def; i < n; ++i) {
                        const uint64_t s = value_load_bits(slots + 8 * i, 8);
                        memcpy(got + s * es, wbuf + s * es, es);
                    }
                    if (*cls == CLS_PASS) {
                        uint64_t nd2 = 0, f2 = 0;
                        check_classify_elements(dt, wbuf, got, nb, &nd2, &f2);
                        if (nd2) {
                            *cls = CLS_UNADDRESSED_BYTES;
                            snprintf(detail, cap, "%s: %" PRIu64 " of %" PRIu64 " unaddressed slots differ", name, nd2,
                                     nb - n);
                        }
                    } else { /* the gathered elements replace the buffer for the message */
                        free(got);
                        got = g2;
                        g2 = NULL;
                    }
                }
                free(sp);
                free(bp);
                free(g2);
            }
            if (!rc && nd && *cls != CLS_UNADDRESSED_BYTES) {
                char a1[40], b1[40];
                hex_of(got + first * es, es, a1, sizeof a1);
                hex_of(want + first * es, es, b1, sizeof b1);
                snprintf(detail, cap, "%s: %" PRIu64 " of %" PRIu64 " elements differ, first at [%" PRIu64 "]: got %s, expected %s",
                         name, nd, n, first, a1, b1);
            }
        }
        free(bytes);
    }
    free(gp);
    free(fname);
    free(got);
    free(wbuf);
    free(slots);
    return rc;
}

/* The first line of {out}/UNSUPPORTED (printable ASCII), when the backend wrote one. */
static int unsupported_file(const char *out_dir, char *reason, size_t cap) {
    char *p = check_join_path(out_dir, "UNSUPPORTED");
    unsigned char *bytes = NULL;
    size_t len = 0;
    char why[64];
    int r = p ? read_regular(p, 65536, &bytes, &len, why, sizeof why) : -1;
    free(p);
    if (r != 0) return 0;
    size_t k = 0;
    for (size_t i = 0; i < len && bytes[i] != '\n' && k + 1 < cap; ++i)
        reason[k++] = (bytes[i] >= 32 && bytes[i] < 127) ? (char)bytes[i] : '?';
    reason[k] = '\0';
    free(bytes);
    return 1;
}

int check_run_dir(check_ctx *x, const char *dir, check_result *r) {
    memset(r, 0, sizeof *r);
    char *mp = check_join_path(dir, "manifest.json"), *text = NULL;
    size_t len = 0;
    char err[512];
    if (!mp) return CASE_OUT_OF_MEMORY;
    int rc = case_read_file(mp, (size_t)64 << 20, &text, &len, err, sizeof err);
    free(mp);
    if (rc) {
        fprintf(stderr, "dmlref check: %s\n", err);
        return case_failure(rc, CASE_MALFORMED);
    }
    json_doc doc;
    const json_status js = json_parse(text, len, &doc, err, sizeof err);
    free(text);
    if (js != JSON_OK) {
        fprintf(stderr, "dmlref check: %s/manifest.json: %s\n", dir, err);
        return js == JSON_OOM ? CASE_OUT_OF_MEMORY : CASE_MALFORMED;
    }
    const jv *m = doc.root, *outs = jv_get(m, "outputs"), *fw = jv_get(m, "framework");
    const char *op = jv_string(jv_get(m, "operator"));
    snprintf(r->op, sizeof r->op, "%s", op ? op : "?");
    /* --form F: export's entry F ({"expressible": false, "reason": ...}: --onnx, --webnn), or a
     * harness's own map "expressible": {F: "reason"} */
    const jv *fe = x->form ? jv_get(m, x->form) : NULL;
    const jv *ex = x->form ? jv_get(jv_get(m, "expressible"), x->form) : NULL;
    if (jv_string(jv_get(fe, "reason"))) ex = jv_get(fe, "reason"); /* written only with "expressible": false */
    if (!jv_is(outs, JV_ARRAY) || !jv_count(outs)) {
        fprintf(stderr, "dmlref check: %s/manifest.json: no \"outputs\"\n", dir);
        rc = CASE_MALFORMED;
    } else if (jv_is(fw, JV_NULL) || !fw) {
        r->cls = CLS_NOT_EXPRESSIBLE;
        snprintf(r->detail, sizeof r->detail, "no framework form for %s", r->op);
    } else if (jv_string(ex)) {
        r->cls = CLS_NOT_EXPRESSIBLE;
        snprintf(r->detail, sizeof r->detail, "%s: %.500s", x->form, jv_string(ex));
    } else {
        int status = 0;
        const size_t no = jv_count(outs);
        unsigned char **wants = calloc(no, sizeof *wants);
        rc = wants ? 0 : CASE_OUT_OF_MEMORY;
        for (size_t k = 0; !rc && k < no; ++k) rc = load_want(dir, jv_at(outs, k), &wants[k]);
        if (!rc) rc = run_backend(x, dir, &status);
        char reason[300];
        if (rc) {
        } else if (status == 77 || unsupported_file(x->out_dir, reason, sizeof reason)) {
            if (status == 77 && !unsupported_file(x->out_dir, reason, sizeof reason)) last_line(x->log_path, reason, sizeof reason);
            r->cls = CLS_TYPE_UNSUPPORTED;
            snprintf(r->detail, sizeof r->detail, "%s", reason[0] ? reason : "(no reason given)");
        } else if (status != 0) {
            last_line(x->log_path, reason, sizeof reason);
            r->cls = CLS_BACKEND_ERROR;
            if (status < 0) snprintf(r->detail, sizeof r->detail, "timed out after %u s", x->timeout_s);
            else if (status > 128) snprintf(r->detail, sizeof r->detail, "killed by signal %d%s%s", status - 128, reason[0] ? ": " : "", reason);
            else snprintf(r->detail, sizeof r->detail, "exit status %d%s%s", status, reason[0] ? ": " : "", reason);
        } else {
            r->cls = CLS_PASS;
            for (size_t k = 0; !rc && k < jv_count(outs) && r->cls != CLS_BACKEND_ERROR; ++k) {
                check_class c = CLS_PASS;
                char d[400] = "";
                rc = classify_output(dir, x->out_dir, jv_at(outs, k), wants[k], &c, d, sizeof d);
                if (rc == CASE_MALFORMED) fprintf(stderr, "dmlref check: %s: the manifest's slots or buffer are malformed\n", dir);
                if (!rc && c != CLS_PASS && (r->cls == CLS_PASS || c == CLS_BACKEND_ERROR))
                    snprintf(r->detail, sizeof r->detail, "%s", d);
                if (!rc) r->cls = c == CLS_BACKEND_ERROR ? c : check_class_merge(r->cls, c);
            }
        }
        for (size_t k = 0; wants && k < no; ++k) free(wants[k]);
        free(wants);
    }
    json_free(&doc);
    return rc;
}

int check_run_case(check_ctx *x, const char *case_path, const dmlref_case *c, int index_issue, check_result *r) {
    int rc = fresh_dir(x->case_dir);
    if (!rc) rc = export_write_dir(x->case_dir, case_path, c, 0, x->forms, index_issue);
    if (!rc) rc = check_run_dir(x, x->case_dir, r);
    return rc;
}

#endif
