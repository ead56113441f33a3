#!/bin/sh
# The builders' shared helpers under gen's filters and flavours (builders/builder.h's
# bld_opts), called as an unseen builder would: $BUILD/test_builders.
# Environment: BUILD (default build).
BUILD=${BUILD:-build}
t="$BUILD/test_builders"
if [ ! -x "$t" ]; then
    echo "builders: $t is missing (make BUILD=$BUILD $t)"
    echo "builders: 0 passed, 1 failed"
    exit 1
fi
exec "$t"
