/*
 * What the CPU offers beyond the build's baseline instruction set, for the
 * kernels taken by run-time dispatch (simd.h, DMLREF_X86_F16C).  Asked once:
 * CPUID and XGETBV take hundreds of cycles (thousands under a hypervisor that
 * traps them), and a compile must not pay that.
 */
#include "simd/simd.h"

#if DMLREF_X86_F16C
#include <cpuid.h>

#ifndef __STDC_NO_ATOMICS__
#include <stdatomic.h>
#endif

/* AVX (its registers saved by the OS: OSXSAVE, and XCR0's SSE and AVX state
 * bits) and F16C.  XGETBV through its encoding: this file is built for the
 * baseline, where the compiler's _xgetbv is not available. */
static int ask_cpu(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned osxsave = 1u << 27, avx = 1u << 28, f16c = 1u << 29;
    if ((c & (osxsave | avx | f16c)) != (osxsave | avx | f16c)) return 0;
    unsigned lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0)); /* xgetbv */
    (void)hi;
    return (lo & 6u) == 6u;
}

#ifndef __STDC_NO_ATOMICS__
static atomic_int known; /* 0: not asked yet; 1: no; 2: yes */
int simd_cpu_f16c(void) {
    int k = atomic_load_explicit(&known, memory_order_relaxed);
    if (!k) {
        k = ask_cpu() ? 2 : 1; /* every thread that races here gets the same answer */
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return k == 2;
}
#else
int simd_cpu_f16c(void) { return ask_cpu(); }
#endif

#else
int simd_cpu_f16c(void) { return 0; }
#endif
