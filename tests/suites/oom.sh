#!/bin/sh
# Out of memory at every allocation (issue 23, item 6; docs/hardening.md, "Out of memory at
# every allocation"): each command below first runs once under $BUILD/failalloc.so
# (tests/oom/failalloc.c) to count its allocations K, then K more times, allocation N = 1 .. K
# failing in run N.  Every run must end in one of two ways:
#   - exit 8 (out of memory) with "out of memory" on stderr, and no verdict on stdout;
#   - the failure was recovered from: the exit status, stdout, stderr and the files written are
#     those of the run without a failure.
# Never a crash (a signal, exit >= 128, a sanitizer's report), never another status: an exit 2
# or 7 would be a false verdict on the case, 3 a false "malformed", 5 a false "cannot write".
# Each failure prints a repro line: DMLREF_FAIL_ALLOC=N LD_PRELOAD=.../failalloc.so COMMAND.
# One check per failure point.  Skipped (counted as skipped) where the shim cannot load: no
# $BUILD/failalloc.so, a command that is not a native dynamic program (cross builds run under
# qemu through a wrapper script, static builds) or one the probe finds the shim not counting
# in.
# Environment: BUILD (default build); OOM_POINTS (default 0: every point; M: at most M points
# per command, spread evenly over 1 .. K, the first and the last included); OOM_ALL=1 adds
# `gen --operator ALL` (2247 points; not in `make test`).  Besides the commands named below,
# `run` is swept over the first documented case of each operator.
BUILD=${BUILD:-build}
D="$BUILD/dmlref"
OOM_POINTS=${OOM_POINTS:-0}
pass=0
fail=0
skipped=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$D" ]; then
    echo "oom: $D is missing (make BUILD=$BUILD cli)"
    echo "oom: 0 passed, 1 failed"
    exit 1
fi
skip_all() {
    echo "oom: SKIP: $*"
    echo "oom: 0 passed, 0 failed, 1 skipped"
    exit 0
}
[ -f "$BUILD/failalloc.so" ] || skip_all "$BUILD/failalloc.so is not built (make BUILD=$BUILD $BUILD/failalloc.so)"
SHIM=$(cd "$BUILD" && pwd)/failalloc.so
[ "$(head -c 4 "$D" | tail -c 3)" = ELF ] || skip_all "$D is not a native program (a wrapper script: an emulated build)"
# AddressSanitizer's runtime wants to come first in the library list: the shim may come before
# it (its functions call the runtime's), so an ASan build (make test-asan) is swept too, its
# checks on every error path (leaks included) on top; allocations the runtime makes itself
# (its strdup) are not counted there.
ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS
DMLREF_ALLOC_COUNT="$tmp/probe" LD_PRELOAD="$SHIM" "$D" --version >/dev/null 2>&1
[ -s "$tmp/probe" ] || skip_all "LD_PRELOAD=$SHIM does not count the allocations of $D (a static or sanitizer build)"

repro_suite=oom
. tests/repro.sh # repro_note, repro_print: the "repro: ..." line of a failure
no() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    [ -s "$tmp/e" ] && sed 's/^/    stderr: /' "$tmp/e" | head -n 4
    repro_print
}

# The inputs: a case with .npy inputs (the files export writes for a documented case).
"$D" export tests/cases/gather_doc1.json --out "$tmp/npyin" >/dev/null 2>&1 || { no "export for the .npy case"; }
cat >"$tmp/npycase.json" <<'JSON'
{"operator": "GATHER", "feature_level": "4_1", "Axis": 0, "IndexDimensions": 1,
 "InputTensor": {"DataType": "FLOAT32", "Sizes": [4], "npy": "npyin/InputTensor.npy"},
 "IndicesTensor": {"DataType": "UINT32", "Sizes": [5], "npy": "npyin/IndicesTensor.npy"},
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [5]},
 "expected": {"OutputTensor": [14, 12, 14, 11, 13]}}
JSON

OUT="$tmp/out"
# sweep NAME COMPARE COMMAND...: COMPARE is "all" (status, stdout, stderr and the files in
# $OUT compared with the run without a failure) or "status" (bench: its timings vary).
sweep() {
    name=$1 compare=$2
    shift 2
    rm -rf "$OUT" "$tmp/ref"
    DMLREF_ALLOC_COUNT="$tmp/count" LD_PRELOAD="$SHIM" "$@" >"$tmp/ref.o" 2>"$tmp/ref.e"
    ref=$?
    total=$(sed -n 's/^\([0-9]*\).*/\1/p' "$tmp/count")
    if [ -d "$OUT" ]; then mv "$OUT" "$tmp/ref"; else mkdir "$tmp/ref"; fi
    if [ "$ref" -ne 0 ] && [ "$ref" -ne 2 ]; then
        cp "$tmp/ref.e" "$tmp/e"
        repro_note "$@"
        no "$name: exit $ref without a failing allocation"
        return
    fi
    step=1
    if [ "$OOM_POINTS" -gt 0 ] && [ "$total" -gt "$OOM_POINTS" ]; then # 1, 1 + step, ..., then total
        m=$OOM_POINTS
        [ "$m" -lt 2 ] && m=2
        step=$(((total - 1 + m - 2) / (m - 1)))
    fi
    n=1
    ran=0
    while [ "$n" -le "$total" ]; do
        rm -rf "$OUT"
        DMLREF_FAIL_ALLOC=$n LD_PRELOAD="$SHIM" "$@" >"$tmp/o" 2>"$tmp/e"
        rc=$?
        ran=$((ran + 1))
        repro_note DMLREF_FAIL_ALLOC=$n LD_PRELOAD="$SHIM" "$@"
        why=
        if [ "$rc" -ge 128 ]; then
            why="killed (exit $rc)"
        elif grep -q -e 'Sanitizer' -e 'runtime error:' "$tmp/e"; then
            why="a sanitizer's report (exit $rc)"
        elif [ "$rc" -eq 8 ]; then
            if ! grep -q 'out of memory' "$tmp/e"; then why="exit 8 without \"out of memory\" on stderr"
            elif [ -s "$tmp/o" ]; then why="exit 8 with output on stdout (a verdict?): $(head -c 200 "$tmp/o")"
            fi
        elif [ "$rc" -ne "$ref" ]; then
            why="exit $rc (wanted 8, out of memory, or $ref as without a failure)"
        elif [ "$compare" = all ]; then
            if ! cmp -s "$tmp/o" "$tmp/ref.o"; then why="exit $rc, as without a failure, but other output on stdout"
            elif ! cmp -s "$tmp/e" "$tmp/ref.e"; then why="exit $rc, as without a failure, but other messages on stderr"
            elif [ -d "$OUT" ] && ! diff -r "$tmp/ref" "$OUT" >/dev/null 2>&1; then why="exit $rc, as without a failure, but other files"
            elif [ ! -d "$OUT" ] && [ -n "$(ls "$tmp/ref")" ]; then why="exit $rc, as without a failure, but no files"
            fi
        fi
        if [ -n "$why" ]; then no "$name: allocation $n of $total failing: $why"; else pass=$((pass + 1)); fi
        if [ "$n" -lt "$total" ] && [ $((n + step)) -gt "$total" ]; then n=$total; else n=$((n + step)); fi
    done
    echo "oom: $name: $total allocations, $ran failure points run"
}

C=tests/cases
sweep "run" all "$D" run $C/gather_doc1.json
sweep "run --logical (SPLIT)" all "$D" run $C/split_doc1.json --logical
sweep "validate --json" all "$D" validate --json $C/gather_doc1.json
sweep "validate --json (invalid)" all "$D" validate --json $C/bad/e2_axis.json
sweep "validate" all "$D" validate $C/padding1_doc_edge.json
sweep "run --npy (.npy inputs)" all "$D" run "$tmp/npycase.json" --npy "$OUT"
sweep "export" all "$D" export $C/join_doc1.json --out "$OUT"
# --onnx and --webnn: the protobuf encoder, the WebNN text and their constants (DIAGONAL_MATRIX1's
# band, REVERSE_SUBSEQUENCES' positions), a batch of two, gen's --expressible filter
sweep "export --onnx --webnn" all "$D" export $C/diagonal_matrix1_doc_band.json --out "$OUT" --onnx --webnn
sweep "export batch --onnx --webnn" all "$D" export $C/reverse_subsequences_doc1.json $C/padding_doc_constant.json \
    --out "$OUT" --onnx --webnn
sweep "gen --expressible" all "$D" gen --operator PADDING --count 1 --seed 1 --expressible onnx,webnn --out "$OUT"
sweep "gen GATHER" all "$D" gen --operator GATHER --count 1 --seed 1 --out "$OUT"
sweep "gen SCATTER_ND" all "$D" gen --operator SCATTER_ND --count 1 --seed 1 --out "$OUT"
sweep "bench" status "$D" bench $C/gather_doc1.json --repeat 1 --warmup 0
# run, once per operator: the first documented case of each of the 22 (sorted by file name)
seen=" "
for f in $C/*.json; do
    o=$(sed -n 's/^ *"operator": *"\([A-Z_0-9]*\)".*/\1/p' "$f" | head -n 1)
    case "$seen" in *" $o "*) continue ;; esac
    [ -n "$o" ] || continue
    seen="$seen$o "
    sweep "run $o" all "$D" run "$f"
done
n_ops=$(echo $seen | wc -w)
if [ "$n_ops" -ge 22 ]; then pass=$((pass + 1)); else no "run swept for $n_ops operators, expected 22"; fi
[ "${OOM_ALL:-0}" = 1 ] && sweep "gen ALL" all "$D" gen --operator ALL --count 1 --seed 1 --out "$OUT"

echo "oom: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
