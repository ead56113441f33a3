/*
 * The zero fill of a tensor's elements (plan.h, zero_plan): a nest over its
 * strides, the innermost run folded into blocks of memset, blocks larger than
 * COPY_CHUNK cut into chunks so that threads share the work.  Output elements
 * only: stride gaps keep their bytes.  SLICE_GRAD and MAX_UNPOOLING zero their
 * output with it before writing the window or the scattered elements.
 */
#include "plan.h"

#include <string.h>

void zero_plan_init(zero_plan *z, const tensor_t *t) {
    static const int want[1] = {1};
    mem_zero(z, sizeof *z);
    z->nest.m = t->n;
    for (uint32_t d = 0; d < t->n; ++d) {
        z->nest.sizes[d] = t->sizes[d];
        z->nest.st[0][d] = t->bstrides[d];
    }
    nest_collapse(&z->nest, 1);
    z->block = nest_fold(&z->nest, 1, t->esize, want);
    z->chunk = z->block > COPY_CHUNK ? COPY_CHUNK : z->block;
    z->chunks = (z->block + z->chunk - 1) / z->chunk;
    z->units = z->nest.points * z->chunks;
}

/* Zeroes the units [lo, hi): points of the nest, or chunks of a block larger than COPY_CHUNK. */
void zero_plan_run(const zero_plan *z, unsigned char *dst, uint64_t lo, uint64_t hi) {
    const nest_t *nt = &z->nest;
    if (z->chunks == 1) {
        nest_it it;
        if (!nest_rows_begin(nt, &it, lo, hi)) return;
        const uint64_t s = nt->st[0][nt->m - 1];
        do {
            if (s == z->block) memset(dst + it.off[0], 0, (size_t)(it.len * z->block));
            else
                for (uint64_t j = 0; j < it.len; ++j) memset(dst + it.off[0] + j * s, 0, (size_t)z->block);
        } while (nest_rows_next(nt, &it));
        return;
    }
    for (uint64_t u = lo; u < hi; ++u) {
        uint64_t off[NEST_K];
        const uint64_t p = u / z->chunks, c = u % z->chunks, at = c * z->chunk;
        nest_offsets(nt, p, off);
        memset(dst + off[0] + at, 0, (size_t)(z->block - at < z->chunk ? z->block - at : z->chunk));
    }
}

