/*
 * What REVERSE_SUBSEQUENCES' oracle (op_reverse_subsequences.c) and its fast
 * path (reverse_subsequences_fast.c) share: the clamped sequence length, and the
 * planner the class's plan hook calls.
 */
#ifndef DMLREF_OPS_REVERSE_SUBSEQUENCES_H
#define DMLREF_OPS_REVERSE_SUBSEQUENCES_H

#include "engine/plan.h"

/* The length of the sequence whose length element is at p: min(value, n), the
 * value read through the index readers (UINT32 / UINT64; a signed type, which
 * validation never admits, would read as its two's complement). */
static inline uint64_t seq_length(const unsigned char *p, uint32_t dtype, uint64_t n) {
    const index_value v = index_read(p, dtype);
    const uint64_t u = v.is_signed ? (uint64_t)v.s : v.u;
    return u < n ? u : n;
}

/* The fast path.  May replace op->kernel / op->kernel_name and set op->plan;
 * the oracle stays when no fast path applies (a failed allocation: OUT_OF_MEMORY).  Called
 * after validation succeeded, with Axis. */
dmlref_status plan_reverse_subsequences(op_t *op, uint32_t axis, dmlref_error *err);

#endif
