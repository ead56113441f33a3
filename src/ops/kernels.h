#ifndef DMLREF_OPS_KERNELS_H
#define DMLREF_OPS_KERNELS_H
/* The kernels' names (ops/kernels.def): KERNEL_<ID> indexes kernel_names[]. */

typedef enum {
#define DMLREF_KERNEL(family, id, name, suffix, desc) KERNEL_##id,
#include "ops/kernels.def"
#undef DMLREF_KERNEL
    KERNEL_COUNT
} kernel_id;

/* "gather.rows.sse2", "oracle", ...: the name with the build's suffix. */
extern const char *const kernel_names[KERNEL_COUNT];

/* The name of KERNEL_<ID>: KERNEL_NAME(GATHER_ROWS). */
#define KERNEL_NAME(id) (kernel_names[KERNEL_##id])

#endif
