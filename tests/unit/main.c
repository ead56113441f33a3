/* Runs the registered tests; ends with "N passed, N failed". */
#include "check.h"

#include <stdarg.h>
#include <stdlib.h>

#define MAX_TESTS 4096

static struct { const char *name; test_fn fn; } tests[MAX_TESTS];
static int n_tests, current_failures;
static const char *current_skip;

void test_register(const char *name, test_fn fn) {
    if (n_tests == MAX_TESTS) {
        fprintf(stderr, "too many tests\n");
        exit(2);
    }
    tests[n_tests].name = name;
    tests[n_tests].fn = fn;
    ++n_tests;
}

void test_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    ++current_failures;
    fprintf(stderr, "  %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void check_status_at(const char *file, int line, dmlref_status st, const dmlref_error *err,
                     dmlref_status want, const char *needle) {
    if (st != want)
        test_fail(file, line, "status %s, want %s (%s)", dmlref_status_name(st), dmlref_status_name(want),
                  st != DMLREF_OK ? err->message : "");
    else if (needle && !strstr(err->message, needle))
        test_fail(file, line, "message \"%s\" lacks \"%s\"", err->message, needle);
}

int test_failures(void) { return current_failures; }

void test_skip(const char *why) { current_skip = why; }

static int cmp_name(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0, skipped = 0;
    qsort(tests, (size_t)n_tests, sizeof tests[0], cmp_name); /* name is the first member */
    for (int i = 0; i < n_tests; ++i) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        current_failures = 0;
        current_skip = NULL;
        tests[i].fn();
        if (current_skip && !current_failures) {
            ++skipped;
            printf("SKIP %s: %s\n", tests[i].name, current_skip);
        } else if (current_failures) {
            ++failed;
            fprintf(stderr, "FAIL %s\n", tests[i].name);
        } else {
            ++passed;
        }
    }
    if (filter && passed + failed + skipped == 0) {
        fprintf(stderr, "no test name contains \"%s\"\n", filter);
        ++failed;
    }
    printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
