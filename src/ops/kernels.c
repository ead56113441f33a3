/* The kernels' names, from ops/kernels.def. */
#include "ops/kernels.h"
#include "simd/simd.h"

#define KERNEL_SUFFIX_ISA "." DMLREF_ISA
#define KERNEL_SUFFIX_PLAIN ""

#define DMLREF_KERNEL(family, id, name, suffix, desc) const char kernel_name_##id[] = name KERNEL_SUFFIX_##suffix;
#include "ops/kernels.def"
#undef DMLREF_KERNEL

const char *const kernel_names[KERNEL_COUNT] = {
#define DMLREF_KERNEL(family, id, name, suffix, desc) [KERNEL_##id] = kernel_name_##id,
#include "ops/kernels.def"
#undef DMLREF_KERNEL
};
