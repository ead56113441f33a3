#!/bin/sh
# The README's C example (examples/gather.c) prints the documented output.
BUILD=${BUILD:-build}
got=$("$BUILD/example_gather")
want='[1, 2]
[3, 4]
[3, 4]
[5, 6]'
if [ "$got" = "$want" ]; then
    echo "example: 1 passed, 0 failed"
else
    printf 'example_gather printed:\n%s\n' "$got"
    echo "example: 0 passed, 1 failed"
    exit 1
fi
