/*
 * What the CPU offers beyond the build's baseline instruction set, for the
 * kernels taken by run-time dispatch (simd.h, DMLREF_X86_F16C and
 * DMLREF_X86_AVX2).  Asked once:
 * CPUID and XGETBV take hundreds of cycles (thousands under a hypervisor that
 * traps them), and a compile must not pay that.
 */
#include "simd/simd.h"

#if DMLREF_X86_F16C
#include <cpuid.h>

#ifndef __STDC_NO_ATOMICS__
#include <stdatomic.h>
#endif

/* What this CPU can run beyond the baseline: CPU_F16C (AVX, its registers saved
 * by the OS: OSXSAVE and XCR0's SSE and AVX state bits, and F16C), CPU_AVX2 (the
 * same AVX state and AVX2).  XGETBV through its encoding: this file is built for
 * the baseline, where the compiler's _xgetbv is not available. */
enum { CPU_F16C = 1, CPU_AVX2 = 2, CPU_ASKED = 4 };
static int ask_cpu(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned osxsave = 1u << 27, avx = 1u << 28, f16c = 1u << 29;
    if ((c & (osxsave | avx)) != (osxsave | avx)) return 0;
    unsigned lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0)); /* xgetbv */
    (void)hi;
    if ((lo & 6u) != 6u) return 0;
    int got = (c & f16c) ? CPU_F16C : 0;
    if (__get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (b & (1u << 5)) got |= CPU_AVX2;
    }
    return got;
}

#ifndef __STDC_NO_ATOMICS__
static atomic_int known; /* 0: not asked yet; else CPU_ASKED and what ask_cpu found */
static int cpu_features(void) {
    int k = atomic_load_explicit(&known, memory_order_relaxed);
    if (!k) {
        k = ask_cpu() | CPU_ASKED; /* every thread that races here gets the same answer */
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return k;
}
#else
static int cpu_features(void) { return ask_cpu(); }
#endif
int simd_cpu_f16c(void) { return (cpu_features() & CPU_F16C) != 0; }
int simd_cpu_avx2(void) { return (cpu_features() & CPU_AVX2) != 0; }

#else
int simd_cpu_f16c(void) { return 0; }
int simd_cpu_avx2(void) { return 0; }
#endif
