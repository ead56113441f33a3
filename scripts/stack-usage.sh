#!/bin/sh
# The static worst-case stack of dmlref_compile and dmlref_execute per operator on
# the Cortex-M4F (make stack-usage; docs/baremetal.md, "Stack").
#
# Builds the bare-metal library (arm-none-eabi-gcc -Os -mthumb -mcpu=cortex-m4
# -mfloat-abi=hard -mfpu=fpv4-sp-d16, picolibc, OPENMP=0 SIMD=0, no -fPIC,
# -DDMLREF_NO_MALLOC=1 -DDMLREF_NO_ENV=1) with -fstack-usage -fcallgraph-info=su
# into build-stack-m4-LABEL for each configuration, and runs
# scripts/stack-usage.py over its call graph, with the frames of libgcc's and
# picolibc's functions taken from their code.  Prints one table per
# configuration; exits 1 when a build fails or a bound cannot be computed
# (unresolved indirect call, unbounded recursion, dynamic frame).
#
# Environment: MAKE (default make), JOBS (default 2), PYTHON (default python3),
# STACK_CONFIGS (lines "label:make switches"; default: SMALL=1 with and without
# messages, and SMALL=0 messages off).
set -u
cd "$(dirname "$0")/.." || exit 1
MAKE=${MAKE:-make}
JOBS=${JOBS:-2}
PYTHON=${PYTHON:-python3}
CROSS=arm-none-eabi-
MCU="-mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16"
LIBC="--specs=picolibc.specs"
configs=${STACK_CONFIGS:-'small:SMALL=1
small-messages-off:SMALL=1 MESSAGES=0
host-chunks-messages-off:SMALL=0 MESSAGES=0'}

if ! command -v ${CROSS}gcc >/dev/null 2>&1; then
    echo "stack-usage: ${CROSS}gcc is not installed (apt-get install gcc-arm-none-eabi picolibc-arm-none-eabi)" >&2
    exit 1
fi
# shellcheck disable=SC2086
libgcc=$(${CROSS}gcc $MCU $LIBC -print-libgcc-file-name)
# shellcheck disable=SC2086
libc=$(${CROSS}gcc $MCU $LIBC -print-file-name=libc.a)
[ -f "$libc" ] || libc=$(ls /usr/lib/picolibc/arm-none-eabi/lib/thumb/v7e-m+fp/hard/libc.a 2>/dev/null)
[ -f "$libc" ] || { echo "stack-usage: picolibc's libc.a for the Cortex-M4F not found" >&2; exit 1; }

fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while IFS=: read -r label args; do
    [ -n "$label" ] || continue
    dir=build-stack-m4-$label
    echo "### $label ($args)"
    echo
    # shellcheck disable=SC2086
    if ! $MAKE -j"$JOBS" BUILD="$dir" CC=${CROSS}gcc AR=${CROSS}ar CROSS=$CROSS OPENMP=0 SIMD=0 SHARED=0 \
            LOCALIZE=0 WITH_CLI=0 PIC= CFLAGS=-Os $args \
            EXTRA_CFLAGS="$MCU $LIBC -DDMLREF_NO_MALLOC=1 -DDMLREF_NO_ENV=1 -fstack-usage -fcallgraph-info=su" \
            "$dir/libdmlref_internal.a" >"$log" 2>&1; then
        cat "$log" >&2
        echo "stack-usage: the library did not build ($label)" >&2
        fail=1
        continue
    fi
    "$PYTHON" scripts/stack-usage.py "$dir" "$libgcc" "$libc" || fail=1
    echo
done <<EOF
$configs
EOF
echo "arm-none-eabi-gcc $(${CROSS}gcc -dumpfullversion), -Os, OPENMP=0 SIMD=0, -DDMLREF_NO_MALLOC=1 -DDMLREF_NO_ENV=1"
[ "$fail" -eq 0 ]
