/*
 * Runs the registered tests; ends with "unit: N passed, N failed, N skipped".
 *   test_unit [FILTER] [--only NAME] [--seed S] [--case I]
 * FILTER: the tests whose name contains it; --only: the one named NAME;
 * --seed / --case: the random cases' base seed and the one case to run
 * (check.h).  A failing test prints "FAIL NAME" and one repro line.
 */
#include "check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#define MAX_TESTS 4096

static struct { const char *name; test_fn fn; } tests[MAX_TESTS];
static int n_tests, current_failures;
static const char *current_skip;

/* --seed / --case, and what the running test drew: its seed, its open case,
 * the case of its first failure inside a case. */
static int opt_seed_set, opt_case_set;
static uint64_t opt_seed, opt_case;
static int seed_used, in_case, fail_in_case;
static uint64_t used_seed, cur_case, fail_case;

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
    if (in_case && !fail_in_case) {
        fail_in_case = 1;
        fail_case = cur_case;
    }
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

uint64_t test_seed(uint64_t dflt) {
    seed_used = 1;
    used_seed = opt_seed_set ? opt_seed : dflt;
    return used_seed;
}

int test_case(uint64_t idx) {
    in_case = 0;
    if (opt_case_set && idx != opt_case) return 0;
    in_case = 1;
    cur_case = idx;
    return 1;
}

uint64_t test_case_seed(uint64_t base, uint64_t idx) { /* splitmix64 of base + idx */
    uint64_t z = base + (idx + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int test_case_alone(void) { return opt_case_set; }

int test_cases_end(void) {
    in_case = 0;
    return !opt_case_set;
}

void test_skip(const char *why) { current_skip = why; }

static int cmp_name(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int usage(const char *argv0) {
    fprintf(stderr, "usage: %s [FILTER] [--only NAME] [--seed S] [--case I]\n", argv0);
    return 2;
}

/* A decimal or 0x number, all of s. */
static int parse_u64(const char *s, uint64_t *v) {
    char *end;
    if (!s || !*s || *s == '-') return 0;
    errno = 0;
    *v = strtoull(s, &end, 0);
    return !*end && errno == 0;
}

int main(int argc, char **argv) {
    const char *filter = NULL, *only = NULL;
    int passed = 0, failed = 0, skipped = 0;
    for (int a = 1; a < argc; ++a) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!strcmp(argv[a], "--only") && v) {
            only = v;
        } else if (!strcmp(argv[a], "--seed") && v) {
            if (!parse_u64(v, &opt_seed)) return usage(argv[0]);
            opt_seed_set = 1;
        } else if (!strcmp(argv[a], "--case") && v) {
            if (!parse_u64(v, &opt_case)) return usage(argv[0]);
            opt_case_set = 1;
        } else if (argv[a][0] == '-' || filter) {
            return usage(argv[0]);
        } else {
            filter = argv[a];
            continue;
        }
        ++a;
    }
    qsort(tests, (size_t)n_tests, sizeof tests[0], cmp_name); /* name is the first member */
    for (int i = 0; i < n_tests; ++i) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        if (only && strcmp(tests[i].name, only)) continue;
        current_failures = 0;
        current_skip = NULL;
        seed_used = in_case = fail_in_case = 0;
        tests[i].fn();
        in_case = 0;
        if (current_skip && !current_failures) {
            ++skipped;
            printf("SKIP %s: %s\n", tests[i].name, current_skip);
        } else if (current_failures) {
            ++failed;
            fprintf(stderr, "FAIL %s\n", tests[i].name);
            fprintf(stderr, "repro: %s --only %s", argv[0], tests[i].name);
            if (seed_used) fprintf(stderr, " --seed %llu", (unsigned long long)used_seed);
            if (fail_in_case) fprintf(stderr, " --case %llu", (unsigned long long)fail_case);
            fputc('\n', stderr);
        } else {
            ++passed;
        }
    }
    if ((filter || only) && passed + failed + skipped == 0) {
        if (only) fprintf(stderr, "no test is named \"%s\"%s%s\n", only, filter ? " and contains " : "", filter ? filter : "");
        else fprintf(stderr, "no test name contains \"%s\"\n", filter);
        ++failed;
    }
    printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
