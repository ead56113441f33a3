#!/bin/sh
# Code size: the text bytes (`size`) of the shipped static library libdmlref.a
# for the host (x86-64) and, when arm-linux-gnueabihf-gcc is installed, armhf,
# at -O2 and -Os, with and without OpenMP and SIMD.  Each configuration builds
# in its own directory (build-size-TARGET-OPT-CONFIG; incremental on a rerun).
# Prints a Markdown table (the one in README.md, "Code size") and exits 1 if a
# build fails or gives no size.
#
# Environment: MAKE (default make), JOBS (default 2).
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
echo "| target | flags | OpenMP + SIMD | OPENMP=0 | SIMD=0 | OPENMP=0 SIMD=0 |"
echo "|--------|-------|--------------:|---------:|-------:|----------------:|"
for t in $targets; do
    case $t in
        host) cross=; name=$host_name ;;
        armhf) cross=arm-linux-gnueabihf-; name=armhf ;;
    esac
    for opt in -O2 -Os; do
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
[ "$fail" -eq 0 ]
