/*
 * CAST's fast path (cast_fast.c).  May replace op->kernel / op->kernel_name and
 * set op->plan; the oracle stays when no fast path applies (a failed
 * allocation: OUT_OF_MEMORY).  Called after validation succeeded.
 */
#ifndef DMLREF_OPS_CAST_FAST_H
#define DMLREF_OPS_CAST_FAST_H

#include "engine/plan.h"

dmlref_status plan_cast(op_t *op, dmlref_error *err);

/* The F16C kernels' vector parts (cast_f16c_fast.c; DMLREF_X86_F16C builds, taken
 * where simd_cpu_f16c()): n contiguous elements from d and s, d 16-aligned when
 * stream; they return how many they converted (a multiple of 16 and 8), the
 * caller converts the rest. */
uint64_t cast_f16c_f32_f16(unsigned char *d, const unsigned char *s, uint64_t n, int stream);
uint64_t cast_f16c_f16_f32(unsigned char *d, const unsigned char *s, uint64_t n, int stream);

#endif
