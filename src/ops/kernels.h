#ifndef DMLREF_OPS_KERNELS_H
#define DMLREF_OPS_KERNELS_H
/* The kernels' names (ops/kernels.def): KERNEL_<ID> indexes kernel_names[]. */

typedef enum {
#define DMLREF_KERNEL(family, id, name, suffix, desc) KERNEL_##id,
#include "ops/kernels.def"
#undef DMLREF_KERNEL
    KERNEL_COUNT
} kernel_id;

/* Each name is its own object (kernel_name_<ID>, ops/kernels.c), so that a
 * --gc-sections image keeps only the names of the kernels it can run. */
#define DMLREF_KERNEL(family, id, name, suffix, desc) extern const char kernel_name_##id[];
#include "ops/kernels.def"
#undef DMLREF_KERNEL

/* "gather.rows.sse2", "oracle", ...: the name with the build's suffix, by
 * KERNEL_<ID> (for the tests, which iterate the list; a planner names its
 * kernels with KERNEL_NAME, or a table of its own, so that an image that
 * links no planner links no name but "oracle"). */
extern const char *const kernel_names[KERNEL_COUNT];

/* The name of KERNEL_<ID>: KERNEL_NAME(GATHER_ROWS). */
#define KERNEL_NAME(id) (kernel_name_##id)

/* The name of a kernel with streaming stores, for a planner's table: NULL in a
 * SIMD=0 build, where plan_stream is never 1 and no planner picks one (so that
 * the name is not linked).  Tested where it is used, after every header (the
 * same DMLREF_SIMD as plan.h's plan_stream). */
#define KERNEL_STREAM_NAME(id) (DMLREF_SIMD ? kernel_name_##id : NULL)

#endif
