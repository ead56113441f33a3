/*
 * The `distinct` fill of case files (docs/case-format.md): integers that do
 * not repeat within a group, for scatter targets and permutations.
 */
#ifndef DMLREF_CASE_DISTINCT_H
#define DMLREF_CASE_DISTINCT_H

#include "case.h"
#include "json.h"

#include <stddef.h>

/*
 * Fills every slot of t (an integer tensor, its buffer allocated) from
 * {"seed": S, "modulus": M, "group": G, "unravel": [d0, ...]}: in each group
 * of G values, value j is (a * j + b) mod M, M a power of two, a odd and b
 * drawn (splitmix64 from S, a fresh pair per group), so the G <= M values of
 * a group are distinct; with unravel (product M) each value is written as its
 * coordinates in that row-major shape, one slot each.  0, or -1 with a
 * message naming t->name.
 */
int distinct_fill(const jv *obj, case_tensor *t, char *err, size_t errcap);

#endif
