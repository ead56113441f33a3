/*
 * The exact output no-overlap search for interleaved layouts too large for a
 * bitmap or a sort of every element offset (src/core/tensor.c check_no_overlap).
 */
#ifndef DMLREF_OVERLAP_H
#define DMLREF_OVERLAP_H

#include "internal.h"

/* The search gives up after this many steps (each O(1)); a hostile
 * descriptor's compile stays in milliseconds. */
#define OVERLAP_SEARCH_BUDGET (UINT64_C(1) << 20)

typedef enum overlap_verdict {
    OVERLAP_DISJOINT,  /* no two elements share an offset */
    OVERLAP_FOUND,     /* *first holds the earliest colliding element's coordinate */
    OVERLAP_BOUND_HIT  /* undecided within the budget; *first holds a colliding
                          element (not necessarily the earliest) when *have_any */
} overlap_verdict;

/* Two elements x != y of t share an offset iff c = x - y is a nonzero vector with
 * |c_d| < Sizes[d] and sum c_d Strides[d] = 0.  Searched exactly, dimensions in
 * descending stride order, each coefficient restricted to the interval that the
 * remaining dimensions can still cancel (so a dimension whose stride exceeds the
 * extent of all smaller ones is fixed at 0 at once).  The earliest colliding element
 * in row-major order is the lexicographic minimum of max(c, 0) over the vectors c
 * whose first nonzero coefficient is positive. */
overlap_verdict overlap_search(const tensor_t *t, uint32_t first[MAX_DIMS], int *have_any);

#endif
