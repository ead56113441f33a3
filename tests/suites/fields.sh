#!/bin/sh
# The case files' generic field reader and writer (case/fields.c) over a
# hand-made schema with every kind of field: $BUILD/test_fields.
# Environment: BUILD (default build).
BUILD=${BUILD:-build}
t="$BUILD/test_fields"
if [ ! -x "$t" ]; then
    echo "fields: $t is missing (make BUILD=$BUILD $t)"
    echo "fields: 0 passed, 1 failed"
    exit 1
fi
exec "$t"
