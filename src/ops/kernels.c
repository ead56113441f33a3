/* The kernels' names, from ops/kernels.def. */
#include "ops/kernels.h"
#include "simd/simd.h"

#define KERNEL_SUFFIX_ISA "." DMLREF_ISA
#define KERNEL_SUFFIX_PLAIN ""

const char *const kernel_names[KERNEL_COUNT] = {
#define DMLREF_KERNEL(family, id, name, suffix, desc) [KERNEL_##id] = name KERNEL_SUFFIX_##suffix,
#include "ops/kernels.def"
#undef DMLREF_KERNEL
};
