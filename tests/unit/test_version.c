/*
 * The run-time version (dmlref_version(), from the library) against the
 * compile-time one (the header's macros); the Makefile names libdmlref.so.M.m.p
 * from the same macros.
 */
#include <stdio.h>

#include "check.h"

TEST(version_string_matches_header) {
    const char *v = dmlref_version();
    CHECK(v != NULL);
    if (v == NULL) return;
    if (strcmp(v, DMLREF_VERSION_STRING) != 0)
        test_fail(__FILE__, __LINE__, "dmlref_version() \"%s\" != DMLREF_VERSION_STRING \"%s\"", v,
                  DMLREF_VERSION_STRING);
}

TEST(version_string_matches_numeric_macros) {
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", DMLREF_VERSION_MAJOR, DMLREF_VERSION_MINOR,
             DMLREF_VERSION_PATCH);
    if (strcmp(want, DMLREF_VERSION_STRING) != 0)
        test_fail(__FILE__, __LINE__, "DMLREF_VERSION_STRING \"%s\" != \"%s\" (MAJOR.MINOR.PATCH)",
                  DMLREF_VERSION_STRING, want);
    if (strcmp(want, dmlref_version()) != 0)
        test_fail(__FILE__, __LINE__, "dmlref_version() \"%s\" != \"%s\"", dmlref_version(), want);
}
