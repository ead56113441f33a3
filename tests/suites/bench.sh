#!/bin/sh
# The bench program's workloads (bench/workloads/*.json, case files named in
# workloads.txt) cannot rot: each one is listed, parses, validates and runs once
# through the fast path and once through the oracle with the same output bytes
# (`bench --check`, nothing timed), and moves the bytes docs/performance.md counts;
# --check runs with --pool 2, so each runs through a 2-thread pthread pool too
# (dmlref_options.threadpool) with the same bytes as the oracle.
# Environment: BUILD (default build); BENCH_CHECK: the workloads `--check` runs, space-separated
# (default: all of them; scripts/cross.sh names a few under emulation, where all 26 take minutes).
BUILD=${BUILD:-build}
B="$BUILD/bench"
W=bench/workloads
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
no() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    [ -s "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err" | head -n 5
}

if [ ! -x "$B" ]; then
    echo "bench: $B is missing (make BUILD=$BUILD $B)"
    echo "bench: 0 passed, 1 failed"
    exit 1
fi

# ---- the list and the files agree: 42 workloads (12 of phase 1, 15 of phase 2, 15 of phase 3) + small_gather
listed=$(sed 's/#.*//' "$W/workloads.txt" | tr -s ' \t' '\n' | sed '/^$/d')
n=$(echo "$listed" | wc -l)
[ "$n" -eq 42 ] && ok || no "workloads.txt lists $n workloads, not 42"
for id in $listed; do
    [ -f "$W/$id.json" ] && ok || no "$id is listed but $W/$id.json is missing"
done
for f in "$W"/*.json; do
    id=$(basename "$f" .json)
    [ "$id" = small_gather ] && continue
    echo "$listed" | grep -qx "$id" && ok || no "$f is not listed in $W/workloads.txt (bench would not run it)"
done

# ---- every workload once, fast path against the oracle, and its bytes moved --------------
if [ -z "${BENCH_CHECK:-}" ]; then
    "$B" --check --pool 2 >"$tmp/out" 2>"$tmp/err"
    rc=$?
else
    echo "bench: --check runs only $BENCH_CHECK (BENCH_CHECK)"
    rc=0
    : >"$tmp/out"
    for id in $BENCH_CHECK; do
        "$B" --check --pool 2 "$id" >"$tmp/one" 2>"$tmp/err" || rc=$?
        grep "^$id " "$tmp/one" >>"$tmp/out" || no "bench --check $id: no such workload"
    done
fi
[ "$rc" -eq 0 ] && ok || no "bench --check: exit $rc"
cat "$tmp/out"
# id bytes: 2 x output bytes + index bytes (+ update bytes for SCATTER); TILE, PADDING1:
# output + input; ONE_HOT: output + indices; CAST, UNFOLD, SLICE_GRAD, UPSAMPLE_2D, RESAMPLE1:
# output + input; MAX_UNPOOLING: output + input + indices; ELEMENT_WISE_IF: the three inputs +
# output; FILL_VALUE_SEQUENCE: the output; TOP_K1, NONZERO_COORDINATES: the input + both outputs
# (docs/performance.md)
while read -r id bytes; do
    [ -n "${BENCH_CHECK:-}" ] && ! echo " $BENCH_CHECK " | grep -q " $id " && continue
    line=$(grep "^$id " "$tmp/out")
    case "$line" in
    *" same "*"(pool 2: same)") ok ;;
    *) no "bench --check --pool 2 $id: fast path (OpenMP or the pool) and oracle differ, or it did not run: '$line'" ;;
    esac
    got=$(echo "$line" | awk '{print $3}')
    [ "$got" = "$bytes" ] && ok || no "$id moves $got bytes, not $bytes"
done <<'EOF'
join_outer 134217728
join_inner 134217728
split_outer 134217728
split_inner 134217728
gather_rows 134479872
gather_rows_f16 134479872
gather_cols 134250496
gather_elements_last 268435456
gather_elements_first 268435456
scatter_nd_rows 134348800
scatter_nd_elems 150994944
join_outer_i64 134217728
slice_window 56623104
slice_reverse 134217728
tile_outer 83886080
tile_inner 83886080
pad_constant 136331264
pad_reflect 134743040
pad_edge 134743040
gather_nd_rows 135266304
scatter_elements 184549376
depth_to_space 134217728
space_to_depth 134217728
identity_transpose 134217728
identity_transpose_u8 33554432
identity_transpose_f16 67108864
one_hot 71303168
unfold_3x3 41943040
cast_f32_f16 100663296
cast_f16_f32 100663296
cast_f32_i32 134217728
cast_u8_f32 83886080
slice_grad 117440512
max_unpool 100663296
upsample_nearest 83886080
resample_nearest 83886080
where 218103808
fill_sequence 67108864
topk_rows 71303168
nonzero 201326596
argmax_last 67141632
argmax_first 67141632
small_gather 2112
EOF

# ---- the tiny one through the command, and a FILTER ------------------------------------------
"$B" --check small >"$tmp/out" 2>"$tmp/err"
[ "$(grep -c ' same ' "$tmp/out")" -eq 1 ] && ok || no "bench --check small: not exactly small_gather"

# ---- --pool: a bad count, and a pool of 3 and of 1 (no timing) ------------------------------
"$B" --check --pool 0 small >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 4 ] && ok || no "bench --pool 0: exit $rc, wanted 4"
grep -q -- "--pool needs a number in \[1, 1024\]" "$tmp/err" && ok || no "bench --pool 0 names the range"
for p in 1 3; do
    "$B" --check --pool $p small >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 0 ] && grep -q "small_gather .* same .*(pool $p: same)" "$tmp/out" && ok ||
        no "bench --check --pool $p small: exit $rc, '$(cat "$tmp/out")'"
done

# ---- a missing or bad workload file ------------------------------------------------------------
"$B" --check --workloads "$tmp/none" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && ok || no "bench --workloads (missing): exit $rc, wanted 3"
grep -q "workloads.txt" "$tmp/err" && ok || no "bench --workloads (missing) names the list"
mkdir "$tmp/w"
echo "bogus" >"$tmp/w/workloads.txt"
echo '{"operator": "GATHER", "Axis": 7}' >"$tmp/w/bogus.json"
"$B" --check --workloads "$tmp/w" bogus >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && ok || no "bench a malformed workload: exit $rc, wanted 3"
grep -q "bogus.json: missing" "$tmp/err" && ok || no "bench a malformed workload names the file and the problem"

# ---- the peers in one process, and the tiny table's Python column (functional, nothing timed) ----
# scripts/peers.py --smoke: 1 round of 1 run, 3 workloads, 1 and 2 threads, every peer's output
# checked against dmlref's (exit 1 on a WRONG); ORT too when onnxruntime-node is found
# (scripts/peers_ort.mjs).  Skipped, and said so, where dmlref's Python package does not
# import (`make python`).  About 10 s (20 s with ORT) on the 2-core machine.
PYTHON=${PYTHON:-/usr/bin/python3}
skip=0
if "$PYTHON" -c 'import sys; sys.path.insert(0, "python"); import dmlref, numpy' >/dev/null 2>&1; then
    ort=""
    if [ -n "${ORT_NODE:-}" ] && command -v node >/dev/null 2>&1 && [ -x "$BUILD/dmlref" ]; then ort="--ort --dmlref-command $BUILD/dmlref"; fi
    # shellcheck disable=SC2086
    "$PYTHON" scripts/peers.py --smoke --threads 1,2 $ort --json "$tmp/peers.json" join_inner one_hot nonzero >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 0 ] && ok || no "peers.py --smoke: exit $rc: $(grep WRONG "$tmp/out")"
    [ "$(grep -c '^| join_inner \|^| one_hot \|^| nonzero ' "$tmp/out")" -eq 6 ] && ok || no "peers.py --smoke: not 3 rows in each of 2 tables"
    grep -q '^| workload | goal | dmlref 2T ms | fraction of memcpy (1 rounds) | numpy ms |' "$tmp/out" && ok ||
        no "peers.py --smoke: the 2-thread table's header"
    ! grep -q WRONG "$tmp/out" && ok || no "peers.py --smoke: a WRONG output"
    "$PYTHON" -c 'import json, sys; d = json.load(open(sys.argv[1])); assert {s["peer"] for s in d["samples"]} >= {"memcpy", "dmlref", "numpy"}' \
        "$tmp/peers.json" && ok || no "peers.py --json: the raw samples"
    if [ -n "$ort" ]; then
        grep -q '| ORT 2T ms |' "$tmp/out" && grep -q '^\[^1\]: ORT: no kernel' "$tmp/out" && ok ||
            no "peers.py --ort: the ORT column and one_hot's footnote"
    else
        echo "bench: peers.py --ort not run (ORT_NODE unset, node or $BUILD/dmlref missing)"
    fi
    "$PYTHON" scripts/tiny_py.py --batch 10 --repeat 1 tests/cases/gather_elements_doc.json tests/cases/split_doc1.json \
        tests/cases/resample1_doc.json >"$tmp/out" 2>"$tmp/err"
    rc=$?
    # every one cached (RESAMPLE1's float arrays too, since 2026-11-28): no "uncached" line
    [ "$rc" -eq 0 ] && [ "$(grep -c ' [0-9][0-9]*$' "$tmp/out")" -eq 3 ] && grep -q 'resample1_doc.json [0-9]*$' "$tmp/out" && ok ||
        no "tiny_py.py: exit $rc, '$(cat "$tmp/out" "$tmp/err")'"
else
    echo "SKIP bench: peers.py --smoke and tiny_py.py (dmlref's Python package does not import: make python)"
    skip=1
fi

# ---- the tiny table (scripts/tiny.sh, functional: small batches, nothing judged by time) -------
# One line per operator named in tests/cases, in 2 rounds: each time "least (median)" of the
# rounds, the least not above the median.  Natively only: under emulation (scripts/cross.sh
# sets BENCH_CHECK) its 200 process starts take minutes.
if [ -z "${BENCH_CHECK:-}" ] && [ -x "$BUILD/dmlref" ]; then
    TINY_QUICK=1 TINY_ROUNDS=2 sh scripts/tiny.sh "$BUILD/dmlref" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    ops=$(sed -n 's/.*"operator": *"\([A-Z0-9_]*\)".*/\1/p' tests/cases/*.json | sort -u | wc -l)
    [ "$rc" -eq 0 ] && [ "$(sed 1d "$tmp/out" | wc -l)" -eq "$ops" ] && ok || no "tiny.sh: exit $rc, $(sed 1d "$tmp/out" | wc -l) lines for $ops operators"
    "$PYTHON" - "$tmp/out" <<'PY' && ok || no "tiny.sh: a line not 'OP BYTES LEAST (MEDIAN) LEAST (MEDIAN) PY US KERNEL (CASE)' with least <= median"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0].split()[:2] == ["operator", "(tiny"], lines[0]
for l in lines[1:]:
    m = re.fullmatch(r"[A-Z0-9_]+ +\d+ +(\d+) \((\d+)\) +(\d+) \((\d+)\) +(\d+\*?|-) +\d+  [a-z0-9_.]+ \([a-z0-9_]+\)", l)
    assert m, l
    assert int(m[1]) <= int(m[2]) and int(m[3]) <= int(m[4]), l
PY
    TINY_ROUNDS=0 sh scripts/tiny.sh "$BUILD/dmlref" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] && grep -q "TINY_ROUNDS=0 is not a count of rounds" "$tmp/err" && ok || no "tiny.sh TINY_ROUNDS=0: exit $rc, wanted 2 and the reason"
fi

echo "bench: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
