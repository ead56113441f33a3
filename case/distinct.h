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

/*
 * The `pooled` fill: the indices a max pooling with a kh x kw window (and stride) gives, for
 * bench's MAX_UNPOOLING workload.  {"seed": S, "window": [kh, kw], "output": [d0, ...]} on an
 * unsigned integer tensor of n >= 2 dimensions: the element at logical coordinate c holds the
 * row-major flat index, in the shape `output` (n sizes; output[d] == Sizes[d] for d < n - 2,
 * output[n-2] >= Sizes[n-2] * kh, output[n-1] >= Sizes[n-1] * kw), of the coordinate o with
 * o[d] = c[d] before the last two dimensions, o[n-2] = c[n-2] * kh + q / kw and o[n-1] =
 * c[n-1] * kw + q % kw, q = x mod (kh * kw) for x the next splitmix64(S) value, one per element
 * in row-major order of c: one target per window, distinct.  Gap slots stay zero.  0, or -1
 * with a message naming t->name.
 */
int pooled_fill(const jv *obj, case_tensor *t, char *err, size_t errcap);

#endif
