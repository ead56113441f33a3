/*
 * The result taxonomy of `dmlref check` and the example harnesses
 * (docs/testing-your-backend.md, "The result taxonomy"): how a backend's output
 * compares with dmlref's, element by element, as bits.  The same names and rules
 * are in examples/backend_harness.py and examples/backend_harness.mjs.
 */
#ifndef DMLREF_CASE_CLASSIFY_H
#define DMLREF_CASE_CLASSIFY_H

#include "dmlref.h"

#include <stdint.h>

/* In the order of the summary table's columns. */
typedef enum check_class {
    CLS_PASS = 0,          /* every element has dmlref's bits                                  */
    CLS_NAN_PAYLOAD,       /* only elements where both are NaN differ (payload, quiet bit, sign) */
    CLS_ZERO_SIGN,         /* only elements where both are zero differ (+0 against -0)          */
    CLS_INT64_53BIT,       /* only INT64/UINT64 elements of magnitude >= 2^53 differ, each as a
                              round trip through a double (53 significant bits) explains       */
    CLS_UNADDRESSED_BYTES, /* a whole buffer came back: every element agrees, only slots no
                              element addresses differ (DirectML may write there: not a failure) */
    CLS_OTHER,             /* any other difference                                             */
    CLS_BACKEND_ERROR,     /* the backend failed: exit status, signal, timeout, no or bad output */
    CLS_TYPE_UNSUPPORTED,  /* the backend says a data type is unsupported (exit 77, UNSUPPORTED) */
    CLS_NOT_EXPRESSIBLE,   /* the framework form cannot express the case (the manifest says so) */
    CLS_N
} check_class;

/* "pass", "nan-payload", "zero-sign", "int64-53bit", "unaddressed-bytes", "other",
 * "backend-error", "type-unsupported", "not-expressible". */
const char *check_class_name(check_class c);

/* 1 for the classes that fail a run: the four kinds of differing bits but
 * unaddressed-bytes, and backend-error. */
int check_class_fails(check_class c);

/*
 * Compares n elements of type dt (host order) as bits and classifies the
 * differences: CLS_PASS when none, CLS_NAN_PAYLOAD, CLS_ZERO_SIGN or
 * CLS_INT64_53BIT when every differing element is of that one kind, else
 * CLS_OTHER.  *ndiff gets the number of differing elements, *first the first one's
 * index (n when none).
 */
check_class check_classify_elements(DMLREF_TENSOR_DATA_TYPE dt, const void *want, const void *got, uint64_t n,
                                    uint64_t *ndiff, uint64_t *first);

/* The class of a case from the classes of its outputs: CLS_PASS when all pass,
 * a difference class when every differing output has that one, else CLS_OTHER. */
check_class check_class_merge(check_class a, check_class b);

#endif
