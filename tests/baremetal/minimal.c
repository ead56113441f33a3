/*
 * The smallest program that uses the library (scripts/code-size.sh's Cortex-M4
 * rows): one GATHER compiled from a static arena and executed.  Linked with
 * --gc-sections; built with -DBM_EMPTY it does the same work without the
 * library (the baseline: picolibc's start-up and exit), so the difference of
 * the two images' text is what the library adds.
 */
#ifndef BM_EMPTY
#include "dmlref.h"
#endif

#include <stddef.h>
#include <stdint.h>

static _Alignas(16) unsigned char arena[4096];
static size_t used;

static void *bump_alloc(void *ctx, size_t size, size_t alignment) {
    (void)ctx;
    const size_t at = (used + alignment - 1) & ~(alignment - 1);
    if (at > sizeof arena || size > sizeof arena - at) return NULL;
    used = at + size;
    return arena + at;
}

static void bump_free(void *ctx, void *ptr) {
    (void)ctx, (void)ptr;
}

int main(void) {
    static const float in[6] = {1, 2, 3, 4, 5, 6};
    static const uint32_t idx[2] = {2, 0};
    static float out[4];
#ifdef BM_EMPTY
    (void)bump_alloc, (void)bump_free, (void)in, (void)idx, (void)out;
    return 0;
#else
    static const uint32_t in_sizes[4] = {1, 1, 3, 2}, ix_sizes[4] = {1, 1, 1, 2}, out_sizes[4] = {1, 1, 2, 2};
    const DMLREF_BUFFER_TENSOR_DESC bi = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_FLAG_NONE, 4, in_sizes, NULL,
                                          sizeof in, 0};
    const DMLREF_BUFFER_TENSOR_DESC bx = {DMLREF_TENSOR_DATA_TYPE_UINT32, DMLREF_TENSOR_FLAG_NONE, 4, ix_sizes, NULL,
                                          sizeof idx, 0};
    const DMLREF_BUFFER_TENSOR_DESC bo = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_FLAG_NONE, 4, out_sizes, NULL,
                                          sizeof out, 0};
    const DMLREF_TENSOR_DESC ti = {DMLREF_TENSOR_TYPE_BUFFER, &bi}, tx = {DMLREF_TENSOR_TYPE_BUFFER, &bx},
                             to = {DMLREF_TENSOR_TYPE_BUFFER, &bo};
    const DMLREF_GATHER_OPERATOR_DESC g = {&ti, &tx, &to, 2, 1};
    const DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    const dmlref_allocator al = {bump_alloc, bump_free, NULL};
    dmlref_options o = {0};
    o.allocator = &al;
    dmlref_operator *op = NULL;
    if (dmlref_compile(&d, DMLREF_FEATURE_LEVEL_6_4, &o, &op, NULL) != DMLREF_OK) return 1;
    const dmlref_cbuffer ib[2] = {{in, sizeof in}, {idx, sizeof idx}};
    const dmlref_buffer ob[1] = {{out, sizeof out}};
    const dmlref_status st = dmlref_execute(op, ib, 2, ob, 1, NULL);
    dmlref_release(op);
    return st == DMLREF_OK && out[0] == 5 && out[1] == 6 && out[2] == 1 && out[3] == 2 ? 0 : 1;
#endif
}
