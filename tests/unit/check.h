/*
 * A small test framework.  TEST(name) { ... } registers a test; CHECK*()
 * record failures with file and line and go on; a test passes when nothing
 * failed.  A test that cannot apply on this host calls TEST_SKIP(why) and
 * returns: it is counted as skipped, never as passed.  main.c runs them all
 * (or those whose name contains the FILTER argument; a filter matching no test
 * fails) and prints "unit: N passed, N failed, N skipped".
 *
 * Every failing test prints one line that re-runs it alone:
 *   repro: build/test_unit --only NAME [--seed S] [--case I]
 * A test that draws random cases takes its base seed from test_seed(default)
 * (--seed S overrides it) and opens each case i with test_case(i), which
 * returns 0 when --case picked another one (skip it); the case draws from its
 * own seed, test_case_seed(base, i), so that it re-runs alone.  The first
 * failure inside a case names that case in the repro line.  test_cases_end()
 * closes the loop and returns 0 under --case: checks over all the cases (the
 * kernels they reached, how many ran) apply only when it returns 1.
 */
#ifndef DMLREF_CHECK_H
#define DMLREF_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dmlref.h"

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int test_failures(void);
void test_skip(const char *why);

/* Random cases (above).  test_seed() also makes the repro line name the seed. */
uint64_t test_seed(uint64_t dflt);
int test_case(uint64_t idx);
uint64_t test_case_seed(uint64_t base, uint64_t idx);
int test_cases_end(void);
int test_case_alone(void); /* 1 under --case (a test may print more then) */

/* Marks the running test as not applicable here (it must then return). */
#define TEST_SKIP(why) test_skip(why)

#define TEST(name)                                                              \
    static void name(void);                                                     \
    __attribute__((constructor)) static void register_##name(void) {            \
        test_register(#name, name);                                             \
    }                                                                           \
    static void name(void)

#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);         \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                      \
    do {                                                                        \
        const uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                  \
        if (a_ != b_)                                                           \
            test_fail(__FILE__, __LINE__, "%s == %s: %llu != %llu", #a, #b,     \
                      (unsigned long long)a_, (unsigned long long)b_);          \
    } while (0)

#define CHECK_EQ_I64(a, b)                                                      \
    do {                                                                        \
        const int64_t a_ = (int64_t)(a), b_ = (int64_t)(b);                     \
        if (a_ != b_)                                                           \
            test_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b,     \
                      (long long)a_, (long long)b_);                            \
    } while (0)

#define CHECK_MEM(a, b, n)                                                      \
    do {                                                                        \
        if (memcmp((a), (b), (n)) != 0)                                         \
            test_fail(__FILE__, __LINE__, "bytes of %s differ from %s", #a, #b);\
    } while (0)

/* Status equals want and, for an error, the message contains `needle` (may be NULL). */
void check_status_at(const char *file, int line, dmlref_status st, const dmlref_error *err,
                     dmlref_status want, const char *needle);
#define CHECK_STATUS(st, err, want, needle) check_status_at(__FILE__, __LINE__, (st), &(err), (want), (needle))

#endif
