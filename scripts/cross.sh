#!/usr/bin/env bash
# Cross-architecture check (.ci/run's "cross" step).
#
#   scripts/cross.sh [TARGET...]     default: armhf i386 aarch64 s390x riscv64 wasm32
#
# For each target: builds the library, the command and the test programs into
# build-cross-<target> with Debian's cross toolchain (emcc for wasm32), puts a
# wrapper script in place of each program (X -> X.real started by
# qemu-<arch>-static, or X.js started by node), runs the suites on it with
# BUILD=build-cross-<target> (tests/run.sh unchanged where the command is
# built), and compares the command's verdicts with the native (x86-64) build's
# ("identity": `dmlref validate` over tests/cases and tests/cases/bad, `dmlref
# gen` per operator: exit status, stdout, stderr, sha256 of every file).
# Each target ends with "TARGET: N passed, N failed", the whole with
# "cross: N passed, N failed"; exit status 1 if anything failed.
#
# Targets:
#   i386 s390x                 every suite of tests/run.sh, and identity (one 32-bit and
#                              one big-endian host; OpenMP on; the multiarch
#                              libc6/libgomp1:<arch>).  i386 runs natively where the
#                              kernel runs a 32-bit x86 program (checked with a probe
#                              program), else under qemu-i386-static
#   armhf aarch64              unit, example, numpy and identity
#   riscv64                    unit, example, numpy and identity (the cross libc and
#                              libgomp, QEMU_LD_PREFIX)
#   wasm32                     emcc, -msimd128, OPENMP=0, node: unit, example and numpy
#                              (the command is not built: WITH_CLI=0 for emcc)
# Environment: JOBS (make -j, default 2), PYTHON (default /usr/bin/python3),
# CROSS_BACKGROUND (targets run alongside the others, default s390x: the longest, emulated
# on one core; empty: one after the other),
# CROSS_TIMEOUT (seconds for one target's suites, default 2400),
# CROSS_SEED (gen's seed, default 20240611), CROSS_GEN_COUNT (default 3), BENCH_CHECK_CROSS
# (the bench workloads the full suites' bench --check runs, default 6 of the 26).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
JOBS=${JOBS:-2}
PYTHON=${PYTHON:-/usr/bin/python3}
CROSS_TIMEOUT=${CROSS_TIMEOUT:-2400}
SEED=${CROSS_SEED:-20240611}
GEN_COUNT=${CROSS_GEN_COUNT:-3}
GEN_OPS="GATHER GATHER_ELEMENTS SCATTER_ND SPLIT JOIN"
BENCH_CHECK_CROSS=${BENCH_CHECK_CROSS:-"gather_rows scatter_nd_elems pad_reflect identity_transpose one_hot small_gather"}
MARK="# dmlref cross wrapper (scripts/cross.sh)"
PROGRAMS="test_unit dmlref numpy_driver example_gather example_embed example_embed_trap example_gather_trap bench test_fields test_json test_builders test_shape test_alloc"
export PYTHON

[ $# -gt 0 ] && TARGETS="$*" || TARGETS="armhf i386 aarch64 s390x riscv64 wasm32"

# target -> GNU triple, qemu, multiarch directory ("" = use the cross libc in /usr/<triple>)
triple() {
    case $1 in
    armhf) echo arm-linux-gnueabihf ;; i386) echo i686-linux-gnu ;;
    aarch64) echo aarch64-linux-gnu ;; s390x) echo s390x-linux-gnu ;;
    riscv64) echo riscv64-linux-gnu ;; *) return 1 ;;
    esac
}
qemu_of() {
    case $1 in
    armhf) echo qemu-arm-static ;; i386) echo qemu-i386-static ;; aarch64) echo qemu-aarch64-static ;;
    s390x) echo qemu-s390x-static ;; riscv64) echo qemu-riscv64-static ;;
    esac
}
multiarch_of() {
    case $1 in
    armhf) echo arm-linux-gnueabihf ;; i386) echo i386-linux-gnu ;; aarch64) echo aarch64-linux-gnu ;;
    s390x) echo s390x-linux-gnu ;; *) echo "" ;;
    esac
}
has_cli() { case $1 in armhf | i386 | aarch64 | s390x | riscv64) return 0 ;; *) return 1 ;; esac; }
# Targets that run every suite of tests/run.sh: one 32-bit and one big-endian host (the
# command's suites are long under qemu: i386 is the 32-bit one because it usually runs
# natively); armhf, aarch64 and riscv64 run the library's suites (unit, example, numpy) and
# the identity check of the command's verdicts and files.
full_suites() { case $1 in i386 | s390x) return 0 ;; *) return 1 ;; esac; }

# native_runs TARGET: a program built for it runs here without an emulator (i386 on an
# x86-64 kernel with 32-bit support and the multiarch libc6:i386)
native_runs() {
    local tr probe ok=1
    [ "$1" = i386 ] && [ "$(uname -m)" = x86_64 ] || return 1
    tr=$(triple "$1")
    probe=$(mktemp)
    printf 'int main(void) { return 42; }\n' | "$tr-gcc" -x c - -o "$probe" 2>/dev/null &&
        { "$probe" 2>/dev/null; [ $? = 42 ]; } && ok=0
    rm -f "$probe"
    return $ok
}

# "[NAME: ]P passed, F failed[, S skipped]" -> "P F S" (the last such line of a file)
counts() {
    local line
    line=$(grep -E '^([A-Za-z0-9_-]+: )?[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    [ -n "$line" ] || return 1
    echo "$line" | sed -E 's/^([A-Za-z0-9_-]+: )?([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\2 \3 \5/' |
        awk '{ print $1, $2, ($3 == "" ? 0 : $3) }'
}

# wrap DIR KIND: each freshly built program X becomes X.real (Linux) or X.js (wasm)
# and X a script that starts it (rewritten each time; make replaces it by a new
# program when its sources change, and that is moved aside again).
wrap() {
    local dir=$1 kind=$2 x
    for x in $PROGRAMS; do
        [ -f "$dir/$x" ] || continue
        if [ "$(sed -n 2p "$dir/$x" 2>/dev/null | tr -d '\000')" != "$MARK" ]; then
            if [ "$kind" = wasm ]; then mv -f "$dir/$x" "$dir/$x.js"; else mv -f "$dir/$x" "$dir/$x.real"; fi
        fi
        if [ "$kind" = wasm ]; then
            printf '#!/bin/sh\n%s\nexec node "$(dirname "$0")/%s.js" "$@"\n' "$MARK" "$x" >"$dir/$x"
        elif [ "$kind" = native ]; then
            printf '#!/bin/sh\n%s\n%sexec "$(dirname "$0")/%s.real" "$@"\n' "$MARK" "$QEMU_ENV" "$x" >"$dir/$x"
        else
            printf '#!/bin/sh\n%s\n%sexec %s "$(dirname "$0")/%s.real" "$@"\n' "$MARK" "$QEMU_ENV" "$kind" "$x" >"$dir/$x"
        fi
        chmod +x "$dir/$x"
    done
}

# build_linux TARGET DIR: the cross build (OpenMP on).  CROSS= is for the Makefile
# that prefixes every tool; CC=/AR=/... name them for one that does not.
build_linux() {
    local t=$1 dir=$2 tr goals
    tr=$(triple "$t")
    if has_cli "$t"; then goals="all $dir/bench $dir/test_fields $dir/test_json $dir/test_builders $dir/test_shape $dir/test_alloc"; else goals="lib"; fi
    make -j"$JOBS" BUILD="$dir" OPENMP=1 CROSS="$tr-" CC="$tr-gcc" AR="$tr-ar" RANLIB="$tr-ranlib" \
        OBJCOPY="$tr-objcopy" NM="$tr-nm" \
        $goals "$dir/test_unit" "$dir/numpy_driver" "$dir/example_gather" "$dir/example_embed" \
        "$dir/example_embed_trap" "$dir/example_gather_trap"
}

# build_wasm DIR: emcc, SIMDe's headers through a directory that holds only a
# link to them (not /usr/include), 128-bit WebAssembly SIMD, no OpenMP, node's
# file system (NODERAWFS) for the driver's files.
build_wasm() {
    local dir=$1 emflags
    mkdir -p "$dir/simde-include"
    ln -sfn /usr/include/simde "$dir/simde-include/simde"
    emflags="-sNODERAWFS=1 -sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1 -sSINGLE_FILE=1 -sWASM_ASYNC_COMPILATION=0"
    # Debian's emcc needs node-acorn, which a node from elsewhere does not look for.
    export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs
    local args=(BUILD="$dir" CC=emcc AR=emar RANLIB=emranlib NM=emnm OPENMP=0 SIMD=1 SHARED=0 LOCALIZE=0
        EXTRA_CFLAGS="-msimd128 -isystem $dir/simde-include" LDFLAGS="$emflags")
    make -j"$JOBS" "${args[@]}" "$dir/libdmlref.a" "$dir/test_unit" "$dir/numpy_driver" "$dir/example_gather"
}

# suites DIR LOG: unit, example and numpy (targets without the command), as tests/run.sh sums them
suites() {
    local dir=$1 out=$2 p=0 f=0 k=0 one rc c
    one=$(mktemp)
    for s in unit example numpy; do
        echo "== $s"
        if [ $s = unit ]; then
            timeout "$CROSS_TIMEOUT" "$dir/test_unit" >"$one" 2>&1
        else
            BUILD=$dir timeout "$CROSS_TIMEOUT" sh "tests/suites/$s.sh" >"$one" 2>&1
        fi
        rc=$?
        [ $rc = 124 ] && echo "TIMEOUT: $s ran past ${CROSS_TIMEOUT}s" >>"$one"
        cat "$one"
        if c=$(counts "$one"); then
            set -- $c
        else
            set -- 0 1 0
            echo "$s: no result line (exit $rc)"
        fi
        if [ $rc -ne 0 ] && [ "$2" -eq 0 ]; then set -- "$1" 1 "$3"; echo "$s: exit status $rc"; fi
        p=$((p + $1)); f=$((f + $2)); k=$((k + $3))
    done >"$out"
    rm -f "$one"
    echo "$p passed, $f failed, $k skipped" >>"$out"
    [ $f -eq 0 ]
}

# transcript D OUT: the verdicts of command D, one file per item under OUT
transcript() {
    local D=$1 out=$2 f name op rc
    rm -rf "$out"
    mkdir -p "$out/items" "$out/gen"
    for f in tests/cases/*.json tests/cases/bad/*.json; do
        name=validate_$(echo "${f#tests/cases/}" | tr / _)
        timeout 120 "$D" validate "$f" >"$out/o" 2>"$out/e"
        rc=$?
        { echo "dmlref validate $f"; echo "exit $rc"; echo "--- stdout"; cat "$out/o"; echo "--- stderr"; cat "$out/e"; } \
            >"$out/items/$name"
    done
    for op in $GEN_OPS; do
        name=gen_$op
        (cd "$out/gen" && timeout 120 "$D" gen --operator $op --count "$GEN_COUNT" --seed "$SEED" --out "$op" >../o 2>../e)
        rc=$?
        {
            echo "dmlref gen --operator $op --count $GEN_COUNT --seed $SEED --out $op"
            echo "exit $rc"; echo "--- stdout"; cat "$out/o"; echo "--- stderr"; cat "$out/e"
            echo "--- files (sha256)"
            if [ -d "$out/gen/$op" ]; then (cd "$out/gen/$op" && find . -type f | LC_ALL=C sort | xargs -r sha256sum); fi
        } >"$out/items/$name"
    done
    rm -f "$out/o" "$out/e"
}

# identity TARGET DIR LOG: the target's transcript against the native one
identity() {
    local t=$1 dir=$2 out=$3 p=0 f=0 item g h
    transcript "$ROOT/$dir/dmlref" "$ROOT/$dir/identity"
    for item in "$NATIVE_T"/items/*; do
        item=$(basename "$item")
        if cmp -s "$NATIVE_T/items/$item" "$dir/identity/items/$item"; then
            p=$((p + 1))
        else
            f=$((f + 1))
            echo "FAIL: identity $item: $t differs from x86-64 ($(head -n 1 "$NATIVE_T/items/$item"))"
            diff -u --label x86-64 --label "$t" "$NATIVE_T/items/$item" "$dir/identity/items/$item" | sed -n '3,40p' | sed 's/^/    /'
            case $item in gen_*)  # the first difference of each generated file that differs
                for g in "$NATIVE_T/gen/${item#gen_}"/*; do
                    [ -f "$g" ] || continue
                    h=$dir/identity/gen/${item#gen_}/$(basename "$g")
                    cmp -s "$g" "$h" && continue
                    echo "    $(basename "$g"): x86-64 (<) and $t (>) differ:"
                    diff "$g" "$h" 2>&1 | sed -n '1,5p' | cut -c 1-160 | sed 's/^/      /'
                done ;;
            esac
        fi
    done >"$out"
    echo "identity: $p passed, $f failed" >>"$out"
    [ $f -eq 0 ]
}

# summary < LOG: each failure with its first message (unit: "FAIL name" follows its "  file:line:" lines)
summary() {
    awk '
        /^  [^ ]+:[0-9]+: / { if (first == "") first = $0; next }
        /^FAIL [^ :]+$/ { sub(/^ +/, "", first); print "FAIL " $2 ": " first; first = ""; next }
        /^FAIL/ { print; first = ""; numpy_pending = /^FAIL case/; next }
        /^TIMEOUT/ { print; next }
        /^    (status|output)/ { if (numpy_pending) { print "   " $0; numpy_pending = 0 } next }
        /^[a-z_-]+: (no result line|exit status|.* is missing)/ { print }
    '
}

total_p=0
total_f=0
total_s=0
results=()
details=$(mktemp -d)
trap 'rm -rf "$details"' EXIT

# The native reference for the identity check.
NATIVE=build-cross-native
NATIVE_T=$details/native-identity # each run its own (.ci/run runs two at once)
need_native=0
for t in $TARGETS; do has_cli "$t" && need_native=1; done
if [ $need_native = 1 ]; then
    echo "=== native (x86-64) reference: $NATIVE"
    if make -j"$JOBS" BUILD=$NATIVE OPENMP=1 "$NATIVE/dmlref" >"$details/native.log" 2>&1; then
        transcript "$ROOT/$NATIVE/dmlref" "$NATIVE_T"
        echo "native: $(ls "$NATIVE_T/items" | wc -l) verdicts recorded"
    else
        tail -n 30 "$details/native.log"
        echo "native: build failed, no identity check"
        NATIVE_T=
    fi
fi

# run_target T: builds and tests target T (its output on stdout), leaving its counts and
# summary line in $details/T.result and its failures in $details/T.summary
run_target() {
    local t=$1 dir start p f s why kind tr built ma build_s rc c id_p id_f line timing
    dir=build-cross-$t
    start=$SECONDS
    echo "=== $t: $dir"
    p=0 f=0 s=0
    why="build failed"
    case $t in
    wasm32)
        kind=wasm
        command -v emcc >/dev/null && command -v node >/dev/null || { why="emcc or node missing"; kind=; } ;;
    armhf | i386 | aarch64 | s390x | riscv64)
        kind=$(qemu_of "$t")
        tr=$(triple "$t")
        command -v "$tr-gcc" >/dev/null && command -v "$kind" >/dev/null || { why="$tr-gcc or $kind missing"; kind=; }
        if command -v "$tr-gcc" >/dev/null && native_runs "$t"; then kind=native; echo "$t: runs natively"; fi ;;
    *) why="unknown target"; kind= ;;
    esac
    built=0
    if [ -n "$kind" ]; then
        if [ $kind = wasm ]; then build_wasm "$dir" >"$details/$t.build" 2>&1; else build_linux "$t" "$dir" >"$details/$t.build" 2>&1; fi
        if [ $? -eq 0 ]; then built=1; else grep -E 'error|Error|warning' "$details/$t.build" | head -n 20; tail -n 10 "$details/$t.build"; fi
    fi
    if [ $built = 1 ]; then
        QEMU_ENV=
        if [ $kind != wasm ]; then
            ma=$(multiarch_of "$t")
            if [ -z "$ma" ]; then
                QEMU_ENV="QEMU_LD_PREFIX=/usr/$tr; export QEMU_LD_PREFIX; "
            elif [ ! -e "/usr/lib/$ma/libgomp.so.1" ]; then
                # no libgomp1:<arch>: the cross one, alone in a directory (not the cross libc)
                mkdir -p "$ROOT/$dir/qemu-lib"
                ln -sfn "/usr/$tr/lib/libgomp.so.1" "$ROOT/$dir/qemu-lib/libgomp.so.1"
                QEMU_ENV="LD_LIBRARY_PATH=$ROOT/$dir/qemu-lib; export LD_LIBRARY_PATH; "
            fi
        fi
        wrap "$dir" "$kind"
        # the embedding example needs threads, which the wasm32 build cannot create
        if [ $kind = wasm ]; then EXAMPLE_EMBED=0; else EXAMPLE_EMBED=1; fi
        export EXAMPLE_EMBED
        build_s=$((SECONDS - start))
        if full_suites "$t"; then
            # the bench suite's --check over 6 of the 26 workloads (all 26 take minutes emulated)
            BUILD=$dir BENCH_CHECK="$BENCH_CHECK_CROSS" timeout "$CROSS_TIMEOUT" sh tests/run.sh >"$details/$t.tests" 2>&1
        else
            suites "$dir" "$details/$t.tests"
        fi
        rc=$?
        [ $rc = 124 ] && echo "TIMEOUT: $t suites ran past ${CROSS_TIMEOUT}s" >>"$details/$t.tests"
        cat "$details/$t.tests"
        if c=$(counts "$details/$t.tests"); then set -- $c; p=$1 f=$2 s=$3; else p=0 f=1 s=0; fi
        [ $rc -ne 0 ] && [ $f -eq 0 ] && f=1
        if has_cli "$t"; then
            if [ -n "$NATIVE_T" ]; then
                identity "$t" "$dir" "$details/$t.identity"
                cat "$details/$t.identity"
                read -r id_p id_f _ < <(counts "$details/$t.identity" || echo "0 1 0")
                p=$((p + id_p)); f=$((f + id_f))
            else
                echo "FAIL: identity: no native reference" >"$details/$t.identity"
                f=$((f + 1))
            fi
        fi
        timing="build ${build_s} s, tests $((SECONDS - start - build_s)) s"
    else
        f=1
        echo "FAIL: $t: $why" | tee "$details/$t.tests"
        timing="no build"
    fi
    line="$t: $p passed, $f failed"
    [ "$s" -gt 0 ] && line="$line, $s skipped"
    echo "$line"
    echo "$p $f $s $line  ($timing)" >"$details/$t.result"
    cat "$details/$t.tests" "$details/$t.identity" 2>/dev/null | summary >"$details/$t.summary"
}

# The targets in CROSS_BACKGROUND (default s390x, the longest: emulated) run alongside the
# others, each in its own process with its own build folder and temporary files: a
# single-threaded emulator leaves the second core free for the rest.  Their output
# follows the others' in full.
BACKGROUND=${CROSS_BACKGROUND-s390x}
bg=()
for t in $TARGETS; do
    case " $BACKGROUND " in *" $t "*)
        bg+=("$t")
        run_target "$t" >"$details/$t.log" 2>&1 &
        ;;
    esac
done
for t in $TARGETS; do
    case " $BACKGROUND " in *" $t "*) continue ;; esac
    run_target "$t"
done
wait
for t in "${bg[@]}"; do cat "$details/$t.log"; done
for t in $TARGETS; do
    if [ -f "$details/$t.result" ]; then
        read -r p f s line <"$details/$t.result"
    else
        p=0 f=1 s=0 line="$t: 0 passed, 1 failed  (no result)"
    fi
    total_p=$((total_p + p)); total_f=$((total_f + f)); total_s=$((total_s + s))
    results+=("$line")
done

echo "=== cross summary (failures: the first message of each; full output above)"
i=0
for t in $TARGETS; do
    echo "${results[$i]}"
    n=$(wc -l <"$details/$t.summary")
    head -n 6 "$details/$t.summary" | cut -c 1-200 | sed 's/^/    /'
    [ "$n" -gt 6 ] && echo "    ... and $((n - 6)) more (above)"
    i=$((i + 1))
done
line="cross: $total_p passed, $total_f failed"
[ "$total_s" -gt 0 ] && line="$line, $total_s skipped"
echo "$line"
[ $total_f -eq 0 ]
