/*
 * The whole kernel list (src/ops/kernels.def) against the reached-kernel checks:
 * every kernel must fall under a prefix some test file declares with
 * KERNELS_CHECKED (util.h), the prefix of a CHECK_KERNELS_REACHED call of that
 * file, so that a kernel added to the list with no test that reaches it fails
 * here, by name.  CHECK_KERNELS_REACHED itself fails for an undeclared prefix.
 * The oracle's own name ("oracle", set by src/api/api.c) is checked here.
 */
#include <stdlib.h>

#include "check.h"
#include "util.h"

KERNELS_CHECKED("oracle")

/* Kernels no declaration covers, skipping declaration `skip` (-1: none); reports them when report. */
static size_t uncovered(int skip, int report) {
    size_t n = 0;
    for (size_t k = 0; k < kernels_count(); ++k) {
        const char *name = kernels_at(k);
        int covered = 0;
        for (int i = 0; i < kernels_declared_count() && !covered; ++i) {
            const char *file, *prefix;
            kernels_declared_at(i, &file, &prefix);
            covered = i != skip && strncmp(name, prefix, strlen(prefix)) == 0;
        }
        if (!covered) {
            ++n;
            if (report)
                test_fail(__FILE__, __LINE__, "kernel %s (src/ops/kernels.def): no test checks that it is reached "
                          "(no KERNELS_CHECKED prefix of tests/unit/ covers it)", name);
        }
    }
    return n;
}

TEST(kernel_list_covered) {
    CHECK(kernels_count() > 100);
    CHECK_EQ_U64(uncovered(-1, 1), 0);
    for (int i = 0; i < kernels_declared_count(); ++i) {
        const char *file, *prefix;
        kernels_declared_at(i, &file, &prefix);
        size_t matched = 0;
        for (size_t k = 0; k < kernels_count(); ++k) matched += strncmp(kernels_at(k), prefix, strlen(prefix)) == 0;
        if (!matched) test_fail(__FILE__, __LINE__, "%s: KERNELS_CHECKED(\"%s\") covers no kernel", file, prefix);
        for (int j = 0; j < i; ++j) {
            const char *f2, *p2;
            kernels_declared_at(j, &f2, &p2);
            if (!strcmp(file, f2) && !strcmp(prefix, p2))
                test_fail(__FILE__, __LINE__, "%s: KERNELS_CHECKED(\"%s\") twice", file, prefix);
        }
    }
    /* the walk does find a gap: without the oracle's declaration (this file's, the only
     * one covering "oracle"), exactly that kernel is uncovered */
    int self = -1;
    for (int i = 0; i < kernels_declared_count(); ++i) {
        const char *file, *prefix;
        kernels_declared_at(i, &file, &prefix);
        if (!strcmp(prefix, "oracle")) self = i;
    }
    CHECK(self >= 0);
    if (self >= 0) CHECK_EQ_U64(uncovered(self, 0), uncovered(-1, 0) + 1);
}

/* "oracle": DMLREF_OPTION_FORCE_ORACLE on a JOIN, which has fast paths (test_env.c
 * covers DMLREF_FORCE_ORACLE, the environment variable). */
TEST(kernel_list_oracle_reached) {
    tdesc a, b, out;
    tdesc_init(&a, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(2, 3));
    tdesc_init(&b, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(2, 3));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(4, 3));
    const DMLREF_TENSOR_DESC pieces[2] = {a.desc, b.desc};
    const DMLREF_JOIN_OPERATOR_DESC j = {2, pieces, &out.desc, 0};
    const DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_JOIN, &j};
    const dmlref_options o = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
    kernels_seen seen = {{0}, 0};
    dmlref_operator *op = NULL;
    dmlref_error err;
    CHECK_STATUS(dmlref_compile(&d, DMLREF_FEATURE_LEVEL_6_4, &o, &op, &err), err, DMLREF_OK, NULL);
    if (op) kernels_note(&seen, dmlref_kernel_name(op));
    dmlref_release(op);
    CHECK_KERNELS_REACHED(&seen, "oracle", NULL);
}
