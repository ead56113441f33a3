#include "util.h"
#include "check.h"
#include "simd/simd.h"

#include <string.h>

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

void kernels_check_reached(const char *file, int line, const kernels_seen *s, const char *prefix,
                           const char *const *unreached) {
    int matched = 0;
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
