/*
 * Trap versions of libc's allocation functions and of the OpenMP entry points the
 * library references, for a program linked with -Wl,--wrap=<each> (the Makefile's
 * example_embed_trap: examples/embed/embed.c, which sets an allocator and a thread
 * pool on every compile).  --wrap sends every reference the program's own objects
 * and libdmlref.a make to __wrap_<name>; calls inside libc itself (printf's buffer,
 * pthread_create) are not references of the link and stay libc's.  A call reaching
 * one of these means the library called malloc, free or OpenMP although the
 * program gave it an allocator and a thread pool: it says which and exits 99.
 *
 * The OpenMP traps are compiled with DMLREF_OMP_TRAP=1 (a gcc OPENMP=1 build, whose
 * library references exactly the Makefile's OMP_TRAP_SYMS).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void trapped(const char *name) {
    static const char head[] = "libc trap: the library called ";
    static const char tail[] = " although the program set an allocator and a thread pool\n";
    ssize_t w = write(2, head, sizeof head - 1);
    w += write(2, name, strlen(name));
    w += write(2, tail, sizeof tail - 1);
    (void)w;
    _exit(99);
}

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);
int __wrap_posix_memalign(void **p, size_t align, size_t size);
void *__wrap_aligned_alloc(size_t align, size_t size);

void *__wrap_malloc(size_t size) {
    (void)size;
    trapped("malloc");
    return NULL;
}
void *__wrap_calloc(size_t n, size_t size) {
    (void)n, (void)size;
    trapped("calloc");
    return NULL;
}
void *__wrap_realloc(void *p, size_t size) {
    (void)p, (void)size;
    trapped("realloc");
    return NULL;
}
void __wrap_free(void *p) {
    (void)p;
    trapped("free");
}
int __wrap_posix_memalign(void **p, size_t align, size_t size) {
    (void)p, (void)align, (void)size;
    trapped("posix_memalign");
    return 12;
}
void *__wrap_aligned_alloc(size_t align, size_t size) {
    (void)align, (void)size;
    trapped("aligned_alloc");
    return NULL;
}

#if defined(DMLREF_OMP_TRAP) && DMLREF_OMP_TRAP
void __wrap_GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
int __wrap_omp_get_max_threads(void);
int __wrap_omp_get_num_threads(void);
int __wrap_omp_get_thread_num(void);

void __wrap_GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags) {
    (void)fn, (void)data, (void)num_threads, (void)flags;
    trapped("GOMP_parallel (an OpenMP parallel region)");
}
int __wrap_omp_get_max_threads(void) {
    trapped("omp_get_max_threads");
    return 1;
}
int __wrap_omp_get_num_threads(void) {
    trapped("omp_get_num_threads");
    return 1;
}
int __wrap_omp_get_thread_num(void) {
    trapped("omp_get_thread_num");
    return 0;
}
#endif
