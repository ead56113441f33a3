/* The library's memory: every allocation goes through a dmlref_allocator
 * (include/dmlref.h); the default one is malloc/free.  And the one sort the
 * library uses (libc's qsort may itself call malloc). */
#include "internal.h"

#include <stddef.h>
#if !DMLREF_NO_MALLOC
#include <stdlib.h>
#endif

#if DMLREF_NO_MALLOC
/* DMLREF_NO_MALLOC (docs/baremetal.md): no malloc or free is referenced.
 * mem_default is then an allocator that has no memory: dmlref_compile with a
 * NULL options.allocator fails with DMLREF_ERROR_OPTIONS (api.c, before using
 * it), and dmlref_validate runs on a stack arena (api.c). */
static void *default_alloc(void *ctx, size_t size, size_t alignment) {
    (void)ctx, (void)size, (void)alignment;
    return NULL;
}

static void default_free(void *ctx, void *ptr) {
    (void)ctx, (void)ptr;
}
#else
/* malloc's pointers are aligned for max_align_t; where that is less than
 * DMLREF_ALLOC_ALIGNMENT, the default allocator aligns by hand, keeping the
 * offset to malloc's pointer in the byte before the one it returns. */
static void *default_alloc(void *ctx, size_t size, size_t alignment) {
    (void)ctx;
    if (alignment <= _Alignof(max_align_t)) return malloc(size);
    if (size > SIZE_MAX - alignment) return NULL;
    unsigned char *raw = malloc(size + alignment);
    if (!raw) return NULL;
    const size_t shift = alignment - (size_t)((uintptr_t)raw & (alignment - 1)); /* 1 .. alignment */
    raw[shift - 1] = (unsigned char)(shift - 1);
    return raw + shift;
}

static void default_free(void *ctx, void *ptr) {
    (void)ctx;
    if (DMLREF_ALLOC_ALIGNMENT <= _Alignof(max_align_t)) {
        free(ptr);
        return;
    }
    unsigned char *p = ptr;
    free(p - 1 - p[-1]);
}
#endif

const dmlref_allocator mem_default = {default_alloc, default_free, NULL};

void *mem_alloc(const dmlref_allocator *a, size_t size) {
    if (size == 0) size = 1;
    if (size > SIZE_MAX - DMLREF_ALLOC_ALIGNMENT) return NULL; /* DMLREF_ALLOC_PADDED would wrap */
    return a->alloc(a->ctx, size, DMLREF_ALLOC_ALIGNMENT);
}

void mem_zero(void *p, size_t n) { memset(p, 0, n); }

void *mem_zalloc(const dmlref_allocator *a, size_t size) {
    void *p = mem_alloc(a, size);
    if (p) memset(p, 0, size);
    return p;
}

void *mem_array(const dmlref_allocator *a, uint64_t count, size_t esize) {
    if (esize && count > SIZE_MAX / esize) return NULL;
    return mem_alloc(a, (size_t)(count * esize));
}

void mem_free(const dmlref_allocator *a, void *p) {
    if (p) a->free(a->ctx, p);
}

/* ---- sort_items: heapsort (in place, no memory) --------------------------- */

static void swap_items(unsigned char *a, unsigned char *b, size_t size) {
    while (size--) {
        const unsigned char t = *a;
        *a++ = *b;
        *b++ = t;
    }
}

static void sift_down(unsigned char *base, size_t root, size_t n, size_t size,
                      int (*cmp)(const void *, const void *)) {
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0) ++child;
        if (cmp(base + root * size, base + child * size) >= 0) return;
        swap_items(base + root * size, base + child * size, size);
        root = child;
    }
}

void sort_items(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    unsigned char *b = base;
    if (n < 2) return;
    for (size_t i = n / 2; i-- > 0;) sift_down(b, i, n, size, cmp);
    for (size_t end = n - 1; end > 0; --end) {
        swap_items(b, b + end * size, size);
        sift_down(b, 0, end, size, cmp);
    }
}
