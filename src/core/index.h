/*
 * The index policy (docs/operators.md 1.8), with one owner: every reader of an index value
 * (the oracles, the fast paths, the SIMD normalizer, the checking pre-pass)
 * goes through index_norm() below.
 *
 *   value v of an index type (INT32, INT64: signed; UINT32, UINT64: unsigned),
 *   bound n >= 1:
 *     signed v < 0 counts from the end: v + n, in range when v >= -n;
 *     otherwise v, in range when v < n;
 *     out of range: by policy
 *       INDEX_CLAMP  clamped into [0, n - 1] (the default policy of GATHER,
 *                    GATHER_ELEMENTS and SCATTER_ND: below -n gives 0, n or
 *                    more gives n - 1);
 *       INDEX_ERROR  not clamped: the result is n (no element), and the
 *                    caller reports the index (DMLREF_OPTION_CHECK_INDICES);
 *       INDEX_OPERATOR_RULE  not clamped: the result is n, and the caller
 *                    applies its operator's documented rule (e.g. ONE_HOT,
 *                    where an out-of-range index makes the whole sequence the
 *                    off value).
 *   *in_range says whether v was in range, under every policy.
 */
#ifndef DMLREF_INDEX_H
#define DMLREF_INDEX_H

#include <stdint.h>
#include <string.h>

#include "dmlref.h"

typedef enum index_policy {
    INDEX_CLAMP = 0,
    INDEX_ERROR = 1,
    INDEX_OPERATOR_RULE = 2
} index_policy;

/* Raw index value: signed types sign-extend, unsigned zero-extend. */
typedef struct index_value {
    int is_signed;
    int64_t s;  /* when is_signed   */
    uint64_t u; /* when !is_signed */
} index_value;

/* The value at p of an index type (validation admits only the four). */
static inline index_value index_read(const unsigned char *p, uint32_t dtype) {
    index_value v = {0, 0, 0};
    switch (dtype) {
    case DMLREF_TENSOR_DATA_TYPE_INT32: { int32_t x; memcpy(&x, p, 4); v.is_signed = 1; v.s = x; break; }
    case DMLREF_TENSOR_DATA_TYPE_INT64: { int64_t x; memcpy(&x, p, 8); v.is_signed = 1; v.s = x; break; }
    case DMLREF_TENSOR_DATA_TYPE_UINT32: { uint32_t x; memcpy(&x, p, 4); v.u = x; break; }
    case DMLREF_TENSOR_DATA_TYPE_UINT64: { uint64_t x; memcpy(&x, p, 8); v.u = x; break; }
    default: break;
    }
    return v;
}

/* THE definition of the policy (see above).  n >= 1. */
static inline uint64_t index_norm(index_value v, uint64_t n, index_policy policy, int *in_range) {
    uint64_t r;
    int ok;
    if (v.is_signed && v.s < 0) {
        /* -v as unsigned, without overflowing at INT64_MIN */
        const uint64_t mag = (uint64_t)(-(v.s + 1)) + 1;
        ok = mag <= n;
        r = ok ? n - mag : 0;
    } else {
        const uint64_t u = v.is_signed ? (uint64_t)v.s : v.u;
        ok = u < n;
        r = ok ? u : n - 1;
    }
    *in_range = ok;
    return ok || policy == INDEX_CLAMP ? r : n;
}

/* The default policy, as the oracles call it. */
static inline uint64_t index_normalize(index_value v, uint64_t n, int *in_range) {
    return index_norm(v, n, INDEX_CLAMP, in_range);
}

/* Read and normalize under a policy. */
static inline uint64_t index_load(const unsigned char *p, uint32_t dtype, uint64_t n, index_policy policy,
                                  int *in_range) {
    return index_norm(index_read(p, dtype), n, policy, in_range);
}

/* Read and clamp: what the fast paths use.  The common case first, one
 * compare on the raw value (a negative 64-bit value is huge as unsigned, and
 * n < 2^32; a negative INT32 fails its sign test): an index already in
 * [0, n) is itself under every policy.  Any other value goes through
 * index_norm.  (Measured: without this early test, per-element index_read and
 * index_norm made gather_elements_first 20% slower.) */
static inline uint64_t index_load_clamp64(const unsigned char *p, uint32_t dtype, uint64_t n);

static inline uint64_t index_load_clamp(const unsigned char *p, uint32_t dtype, uint64_t n) {
    if (dtype == DMLREF_TENSOR_DATA_TYPE_INT64 || dtype == DMLREF_TENSOR_DATA_TYPE_UINT64) {
        return index_load_clamp64(p, dtype, n);
    } else if (dtype == DMLREF_TENSOR_DATA_TYPE_INT32) {
        int32_t v;
        memcpy(&v, p, 4);
        if (v >= 0 && (uint64_t)v < n) return (uint64_t)v;
    } else {
        uint32_t v;
        memcpy(&v, p, 4);
        if (v < n) return v;
    }
    int in_range;
    return index_norm(index_read(p, dtype), n, INDEX_CLAMP, &in_range);
}

/* index_load_clamp for a 64-bit index type (INT64 or UINT64), for loops that
 * know the width: the same early test, the same general path. */
static inline uint64_t index_load_clamp64(const unsigned char *p, uint32_t dtype, uint64_t n) {
    uint64_t v;
    memcpy(&v, p, 8);
    if (v < n) return v;
    int in_range;
    return index_norm(index_read(p, dtype), n, INDEX_CLAMP, &in_range);
}

/* Decimal text of v (index.c). */
const char *index_str(char *buf, size_t cap, index_value v);

#endif
