#include "util.h"
#include "check.h"
#include "simd/simd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void tdesc_init(tdesc *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                const uint32_t *strides) {
    memset(t, 0, sizeof *t);
    memcpy(t->sizes, sizes, n * sizeof *sizes);
    if (strides) memcpy(t->strides, strides, n * sizeof *strides);
    t->buf.DataType = dt;
    t->buf.DimensionCount = n;
    t->buf.Sizes = t->sizes;
    t->buf.Strides = strides ? t->strides : NULL;
    t->buf.TotalTensorSizeInBytes = dmlref_calc_buffer_tensor_size(dt, n, t->sizes, t->buf.Strides);
    t->desc.Type = DMLREF_TENSOR_TYPE_BUFFER;
    t->desc.Desc = &t->buf;
}

/* ---- kernels reached ------------------------------------------------------------- */

static const struct {
    const char *name;  /* without the suffix */
    const char *full;  /* as dmlref_kernel_name gives it */
} all_kernels[] = {
#define KERNEL_SUFFIX_ISA "." DMLREF_ISA
#define KERNEL_SUFFIX_PLAIN ""
#define DMLREF_KERNEL(family, id, name, suffix, desc) {name, name KERNEL_SUFFIX_##suffix},
#include "ops/kernels.def"
#undef DMLREF_KERNEL
};

void kernels_note(kernels_seen *s, const char *name) {
    for (int i = 0; i < s->n; ++i)
        if (!strcmp(s->names[i], name)) return;
    if (s->n < KERNELS_SEEN_MAX) s->names[s->n++] = name;
}

int kernels_saw(const kernels_seen *s, const char *prefix) {
    for (int i = 0; i < s->n; ++i)
        if (!strncmp(s->names[i], prefix, strlen(prefix))) return 1;
    return 0;
}

static int listed(const char *const *list, const char *name) {
    for (; list && *list; ++list)
        if (!strcmp(*list, name)) return 1;
    return 0;
}

#define KERNELS_DECLARED_MAX 64
static struct {
    const char *file, *prefix;
} declared[KERNELS_DECLARED_MAX];
static int n_declared;

void kernels_declare(const char *file, const char *prefix) {
    if (n_declared == KERNELS_DECLARED_MAX) {
        fprintf(stderr, "KERNELS_CHECKED: more than %d declarations\n", KERNELS_DECLARED_MAX);
        exit(2);
    }
    declared[n_declared].file = file;
    declared[n_declared].prefix = prefix;
    ++n_declared;
}

size_t kernels_count(void) { return sizeof all_kernels / sizeof all_kernels[0]; }
const char *kernels_at(size_t k) { return all_kernels[k].name; }
int kernels_declared_count(void) { return n_declared; }
void kernels_declared_at(int i, const char **file, const char **prefix) {
    *file = declared[i].file;
    *prefix = declared[i].prefix;
}

int kernel_small_off(const char *name) {
#if DMLREF_SMALL
    static const char *const off[] = {"join.inner",
                                      "join.chunked",
                                      "split.inner",
                                      "split.chunked",
                                      "depth_to_space.interleave",
                                      "depth_to_space.deinterleave",
                                      "space_to_depth.interleave",
                                      "space_to_depth.deinterleave",
                                      "tile.doubling",
                                      "identity.transpose_",
                                      "gather_elements.axis_first",
                                      "gather_nd.axis_first",
                                      "gather.axis_last_stream",
                                      "gather_elements.axis_last_stream",
                                      "gather_nd.axis_last_stream",
                                      "max_unpooling.flat_stream",
                                      "max_unpooling.window_2x2"};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; ++i)
        if (!strncmp(name, off[i], strlen(off[i]))) return 1;
#else
    (void)name;
#endif
    return 0;
}

void kernels_check_reached(const char *file, int line, const kernels_seen *s, const char *prefix,
                           const char *const *unreached) {
    int matched = 0, is_declared = 0;
    for (int i = 0; i < n_declared; ++i)
        is_declared |= !strcmp(declared[i].file, file) && !strcmp(declared[i].prefix, prefix);
    if (!is_declared)
        test_fail(file, line, "no KERNELS_CHECKED(\"%s\") in %s: the whole-list check (kernel_list_covered) "
                  "does not know of this check", prefix, file);
    for (size_t k = 0; k < sizeof all_kernels / sizeof all_kernels[0]; ++k) {
        const char *name = all_kernels[k].name;
        if (strncmp(name, prefix, strlen(prefix)) != 0) continue;
        ++matched;
        int seen = 0;
        for (int i = 0; i < s->n; ++i) seen |= !strcmp(s->names[i], all_kernels[k].full);
        const int stream_off = !DMLREF_SIMD && strstr(name, "stream") != NULL;
        if (stream_off && seen)
            test_fail(file, line, "kernel %s reached in a build without SIMD (no streaming stores there)", name);
        else if (stream_off)
            continue;
        else if (kernel_small_off(name) && seen)
            test_fail(file, line, "kernel %s reached in a SMALL build (which plans none)", name);
        else if (kernel_small_off(name))
            continue;
        else if (listed(unreached, name) && seen)
            test_fail(file, line, "kernel %s reached, but listed as not reached by these cases", name);
        else if (!listed(unreached, name) && !seen)
            test_fail(file, line, "kernel %s (src/ops/kernels.def) not reached by any case", name);
    }
    for (const char *const *u = unreached; u && *u; ++u) {
        int known = 0;
        for (size_t k = 0; k < sizeof all_kernels / sizeof all_kernels[0]; ++k) known |= !strcmp(all_kernels[k].name, *u);
        if (!known || strncmp(*u, prefix, strlen(prefix)) != 0)
            test_fail(file, line, "unreached: %s is not a %s* kernel of src/ops/kernels.def", *u, prefix);
    }
    if (!matched) test_fail(file, line, "no kernel of src/ops/kernels.def starts with %s", prefix);
}
