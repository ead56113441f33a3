/*
 * The canonical strided N-d iterator.  Every operator's oracle walks its
 * tensors with it; fast paths are tested against what it visits.
 */
#include "internal.h"

void nd_iter_init(nd_iter *it, uint32_t n, const uint32_t *sizes, uint32_t k,
                  const uint64_t *const *bstrides) {
    mem_zero(it, sizeof *it);
    it->n = n;
    it->k = k;
    for (uint32_t d = 0; d < n; ++d) {
        it->sizes[d] = sizes[d];
        if (sizes[d] == 0) it->done = 1; /* empty: nothing to visit */
    }
    for (uint32_t t = 0; t < k; ++t)
        if (bstrides[t])
            for (uint32_t d = 0; d < n; ++d) it->bstrides[t][d] = bstrides[t][d];
}

void nd_iter_next(nd_iter *it) {
    for (uint32_t d = it->n; d-- > 0;) {
        if (++it->coord[d] < it->sizes[d]) {
            for (uint32_t t = 0; t < it->k; ++t) it->offset[t] += it->bstrides[t][d];
            return;
        }
        /* wrap this dimension back to 0 and carry into the next outer one */
        for (uint32_t t = 0; t < it->k; ++t)
            it->offset[t] -= (uint64_t)(it->sizes[d] - 1) * it->bstrides[t][d];
        it->coord[d] = 0;
    }
    it->done = 1;
}
