#!/bin/sh
# dmlref_output_sizes over every documented example (tests/shape/test_shape.c):
# $BUILD/test_shape tests/cases.
# Environment: BUILD (default build).
BUILD=${BUILD:-build}
t="$BUILD/test_shape"
if [ ! -x "$t" ]; then
    echo "shape: $t is missing (make BUILD=$BUILD $t)"
    echo "shape: 0 passed, 1 failed"
    exit 1
fi
exec "$t" tests/cases
