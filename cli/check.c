/*
 * dmlref check --backend 'CMD {case} {out}' PATH...: any backend, in any language,
 * run as a subprocess over exported cases (docs/cli.md, "dmlref check").  Every
 * PATH is a case file, a directory `export` wrote (manifest.json), or a directory
 * of either (what `gen` writes); a case file is exported into a work directory
 * first.  {case} is the exported directory, {out} an empty directory where the
 * backend writes <OutputTensorName>.npy per output (any shape with the output's
 * element count, or the whole buffer).  Each result is classified (case/classify.h),
 * a per-operator table closes the run, and one failing case of each class is
 * shrunk (shrink.c) into --min DIR with a repro line.
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

/* ---- small helpers ----------------------------------------------------------------- */

static char *join_path(const char *a, const char *b) {
    const size_t n = strlen(a) + strlen(b) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", a, b);
    return p;
}

/* Removes path and everything under it (links are removed, never followed); depth-limited. */
static int rm_tree(const char *path, int depth) {
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
        char *p = join_path(path, e->d_name);
        if (!p || rm_tree(p, depth + 1) != 0) rc = -1;
        free(p);
    }
    closedir(d);
    return rmdir(path) != 0 ? -1 : rc;
}

/* A fresh empty directory at path. */
static int fresh_dir(const char *path) {
    if (rm_tree(path, 0) != 0) {
        fprintf(stderr, "dmlref check: cannot clear %s: %s\n", path, strerror(errno));
        return CASE_SYSTEM;
    }
    if (mkdir(path, 0777) != 0) {
        fprintf(stderr, "dmlref check: cannot create %s: %s\n", path, strerror(errno));
        return CASE_SYSTEM;
    }
    return CASE_OK;
}

/* Appends s shell-quoted ('...', a ' as '\'') to the growing buffer. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n) {
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

static void sb_quoted(sbuf *b, const char *s) {
    sb_put(b, "'", 1);
    for (; *s; ++s) {
        if (*s == '\'') sb_put(b, "'\\''", 4);
        else sb_put(b, s, 1);
    }
    sb_put(b, "'", 1);
}

/* The backend command with {case} and {out} replaced by the quoted paths (malloc'd). */
static char *command_line(const char *tmpl, const char *case_dir, const char *out_dir) {
    sbuf b = {0};
    sb_put(&b, "", 0);
    for (const char *s = tmpl; *s;) {
        if (strncmp(s, "{case}", 6) == 0) {
            sb_quoted(&b, case_dir);
            s += 6;
        } else if (strncmp(s, "{out}", 5) == 0) {
            sb_quoted(&b, out_dir);
            s += 5;
        } else {
            sb_put(&b, s++, 1);
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
    char *cmd = command_line(x->backend, case_dir, x->out_dir);
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
    char *wp = join_path(dir, jv_string(jv_get(t, "logical")));
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
    char why[300];
    int rc = 0;
    unsigned char *got = NULL, *wbuf = NULL, *slots = NULL;
    char *gp = NULL, *fname = NULL;
    const size_t fl = strlen(name) + 5;
    if ((fname = malloc(fl)) != NULL) snprintf(fname, fl, "%s.npy", name);
    if (fname) gp = join_path(out_dir, fname);
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
                *cls = check_classify_elements(dt, want, got, n, &nd, &first);
            } else { /* a whole buffer: the addressed elements through the slot map, then the rest */
                char *sp = join_path(dir, slotsf), *bp = join_path(dir, buffer);
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
                    *cls = check_classify_elements(dt, want, g2, n, &nd, &first);
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
    char *p = join_path(out_dir, "UNSUPPORTED");
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
    char *mp = join_path(dir, "manifest.json"), *text = NULL;
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
    const jv *ex = x->form ? jv_get(jv_get(m, "expressible"), x->form) : NULL;
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

uint64_t check_case_elements(const dmlref_case *c) {
    uint64_t n = 0;
    for (uint32_t k = 0; k < c->n_inputs + c->n_outputs; ++k) {
        const case_tensor *t = k < c->n_inputs ? &c->inputs[k] : &c->outputs[k - c->n_inputs];
        uint64_t e = 1;
        for (uint32_t d = 0; d < t->buf.DimensionCount; ++d) e *= t->sizes[d];
        n += e;
    }
    return n;
}

int check_run_case(check_ctx *x, const char *case_path, const dmlref_case *c, check_result *r) {
    int rc = fresh_dir(x->case_dir);
    if (!rc) rc = export_write_dir(x->case_dir, case_path, c, 0);
    if (!rc) rc = check_run_dir(x, x->case_dir, r);
    return rc;
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
    char *p = join_path(dir, "manifest.json");
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

/* PATH: a case file, an exported directory, or a directory of either (sorted by name). */
static int collect(items *l, const char *path) {
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
        if (!rc && (names[n] = join_path(path, e->d_name)) == NULL) rc = CASE_OUT_OF_MEMORY;
        if (!rc) ++n;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; ++i) {
        if (!rc && is_dir(names[i]) && has_manifest(names[i])) rc = add_item(l, names[i], 1);
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
        char *mp = join_path(rec->path, "manifest.json"), *text = NULL;
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
    if (rc == 0 && !s.reproduced) {
        printf("shrink %s: %s: the case did not fail the same way again (a backend that varies): not shrunk\n",
               check_class_name(rec->r.cls), case_path);
    } else if (rc == 0) {
        char op[48], base[80], err[512];
        lower(rec->r.op, op, sizeof op);
        snprintf(base, sizeof base, "%s_%04zu", op, index);
        char *file = NULL, *dir = join_path(min_dir, base), *outd = NULL;
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
            if (!rc) rc = rm_tree(dir, 0) == 0 ? export_write_dir(dir, file, &c, 0) : CASE_SYSTEM;
            case_free(&c);
        } else if (rc && rc != CASE_OUT_OF_MEMORY) {
            fprintf(stderr, "dmlref check: %s\n", err);
            rc = case_failure(rc, CASE_SYSTEM);
        }
        if (!rc) {
            char *cmd = command_line(x->backend, dir, outd);
            printf("shrink %s: %s (%" PRIu64 " elements) -> %s (%" PRIu64 " elements) in %u backend runs: %s\n",
                   check_class_name(rec->r.cls), case_path, s.elements_before, file, s.elements_after, s.runs,
                   s.last.detail);
            printf("repro: dmlref run %s\n", file);
            sbuf b = {0};
            sb_put(&b, "mkdir -p ", 9);
            sb_quoted(&b, outd);
            sb_put(&b, " && ", 4);
            if (cmd) sb_put(&b, cmd, strlen(cmd));
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
            rc = collect(&l, paths[i]);
        }
    }
    free(paths);
    check_ctx x;
    memset(&x, 0, sizeof x);
    x.backend = backend;
    x.form = form;
    x.timeout_s = (unsigned)timeout;
    record *rec = NULL;
    if (!rc && !l.n) {
        fprintf(stderr, "dmlref check: no case files or exported directories found\n");
        rc = CASE_USAGE;
    }
    if (!rc) {
        const char *tmp = getenv("TMPDIR");
        const char *base = tmp && *tmp ? tmp : "/tmp";
        char *tmpl = join_path(base, "dmlref-check-XXXXXX");
        if (!tmpl || !(rec = calloc(l.n, sizeof *rec))) rc = CASE_OUT_OF_MEMORY;
        else if (!mkdtemp(tmpl)) {
            fprintf(stderr, "dmlref check: cannot create a work directory in %s: %s\n", base, strerror(errno));
            rc = CASE_SYSTEM;
        }
        x.work = tmpl;
        if (!rc) {
            x.case_dir = join_path(tmpl, "case");
            x.out_dir = join_path(tmpl, "out");
            x.cand_path = join_path(tmpl, "candidate.json");
            x.log_path = join_path(tmpl, "backend.log");
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
                rc = cli_execute_case(l.v[i].path, &c, 0, 0);
                if (!rc && c.has_expected && case_compare(&c, stderr, 10) != 0) {
                    fprintf(stderr, "dmlref check: %s: dmlref's outputs differ from the case's expected\n", l.v[i].path);
                    rc = CASE_DIFFER;
                }
                if (!rc) rc = check_run_case(&x, l.v[i].path, &c, &rec[i].r);
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
    if (x.work) rm_tree(x.work, 0);
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
