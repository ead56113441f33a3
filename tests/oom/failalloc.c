/*
 * failalloc: an LD_PRELOAD library that makes one allocation of a program fail, for
 * tests/suites/oom.sh (docs/hardening.md, "Out of memory at every allocation").
 *
 *   DMLREF_ALLOC_COUNT=FILE   count the allocations and write the total ("N\n") to FILE
 *                             when the program exits
 *   DMLREF_FAIL_ALLOC=N       allocation N (1, 2, ...) returns NULL with errno ENOMEM;
 *                             every other one succeeds (with DMLREF_ALLOC_COUNT, FILE then
 *                             gets "N failed" when allocation N was reached)
 *
 * Counted: malloc, calloc, realloc (not realloc(p, 0) or realloc(NULL, 0)... every call),
 * reallocarray, posix_memalign, aligned_alloc, memalign, valloc, pvalloc -- glibc's own
 * strdup, strndup, fopen, open_memstream, realpath, ... allocate through these symbols (glibc
 * calls its malloc through the interposable names), so their failures are counted too.
 * Counting starts when main is entered (__libc_start_main is wrapped): what the C runtime and
 * libgomp allocate while the program is loaded is not the program's to handle.  Everything
 * from main on is, through exit (atexit handlers, stdio's final flush) included.
 *
 * The shim never allocates itself: the real functions are found with dlsym(RTLD_NEXT), and
 * what dlsym allocates meanwhile comes from a static arena (never freed).  Linux and glibc
 * (or musl) only; tests/suites/oom.sh probes it and skips where it does not load.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);
typedef void *(*reallocarray_fn)(void *, size_t, size_t);
typedef void (*free_fn)(void *);
typedef int (*posix_memalign_fn)(void **, size_t, size_t);
typedef void *(*aligned_fn)(size_t, size_t);
typedef void *(*valloc_fn)(size_t);
typedef int (*main_fn)(int, char **, char **);
typedef int (*start_fn)(main_fn, int, char **, void (*)(void), void (*)(void), void (*)(void), void *);

static malloc_fn real_malloc;
static calloc_fn real_calloc;
static realloc_fn real_realloc;
static reallocarray_fn real_reallocarray;
static free_fn real_free;
static posix_memalign_fn real_posix_memalign;
static aligned_fn real_aligned_alloc, real_memalign;
static valloc_fn real_valloc, real_pvalloc;

/* What dlsym allocates while the real functions are looked up. */
static _Alignas(64) unsigned char arena[1 << 16];
static size_t arena_used;
static int resolving;

static int counting;          /* main was entered */
static unsigned long fail_at; /* 0: fail none */
static unsigned long count;   /* allocations counted so far */
static int failed;            /* allocation fail_at was reached */
static const char *count_file;

static void *arena_alloc(size_t n) {
    n = (n + 63) & ~(size_t)63;
    if (n > sizeof arena - arena_used) return NULL;
    void *p = arena + arena_used;
    arena_used += n;
    return p;
}

static int in_arena(const void *p) {
    return (const unsigned char *)p >= arena && (const unsigned char *)p < arena + sizeof arena;
}

/* dlsym's answer in a function pointer (ISO C has no cast between the two). */
#define LOOKUP(fn, name)                                  \
    do {                                                  \
        void *p_ = dlsym(RTLD_NEXT, name);                \
        memcpy(&(fn), &p_, sizeof p_);                    \
    } while (0)

static void resolve(void) {
    if (real_malloc || resolving) return;
    resolving = 1;
    LOOKUP(real_calloc, "calloc");
    LOOKUP(real_malloc, "malloc");
    LOOKUP(real_realloc, "realloc");
    LOOKUP(real_reallocarray, "reallocarray");
    LOOKUP(real_free, "free");
    LOOKUP(real_posix_memalign, "posix_memalign");
    LOOKUP(real_aligned_alloc, "aligned_alloc");
    LOOKUP(real_memalign, "memalign");
    LOOKUP(real_valloc, "valloc");
    LOOKUP(real_pvalloc, "pvalloc");
    resolving = 0;
}

/* Called when the allocation fails: `break failalloc_failed` in gdb stops there, with the
 * failing allocation's caller on the stack (docs/hardening.md). */
__attribute__((noinline)) void failalloc_failed(unsigned long n);
__attribute__((noinline)) void failalloc_failed(unsigned long n) {
    __asm__ volatile("" : : "r"(n) : "memory");
}

/* 1 when this allocation is to fail (it is counted either way once main runs). */
static int should_fail(void) {
    if (!counting) return 0;
    const unsigned long n = __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
    if (fail_at && n == fail_at) {
        failed = 1;
        failalloc_failed(n);
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

static unsigned long parse_ulong(const char *s) {
    unsigned long v = 0;
    if (!s) return 0;
    for (; *s >= '0' && *s <= '9'; ++s) v = v * 10 + (unsigned long)(*s - '0');
    return v;
}

static void write_count(void) {
    if (!count_file) return;
    char buf[64];
    size_t n = 0;
    unsigned long v = __atomic_load_n(&count, __ATOMIC_RELAXED);
    char digits[24];
    size_t k = 0;
    do digits[k++] = (char)('0' + v % 10); while ((v /= 10) != 0);
    while (k) buf[n++] = digits[--k];
    if (failed) {
        memcpy(buf + n, " failed", 7);
        n += 7;
    }
    buf[n++] = '\n';
    const int fd = open(count_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    ssize_t w = write(fd, buf, n);
    (void)w;
    close(fd);
}

/* Runs after every other destructor and atexit handler registered before main. */
__attribute__((destructor(101))) static void at_end(void) { write_count(); }

static main_fn real_main;

static int counted_main(int argc, char **argv, char **envp) {
    fail_at = parse_ulong(getenv("DMLREF_FAIL_ALLOC"));
    count_file = getenv("DMLREF_ALLOC_COUNT");
    if (count_file && !*count_file) count_file = NULL;
    __atomic_store_n(&counting, 1, __ATOMIC_SEQ_CST);
    return real_main(argc, argv, envp);
}

int __libc_start_main(main_fn main, int argc, char **argv, void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void *stack_end) {
    start_fn real_start;
    LOOKUP(real_start, "__libc_start_main");
    real_main = main;
    return real_start(counted_main, argc, argv, init, fini, rtld_fini, stack_end);
}

void *malloc(size_t n) {
    resolve();
    if (!real_malloc) return arena_alloc(n);
    if (should_fail()) return NULL;
    return real_malloc(n);
}

void *calloc(size_t a, size_t b) {
    resolve();
    if (!real_calloc) {
        if (b && a > SIZE_MAX / b) return NULL;
        return arena_alloc(a * b); /* static storage: already zero */
    }
    if (should_fail()) return NULL;
    return real_calloc(a, b);
}

void *realloc(void *p, size_t n) {
    resolve();
    if (in_arena(p)) { /* rare: dlsym's memory grown; copied out, the arena keeps the old bytes */
        void *q = malloc(n);
        if (q) memcpy(q, p, n < (size_t)(arena + sizeof arena - (unsigned char *)p) ? n : (size_t)(arena + sizeof arena - (unsigned char *)p));
        return q;
    }
    if (should_fail()) return NULL;
    return real_realloc(p, n);
}

void *reallocarray(void *p, size_t a, size_t b) {
    resolve();
    if (b && a > SIZE_MAX / b) {
        errno = ENOMEM;
        return NULL;
    }
    if (in_arena(p) || !real_reallocarray) return realloc(p, a * b);
    if (should_fail()) return NULL;
    return real_reallocarray(p, a, b);
}

void free(void *p) {
    if (!p || in_arena(p)) return;
    resolve();
    if (real_free) real_free(p);
}

int posix_memalign(void **out, size_t align, size_t n) {
    resolve();
    if (should_fail()) return ENOMEM;
    return real_posix_memalign(out, align, n);
}

void *aligned_alloc(size_t align, size_t n) {
    resolve();
    if (should_fail()) return NULL;
    return real_aligned_alloc(align, n);
}

void *memalign(size_t align, size_t n) {
    resolve();
    if (should_fail()) return NULL;
    return real_memalign(align, n);
}

void *valloc(size_t n) {
    resolve();
    if (should_fail()) return NULL;
    return real_valloc(n);
}

void *pvalloc(size_t n) {
    resolve();
    if (should_fail()) return NULL;
    return real_pvalloc(n);
}
