/* Helpers for building tensor descs in tests. */
#ifndef DMLREF_TEST_UTIL_H
#define DMLREF_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "dmlref.h"

/* A buffer tensor desc with its own storage for sizes and strides. */
typedef struct tdesc {
    uint32_t sizes[8], strides[8];
    DMLREF_BUFFER_TENSOR_DESC buf;
    DMLREF_TENSOR_DESC desc;
} tdesc;

/* splitmix64: the next of a seeded sequence of 64-bit values (the random-case tests' one
 * generator: the same seed draws the same cases on every host). */
uint64_t splitmix64(uint64_t *s);

/* Packed (strides NULL) or strided when strides != NULL; Total = the minimum. */
void tdesc_init(tdesc *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                const uint32_t *strides);

#define SIZES(...) ((const uint32_t[]){__VA_ARGS__})
#define NDIMS(...) ((uint32_t)(sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t)))
/* tdesc_init(&t, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(3, 2)) */
#define DIMS(...) NDIMS(__VA_ARGS__), SIZES(__VA_ARGS__), NULL

/* Kernels reached (dmlref_kernel_name's strings: static, so kept as pointers). */
#define KERNELS_SEEN_MAX 256
typedef struct kernels_seen {
    const char *names[KERNELS_SEEN_MAX];
    int n;
} kernels_seen;
void kernels_note(kernels_seen *s, const char *name);
/* Any name seen that starts with prefix. */
int kernels_saw(const kernels_seen *s, const char *prefix);
/*
 * Every kernel of src/ops/kernels.def whose name starts with prefix ("gather.",
 * "one_hot.") must be in s: fails at file:line naming each one that is not.
 * The expectations that differ are explicit, and checked the other way (a
 * kernel listed there that s did reach fails too):
 *   unreached  NULL-terminated names without the build's suffix
 *              ("gather.generic.x1"): kernels these cases do not reach (the
 *              caller says why, or which other test reaches them);
 *   in a build without SIMD (DMLREF_SIMD=0) plan_stream is 0, so no streaming
 *   kernel (*_stream, scatter.stream) may be reached there, and none is required.
 */
void kernels_check_reached(const char *file, int line, const kernels_seen *s, const char *prefix,
                           const char *const *unreached);
/* 1 in a DMLREF_SMALL build for a kernel (name, with or without the suffix) that
 * no planner picks there (docs/baremetal.md, SMALL=1: JOIN/SPLIT's inner and
 * chunked walks, the depth-space row modes, tile.doubling, the transposing tiles,
 * GATHER's axis_first and shared-index kernels, MAX_UNPOOLING's staging buffer; their jobs go to the strided copy
 * or the generic kernels, the same bytes); kernels_check_reached neither requires
 * nor allows them there, and the tests that want one by name skip it. 0 otherwise. */
int kernel_small_off(const char *name);
#define CHECK_KERNELS_REACHED(s, prefix, unreached) kernels_check_reached(__FILE__, __LINE__, s, prefix, unreached)

/*
 * KERNELS_CHECKED("gather_nd.") at file scope declares that a test of this file
 * calls CHECK_KERNELS_REACHED(&seen, "gather_nd.", ...).  The declarations are
 * what the whole list is checked against: the test kernel_list_covered
 * (test_kernel_list.c) fails, naming it, for every kernel of src/ops/kernels.def
 * that no declared prefix covers (a new kernel that no test reaches), and
 * CHECK_KERNELS_REACHED fails for a prefix its file did not declare (a check
 * the list would not know of).  Registered before main, like TEST.
 */
#define KERNELS_CHECKED(prefix) KERNELS_CHECKED_AT_(prefix, __LINE__)
#define KERNELS_CHECKED_AT_(prefix, line) KERNELS_CHECKED_AT__(prefix, line)
#define KERNELS_CHECKED_AT__(prefix, line)                                                \
    __attribute__((constructor)) static void kernels_checked_##line(void) {             \
        kernels_declare(__FILE__, prefix);                                              \
    }
void kernels_declare(const char *file, const char *prefix);
/* The kernels of src/ops/kernels.def (names without the build's suffix), and the
 * declarations: for kernel_list_covered. */
size_t kernels_count(void);
const char *kernels_at(size_t k);
int kernels_declared_count(void);
void kernels_declared_at(int i, const char **file, const char **prefix);

#endif
