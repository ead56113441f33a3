#!/bin/sh
# Code size: the text bytes (`size`) of the shipped static library libdmlref.a
# for the host (x86-64) and, when arm-linux-gnueabihf-gcc is installed, armhf,
# at -O2 and -Os, with and without OpenMP and SIMD.  Each configuration builds
# in its own directory (build-size-TARGET-OPT-CONFIG; incremental on a rerun).
# Prints a Markdown table (the one in README.md, "Code size") and exits 1 if a
# build fails or gives no size.
#
# When arm-none-eabi-gcc is installed, a second table: Cortex-M4F rows (below).
#
# Environment: MAKE (default make), JOBS (default 2), CODE_SIZE_HOST (default 1;
# 0: only the Cortex-M4F table), CODE_SIZE_OPTS (the host and armhf rows' flags, default
# "-O2 -Os"; .ci/run gives -Os alone: each flag is 8 library builds).
MAKE=${MAKE:-make}
JOBS=${JOBS:-2}
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# configuration label, make arguments
configs='omp1-simd1:OPENMP=1 SIMD=1
omp0-simd1:OPENMP=0 SIMD=1
omp1-simd0:OPENMP=1 SIMD=0
omp0-simd0:OPENMP=0 SIMD=0'

targets=host
if command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1; then
    targets="$targets armhf"
else
    echo "armhf: skipped, arm-linux-gnueabihf-gcc is not installed" >&2
fi

host_name=$(uname -m | sed 's/x86_64/x86-64/')
if [ "${CODE_SIZE_HOST:-1}" != 0 ]; then
echo "| target | flags | OpenMP + SIMD | OPENMP=0 | SIMD=0 | OPENMP=0 SIMD=0 |"
echo "|--------|-------|--------------:|---------:|-------:|----------------:|"
for t in $targets; do
    case $t in
        host) cross=; name=$host_name ;;
        armhf) cross=arm-linux-gnueabihf-; name=armhf ;;
    esac
    for opt in ${CODE_SIZE_OPTS:--O2 -Os}; do
        row="| $name | \`$opt\` |"
        echo "$configs" | {
            while IFS=: read -r label args; do
                dir=build-size-$t$opt-$label
                # shellcheck disable=SC2086
                if $MAKE -j"$JOBS" CROSS="$cross" BUILD="$dir" CFLAGS="$opt" SHARED=0 $args \
                        "$dir/libdmlref.a" >"$log" 2>&1; then
                    text=$("${cross}size" -t "$dir/libdmlref.a" | tail -n 1 | awk '{ print $1 }')
                else
                    cat "$log" >&2; text=
                fi
                case $text in
                    ''|*[!0-9]*|0) echo "code-size: no size for $dir" >&2; text=FAILED; fail=1 ;;
                esac
                row="$row $text |"
            done
            echo "$row"
            [ "$fail" -eq 0 ]
        } || fail=1
    done
done
echo
compilers="cc $(cc -dumpfullversion 2>/dev/null || cc -dumpversion)"
case $targets in *armhf*)
    compilers="$compilers, arm-linux-gnueabihf-gcc $(arm-linux-gnueabihf-gcc -dumpfullversion)" ;;
esac
echo "text bytes of libdmlref.a (\`size -t\`; -fPIC, no -g); $compilers"
fi

# ---- Cortex-M4F (bare metal; docs/baremetal.md) ------------------------------------
# arm-none-eabi-gcc -Os -mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16, picolibc,
# OPENMP=0 SIMD=0, no -fPIC, -DDMLREF_NO_MALLOC=1 -DDMLREF_NO_ENV=1 (SMALL=1 where a row says so:
# docs/baremetal.md's small-target build).  Two figures per row:
# the text of libdmlref_internal.a (`size -t`: code and read-only data of every object),
# and what the library adds to a minimal image (tests/baremetal/minimal.c: one GATHER
# compiled from an arena and executed, linked with --gc-sections) over the same program
# without the library (-DBM_EMPTY); picolibc's minimal start-up (--crt0=minimal: no
# semihosting, so no printf of its own), so what libc code the library pulls in counts.
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    M4="-mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16"
    M4LIB="--specs=picolibc.specs"
    M4LINK="--crt0=minimal -Wl,--gc-sections -Wl,--defsym=__flash=0x0 -Wl,--defsym=__flash_size=0x400000 -Wl,--defsym=__ram=0x20000000 -Wl,--defsym=__ram_size=0x400000"
    m4configs='whole library:all:
messages off:all:MESSAGES=0
SMALL=1, messages off:all:SMALL=1 MESSAGES=0
oracle-only:all:ORACLE_ONLY=1
oracle-only, messages off:all:ORACLE_ONLY=1 MESSAGES=0
GATHER only:gather:
GATHER only, messages off:gather:MESSAGES=0
GATHER only, SMALL=1, messages off:gather:SMALL=1 MESSAGES=0
GATHER only, oracle-only, messages off:gather:ORACLE_ONLY=1 MESSAGES=0
22 operators (issue 24), SMALL=1, messages off:p22:SMALL=1 MESSAGES=0
22 operators (issue 24), oracle-only, messages off:p22:ORACLE_ONLY=1 MESSAGES=0'
    # p22: the 22 phase-1/2 operators, on which issue 24's size goals are defined
    # (the library has more now; docs/baremetal.md, "Against issue 24's goals")
    P22="element_wise_identity gather gather_elements gather_nd gather_nd1 scatter scatter_nd slice slice1 join split"
    P22="$P22 padding padding1 tile space_to_depth space_to_depth1 depth_to_space depth_to_space1 one_hot"
    P22="$P22 reverse_subsequences diagonal_matrix diagonal_matrix1"
    echo
    echo "| Cortex-M4F \`-Os\` | libdmlref_internal.a text | added to a minimal --gc-sections image |"
    echo "|------------------|--------------------------:|---------------------------------------:|"
    m4dir=build-size-m4-empty
    mkdir -p "$m4dir"
    # shellcheck disable=SC2086
    arm-none-eabi-gcc -std=c11 -Os $M4 $M4LIB $M4LINK -DBM_EMPTY -o "$m4dir/empty.elf" tests/baremetal/minimal.c || fail=1
    base=$(arm-none-eabi-size "$m4dir/empty.elf" 2>/dev/null | awk 'NR == 2 { print $1 }')
    echo "$m4configs" | {
        while IFS=: read -r label ops args; do
            dir=build-size-m4-$(echo "$label" | tr -c 'a-zA-Z0-9\n' '-')
            case $ops in
                all) set -- ;;
                p22) set -- "OPS=$P22" ;;
                *) set -- "OPS=$ops" ;;
            esac
            lib=; img=
            # shellcheck disable=SC2086
            if $MAKE -j"$JOBS" BUILD="$dir" CC=arm-none-eabi-gcc AR=arm-none-eabi-ar CROSS=arm-none-eabi- \
                    OPENMP=0 SIMD=0 SHARED=0 LOCALIZE=0 WITH_CLI=0 PIC= CFLAGS=-Os "$@" $args \
                    EXTRA_CFLAGS="$M4 $M4LIB -DDMLREF_NO_MALLOC=1 -DDMLREF_NO_ENV=1" \
                    "$dir/libdmlref_internal.a" >"$log" 2>&1 &&
                arm-none-eabi-gcc -std=c11 -Os $M4 $M4LIB $M4LINK -Iinclude -o "$dir/minimal.elf" \
                    tests/baremetal/minimal.c "$dir/libdmlref_internal.a" >>"$log" 2>&1; then
                lib=$(arm-none-eabi-size -t "$dir/libdmlref_internal.a" | tail -n 1 | awk '{ print $1 }')
                img=$(arm-none-eabi-size "$dir/minimal.elf" | awk -v b="$base" 'NR == 2 { print $1 - b }')
            else
                cat "$log" >&2
            fi
            case $lib in ''|*[!0-9]*|0) echo "code-size: no size for $dir" >&2; lib=FAILED; fail=1 ;; esac
            case $img in ''|*[!0-9]*|0) img=FAILED; fail=1 ;; esac
            echo "| $label | $lib | $img |"
        done
        [ "$fail" -eq 0 ]
    } || fail=1
    echo
    echo "Cortex-M4F rows: arm-none-eabi-gcc $(arm-none-eabi-gcc -dumpfullversion), picolibc; OPENMP=0 SIMD=0," \
        "-DDMLREF_NO_MALLOC=1 -DDMLREF_NO_ENV=1; the minimal image's baseline (no library) is $base bytes"
else
    echo "Cortex-M4F: skipped, arm-none-eabi-gcc is not installed" >&2
fi
[ "$fail" -eq 0 ]
