#!/bin/sh
# The case library's JSON reader (case/json.c), alone and under the case reader:
# the tree, each refusal and its message, hostile inputs, every prefix of every
# documented case file, and allocation failures: $BUILD/test_json.
# Environment: BUILD (default build).
BUILD=${BUILD:-build}
t="$BUILD/test_json"
if [ ! -x "$t" ]; then
    echo "json_read: $t is missing (make BUILD=$BUILD $t)"
    echo "json_read: 0 passed, 1 failed"
    exit 1
fi
exec "$t" tests/cases
