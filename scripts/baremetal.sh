#!/bin/sh
# The bare-metal test (make test-baremetal; docs/baremetal.md).
#
# Builds the library for an Arm Cortex-M4F with Debian's arm-none-eabi-gcc and
# picolibc (-Os, Thumb-2, hard float; OPENMP=0 SIMD=0 SMALL=1, -DDMLREF_NO_MALLOC=1
# -DDMLREF_NO_ENV=1, no -fPIC) into build-baremetal, writes the case table with
# the host program $BM_GEN (tests/baremetal/gen_table.c: every documented
# example of tests/cases/*.json, then BM_COUNT random cases per operator from
# the builders' PRNG, seed BM_SEED), links tests/baremetal/main.c into an image
# for the mps2-an386 board (flash at 0x0, RAM at 0x20000000, semihosting),
# checks that the image defines no malloc, free, calloc or realloc, and runs it
# under qemu-system-arm.  The program prints "baremetal: N passed, M failed";
# the exit status is the program's (1 when a case failed), or 1 when a build
# step or the symbol check failed.
#
# Environment: BM_GEN (required: the host generator), MAKE (default make),
# JOBS (default 2), BM_BUILD (default build-baremetal), BM_SEED (default
# 20240611), BM_COUNT (default 12), BM_TIMEOUT (seconds, default 300),
# BM_OPTIONS (more make switches for the library, e.g. "MESSAGES=0 ORACLE_ONLY=1",
# or "SMALL=0" for the host-sized chunk buffers; use another BM_BUILD for each).
set -u
cd "$(dirname "$0")/.." || exit 1
MAKE=${MAKE:-make}
JOBS=${JOBS:-2}
B=${BM_BUILD:-build-baremetal}
SEED=${BM_SEED:-20240611}
COUNT=${BM_COUNT:-12}
TIMEOUT=${BM_TIMEOUT:-300}
CROSS=arm-none-eabi-
MCU="-mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16"
LIBC="--specs=picolibc.specs"
# The mps2-an386 board: 4 MiB at 0x0 (code), 4 MiB at 0x20000000 (data); a 32 KiB stack.
BOARD="-Wl,--defsym=__flash=0x0 -Wl,--defsym=__flash_size=0x400000 -Wl,--defsym=__ram=0x20000000 \
-Wl,--defsym=__ram_size=0x400000 -Wl,--defsym=__stack_size=0x8000"

for tool in ${CROSS}gcc qemu-system-arm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "baremetal: $tool is not installed (apt-get install gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm)" >&2
        exit 1
    fi
done
mkdir -p "$B" && [ -n "${BM_GEN:-}" ] && [ -x "$BM_GEN" ] || { echo "baremetal: BM_GEN (the host generator) is not built" >&2; exit 1; }

# shellcheck disable=SC2086
$MAKE -j"$JOBS" BUILD="$B" CC=${CROSS}gcc AR=${CROSS}ar CROSS=$CROSS OPENMP=0 SIMD=0 SHARED=0 LOCALIZE=0 \
    WITH_CLI=0 PIC= CFLAGS="-Os -g" SMALL=1 ${BM_OPTIONS:-} EXTRA_CFLAGS="$MCU $LIBC -DDMLREF_NO_MALLOC=1 -DDMLREF_NO_ENV=1" \
    "$B/libdmlref_internal.a" >"$B/build.log" 2>&1 || { cat "$B/build.log" >&2; echo "baremetal: the library did not build" >&2; exit 1; }
"$BM_GEN" "$SEED" "$COUNT" tests/cases/*.json >"$B/bm_table.c" || { echo "baremetal: gen_table failed" >&2; exit 1; }
# shellcheck disable=SC2086
${CROSS}gcc -std=c11 -Wall -Wextra -pedantic -Werror -Os -g $MCU $LIBC --oslib=semihost --crt0=semihost \
    -Iinclude -Itests/baremetal -ffunction-sections -fdata-sections -Wl,--gc-sections $BOARD \
    -o "$B/baremetal.elf" tests/baremetal/main.c "$B/bm_table.c" "$B/libdmlref_internal.a" ||
    { echo "baremetal: the image did not link" >&2; exit 1; }
bad=$(${CROSS}nm "$B/baremetal.elf" | awk '$3 ~ /^(malloc|free|calloc|realloc)$/ { print $3 }' | sort -u | tr '\n' ' ')
if [ -n "$bad" ]; then
    echo "baremetal: the image defines $bad(DMLREF_NO_MALLOC: it must define none)" >&2
    exit 1
fi
echo "baremetal: the image defines no malloc, free, calloc or realloc; text $(${CROSS}size "$B/baremetal.elf" | awk 'NR == 2 { print $1 }') bytes"
timeout "$TIMEOUT" qemu-system-arm -M mps2-an386 -nographic -semihosting-config enable=on,target=native \
    -kernel "$B/baremetal.elf"
