#!/bin/sh
# The dmlref command (docs/cli.md, docs/case-format.md): every case
# file, every subcommand, every exit status, each class of malformed input,
# .npy in and out, huge sizes, gen (validity and determinism), bench.
# Over 600 lines on purpose: the command's whole contract in one suite, so that
# every exit status and message sits beside its neighbours (sections: ----).
# Environment: BUILD (default build), PYTHON (default /usr/bin/python3).
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
D="$BUILD/dmlref"
CASES=tests/cases
pass=0
fail=0
skipped=0 # tests that cannot apply here: printed as SKIP, counted apart (not passed)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$D" ]; then
    echo "cli: $D is missing (make BUILD=$BUILD cli)"
    echo "cli: 0 passed, 1 failed"
    exit 1
fi

repro_suite=cli
. tests/repro.sh # repro_note, repro_print: the "repro: ..." line of a failure
ok() { pass=$((pass + 1)); }
no() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    [ -s "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err" | head -n 5
    repro_print
}
# expect STATUS DESCRIPTION COMMAND...: the command's exit status must be STATUS.
expect() {
    want=$1 desc=$2
    shift 2
    repro_note "$@"
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else no "$desc: exit $rc, wanted $want"; fi
}
# contains FILE TEXT DESCRIPTION
contains() {
    if grep -qF -- "$2" "$1"; then ok; else no "$3: '$2' not in $(basename "$1")"; fi
}
py() { "$PYTHON" "$@"; }

# ---- every documented example runs and matches its expected outputs -------
for f in "$CASES"/*.json; do
    expect 0 "run $f" "$D" run "$f"
    expect 0 "validate $f" "$D" validate "$f"
done

# ---- every bad case: its exit status (file name eN_) and message ("why": "expect: ...")
for f in "$CASES"/bad/*.json; do
    want=$(basename "$f" | sed -n 's/^e\([0-9]\)_.*/\1/p')
    expect "$want" "run $f" "$D" run "$f"
    frag=$(py -c 'import json,sys
try: print(json.load(open(sys.argv[1])).get("why", "")[len("expect: "):])
except Exception: pass' "$f")
    [ -n "$frag" ] && contains "$tmp/err" "$frag" "message of $f"
    # nothing on stdout when the case cannot run
    if [ "$want" -ge 2 ] && [ -s "$tmp/out" ]; then no "$f printed outputs"; else ok; fi
done

# ---- subcommands, help, version, usage errors ----------------------------
expect 0 "--version" "$D" --version
contains "$tmp/out" "dmlref $(sed -n 's/^#define DMLREF_VERSION_STRING "\(.*\)"/\1/p' include/dmlref.h)" "--version"
expect 0 "--help" "$D" --help
for c in run validate bench gen; do
    expect 0 "$c --help" "$D" $c --help
    contains "$tmp/out" "usage: dmlref $c" "$c --help"
done
expect 4 "no command" "$D"
expect 4 "unknown command" "$D" frobnicate
expect 4 "run without a case" "$D" run
expect 4 "run with an unknown option" "$D" run "$CASES/gather_doc1.json" --bogus
expect 4 "run --threads x" "$D" run "$CASES/gather_doc1.json" --threads x
expect 4 "validate --feature-level 9_9" "$D" validate "$CASES/gather_doc1.json" --feature-level 9_9
expect 4 "bench --repeat 0" "$D" bench "$CASES/gather_doc1.json" --repeat 0
expect 4 "gen without --out" "$D" gen --operator GATHER --count 1 --seed 1
expect 4 "gen unknown operator" "$D" gen --operator ELEMENT_WISE_ABS --count 1 --seed 1 --out "$tmp/x"
expect 3 "run a missing file" "$D" run "$tmp/nope.json"
expect 3 "validate a missing file" "$D" validate "$tmp/nope.json"
expect 3 "run a directory" "$D" run "$CASES"

# a case file whose top-level value is not an object: exit 3 and a message naming what was found
for top in "null:got null" "true:got a boolean" "false:got a boolean" "42:got a number" "-0.5e3:got a number" \
           '"GATHER":got a string' "[]:got an array" '[{"operator": "GATHER"}]:got an array' "  null  :got null"; do
    printf '%s\n' "${top%:*}" >"$tmp/top.json"
    for c in run validate; do
        expect 3 "$c a case file holding ${top%:*}" "$D" $c "$tmp/top.json"
        contains "$tmp/err" "top.json: the case must be a JSON object, ${top##*:}" "$c message for ${top%:*}"
    done
done
printf 'null x\n' >"$tmp/top.json"
expect 3 "run a case file holding null and more" "$D" run "$tmp/top.json"
contains "$tmp/err" "top.json: not JSON: line 1:" "message for null and more"

# validate: the verdict on stdout
expect 0 "validate valid" "$D" validate "$CASES/join_doc1.json"
contains "$tmp/out" "valid" "validate prints valid"
expect 2 "validate invalid" "$D" validate "$CASES/bad/e2_axis.json"
contains "$tmp/out" "GATHER: Axis (1) must be in" "validate prints the library's message"
expect 3 "validate malformed" "$D" validate "$CASES/bad/e3_unknown_key.json"
# an interleaved output layout the exact overlap search cannot settle: its own status, never "invalid"
expect 7 "validate cannot verify" "$D" validate "$CASES/bad/e7_cannot_verify.json"
contains "$tmp/out" "dmlref cannot verify that the output elements are disjoint" "validate prints cannot-verify"
# JOIN into UINT8 {3, 2097152} with Strides {2, 3}: interleaved, disjoint, beyond the bitmap and the sort
py - "$tmp/join_interleaved.json" <<'PYEOF'
import json, sys
n = 2097152
json.dump({"operator": "JOIN", "Axis": 0, "InputCount": 2,
           "InputTensors": [{"DataType": "UINT8", "Sizes": [1, n], "random": {"seed": 1, "low": 0, "high": 255}},
                            {"DataType": "UINT8", "Sizes": [2, n], "random": {"seed": 2, "low": 0, "high": 255}}],
           "OutputTensor": {"DataType": "UINT8", "Sizes": [3, n], "Strides": [2, 3]}}, open(sys.argv[1], "w"))
PYEOF
expect 0 "validate an interleaved disjoint JOIN output beyond 2^22" "$D" validate "$tmp/join_interleaved.json"
# the library's environment variables, parsed strictly (docs/environment.md)
expect 4 "run with DMLREF_PAR_GRAIN=-1" env DMLREF_PAR_GRAIN=-1 "$D" run "$CASES/gather_doc1.json"
contains "$tmp/err" 'DMLREF_PAR_GRAIN has the value "-1"' "a bad DMLREF_PAR_GRAIN named"
expect 4 "run with DMLREF_FORCE_ORACLE=maybe" env DMLREF_FORCE_ORACLE=maybe "$D" run "$CASES/gather_doc1.json"
expect 0 "run with DMLREF_FORCE_ORACLE=false" env DMLREF_FORCE_ORACLE=false "$D" run "$CASES/gather_doc1.json"
expect 0 "validate ignores the library's variables" env DMLREF_PAR_GRAIN=-1 "$D" validate "$CASES/gather_doc1.json"
# --feature-level: JOIN of 4-D FLOAT32 exists at 1_0; GATHER_ELEMENTS does not
expect 0 "--feature-level 1_0" "$D" validate "$CASES/join_doc1.json" --feature-level 1_0
expect 2 "--feature-level 2_0" "$D" validate "$CASES/gather_elements_doc_fl2_1.json" --feature-level=2_0
contains "$tmp/out" "not available at feature level 2_0" "--feature-level message"
expect 2 "run --feature-level 2_1 on a 1-D case" "$D" run "$CASES/gather_doc1.json" --feature-level 2_1
expect 0 "run --threads 2" "$D" run "$CASES/split_doc1.json" --threads 2

# ---- run's JSON output -----------------------------------------------------
expect 0 "run gather_doc1" "$D" run "$CASES/gather_doc1.json"
if py -c 'import json,sys
d = json.load(open(sys.argv[1]))
t = d["OutputTensor"]
assert d["operator"] == "GATHER" and d["feature_level"] == "4_1", d
assert t["DataType"] == "FLOAT32" and t["Sizes"] == [5] and t["data"] == [14, 12, 14, 11, 13], t' "$tmp/out" 2>"$tmp/err"
then ok; else no "run prints the outputs as JSON"; fi
# the contract's example: a UINT8 output of Sizes {5} lists 8 values, the last three 205
cat >"$tmp/u8.json" <<'JSON'
{"operator": "GATHER", "Axis": 0, "IndexDimensions": 1,
 "InputTensor": {"DataType": "UINT8", "Sizes": [4], "data": [10, 20, 30, 40]},
 "IndicesTensor": {"DataType": "UINT32", "Sizes": [5], "data": [3, 1, 3, 0, 2]},
 "OutputTensor": {"DataType": "UINT8", "Sizes": [5]},
 "expected": {"OutputTensor": [40, 20, 40, 10, 30]}}
JSON
expect 0 "UINT8 {5} span expected" "$D" run "$tmp/u8.json"
if py -c 'import json,sys; assert json.load(open(sys.argv[1]))["OutputTensor"]["data"] == [40,20,40,10,30,205,205,205]' "$tmp/out"
then ok; else no "UINT8 {5} prints 8 slots ending in 205"; fi
sed 's/\[40, 20, 40, 10, 30\]}}/[40, 20, 40, 10, 30, 205, 205, 205]}}/' "$tmp/u8.json" >"$tmp/u8w.json"
expect 0 "UINT8 {5} whole-buffer expected" "$D" run "$tmp/u8w.json"
# strided output: the gaps keep 0xCD, the whole list shows them
cat >"$tmp/gap.json" <<'JSON'
{"operator": "SPLIT", "Axis": 0,
 "InputTensor": {"DataType": "INT16", "Sizes": [3], "data": [-1, 2, -3]},
 "OutputTensors": [{"DataType": "INT16", "Sizes": [3], "Strides": [2]}],
 "expected": {"OutputTensors": [[-1, -12851, 2, -12851, -3, -12851]]}}
JSON
expect 0 "strided output gaps are 0xCD" "$D" run "$tmp/gap.json"
# an output given data keeps it where nothing is written
sed 's/"Strides": \[2\]}/"Strides": [2], "data": [0, 7, 0, 7, 0, 7]}/; s/-12851/7/g' "$tmp/gap.json" >"$tmp/gap2.json"
expect 0 "output prefilled with data" "$D" run "$tmp/gap2.json"

# ---- exact numbers: what run prints reads back to the same bytes ------------
cat >"$tmp/exact.json" <<'JSON'
{"operator": "JOIN", "Axis": 0, "InputTensors": [
  {"DataType": "INT64", "Sizes": [4], "data": [-9223372036854775808, 9223372036854775807, -0, 1]}],
 "OutputTensor": {"DataType": "INT64", "Sizes": [4]}}
JSON
cat >"$tmp/exact_u64.json" <<'JSON'
{"operator": "JOIN", "Axis": 0, "InputTensors": [
  {"DataType": "UINT64", "Sizes": [3], "data": [18446744073709551615, 9223372036854775808, "0x0123456789abcdef"]}],
 "OutputTensor": {"DataType": "UINT64", "Sizes": [3]}}
JSON
cat >"$tmp/exact_f64.json" <<'JSON'
{"operator": "JOIN", "Axis": 0, "InputTensors": [
  {"DataType": "FLOAT64", "Sizes": [12], "data": [5e-324, 1.7976931348623157e308, 0.1, -0.0, -0, 2.2250738585072014e-308,
   123456789012345678901234567890, "inf", "-inf", "nan", "0x7ff8000000000001", "0xfff8000000000000"]}],
 "OutputTensor": {"DataType": "FLOAT64", "Sizes": [12]}}
JSON
cat >"$tmp/exact_f32.json" <<'JSON'
{"operator": "JOIN", "Axis": 0, "InputTensors": [
  {"DataType": "FLOAT32", "Sizes": [9], "data": [1e-45, 3.4028234663852886e38, 0.1, -0, 16777217, 1.00000005960464477539062500001,
   "0x7fc00001", "nan", "0x00000001"]}],
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [9]}}
JSON
cat >"$tmp/exact_f16.json" <<'JSON'
{"operator": "JOIN", "Axis": 0, "InputTensors": [
  {"DataType": "FLOAT16", "Sizes": [10], "data": [1.00048828125, 1.000488281250000000000000001, 1.000488281249999999999999999,
   1.00146484375, 65519.99, 5.9604644775390625e-8, 2.98023223876953125e-8, 2.98023223876953126e-8, -0, "0x7e01"]}],
 "OutputTensor": {"DataType": "FLOAT16", "Sizes": [10]}}
JSON
for k in exact exact_u64 exact_f64 exact_f32 exact_f16; do
    expect 0 "run $k" "$D" run "$tmp/$k.json"
    # feed the printed data back as `expected`: must match byte for byte
    py - "$tmp/$k.json" "$tmp/out" "$tmp/${k}_back.json" <<'PY'
import re, sys
case, out = open(sys.argv[1]).read(), open(sys.argv[2]).read()
data = re.search(r'"data": (\[[^\]]*\])', out, re.S).group(1)
case = case.rstrip()[:-1] + ', "expected": {"OutputTensor": ' + data + '}}'
open(sys.argv[3], "w").write(case)
PY
    expect 0 "$k reads back" "$D" run "$tmp/${k}_back.json"
done
expect 0 "run exact_f64" "$D" run "$tmp/exact_f64.json"
contains "$tmp/out" '[5e-324, 1.7976931348623157e+308, 0.1, -0.0, -0.0, 2.2250738585072014e-308, 1.2345678901234568e+29,' "FLOAT64 printed exactly"
contains "$tmp/out" '"inf", "-inf", "nan", "0x7ff8000000000001", "0xfff8000000000000"' "FLOAT64 non-finite printing"
expect 0 "run exact_f32" "$D" run "$tmp/exact_f32.json"
contains "$tmp/out" '[1e-45, 3.4028235e+38, 0.1, -0.0, 16777216, 1.0000001, "0x7fc00001", "nan", 1e-45' "FLOAT32 rounding and printing"
expect 0 "run exact_f16 --npy" "$D" run "$tmp/exact_f16.json" --npy "$tmp/f16"
if py -c 'import numpy as np, sys
a = np.load(sys.argv[1])
assert a.dtype == np.dtype("<f2") and a.shape == (10,), (a.dtype, a.shape)
got = [hex(v) for v in a.view(np.uint16)]
want = ["0x3c00", "0x3c01", "0x3c00", "0x3c02", "0x7bff", "0x1", "0x0", "0x1", "0x8000", "0x7e01"]
assert got == want, (got, want)' "$tmp/f16/OutputTensor.npy" 2>"$tmp/err"
then ok; else no "FLOAT16 decimal rounding (ties, near-ties, subnormals) read back with numpy"; fi
# "nan" in expected matches any NaN; an exact pattern matches only itself
sed 's/"OutputTensor": {"DataType": "FLOAT32", "Sizes": \[9\]}}/"OutputTensor": {"DataType": "FLOAT32", "Sizes": [9]}, "expected": {"OutputTensor": [1e-45, 3.4028235e38, 0.1, -0, 16777216, 1.0000001, "nan", "nan", 1e-45]}}/' \
    "$tmp/exact_f32.json" >"$tmp/nan_any.json"
expect 0 "\"nan\" matches a NaN with a payload" "$D" run "$tmp/nan_any.json"
sed 's/-0, 16777216/0, 16777216/' "$tmp/nan_any.json" >"$tmp/negzero.json"
expect 1 "+0 does not match -0" "$D" run "$tmp/negzero.json"

# a NaN mismatch names the real bit patterns, whatever the host's byte order (every float width)
cat >"$tmp/nanbits.json" <<'JSON'
{"operator": "JOIN", "Axis": 0, "InputTensors": [
  {"DataType": "FLOAT16", "Sizes": [2], "data": ["0x7e01", "0xfd00"]}],
 "OutputTensor": {"DataType": "FLOAT16", "Sizes": [2]}, "expected": {"OutputTensor": ["0x7e00", "0xfd00"]}}
JSON
expect 1 "FLOAT16 NaN payload differs" "$D" run "$tmp/nanbits.json"
contains "$tmp/err" 'OutputTensor[0]: expected "0x7e00", got "0x7e01"' "FLOAT16 NaN mismatch message"
sed 's/FLOAT16/FLOAT64/g; s/"0x7e01", "0xfd00"/"0x7ff0000000000001", "0xfff8000000000000"/; s/\["0x7e00", "0xfd00"\]/[1, "0xfff8000000000002"]/' \
    "$tmp/nanbits.json" >"$tmp/nanbits64.json"
expect 1 "FLOAT64 NaN payloads differ" "$D" run "$tmp/nanbits64.json"
contains "$tmp/err" 'OutputTensor[0]: expected 1, got "0x7ff0000000000001"' "FLOAT64 NaN mismatch message (got)"
contains "$tmp/err" 'OutputTensor[1]: expected "0xfff8000000000002", got "0xfff8000000000000"' "FLOAT64 NaN mismatch message (both)"

# `actual`: another backend's outputs, compared with dmlref's (Case.from_call(actual=...))
cat >"$tmp/actual.json" <<'JSON'
{"operator": "JOIN", "Axis": 0, "InputTensors": [
  {"DataType": "FLOAT16", "Sizes": [3], "data": ["0x7e01", "0xfd00", 2]}],
 "OutputTensor": {"DataType": "FLOAT16", "Sizes": [3]},
 "expected": {"OutputTensor": ["0x7e01", "0xfd00", 2]}, "actual": {"OutputTensor": ["0x7e01", "0xfd00", 3]}}
JSON
expect 1 "actual differs from dmlref's output" "$D" run "$tmp/actual.json"
contains "$tmp/err" 'OutputTensor[2]: dmlref gives 2, actual 3' "actual mismatch message"
contains "$tmp/err" 'OutputTensor: 1 of 3 values of `actual` differ' "actual mismatch count"
sed 's/"0xfd00", 3\]/"0xfd00", 2]/' "$tmp/actual.json" >"$tmp/actual_ok.json"
expect 0 "actual equal to dmlref's output" "$D" run "$tmp/actual_ok.json"
sed 's/"actual": {"OutputTensor"/"actual": {"Output"/' "$tmp/actual.json" >"$tmp/actual_bad.json"
expect 3 "actual naming an unknown output" "$D" run "$tmp/actual_bad.json"
contains "$tmp/err" 'actual: unknown output "Output"' "actual unknown output message"

# ---- out-of-range indices and duplicates: warn, or fail with --strict -------
expect 0 "clamped index warns" "$D" run "$CASES/gather_clamp_wpt.json"
contains "$tmp/err" "warning" "clamp warning"
contains "$tmp/err" "IndicesTensor[0,0] = 10 is out of range" "clamp warning names the index"
expect 2 "--strict fails on a clamped index" "$D" run --strict "$CASES/gather_clamp_wpt.json"
cat >"$tmp/dup.json" <<'JSON'
{"operator": "SCATTER_ND", "InputDimensionCount": 1, "IndicesDimensionCount": 2,
 "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 5], "data": [0, 1, 2, 3, 4]},
 "IndicesTensor": {"DataType": "INT32", "Sizes": [4, 1], "data": [3, 1, 3, 0]},
 "UpdatesTensor": {"DataType": "FLOAT32", "Sizes": [1, 4], "data": [5, 6, 7, 8]},
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 5]},
 "expected": {"OutputTensor": [8, 6, 2, 7, 4]},
 "why": "the SCATTER page's example 1 (duplicate index 3, the later update wins)"}
JSON
expect 0 "duplicate scatter target warns" "$D" run "$tmp/dup.json"
contains "$tmp/err" "warning" "duplicate warning"
expect 2 "--strict fails on a duplicate" "$D" run "$tmp/dup.json" --strict
expect 0 "no warning without clamping" "$D" run "$CASES/scatter_nd_doc.json"
if [ -s "$tmp/err" ]; then no "stderr not empty for a clean case"; else ok; fi
# SCATTER's repeated target (the page's example 1): the same warning, --strict refuses it (SC8)
expect 0 "SCATTER duplicate warns" "$D" run "$CASES/scatter_doc1.json"
contains "$tmp/err" "SCATTER: IndicesTensor[2] repeats the target of IndicesTensor[0] (both write OutputTensor[3])" \
    "SCATTER duplicate warning"
expect 2 "--strict fails on a SCATTER duplicate" "$D" run --strict "$CASES/scatter_doc1.json"
expect 0 "no SCATTER warning without a repeat" "$D" run "$CASES/scatter_doc2.json"
if [ -s "$tmp/err" ]; then no "stderr not empty for scatter_doc2"; else ok; fi
# ONE_HOT's out-of-range index (the page's example 4: 100) is its documented rule, not a clamp:
# no warning, and --strict accepts it
expect 0 "ONE_HOT out-of-range index: --strict accepts it" "$D" run --strict "$CASES/one_hot_doc4.json"
if [ -s "$tmp/err" ]; then no "stderr not empty for one_hot_doc4"; else ok; fi

# ---- DIAGONAL_MATRIX(1): no input, an optional input, INT, FLOAT, enum and union fields ----
# DIAGONAL_MATRIX1's union Value in every type, written as a tensor element would be (INT64's
# extremes, a FLOAT16 given as a decimal and rounded to nearest-even, NaN payloads as "0x..."),
# no InputTensor: Output {2,2} = [v, 0, 0, v]; the bits checked in the .npy
dgu() { # NAME TYPE VALUE WANT_HEX
    cat >"$tmp/dg_$1.json" <<EOF
{"operator": "DIAGONAL_MATRIX1", "ValueDataType": "$2", "Value": $3, "DiagonalFillBegin": 0, "DiagonalFillEnd": 1,
 "OutputTensor": {"DataType": "$2", "Sizes": [2, 2]}}
EOF
    expect 0 "DIAGONAL_MATRIX1 Value $3 as $2" "$D" run "$tmp/dg_$1.json" --npy "$tmp/dg_$1"
    if py -c 'import sys, numpy as np
a = np.load(sys.argv[1]); w = int(sys.argv[2], 16)
b = a.view("<u%d" % a.dtype.itemsize).reshape(-1).tolist()
assert b == [w, 0, 0, w], ([hex(x) for x in b], hex(w))' "$tmp/dg_$1/OutputTensor.npy" "$4" 2>"$tmp/err"
    then ok; else no "DIAGONAL_MATRIX1: Value $3 as $2 is not $4 in the output"; fi
}
dgu i64min INT64 -9223372036854775808 8000000000000000
dgu i64max INT64 9223372036854775807 7fffffffffffffff
dgu u64max UINT64 18446744073709551615 ffffffffffffffff
dgu i32min INT32 -2147483648 80000000
dgu u32max UINT32 4294967295 ffffffff
dgu i16 INT16 -32768 8000
dgu u16 UINT16 65535 ffff
dgu i8 INT8 -1 ff
dgu u8 UINT8 200 c8
dgu f16dec FLOAT16 0.1 2e66
dgu f16max FLOAT16 65504 7bff
dgu f16neg0 FLOAT16 -0.0 8000
dgu f16nan FLOAT16 '"0x7e01"' 7e01
dgu f32 FLOAT32 -1.5 bfc00000
dgu f32snan FLOAT32 '"0x7f800001"' 7f800001
dgu f64 FLOAT64 0.1 3fb999999999999a
dgu f64inf FLOAT64 '"-inf"' fff0000000000000
# run prints the outputs in their own type (INT64's extreme exactly)
expect 0 "DIAGONAL_MATRIX1 INT64 printed" "$D" run "$tmp/dg_i64min.json"
contains "$tmp/out" '"data": [-9223372036854775808, 0, 0, -9223372036854775808]' "DIAGONAL_MATRIX1 INT64 extreme printed"
# a union value outside its type: malformed (exit 3, naming the field)
sed 's/"Value": 200/"Value": 256/' "$tmp/dg_u8.json" >"$tmp/dg_bad1.json"
expect 3 "DIAGONAL_MATRIX1 Value 256 as UINT8" "$D" run "$tmp/dg_bad1.json"
contains "$tmp/err" "Value: 256 is not representable in UINT8" "union out of range message"
sed 's/"Value": 65504/"Value": 65520/' "$tmp/dg_f16max.json" >"$tmp/dg_bad2.json"
expect 3 "DIAGONAL_MATRIX1 Value 65520 as FLOAT16" "$D" run "$tmp/dg_bad2.json"
# the optional InputTensor: absent above, given in the doc cases; null is absent
cat >"$tmp/dg_null.json" <<'EOF'
{"operator": "DIAGONAL_MATRIX1", "ValueDataType": "UINT8", "Value": 9, "DiagonalFillBegin": 0, "DiagonalFillEnd": 1,
 "InputTensor": null, "OutputTensor": {"DataType": "UINT8", "Sizes": [2, 2]}, "expected": {"OutputTensor": [9, 0, 0, 9]}}
EOF
expect 0 "DIAGONAL_MATRIX1 with InputTensor null" "$D" run "$tmp/dg_null.json"
# DIAGONAL_MATRIX's FLOAT Value: a number, "nan", "-inf" or a 32-bit pattern, converted into the output's type
dgf() { # NAME TYPE VALUE WANT_HEX
    cat >"$tmp/dm_$1.json" <<EOF
{"operator": "DIAGONAL_MATRIX", "Offset": -1, "Value": $3, "OutputTensor": {"DataType": "$2", "Sizes": [2, 2]}}
EOF
    expect 0 "DIAGONAL_MATRIX Value $3 into $2" "$D" run "$tmp/dm_$1.json" --npy "$tmp/dm_$1"
    if py -c 'import sys, numpy as np
a = np.load(sys.argv[1]); w = int(sys.argv[2], 16)
b = a.view("<u%d" % a.dtype.itemsize).reshape(-1).tolist()
assert b == [0, 0, w, 0], ([hex(x) for x in b], hex(w))' "$tmp/dm_$1/OutputTensor.npy" "$4" 2>"$tmp/err"
    then ok; else no "DIAGONAL_MATRIX: Value $3 into $2 is not $4 in the output"; fi
}
dgf trunc INT32 10.6 a
dgf sat UINT8 300 ff
dgf neg UINT16 -5 0
dgf nan INT64 '"nan"' 0
dgf ninf INT8 '"-inf"' 80
dgf f16 FLOAT16 0.1 2e66
dgf payload FLOAT32 '"0x7fc01234"' 7fc01234
dgf f64 FLOAT64 0.1 3fb99999a0000000
# builder cases of both through the fast path, 1 and 2 threads (their expected lists are the oracle's)
expect 0 "gen DIAGONAL_MATRIX" "$D" gen --operator DIAGONAL_MATRIX --count 40 --seed 99 --out "$tmp/gendg"
expect 0 "gen DIAGONAL_MATRIX1" "$D" gen --operator DIAGONAL_MATRIX1 --count 40 --seed 99 --out "$tmp/gendg"
dgfail=0
for f in "$tmp"/gendg/*.json; do
    for t in 1 2; do "$D" run "$f" --threads $t >/dev/null 2>"$tmp/err" || { dgfail=$((dgfail + 1)); echo "FAIL: $f --threads $t"; repro_note "$D" run "$f" --threads $t; repro_print; }; done
done
[ "$dgfail" -eq 0 ] && ok || no "$dgfail DIAGONAL_MATRIX(1) builder cases differ on the fast path"
if py - "$tmp/gendg" <<'PY' 2>"$tmp/err"
import json, os, sys
d = sys.argv[1]
with_input = without = inverted = 0
types = set()
for f in os.listdir(d):
    c = json.load(open(os.path.join(d, f)))
    types.add(c["OutputTensor"]["DataType"])
    if c["operator"] == "DIAGONAL_MATRIX1":
        assert c["ValueDataType"] == c["OutputTensor"]["DataType"], f
        assert c["ValueDataType"] != "FLOAT16" or c["Value"] == 0, f  # golden FLOAT16 unions: 0 only
        if "InputTensor" in c: with_input += 1
        else: without += 1
        inverted += c["DiagonalFillBegin"] > c["DiagonalFillEnd"]
assert with_input and without and inverted, (with_input, without, inverted)
assert len(types) == 11, types
PY
then ok; else no "DIAGONAL_MATRIX(1) builder cases: inputs present and absent, inverted bands, every type"; fi

# ---- SCATTER and SCATTER_ELEMENTS: two names of one operator (value 94) -------------
for name in SCATTER SCATTER_ELEMENTS; do
    sed "s/\"operator\": \"SCATTER_ELEMENTS\"/\"operator\": \"$name\"/" "$CASES/scatter_doc2.json" >"$tmp/sc_$name.json"
    grep -q "\"operator\": \"$name\"" "$tmp/sc_$name.json" && ok || no "sed did not name the operator $name"
    expect 0 "run scatter_doc2 named $name" "$D" run "$tmp/sc_$name.json"
    contains "$tmp/out" '"operator": "SCATTER"' "$name prints as SCATTER"
    expect 0 "validate scatter_doc2 named $name" "$D" validate "$tmp/sc_$name.json"
done
sed 's/"operator": "SCATTER_ELEMENTS"/"operator": "SCATTER_ELEMENT"/' "$CASES/scatter_doc2.json" >"$tmp/sc_typo.json"
expect 3 "a misspelt SCATTER_ELEMENTS" "$D" run "$tmp/sc_typo.json"
contains "$tmp/err" 'unknown operator "SCATTER_ELEMENT"' "misspelt operator message"
expect 0 "gen --operator SCATTER_ELEMENTS" "$D" gen --operator SCATTER_ELEMENTS --count 2 --seed 7 --out "$tmp/gensc1"
expect 0 "gen --operator SCATTER" "$D" gen --operator SCATTER --count 2 --seed 7 --out "$tmp/gensc2"
if [ -f "$tmp/gensc1/gen_scatter_7_1.json" ] && cmp -s "$tmp/gensc1/gen_scatter_7_1.json" "$tmp/gensc2/gen_scatter_7_1.json"
then ok; else no "gen SCATTER_ELEMENTS and gen SCATTER differ (or wrote no gen_scatter_7_1.json)"; fi

# ---- .npy out ----------------------------------------------------------------
expect 0 "run --npy (SPLIT)" "$D" run "$CASES/split_doc1.json" --npy "$tmp/npy1"
if [ -s "$tmp/out" ]; then no "--npy also printed JSON"; else ok; fi
if py -c 'import numpy as np, sys, os
d = sys.argv[1]
assert sorted(os.listdir(d)) == ["OutputTensors_0.npy", "OutputTensors_1.npy", "OutputTensors_2.npy"], os.listdir(d)
want = [[1,2,3,4], [5,6], [7,8,9,10,11,12]]
for i, w in enumerate(want):
    a = np.load(os.path.join(d, "OutputTensors_%d.npy" % i))
    assert a.dtype == np.float32 and a.ndim == 1 and a.tolist() == w, (i, a)' "$tmp/npy1" 2>"$tmp/err"
then ok; else no "--npy files read back with numpy"; fi
expect 0 "run --npy (UINT8 whole buffer)" "$D" run "$tmp/u8.json" --npy="$tmp/npy2"
if py -c 'import numpy as np, sys
a = np.load(sys.argv[1]); assert a.dtype == np.uint8 and a.tolist() == [40,20,40,10,30,205,205,205], a' "$tmp/npy2/OutputTensor.npy" 2>"$tmp/err"
then ok; else no "--npy writes the whole buffer"; fi
ls "$tmp/npy2" | grep -q tmp && no "--npy left a temporary file" || ok
: >"$tmp/notadir"
expect 5 "--npy into a file path" "$D" run "$CASES/gather_doc1.json" --npy "$tmp/notadir"

# ---- .npy in ----------------------------------------------------------------
mkdir -p "$tmp/npyin"
py - "$tmp/npyin" <<'PY'
import numpy as np, sys, os, io
d = sys.argv[1]
np.save(os.path.join(d, "in_v1.npy"), np.arange(12, dtype="<i8").reshape(3, 4))
for v in [(2, 0), (3, 0)]:
    with open(os.path.join(d, "in_v%d.npy" % v[0]), "wb") as f:
        np.lib.format.write_array(f, np.arange(12, dtype="<i8").reshape(3, 4), version=v)
np.save(os.path.join(d, "idx_u1.npy"), np.array([2, 0], dtype="|u1"))
np.save(os.path.join(d, "f16.npy"), np.array([1.5, -2, np.inf, 65504], dtype="<f2"))
np.save(os.path.join(d, "big.npy"), np.arange(12, dtype=">i8").reshape(3, 4))
raw = open(os.path.join(d, "in_v1.npy"), "rb").read()
open(os.path.join(d, "native.npy"), "wb").write(raw.replace(b"'<i8'", b"'=i8'"))
open(os.path.join(d, "pipe.npy"), "wb").write(raw.replace(b"'<i8'", b"'|i8'"))
np.save(os.path.join(d, "fortran.npy"), np.asfortranarray(np.arange(12, dtype="<i8").reshape(3, 4)))
np.save(os.path.join(d, "object.npy"), np.array([1, "a", None], dtype=object), allow_pickle=True)
np.save(os.path.join(d, "struct.npy"), np.zeros(3, dtype=[("a", "<i4"), ("b", "<f4")]))
np.save(os.path.join(d, "wrongtype.npy"), np.arange(12, dtype="<f8"))
np.save(os.path.join(d, "wrongcount.npy"), np.arange(11, dtype="<i8"))
raw = open(os.path.join(d, "in_v1.npy"), "rb").read()
open(os.path.join(d, "truncated.npy"), "wb").write(raw[:-5])
open(os.path.join(d, "header_only.npy"), "wb").write(raw[:40])
open(os.path.join(d, "garbage.npy"), "wb").write(b"this is not numpy")
PY
npycase() { # name npy-file
    cat >"$tmp/npyin/$1.json" <<JSON
{"operator": "GATHER", "Axis": 1, "IndexDimensions": 1,
 "InputTensor": {"DataType": "INT64", "Sizes": [3, 4], "npy": "$2"},
 "IndicesTensor": {"DataType": "UINT32", "Sizes": [1, 2], "data": [2, 0]},
 "OutputTensor": {"DataType": "INT64", "Sizes": [3, 2]},
 "expected": {"OutputTensor": [[2, 0], [6, 4], [10, 8]]}}
JSON
}
for v in 1 2 3; do
    npycase v$v in_v$v.npy
    expect 0 ".npy format version $v.0 input" "$D" run "$tmp/npyin/v$v.json"
done
for bad in native:"gives no byte order ('=' is" pipe:"invalid byte order" fortran:fortran_order object:"'|O'" struct:structured "wrongtype:holds dtype <f8" \
           wrongcount:"holds 11 elements" truncated:truncated header_only:truncated garbage:"not a .npy file"; do
    name=${bad%%:*} msg=${bad#*:}
    npycase "$name" "$name.npy"
    expect 3 ".npy $name refused" "$D" run "$tmp/npyin/$name.json"
    contains "$tmp/err" "$msg" ".npy $name message"
done
# big-endian files ('>', as numpy writes them on any host) are read with their values
npycase big big.npy
expect 0 ".npy '>i8' input (big-endian)" "$D" run "$tmp/npyin/big.json"
# every dtype in both byte orders: the values must come out the same
py - "$tmp/npyin" <<'PY'
import numpy as np, os, sys
d = sys.argv[1]
vals = {"f2": [1.5, -2, np.inf, 65504, -0.0, 6e-8], "f4": [1.5, -2, 3.4028235e38, 1e-45, -0.0, 0.1],
        "f8": [1.5, -2, 1.7976931348623157e308, 5e-324, -0.0, 0.1], "i1": [-128, 127, 0, -1, 5, 6],
        "u1": [255, 0, 1, 2, 128, 6], "i2": [-32768, 32767, 0, -1, 258, 6], "u2": [65535, 0, 1, 258, 32768, 6],
        "i4": [-2147483648, 2147483647, 0, -1, 16909060, 6], "u4": [4294967295, 0, 1, 16909060, 2147483648, 6],
        "i8": [-9223372036854775808, 9223372036854775807, 0, -1, 72623859790382856, 6],
        "u8": [18446744073709551615, 0, 1, 72623859790382856, 9223372036854775808, 6]}
for code, v in vals.items():
    for order in "<>":
        np.save(os.path.join(d, "bo_%s_%s.npy" % (code, "le" if order == "<" else "be")), np.array(v, dtype=order + code))
PY
for code in f2:FLOAT16 f4:FLOAT32 f8:FLOAT64 i1:INT8 u1:UINT8 i2:INT16 u2:UINT16 i4:INT32 u4:UINT32 i8:INT64 u8:UINT64; do
    c=${code%%:*} t=${code#*:}
    cat >"$tmp/npyin/bo_$c.json" <<JSON
{"operator": "JOIN", "Axis": 0, "InputTensors": [{"DataType": "$t", "Sizes": [6], "npy": "bo_${c}_le.npy"},
 {"DataType": "$t", "Sizes": [6], "npy": "bo_${c}_be.npy"}], "OutputTensor": {"DataType": "$t", "Sizes": [12]}}
JSON
    expect 0 ".npy $c little- and big-endian input" "$D" run "$tmp/npyin/bo_$c.json" --npy "$tmp/npyin/bo_$c"
    if py -c 'import numpy as np, sys
a = np.load(sys.argv[1])
le, be = np.load(sys.argv[2]), np.load(sys.argv[3])
raw = open(sys.argv[1], "rb").read()
assert a.dtype.str == le.dtype.str and a.dtype.str[0] in "<|", a.dtype
q = chr(39)
assert (q + "descr" + q + ": " + q + le.dtype.str + q).encode() in raw[:128], raw[:128]
assert a.tobytes() == le.tobytes() + le.tobytes(), (a, le)
assert (be == le).all() or np.array_equal(be, le, equal_nan=True), (be, le)'         "$tmp/npyin/bo_$c/OutputTensor.npy" "$tmp/npyin/bo_${c}_le.npy" "$tmp/npyin/bo_${c}_be.npy" 2>"$tmp/err"
    then ok; else no ".npy $c: '>' and '<' files give the same values, written back little-endian"; fi
done
cat >"$tmp/npyin/f16.json" <<'JSON'
{"operator": "JOIN", "Axis": 0, "InputTensors": [{"DataType": "FLOAT16", "Sizes": [4], "npy": "f16.npy"}],
 "OutputTensor": {"DataType": "FLOAT16", "Sizes": [4]}, "expected": {"OutputTensor": [1.5, -2, "inf", 65504]}}
JSON
expect 0 ".npy <f2 input" "$D" run "$tmp/npyin/f16.json"
# The header is read first and checked against the tensor, then exactly the bytes it describes
# (issue 23, item 3): the whole file used to be read first, up to the memory limit and 4 KiB, so a
# link to /dev/zero ran 43 s and took 8.9 GB, and a sparse 512 MiB file took 527 MB for 12
# elements.  Each runs here in 100 MB of address space and 20 seconds at most; under
# AddressSanitizer (make test-asan), whose shadow memory reserves terabytes of address space, and
# under qemu (scripts/cross.sh), in 20 seconds only (the native builds hold the memory bound).
small='ulimit -v 100000 && exec timeout 20 "$@"' # sh -c "$small" small COMMAND...
real_d=$D
[ -f "$D.real" ] && real_d=$D.real # a cross wrapper (scripts/cross.sh)
if grep -qa __asan_init "$real_d" 2>/dev/null; then
    small='exec timeout 20 "$@"'
    echo "cli: AddressSanitizer build: the .npy reading checks run without the 100 MB address-space cap"
elif [ "$real_d" != "$D" ]; then # qemu-user reserves the guest's address space: no cap either
    small='exec timeout 20 "$@"'
    echo "cli: emulated build: the .npy reading checks run without the 100 MB address-space cap"
fi
# a tensor's "data" that is no list (the reader once asserted inside json-c, its JSON parser
# then, after its message; found by the fuzz_case corpus replay)
printf '{"operator": "GATHER", "InputTensor": {"DataType": "FLOAT32", "Sizes": [2], "data": 5},
 "IndicesTensor": {"DataType": "UINT32", "Sizes": [1], "data": [0]}, "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1]},
 "Axis": 0, "IndexDimensions": 1}' >"$tmp/data_scalar.json"
expect 3 "a tensor whose data is a number, not a list" "$D" run "$tmp/data_scalar.json"
ln -s /dev/zero "$tmp/npyin/zero.npy"
npycase zero zero.npy
expect 3 ".npy linked to /dev/zero refused at its first bytes" sh -c "$small" small "$D" run "$tmp/npyin/zero.json"
contains "$tmp/err" "InputTensor.npy: $tmp/npyin/zero.npy: not a .npy file" ".npy linked to /dev/zero: the message names the file"
cp "$tmp/npyin/in_v1.npy" "$tmp/npyin/sparse.npy"
truncate -s 512M "$tmp/npyin/sparse.npy"
npycase sparse sparse.npy
expect 3 ".npy of 512 MiB with a header for 12 elements refused unread" sh -c "$small" small "$D" run "$tmp/npyin/sparse.json"
contains "$tmp/err" "InputTensor.npy: $tmp/npyin/sparse.npy: .npy file has 536870688 bytes after the 96 data bytes its header describes" \
    ".npy with bytes after its data: the message names the file and the counts"
# not a regular file (no length to check before reading): exactly the data, then one byte more is refused
npycase stdin /dev/stdin
expect 0 ".npy from a pipe" sh -c 'cat "$1" | "$0" run "$2"' "$D" "$tmp/npyin/in_v1.npy" "$tmp/npyin/stdin.json"
expect 3 ".npy from an endless pipe refused after its data" \
    sh -c "$small" small sh -c '{ cat "$1"; exec cat /dev/zero; } | "$0" run "$2"' "$D" "$tmp/npyin/in_v1.npy" "$tmp/npyin/stdin.json"
contains "$tmp/err" "/dev/stdin: .npy file has bytes after the 96 data bytes its header describes" ".npy from an endless pipe: message"
# a header longer than any numeric dtype needs is not read at all
printf '\223NUMPY\002\000\377\377\377\177' >"$tmp/npyin/longheader.npy"
npycase longheader longheader.npy
expect 3 ".npy with a 2 GiB header refused" sh -c "$small" small "$D" run "$tmp/npyin/longheader.json"
contains "$tmp/err" ".npy header of 2147483647 bytes is longer than the 65536 this reader reads" ".npy with a 2 GiB header: message"

# ---- random: exact draws, the same bits on every host --------------------------------
# rcase NAME TYPE LOW HIGH SEED COUNT: a JOIN copying one `random` input
rcase() {
    cat >"$tmp/rnd_$1.json" <<JSON
{"operator": "JOIN", "Axis": 0, "InputTensors": [{"DataType": "$2", "Sizes": [$6], "random": {"seed": $5, "low": $3, "high": $4}}],
 "OutputTensor": {"DataType": "$2", "Sizes": [$6]}}
JSON
}
rcase f64wide FLOAT64 -1e308 1e308 7 1000
rcase f64max FLOAT64 -1.7976931348623157e308 1.7976931348623157e308 8 1000
rcase f32wide FLOAT32 -3.4028234e38 3.4028234e38 9 1000
rcase f16wide FLOAT16 -65504 65504 10 1000
for k in f64wide f64max f32wide f16wide; do
    expect 0 "random $k" "$D" run "$tmp/rnd_$k.json" --npy "$tmp/rnd_$k"
    if py - "$tmp/rnd_$k.json" "$tmp/rnd_$k/OutputTensor.npy" <<'PY' 2>"$tmp/err"
import json, sys, numpy as np
r = json.load(open(sys.argv[1]))["InputTensors"][0]["random"]
a = np.load(sys.argv[2]).astype(np.float64)
dt = {8: np.float64, 4: np.float32, 2: np.float16}[np.load(sys.argv[2]).dtype.itemsize]
lo, hi = float(dt(r["low"])), float(dt(r["high"]))
assert np.isfinite(a).all() and a.min() >= lo and a.max() <= hi, (a.min(), a.max())
assert (a == hi).sum() < 5 and len(set(a.tolist())) > 900, "values pile up"
assert a.min() < lo / 1.2 and a.max() > hi / 1.2, (a.min(), a.max())
assert 400 < (a < 0).sum() < 600, (a < 0).sum()
PY
    then ok; else no "random $k: values spread over [low, high] (not all high, no overflow)"; fi
done
# the documented draw, exactly: low + (high - low) * k / 2^53 with k the top 53 bits of a splitmix64
# draw, rounded once to nearest-even (computed here with rationals)
rcase e64 FLOAT64 -3 0.1 11 400
rcase e64sub FLOAT64 5e-324 1e-300 12 400
rcase e32 FLOAT32 -1e-40 3.5 13 400
rcase e16 FLOAT16 -0.001 2.5 14 400
rcase e16w FLOAT16 -65504 1 15 400
rcase e64span FLOAT64 -1.7976931348623157e308 5e-324 16 400
for k in e64 e64sub e32 e16 e16w e64span; do
    expect 0 "random $k" "$D" run "$tmp/rnd_$k.json" --npy "$tmp/rnd_$k"
    if py - "$tmp/rnd_$k.json" "$tmp/rnd_$k/OutputTensor.npy" <<'PY' 2>"$tmp/err"
import json, sys, numpy as np
from fractions import Fraction as F
r = json.load(open(sys.argv[1]))["InputTensors"][0]["random"]
got = np.load(sys.argv[2])
w = got.dtype.itemsize
p, qmin = {2: (11, -24), 4: (24, -149), 8: (53, -1074)}[w]
def rnd(v):  # nearest-even to the format, as bits
    neg, a = v < 0, abs(v)
    if a == 0: return neg << (8 * w - 1)
    t = a.numerator.bit_length() - a.denominator.bit_length()
    while F(2) ** t > a: t -= 1
    while F(2) ** (t + 1) <= a: t += 1
    q = max(t - (p - 1), qmin)
    x = a / F(2) ** q
    m = x.numerator // x.denominator
    if x - m > F(1, 2) or (x - m == F(1, 2) and m & 1): m += 1
    if m >> p: m, q = m >> 1, q + 1
    h = 1 << (p - 1)
    return (m if m < h else (q - qmin + 1) << (p - 1) | (m - h)) | neg << (8 * w - 1)
def val(bits):
    e, f = bits >> (p - 1) & ((1 << (8 * w - p)) - 1), bits & ((1 << (p - 1)) - 1)
    v = F(f | (1 << (p - 1)) if e else f) * F(2) ** (qmin + (e - 1 if e else 0))
    return -v if bits >> (8 * w - 1) else v
lo, hi = val(rnd(F(r["low"]))), val(rnd(F(r["high"])))
M = (1 << 64) - 1
s = r["seed"] & M
want = []
for _ in range(len(got)):
    s = (s + 0x9E3779B97F4A7C15) & M
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    want.append(rnd(lo + (hi - lo) * F((z ^ (z >> 31)) >> 11, 1 << 53)))
g = got.view("<u%d" % w).tolist()
bad = [i for i in range(len(g)) if g[i] != want[i]]
assert not bad, "%d of %d differ, first [%d]: %x, wanted %x" % (len(bad), len(g), bad[0], g[bad[0]], want[bad[0]])
PY
    then ok; else no "random $k: every value is the exactly rounded draw"; fi
done
# pinned bits for fixed seeds (every type; --npy files are little-endian on every host)
rcase p_f64 FLOAT64 -1e308 1e308 1 64
rcase p_f64u FLOAT64 -1 1 2 64
rcase p_f32 FLOAT32 0 1 3 64
rcase p_f16 FLOAT16 -1 1 4 64
rcase p_i64 INT64 -9223372036854775808 9223372036854775807 5 64
rcase p_u64 UINT64 0 18446744073709551615 6 64
rcase p_i32 INT32 -5 1000 7 64
rcase p_u16 UINT16 3 65535 8 64
rcase p_i8 INT8 -128 127 9 64
rcase p_u8 UINT8 0 9 10 64
pins=""
for k in p_f64 p_f64u p_f32 p_f16 p_i64 p_u64 p_i32 p_u16 p_i8 p_u8; do
    expect 0 "random $k" "$D" run "$tmp/rnd_$k.json" --npy "$tmp/rnd_$k"
    pins="$pins $k:$(sha256sum <"$tmp/rnd_$k/OutputTensor.npy" | cut -c1-16)"
done
want=" p_f64:3f19a49a64eceb96 p_f64u:d7099121016e376b p_f32:e6f7d5daabd63e10 p_f16:049ebc839183372f p_i64:def4d2be6ef94b6f\
 p_u64:0c261b0e26276dfc p_i32:53fe149e05325914 p_u16:374b47f2cb40d9ce p_i8:63c7528af1e613dc p_u8:b0c51212fe369ed5"
[ "$pins" = "$want" ] && ok || no "random: pinned outputs differ (sha256 prefixes)$(printf '\n    got: %s\n    pin: %s' "$pins" "$want")"
expect 0 "random FLOAT64 printed" "$D" run "$tmp/rnd_p_f64u.json"
contains "$tmp/out" '"data": [0.18237946839615882, 0.49829936774764927, 0.19127616280001059, 0.530838308390059, -0.3768226256377718,' "random FLOAT64 first values (seed 2, -1 .. 1)"

# ---- distinct: unique integers per group (the bench workloads' scatter targets) --------------
# dcase NAME TYPE SIZES DISTINCT: a JOIN copying one `distinct` input; run NAME prints it to dst_NAME.out
dcase() {
    cat >"$tmp/dst_$1.json" <<EOF
{"operator": "JOIN", "Axis": 0, "InputTensors": [{"DataType": "$2", "Sizes": $3, "distinct": $4}],
 "OutputTensor": {"DataType": "$2", "Sizes": $3}}
EOF
}
dcase perm INT64 "[16]" '{"seed": 1, "modulus": 16}'
expect 0 "distinct: a permutation" "$D" run "$tmp/dst_perm.json" --logical
contains "$tmp/out" '"data": [7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6]' "distinct seed 1 modulus 16 pinned"
cp "$tmp/out" "$tmp/dst_perm.out"
dcase rows INT32 "[64, 256]" '{"seed": 9, "modulus": 1024, "group": 256}'
expect 0 "distinct: groups" "$D" run "$tmp/dst_rows.json" --logical
cp "$tmp/out" "$tmp/dst_rows.out"
dcase unr UINT16 "[4096, 2]" '{"seed": 3, "modulus": 65536, "unravel": [256, 256]}'
expect 0 "distinct: unravelled" "$D" run "$tmp/dst_unr.json" --logical
cp "$tmp/out" "$tmp/dst_unr.out"
if py -c 'import json,sys
d = lambda n: json.load(open(sys.argv[1] + "/dst_" + n + ".out"))["OutputTensor"]["data"]
perm, rows, pairs = d("perm"), d("rows"), d("unr")
assert sorted(perm) == list(range(16)), perm
assert len(rows) == 64 and all(len(set(r)) == 256 and 0 <= min(r) and max(r) < 1024 for r in rows)
assert len(set(tuple(r) for r in rows)) > 1  # a fresh draw per group
assert len(set(map(tuple, pairs))) == 4096 and all(0 <= c < 256 for p in pairs for c in p)
' "$tmp" 2>"$tmp/err"; then ok; else no "distinct: values distinct within each group and in range"; fi
# dbad SIZES TYPE DISTINCT MESSAGE
dbad() {
    dcase bad "$2" "$1" "$3"
    expect 3 "distinct $3" "$D" validate "$tmp/dst_bad.json"
    contains "$tmp/err" "$4" "distinct $3 message"
}
dbad "[16]" INT64 '{"seed": 1, "modulus": 12}' "InputTensors[0].distinct.modulus: 12 is not a power of two"
dbad "[17]" INT64 '{"seed": 1, "modulus": 16}' "17 values cannot be distinct below modulus 16 (give a group)"
dbad "[4]" FLOAT32 '{"seed": 1, "modulus": 16}' "needs an integer DataType, not FLOAT32"
dbad "[4]" INT8 '{"seed": 1, "modulus": 256}' "values up to 255 do not fit INT8"
dbad "[4, 2]" INT8 '{"seed": 1, "modulus": 256, "unravel": [16, 8]}' "the sizes' product must equal modulus 256"
dbad "[4]" INT8 '{"seed": 1, "modulus": 4, "group": 5}' "distinct.group: expected an integer in [1, 4], got 5"
dbad "[4]" INT8 '{"modulus": 4}' 'distinct: missing "seed"'
dbad "[4]" INT8 '{"seed": 1, "modulus": 4, "low": 0}' 'distinct: unknown key "low"'
dbad "[4]" INT8 '{"seed": 1, "modulus": 4}, "data": [1, 2, 3, 4]' "give only one of data, npy, random, distinct and pooled"

# ---- bytes_moved: the tensors' weights in dmlref bench's bytes (default 2 x outputs + indices) ----
cat >"$tmp/moved.json" <<'EOF'
{"operator": "TILE", "Repeats": [4], "bytes_moved": {"OutputTensor": 1, "InputTensor": 1},
 "InputTensor": {"DataType": "FLOAT32", "Sizes": [16], "random": {"seed": 1, "low": 0, "high": 1}},
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [64]}}
EOF
expect 0 "bytes_moved given" "$D" bench "$tmp/moved.json" --repeat 1
contains "$tmp/out" '"bytes_moved": 320,' "bytes_moved: output once + input once"
expect 0 "bytes_moved: run ignores it" "$D" run "$tmp/moved.json"
sed 's/ "bytes_moved": {[^}]*},//' "$tmp/moved.json" >"$tmp/moved0.json"
expect 0 "bytes_moved default" "$D" bench "$tmp/moved0.json" --repeat 1
contains "$tmp/out" '"bytes_moved": 512,' "bytes_moved default: 2 x output"
sed 's/"InputTensor": 1/"IndicesTensor": 1/' "$tmp/moved.json" >"$tmp/moved1.json"
expect 3 "bytes_moved names a tensor the case lacks" "$D" validate "$tmp/moved1.json"
contains "$tmp/err" 'bytes_moved: "IndicesTensor" is not a tensor of this case' "bytes_moved unknown tensor message"
sed 's/"InputTensor": 1}/"InputTensor": 17}/' "$tmp/moved.json" >"$tmp/moved2.json"
expect 3 "bytes_moved weight out of range" "$D" validate "$tmp/moved2.json"
contains "$tmp/err" 'bytes_moved.InputTensor: expected an integer in [0, 16], got 17' "bytes_moved weight message"

# ---- PADDING1's enum and union fields (case/fields.c): read exactly as written -----
cat >"$tmp/pad_i64.json" <<'EOF2'
{"operator": "PADDING1", "feature_level": "5_0", "PaddingMode": "CONSTANT",
 "PaddingValueDataType": "INT64", "PaddingValue": -9223372036854775808,
 "StartPadding": [1], "EndPadding": [2],
 "InputTensor": {"DataType": "INT64", "Sizes": [2], "data": [9223372036854775807, 5]},
 "OutputTensor": {"DataType": "INT64", "Sizes": [5]},
 "expected": {"OutputTensor": [-9223372036854775808, 9223372036854775807, 5, -9223372036854775808, -9223372036854775808]}}
EOF2
expect 0 "PADDING1 INT64 fill -2^63" "$D" run "$tmp/pad_i64.json"
contains "$tmp/out" '"data": [-9223372036854775808, 9223372036854775807, 5, -9223372036854775808, -9223372036854775808]' "PADDING1 INT64 fill printed"
sed 's/"CONSTANT"/"REFLECTION"/; s/"expected": {"OutputTensor": \[.*\]}}/"expected": {"OutputTensor": [5, 9223372036854775807, 5, 9223372036854775807, 5]}}/' \
    "$tmp/pad_i64.json" >"$tmp/pad_refl.json"
expect 0 "PADDING1 REFLECTION with an INT64 union" "$D" run "$tmp/pad_refl.json"
cat >"$tmp/pad_f16.json" <<'EOF2'
{"operator": "PADDING1", "feature_level": "6_4", "PaddingMode": "CONSTANT",
 "PaddingValueDataType": "FLOAT16", "PaddingValue": 0.333251953125,
 "StartPadding": [1], "EndPadding": [1],
 "InputTensor": {"DataType": "FLOAT16", "Sizes": [1], "data": [-1.5]},
 "OutputTensor": {"DataType": "FLOAT16", "Sizes": [3]},
 "expected": {"OutputTensor": ["0x3555", -1.5, 0.333251953125]}}
EOF2
expect 0 "PADDING1 FLOAT16 fill (binary16 bits 0x3555)" "$D" run "$tmp/pad_f16.json"
sed 's/0.333251953125,$/65520,/' "$tmp/pad_f16.json" >"$tmp/pad_f16_big.json"
expect 3 "PADDING1 FLOAT16 fill beyond its range" "$D" run "$tmp/pad_f16_big.json"
contains "$tmp/err" "PaddingValue: 65520 is beyond the finite range of FLOAT16" "PADDING1 FLOAT16 range message"
sed 's/"PaddingMode": "CONSTANT"/"PaddingMode": "MIRROR"/' "$tmp/pad_f16.json" >"$tmp/pad_mode.json"
expect 3 "PADDING1 unknown PaddingMode" "$D" run "$tmp/pad_mode.json"
contains "$tmp/err" 'PaddingMode: unknown value "MIRROR" (CONSTANT, EDGE, REFLECTION, SYMMETRIC, WRAP)' "PaddingMode names"
sed 's/"PaddingMode": "CONSTANT"/"PaddingMode": 2/' "$tmp/pad_f16.json" >"$tmp/pad_mode2.json"
expect 3 "PADDING1 PaddingMode as a number" "$D" run "$tmp/pad_mode2.json"
sed 's/"PaddingValueDataType": "FLOAT16"/"PaddingValueDataType": "FLOAT32"/' "$tmp/pad_f16.json" >"$tmp/pad_pd5.json"
expect 2 "PADDING1 PaddingValueDataType differs (PD5)" "$D" run "$tmp/pad_pd5.json"
contains "$tmp/err" "PADDING1: PaddingValueDataType (FLOAT32) must equal OutputTensor.DataType (FLOAT16)" "PD5 message"
sed 's/"feature_level": "6_4", "PaddingMode": "CONSTANT"/"feature_level": "6_3", "PaddingMode": "WRAP"/' "$tmp/pad_f16.json" >"$tmp/pad_wrap.json"
expect 2 "PADDING1 WRAP below 6_4 (PD4)" "$D" run "$tmp/pad_wrap.json"
contains "$tmp/err" "PaddingMode WRAP (4) is defined from feature level 6_4, not at 6_3" "PD4 message"

# ---- sizes beyond memory are refused before allocating ----------------------------
expect 3 "DMLREF_MAX_BYTES caps buffers" env DMLREF_MAX_BYTES=64 "$D" run "$CASES/split_doc1.json"
contains "$tmp/err" "beyond the limit of 64 bytes" "DMLREF_MAX_BYTES message"
expect 4 "DMLREF_MAX_BYTES=junk" env DMLREF_MAX_BYTES=junk "$D" run "$CASES/split_doc1.json"

# ---- GuaranteedBaseOffsetAlignment: the command binds buffers that honour it --
cat >"$tmp/aligned.json" <<'EOF2'
{"operator": "GATHER", "Axis": 0, "IndexDimensions": 1,
 "InputTensor":   {"DataType": "FLOAT32", "Sizes": [4], "GuaranteedBaseOffsetAlignment": 4096, "data": [11, 12, 13, 14]},
 "IndicesTensor": {"DataType": "UINT32",  "Sizes": [5], "GuaranteedBaseOffsetAlignment": 256, "data": [3, 1, 3, 0, 2]},
 "OutputTensor":  {"DataType": "FLOAT32", "Sizes": [5], "GuaranteedBaseOffsetAlignment": 64},
 "expected": {"OutputTensor": [14, 12, 14, 11, 13]}}
EOF2
expect 0 "run with GuaranteedBaseOffsetAlignment 4096/256/64" "$D" run "$tmp/aligned.json"
sed 's/"GuaranteedBaseOffsetAlignment": 4096/"GuaranteedBaseOffsetAlignment": 6/' "$tmp/aligned.json" >"$tmp/badalign.json"
expect 2 "run with GuaranteedBaseOffsetAlignment 6" "$D" run "$tmp/badalign.json"
contains "$tmp/err" "GuaranteedBaseOffsetAlignment (6) must be 0 or a power of two" "alignment message"
expect 3 "alignment counts against DMLREF_MAX_BYTES" env DMLREF_MAX_BYTES=2048 "$D" run "$tmp/aligned.json"
contains "$tmp/err" "aligned to 4096" "alignment limit message"

# ---- gen: valid, self-consistent, deterministic --------------------------------
expect 0 "gen ALL 20" "$D" gen --operator ALL --count 20 --seed 12345 --out "$tmp/gen1"
# 20 cases of every operator the build holds
n=$(ls "$tmp/gen1" | wc -l)
n_ops=0
for op in $(ls "$tmp/gen1" | sed -n 's/^gen_\(.*\)_12345_[0-9]*\.json$/\1/p' | sort -u); do
    n_ops=$((n_ops + 1))
    k=$(ls "$tmp/gen1" | grep -c "^gen_${op}_12345_")
    [ "$k" -eq 20 ] && ok || no "gen wrote $k cases of $op, wanted 20"
done
[ "$n_ops" -ge 6 ] && [ "$n" -eq $((20 * n_ops)) ] && ok || no "gen wrote $n files for $n_ops operators"
genfail=0
for f in "$tmp"/gen1/*.json; do
    "$D" run "$f" >/dev/null 2>"$tmp/err" || {
        genfail=$((genfail + 1)); echo "FAIL: gen case $f"; sed 's/^/    /' "$tmp/err" | head -3
        repro_note "$D" run "$f"; repro_print # the case file, kept
    }
done
repro_clear # each failing case printed its own repro line
[ "$genfail" -eq 0 ] && ok || no "$genfail generated cases do not run back"
expect 0 "gen again" "$D" gen --operator ALL --count 20 --seed 12345 --out "$tmp/gen2"
diff -r "$tmp/gen1" "$tmp/gen2" >/dev/null && ok || no "gen is not deterministic"
expect 0 "gen a prefix" "$D" gen --operator=JOIN --count=3 --seed=12345 --out="$tmp/gen3"
same=1
for i in 0 1 2; do cmp -s "$tmp/gen1/gen_join_12345_$i.json" "$tmp/gen3/gen_join_12345_$i.json" || same=0; done
[ "$same" -eq 1 ] && ok || no "gen --count 3 is not a prefix of --count 20"
expect 0 "gen another seed" "$D" gen --operator GATHER --count 1 --seed 12346 --out "$tmp/gen4"
cmp -s "$tmp/gen1/gen_gather_12345_0.json" "$tmp/gen4/gen_gather_12346_0.json" && no "seeds do not matter" || ok
# the same files on every host (32/64-bit, either byte order): a pinned digest of a fixed set
# (all 11 data types; the version in each file's comment is masked so a release does not move it)
expect 0 "gen ALL --count 5 --seed 1" "$D" gen --operator ALL --count 5 --seed 1 --out "$tmp/genpin"
version=$(sed -n 's/^#define DMLREF_VERSION_STRING "\(.*\)"/\1/p' include/dmlref.h)
pins() { # FILES...: their digest
    cat "$@" | sed "s/(dmlref $version)/(dmlref VERSION)/" | sha256sum | cut -d' ' -f1
}
pin=$(pins $(for op in gather gather_elements scatter_nd split join; do for i in 0 1 2 3 4; do
          echo "$tmp/genpin/gen_${op}_1_$i.json"; done; done))
want=ec45ae2f1a62d758ca1604fdb324791e0cbf3389aca870aac497881daa7c41c2
[ "$pin" = "$want" ] && ok || no "gen --count 5 --seed 1 files have sha256 $pin, pinned $want (a host-dependent gen?)"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_element_wise_identity_1_$i.json"; done))
want=06862338ac51091fcee7f1c509b72be48e08a3927f9f9b670899ce7896669a7f
[ "$pin" = "$want" ] && ok || no "gen ELEMENT_WISE_IDENTITY --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_tile_1_$i.json"; done))
want=353325c5837ced36cdeea77925e6023bc52f8d1a29d5a302a09b4991412df601
[ "$pin" = "$want" ] && ok || no "gen TILE --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_scatter_1_$i.json"; done))
want=431774aa52e265643fbf847ae49ce79b9908d3152dfdf22e1d835fa1c21d8c67
[ "$pin" = "$want" ] && ok || no "gen SCATTER --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for op in depth_to_space space_to_depth depth_to_space1 space_to_depth1; do for i in 0 1 2 3 4; do
          echo "$tmp/genpin/gen_${op}_1_$i.json"; done; done))
want=ec57f483561b1ba20c884fdb701c93154e2fa134146a1df165463e8cd259f128
[ "$pin" = "$want" ] && ok || no "gen DEPTH_TO_SPACE/SPACE_TO_DEPTH(1) --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_slice_1_$i.json"; done))
want=18d77c32b9312d40cb183921d1ca34d5f0c43ee98a174677acaf8df97d308fbf
[ "$pin" = "$want" ] && ok || no "gen SLICE --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_slice1_1_$i.json"; done))
want=d0c2e985790cf250adadb8a99b5c263c585a0457966e7c43a395899365696e14
[ "$pin" = "$want" ] && ok || no "gen SLICE1 --count 5 --seed 1 files have sha256 $pin, pinned $want"
# runback LABEL DIR [VAR=VALUE...]: every case file of DIR (its expected outputs the oracle's)
# through `dmlref run` with 1 and 2 threads under the given environment (a tiny grain or
# streaming threshold sends small cases down the threaded and streaming fast paths)
runback() {
    rb_label=$1 rb_dir=$2
    shift 2
    rb_fail=0
    for f in "$rb_dir"/*.json; do
        for th in 1 2; do
            env "$@" "$D" run "$f" --threads $th >/dev/null 2>"$tmp/err" ||
                { rb_fail=$((rb_fail + 1)); echo "FAIL: $f --threads $th"; repro_note env "$@" "$D" run "$f" --threads $th
                  repro_print; sed 's/^/    /' "$tmp/err" | head -3; }
        done
    done
    [ "$rb_fail" -eq 0 ] && ok || no "$rb_fail generated $rb_label runs differ from the oracle's expected outputs"
}
# SLICE / SLICE1: the builder's cases through the fast path (the expected outputs are the
# oracle's) with 1 and 2 threads, a tiny grain splitting even small copies
expect 0 "gen SLICE SLICE1 40" sh -c "'$D' gen --operator SLICE --count 40 --seed 7 --out '$tmp/gensl' &&
                                      '$D' gen --operator SLICE1 --count 40 --seed 7 --out '$tmp/gensl'"
runback "SLICE/SLICE1" "$tmp/gensl" DMLREF_PAR_GRAIN=64
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_one_hot_1_$i.json"; done))
want=66e3faecfe87dce43f22942ba20ccd8814d045326f8517244fed4ba2450ea420
[ "$pin" = "$want" ] && ok || no "gen ONE_HOT --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_gather_nd_1_$i.json"; done))
want=68d970c59865d46ce4933fa96354dbb7a93ee452a5b9609c6cce122b61f646f3
[ "$pin" = "$want" ] && ok || no "gen GATHER_ND --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_gather_nd1_1_$i.json"; done))
want=5247121d86c6b45ed29ae2e0d6605c828a948a05896c414e1b4bf7c14e7aa771
[ "$pin" = "$want" ] && ok || no "gen GATHER_ND1 --count 5 --seed 1 files have sha256 $pin, pinned $want"
# GATHER_ND(1)'s builder cases (expected: the oracle's bytes) through the fast paths with 1 and 2
# threads, the thread grain and the streaming threshold made tiny so small cases split and stream
for op in GATHER_ND GATHER_ND1; do
    expect 0 "gen $op 60" "$D" gen --operator $op --count 60 --seed 4242 --out "$tmp/gennd"
done
runback "GATHER_ND(1)" "$tmp/gennd" DMLREF_PAR_GRAIN=16 DMLREF_STREAM_MIN=0 DMLREF_SLAB_MIN=0
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_diagonal_matrix_1_$i.json"; done))
want=0c120898cf6d79f2a939ef2772b14cc53924fd8f04ed656c5f73cecaa2dde1f7
[ "$pin" = "$want" ] && ok || no "gen DIAGONAL_MATRIX --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_diagonal_matrix1_1_$i.json"; done))
want=d7e0f2b1446cd151d3948151a413b69018b7c7c3c7bb6567e016bcc19ecfe473
[ "$pin" = "$want" ] && ok || no "gen DIAGONAL_MATRIX1 --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_reverse_subsequences_1_$i.json"; done))
want=a18d7e263f0694e547b2a932e31a7b6739bc132a340adec9b8e7b7c2bc0f102c
[ "$pin" = "$want" ] && ok || no "gen REVERSE_SUBSEQUENCES --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_cast_1_$i.json"; done))
want=1be92a1f229210c08a7c3fceb46992f5b2337de8fb7c8d959d9269b980837211
[ "$pin" = "$want" ] && ok || no "gen CAST --count 5 --seed 1 files have sha256 $pin, pinned $want"
# CAST: the builder's bits cases (NaN payloads, subnormals, rounding ties, saturation edges)
# run back through the fast path with 1 and 2 threads against the oracle's expected lists
expect 0 "gen CAST --bits 30" "$D" gen --operator CAST --count 30 --seed 9 --bits --out "$tmp/gencast"
runback "CAST" "$tmp/gencast" DMLREF_PAR_GRAIN=64
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_resample2_1_$i.json"; done))
want=0c6a8418537c8077a4ca0c8cc8fcec3d87036ba9fa3f1ef0aaaece632a7d49e6
[ "$pin" = "$want" ] && ok || no "gen RESAMPLE2 --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_upsample_2d_1_$i.json"; done))
want=e9b4e0fd4e5f356634d50fdb0f2e3729ff95e14537018418279688cd342ae295
[ "$pin" = "$want" ] && ok || no "gen UPSAMPLE_2D --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_resample_1_$i.json"; done))
want=e62be6127b7fba2f04dbd012ec78064a02cad8615a6e5aeb10de96a8730b2516
[ "$pin" = "$want" ] && ok || no "gen RESAMPLE --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_resample1_1_$i.json"; done))
want=52e187c526909ae0913c2d7b4440468865ef8b973e7ae3c7c2ab7deca50c12b9
[ "$pin" = "$want" ] && ok || no "gen RESAMPLE1 --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_resample3_1_$i.json"; done))
want=54902228e064b4827f39f278231bda6e8a7cd56d10f989cf6fa744fc19376926
[ "$pin" = "$want" ] && ok || no "gen RESAMPLE3 --count 5 --seed 1 files have sha256 $pin, pinned $want"
# REVERSE_SUBSEQUENCES: the builder's cases (lengths above the axis among them) through the
# fast path with 1 and 2 threads, a tiny grain splitting even small cases; the larger ones
# reach the copy plans and the batches of narrow runs
expect 0 "gen REVERSE_SUBSEQUENCES 40" sh -c "'$D' gen --operator REVERSE_SUBSEQUENCES --count 30 --seed 7 --out '$tmp/genrs' &&
    '$D' gen --operator REVERSE_SUBSEQUENCES --count 10 --seed 8 --max-elements 20000 --out '$tmp/genrs'"
runback "REVERSE_SUBSEQUENCES" "$tmp/genrs" DMLREF_PAR_GRAIN=64
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_element_wise_if_1_$i.json"; done))
want=5f6a6189d7d7a05c6c9be087f94df1f031c4ade2c993d79932d5aa991dcbe604
[ "$pin" = "$want" ] && ok || no "gen ELEMENT_WISE_IF --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_fill_value_constant_1_$i.json"; done))
want=ac0df7a570d342ee4c5df538813eb11d76da79da5a82e55e4a3f497b16bb68f5
[ "$pin" = "$want" ] && ok || no "gen FILL_VALUE_CONSTANT --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_fill_value_sequence_1_$i.json"; done))
want=fbc65abe4ed7c0cabf5709416ff560487769cf531b2b17139709bcbe752b9aa5
[ "$pin" = "$want" ] && ok || no "gen FILL_VALUE_SEQUENCE --count 5 --seed 1 files have sha256 $pin, pinned $want"
# ELEMENT_WISE_IF and the FILL_VALUE operators: the builders' cases (expected: the oracle's
# bytes) through the fast paths with 1 and 2 threads, the grain and the streaming threshold tiny
for op in ELEMENT_WISE_IF FILL_VALUE_CONSTANT FILL_VALUE_SEQUENCE; do
    expect 0 "gen $op 30" "$D" gen --operator $op --count 30 --seed 99 --out "$tmp/genifv"
done
runback "ELEMENT_WISE_IF / FILL_VALUE" "$tmp/genifv" DMLREF_PAR_GRAIN=16 DMLREF_STREAM_MIN=0
pin=$(pins $(for op in padding padding1; do for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_${op}_1_$i.json"; done; done))
want=f3eac0f176bd73e0b0f8c3f6fe981cc3e99153e86ed3b1e4739d8de97699a7d6
[ "$pin" = "$want" ] && ok || no "gen PADDING/PADDING1 --count 5 --seed 1 files have sha256 $pin, pinned $want"
# PADDING and PADDING1: generated cases run back on the fast path with 1 and 2 threads
expect 0 "gen PADDING 40" "$D" gen --operator PADDING --count 40 --seed 5 --out "$tmp/genpad"
expect 0 "gen PADDING1 40" "$D" gen --operator PADDING1 --count 40 --seed 5 --out "$tmp/genpad"
runback "PADDING(1)" "$tmp/genpad" DMLREF_PAR_GRAIN=16
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_unfold_1_$i.json"; done))
want=8a4b292138038737dbf4e6dc60fe6c4f6d3284cec4f79f94f6b880e1a2414845
[ "$pin" = "$want" ] && ok || no "gen UNFOLD --count 5 --seed 1 files have sha256 $pin, pinned $want"
# UNFOLD: generated cases (expected from the oracle: DMLREF_FORCE_ORACLE) run back on the fast path with 1 and 2 threads
DMLREF_FORCE_ORACLE=1 "$D" gen --operator UNFOLD --count 40 --seed 5 --out "$tmp/genunf" >"$tmp/out" 2>"$tmp/err" && ok ||
    no "gen UNFOLD 40 (oracle)"
runback "UNFOLD" "$tmp/genunf" DMLREF_PAR_GRAIN=16
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_slice_grad_1_$i.json"; done))
want=6bfc8712f75dc22d11ae59499161cb0fb65bd9ff5c0f122ac2884a3404c9550f
[ "$pin" = "$want" ] && ok || no "gen SLICE_GRAD --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_max_unpooling_1_$i.json"; done))
want=8b029caedae8e9be0fa6f8fb935c31f28b2138dc30fd0e6b19acd3f0fce99088
[ "$pin" = "$want" ] && ok || no "gen MAX_UNPOOLING --count 5 --seed 1 files have sha256 $pin, pinned $want"
# SLICE_GRAD and MAX_UNPOOLING: generated cases run back on the fast paths with 1 and 2 threads
expect 0 "gen SLICE_GRAD 40" "$D" gen --operator SLICE_GRAD --count 40 --seed 5 --out "$tmp/gengrad"
expect 0 "gen MAX_UNPOOLING 40" "$D" gen --operator MAX_UNPOOLING --count 40 --seed 5 --out "$tmp/gengrad"
runback "SLICE_GRAD/MAX_UNPOOLING" "$tmp/gengrad" DMLREF_PAR_GRAIN=16
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_top_k_1_$i.json"; done))
want=002db2defa636bff6aad17c6fc263cae47b0f4e6dcd22e7599d7e8ec1eb26b3d
[ "$pin" = "$want" ] && ok || no "gen TOP_K --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_top_k1_1_$i.json"; done))
want=d3403b4ef36e13480266a134fd75369b80fdfabd1a8efb73c1d08e15d91279a7
[ "$pin" = "$want" ] && ok || no "gen TOP_K1 --count 5 --seed 1 files have sha256 $pin, pinned $want"
# TOP_K and TOP_K1: generated with the oracle, run back on the fast paths with 1 and 2 threads
DMLREF_FORCE_ORACLE=1 "$D" gen --operator TOP_K --count 40 --seed 5 --out "$tmp/gentopk" >"$tmp/out" 2>"$tmp/err" &&
    DMLREF_FORCE_ORACLE=1 "$D" gen --operator TOP_K1 --count 40 --seed 5 --out "$tmp/gentopk" >"$tmp/out" 2>"$tmp/err" &&
    ok || no "gen TOP_K/TOP_K1 40 (oracle)"
runback "TOP_K/TOP_K1" "$tmp/gentopk" DMLREF_PAR_GRAIN=16
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_nonzero_coordinates_1_$i.json"; done))
want=33d7328fdd9002105fbb36ca0c37badfd84612037d5260e89a887d0f77585bd2
[ "$pin" = "$want" ] && ok || no "gen NONZERO_COORDINATES --count 5 --seed 1 files have sha256 $pin, pinned $want"
# NONZERO_COORDINATES: generated cases (packed inputs: the fast path; others: the oracle) run back
# with 1 and 2 threads, the grain tiny; the larger ones split into several parts
expect 0 "gen NONZERO_COORDINATES 40" sh -c "'$D' gen --operator NONZERO_COORDINATES --count 30 --seed 5 --out '$tmp/gennz' &&
    '$D' gen --operator NONZERO_COORDINATES --count 10 --seed 6 --max-elements 20000 --out '$tmp/gennz'"
runback "NONZERO_COORDINATES" "$tmp/gennz" DMLREF_PAR_GRAIN=64
# its rows past the count are undefined (dmlref_defined_elements): an `expected` with anything
# there still matches, a wrong defined row does not; export's manifest says defined_elements
sed 's/\[0, 1, 3\], \[0, 0, 0\], \[0, 0, 0\]/[0, 1, 3], [7, 7, 7], [9, 0, 0]/' tests/cases/nonzero_coordinates_doc1.json >"$tmp/nz_past.json"
grep -q '\[7, 7, 7\]' "$tmp/nz_past.json" && ok || no "nz_past.json was not made"
expect 0 "NONZERO rows past the count: not compared" "$D" run "$tmp/nz_past.json"
sed 's/\[0, 1, 1\], \[0, 1, 3\]/[0, 1, 1], [0, 1, 2]/' tests/cases/nonzero_coordinates_doc1.json >"$tmp/nz_row.json"
expect 1 "NONZERO a wrong defined row" "$D" run "$tmp/nz_row.json"
grep -q "OutputCoordinatesTensor\[11\]: expected 2, got 3" "$tmp/err" && ok || no "the wrong row is not reported"
expect 0 "export NONZERO" "$D" export tests/cases/nonzero_coordinates_doc1.json --out "$tmp/nzexp"
grep -q '"expected_from": "case", "defined_elements": 12}' "$tmp/nzexp/manifest.json" && ok || no "export: no defined_elements 12"
[ "$(grep -c defined_elements "$tmp/nzexp/manifest.json")" -eq 1 ] && ok || no "export: defined_elements on a wholly defined output"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_argmin_1_$i.json"; done))
want=f2c746ce5fd78ce5c1d8af8ffcd9f76c169b2d5bc5737655de40bd72be00fe5a
[ "$pin" = "$want" ] && ok || no "gen ARGMIN --count 5 --seed 1 files have sha256 $pin, pinned $want"
pin=$(pins $(for i in 0 1 2 3 4; do echo "$tmp/genpin/gen_argmax_1_$i.json"; done))
want=f6098c1873b37edcc9794496ba5aeb753632325c367aec610745959261de17ad
[ "$pin" = "$want" ] && ok || no "gen ARGMAX --count 5 --seed 1 files have sha256 $pin, pinned $want"
# ARGMIN and ARGMAX: generated cases (expected from the oracle) run back on the fast paths with 1 and 2 threads
for op in ARGMIN ARGMAX; do
    DMLREF_FORCE_ORACLE=1 "$D" gen --operator $op --count 40 --seed 5 --out "$tmp/genarg" >"$tmp/out" 2>"$tmp/err" && ok ||
        no "gen $op 40 (oracle)"
done
runback "ARGMIN/ARGMAX" "$tmp/genarg" DMLREF_PAR_GRAIN=16
# what the suite covers (over all 100 cases)
if py - "$tmp/gen1" <<'PY' 2>"$tmp/err"
import json, os, sys
d = sys.argv[1]
types, dims, bcast, neg, pieces, levels = set(), set(), 0, 0, set(), set()
for f in os.listdir(d):
    c = json.load(open(os.path.join(d, f)))
    levels.add(c["feature_level"])
    for k, v in c.items():
        for t in (v if isinstance(v, list) else [v]):
            if isinstance(t, dict) and "DataType" in t:
                types.add(t["DataType"]); dims.add(len(t["Sizes"]))
                if 0 in t.get("Strides", []) and any(s > 1 for s, st in zip(t["Sizes"], t["Strides"]) if st == 0): bcast += 1
    if c["operator"] in ("GATHER", "GATHER_ELEMENTS", "SCATTER_ND") and c["IndicesTensor"]["DataType"].startswith("INT"):
        def flat(x): return sum(map(flat, x), []) if isinstance(x, list) else [x]
        neg += any(isinstance(v, int) and v < 0 for v in flat(c["IndicesTensor"]["data"]))
    if c["operator"] == "JOIN": pieces.add(len(c["InputTensors"]))
    if c["operator"] == "SPLIT": pieces.add(len(c["OutputTensors"]))
assert len(types) == 11, types
assert dims == set(range(1, 9)), dims
assert bcast > 0 and neg > 0, (bcast, neg)
assert len(pieces) >= 4, pieces
assert len(levels) >= 3, levels
PY
then ok; else no "gen coverage (types, dims 1-8, broadcast, negative indices, pieces, levels)"; fi

# ---- gen: "features", filters, flavours, the suite layout ----------------------------
# tests/gen/check.py recomputes each file's features from its tensors and data, requires the
# "features" object to say the same, and checks the filters and flavours it is given.
gencheck() { # DESCRIPTION DIR CHECK-ARGS...
    desc=$1 dir=$2
    shift 2
    repro_note "$PYTHON" tests/gen/check.py --dmlref "$D" "$dir" "$@"
    if py tests/gen/check.py --dmlref "$D" "$dir" "$@" >"$tmp/check" 2>&1; then ok; else
        no "$desc"; sed 's/^/    /' "$tmp/check" | tail -n 12; fi
}
gencheck "gen's features of the plain files" "$tmp/gen1" --expect-files $((20 * n_ops)) --distinct
# the checker fails on the plain files under each filter (so its passes below mean something)
for f in "--packed:not packed" "--no-negative-indices:negative index" "--max-dims 3:above --max-dims" \
         "--data-types FLOAT32:outside --data-types" "--index-types UINT32:outside --index-types" \
         "--feature-level 3_0:above --feature-level 3_0" "--max-elements 32:above --max-elements"; do
    if py tests/gen/check.py --dmlref "$D" "$tmp/gen1" --fast ${f%%:*} >"$tmp/check" 2>&1; then
        no "the plain files pass the check of ${f%%:*}"
    else contains "$tmp/check" "${f#*:}" "check of ${f%%:*} on the plain files"; fi
done
# ... and on a min_feature_level one level too high and one too low (the levels dmlref validate
# is asked, many files per call)
mkdir -p "$tmp/badlvl"
if py - "$tmp/gen1" "$tmp/badlvl" <<'PY'
import json, os, sys
L = ["1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2", "6_0", "6_1", "6_2", "6_3", "6_4"]
src, dst = sys.argv[1:]
picked = {}
for f in sorted(os.listdir(src)):
    c = json.load(open(os.path.join(src, f)))
    i = L.index(c["features"]["min_feature_level"])
    if "up" not in picked and i + 1 < len(L):
        picked["up"] = (f, c, L[i + 1])
    elif "down" not in picked and i > 0:
        picked["down"] = (f, c, L[i - 1])
for how, (f, c, lvl) in picked.items():
    c["features"]["min_feature_level"] = lvl
    json.dump(c, open(os.path.join(dst, how + "_" + f), "w"))
PY
then
    if py tests/gen/check.py --dmlref "$D" "$tmp/badlvl" >"$tmp/check" 2>&1; then no "a wrong min_feature_level passes the check"
    else [ "$(grep -c 'is not the lowest level that accepts the case$' "$tmp/check")" -eq 2 ] && ok ||
        no "the check of min_feature_level: $(cat "$tmp/check")"; fi
else no "could not write the cases of a wrong min_feature_level"; fi
# the plain flavour holds no subnormal, signalling NaN or NaN payload
py -c 'import json, os, sys
d = sys.argv[1]
sv = set().union(*(json.load(open(os.path.join(d, f)))["features"]["special_values"] for f in os.listdir(d)))
assert sv == {"negative_zero", "infinity", "nan", "integer_extremes"}, sv' "$tmp/gen1" 2>"$tmp/err" &&
    ok || no "special values of the plain flavour"

# every filter at once (INT32 only: the index type that would hold negative values)
filters="--data-types FLOAT16,INT8,UINT64 --index-types INT32 --max-dims 4 --no-negative-indices --packed"  # 4: DEPTH_TO_SPACE is 4-D only
expect 0 "gen with every filter" "$D" gen --operator ALL --count 25 --seed 5 --out "$tmp/filt" $filters
# an operator whose index tensors take no INT32 has no case under these filters, and gen skips
# it: REVERSE_SUBSEQUENCES (its lengths are UINT32 or UINT64)
contains "$tmp/err" "skipped REVERSE_SUBSEQUENCES: no case meets the filters" "gen skips an operator no case of which meets the filters"
nskip=$(grep -c "^dmlref gen: skipped [A-Z_0-9]*: no case meets the filters" "$tmp/err")
gencheck "gen with every filter" "$tmp/filt" $filters --expect-files $((25 * (n_ops - nskip))) --distinct
contains "$tmp/filt/gen_gather_5_3.json" "dmlref gen --operator GATHER --seed 5 $filters, case 3" "comment names the filters"
expect 0 "gen with every filter, a prefix" "$D" gen --operator GATHER,SCATTER_ND --count 3 --seed 5 --out "$tmp/filt3" $filters
same=1
for f in "$tmp"/filt3/*; do cmp -s "$f" "$tmp/filt/$(basename "$f")" || same=0; done
[ "$same" -eq 1 ] && [ "$(ls "$tmp/filt3" | wc -l)" -eq 6 ] && ok || no "gen with filters: --count 3 of a list is not a prefix"
# the feature level: valid at L, feature_level <= L; operators newer than L skipped with ALL
expect 0 "gen --feature-level 3_0" "$D" gen --operator ALL --count 12 --seed 6 --out "$tmp/lvl3" --feature-level 3_0
newer3=$(grep -c "^dmlref gen: skipped [A-Z_0-9]*: not available at feature level 3_0" "$tmp/err")  # DIAGONAL_MATRIX1 (5_1), PADDING1 (5_0)
gencheck "gen --feature-level 3_0" "$tmp/lvl3" --feature-level 3_0 --expect-files $((12 * (n_ops - newer3))) --distinct
expect 0 "gen --feature-level 1_0 --max-dims 4" "$D" gen --operator ALL --count 8 --seed 6 --out "$tmp/lvl1" --feature-level 1_0 --max-dims 4
contains "$tmp/err" "skipped GATHER_ELEMENTS: not available at feature level 1_0 (introduced in 2_1)" "gen skips an operator newer than the level"
gencheck "gen --feature-level 1_0" "$tmp/lvl1" --feature-level 1_0 --max-dims 4 --distinct
newer=$(sed -n 's/^dmlref gen: skipped \([A-Z_]*\): not available at feature level 1_0.*/\1/p' "$tmp/err" | tr 'A-Z' 'a-z')
[ -n "$newer" ] && ok || no "gen --feature-level 1_0 skipped no operator"
for op in $newer; do ls "$tmp/lvl1" | grep -q "^gen_${op}_6_" && no "gen wrote $op, newer than 1_0" || ok; done

# the bits flavour: special bit patterns, still bit-exact through dmlref run
expect 0 "gen --bits" "$D" gen --operator ALL --count 25 --seed 8 --out "$tmp/bits" --bits
gencheck "gen --bits" "$tmp/bits" --bits --expect-files $((25 * n_ops)) --distinct
[ "$(ls "$tmp/bits" | grep -c '^gen-bits_')" -eq $((25 * n_ops)) ] && ok || no "gen --bits file names"
if py - "$tmp/bits" <<'PY' 2>"$tmp/err"
import json, os, sys
d = sys.argv[1]
per = {}
for f in os.listdir(d):
    c = json.load(open(os.path.join(d, f)))
    ft = c["features"]
    for t in ft["data_types"]:
        per.setdefault(t, set()).update(ft["special_values"])
for t in ("FLOAT16", "FLOAT32", "FLOAT64"):
    want = {"subnormal", "signaling_nan", "nan_payload", "negative_zero", "infinity", "nan"}
    assert want <= per.get(t, set()), (t, per.get(t))
for t in ("INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"):
    assert "integer_extremes" in per.get(t, set()), (t, per.get(t))
PY
then ok; else no "gen --bits: every float type has subnormals, signalling NaNs, payloads, -0.0, inf"; fi
expect 0 "gen --bits with filters" "$D" gen --operator ELEMENT_WISE_IDENTITY,GATHER --count 15 --seed 8 --out "$tmp/bitsf" --bits --data-types FLOAT16 --packed
gencheck "gen --bits with filters" "$tmp/bitsf" --bits --data-types FLOAT16 --packed --expect-files 30 --distinct

# the large flavour: tensors well beyond the plain cases' 264 elements, none above M
expect 0 "gen --max-elements 4096" "$D" gen --operator ALL --count 4 --seed 9 --out "$tmp/large" --max-elements 4096
gencheck "gen --max-elements 4096" "$tmp/large" --max-elements 4096 --expect-files $((4 * n_ops)) --distinct
if py - "$tmp/large" "$tmp/gen1" <<'PY' 2>"$tmp/err"
import json, math, os, sys
def biggest(d):
    out = {}
    for f in os.listdir(d):
        c = json.load(open(os.path.join(d, f)))
        n = max(math.prod(t["Sizes"]) for v in c.values() for t in (v if isinstance(v, list) else [v])
                if isinstance(t, dict) and "Sizes" in t)
        out[c["operator"]] = max(out.get(c["operator"], 0), n)
    return out
large, plain = biggest(sys.argv[1]), biggest(sys.argv[2])
assert max(plain.values()) <= 264, plain
assert all(n > 264 for n in large.values()) and max(large.values()) >= 2048, large
PY
then ok; else no "gen --max-elements: larger cases"; fi

# --scale-bias: ELEMENT_WISE_IDENTITY's ScaleBias (arithmetic) only when asked for; FLOAT32 and
# FLOAT16 cases, each with one; the other operators' cases are the plain ones (name, comment aside)
expect 0 "gen --scale-bias" "$D" gen --operator ALL --count 6 --seed 11 --out "$tmp/sb" --scale-bias
gencheck "gen --scale-bias" "$tmp/sb" --scale-bias --expect-files $((6 * n_ops)) --distinct
[ "$(ls "$tmp/sb" | grep -c '^gen-scale-bias_')" -eq $((6 * n_ops)) ] && ok || no "gen --scale-bias file names"
contains "$tmp/sb/gen-scale-bias_element_wise_identity_11_2.json" \
    "dmlref gen --operator ELEMENT_WISE_IDENTITY --seed 11 --scale-bias, case 2" "gen --scale-bias comment"
expect 0 "gen without --scale-bias" "$D" gen --operator ALL --count 6 --seed 11 --out "$tmp/nosb"
if py - "$tmp/sb" "$tmp/nosb" <<'PY' 2>"$tmp/err"
import json, os, sys
sb, plain = sys.argv[1], sys.argv[2]
def body(path):
    c = json.load(open(path))
    return {k: v for k, v in c.items() if k not in ("name", "comment")}
n = 0
for f in os.listdir(plain):
    other = body(os.path.join(sb, f.replace("gen_", "gen-scale-bias_", 1)))
    if "_element_wise_identity_" in f:
        assert "ScaleBias" not in body(os.path.join(plain, f)) and other["ScaleBias"] is not None, f
    else:
        assert other == body(os.path.join(plain, f)), f
        n += 1
assert n > 0
PY
then ok; else no "gen --scale-bias: the other operators' cases are not the plain ones"; fi
gencheck "the plain files hold no ScaleBias" "$tmp/nosb" --fast
expect 0 "gen --scale-bias --bits" "$D" gen --operator ELEMENT_WISE_IDENTITY --count 25 --seed 8 --out "$tmp/sbbits" --scale-bias --bits
gencheck "gen --scale-bias --bits" "$tmp/sbbits" --scale-bias --bits --expect-files 25 --distinct
# the arithmetic gives the same bits on every host (x87, aarch64's fused multiply-add, big-endian)
# (subnormals, NaNs and infinities too: the bits flavour's)
expect 0 "gen ELEMENT_WISE_IDENTITY --scale-bias --count 5 --seed 1" "$D" gen --operator ELEMENT_WISE_IDENTITY --count 5 --seed 1 --out "$tmp/sbpin" --scale-bias
expect 0 "gen ELEMENT_WISE_IDENTITY --scale-bias --bits --count 5 --seed 1" "$D" gen --operator ELEMENT_WISE_IDENTITY --count 5 --seed 1 --out "$tmp/sbpin" --scale-bias --bits
pin=$(pins $(for p in gen-scale-bias gen-bits-scale-bias; do for i in 0 1 2 3 4; do
          echo "$tmp/sbpin/${p}_element_wise_identity_1_$i.json"; done; done))
want=0cefba11cd32c486ee8749554df3bdb73bc2d6fcfdd323ccbcc6b85f3ac261c1
[ "$pin" = "$want" ] && ok || no "gen ELEMENT_WISE_IDENTITY --scale-bias [--bits] --count 5 --seed 1 files have sha256 $pin, pinned $want"
expect 4 "gen --scale-bias --data-types INT8" "$D" gen --operator ELEMENT_WISE_IDENTITY --count 1 --seed 1 --out "$tmp/x" --scale-bias --data-types INT8
contains "$tmp/err" "a data type outside --data-types" "gen --scale-bias with no float type"

# the suite layout: DIR/small, DIR/large, DIR/bits, the filters in each; each file is what
# the gen command its comment names writes
sfilters="--data-types FLOAT32,FLOAT16,INT16 --no-negative-indices --max-dims 5"
expect 0 "gen --suite" "$D" gen --suite "$tmp/suite/a" --seed 10 --count 4 --large-count 1 --bits-count 3 --max-elements 2048 $sfilters
gencheck "gen --suite: small" "$tmp/suite/a/small" $sfilters --expect-files $((4 * n_ops)) --distinct
gencheck "gen --suite: large" "$tmp/suite/a/large" $sfilters --max-elements 2048 --expect-files "$n_ops"
gencheck "gen --suite: bits" "$tmp/suite/a/bits" $sfilters --bits --expect-files $((3 * n_ops)) --distinct
[ "$(ls "$tmp/suite/a" | tr '\n' ' ')" = "bits large small " ] && ok || no "gen --suite folders: $(ls "$tmp/suite/a")"
expect 0 "gen, the suite's large case" "$D" gen --operator SPLIT --count 1 --seed 10 --max-elements 2048 $sfilters --out "$tmp/suite/l"
cmp -s "$tmp/suite/l/gen-large_split_10_0.json" "$tmp/suite/a/large/gen-large_split_10_0.json" && ok || no "the suite's large file is not gen --max-elements's"
expect 0 "gen, the suite's bits cases" "$D" gen --operator JOIN --count 3 --seed 10 --bits $sfilters --out "$tmp/suite/b"
cmp -s "$tmp/suite/b/gen-bits_join_10_2.json" "$tmp/suite/a/bits/gen-bits_join_10_2.json" && ok || no "the suite's bits file is not gen --bits's"
expect 0 "gen --suite, no filter" "$D" gen --suite "$tmp/suite/p" --seed 1 --operator GATHER --count 5 --large-count 0 --bits-count 0
cmp -s "$tmp/suite/p/small/gen_gather_1_4.json" "$tmp/genpin/gen_gather_1_4.json" && ok || no "the suite's small files are not the plain ones"

# filters and flavours on the command line, and filters no case can meet
expect 4 "gen --data-types BOGUS" "$D" gen --operator GATHER --count 1 --seed 1 --out "$tmp/x" --data-types FLOAT32,BOGUS
contains "$tmp/err" "unknown data type 'BOGUS' (FLOAT64 FLOAT32" "gen unknown data type message"
expect 4 "gen --index-types FLOAT32" "$D" gen --operator GATHER --count 1 --seed 1 --out "$tmp/x" --index-types FLOAT32
contains "$tmp/err" "unknown index type 'FLOAT32' (INT64 INT32 UINT64 UINT32)" "gen unknown index type message"
expect 4 "gen --data-types ''" "$D" gen --operator GATHER --count 1 --seed 1 --out "$tmp/x" --data-types ""
expect 4 "gen --max-dims 0" "$D" gen --operator GATHER --count 1 --seed 1 --out "$tmp/x" --max-dims 0
expect 4 "gen --max-dims 9" "$D" gen --operator GATHER --count 1 --seed 1 --out "$tmp/x" --max-dims 9
expect 4 "gen --max-elements 255" "$D" gen --operator GATHER --count 1 --seed 1 --out "$tmp/x" --max-elements 255
expect 4 "gen --feature-level 9_9" "$D" gen --operator GATHER --count 1 --seed 1 --out "$tmp/x" --feature-level 9_9
expect 4 "gen --packed=1" "$D" gen --operator GATHER --count 1 --seed 1 --out "$tmp/x" --packed=1
expect 4 "gen --large-count without --suite" "$D" gen --operator GATHER --count 1 --seed 1 --out "$tmp/x" --large-count 2
expect 4 "gen --suite --bits" "$D" gen --suite "$tmp/x" --seed 1 --bits
expect 4 "gen --suite and --out" "$D" gen --suite "$tmp/x" --out "$tmp/y" --seed 1
expect 4 "gen GATHER FLOAT64 at 2_1" "$D" gen --operator GATHER --count 2 --seed 1 --out "$tmp/never" --data-types FLOAT64 --feature-level 2_1
contains "$tmp/err" "GATHER: no case meets the filters in 100000 draws" "gen impossible filter message"
contains "$tmp/err" "InputTensor.DataType (FLOAT64) is not supported at feature level 2_1" "gen impossible filter names the rule"
[ -z "$(ls "$tmp/never" 2>/dev/null)" ] && ok || no "gen wrote files for an impossible filter"
expect 4 "gen GATHER_ELEMENTS at 1_0" "$D" gen --operator GATHER_ELEMENTS --count 1 --seed 1 --out "$tmp/x" --feature-level 1_0
contains "$tmp/err" "GATHER_ELEMENTS: not available at feature level 1_0 (introduced in 2_1)" "gen operator newer than the level"
expect 4 "gen ALL, no operator meets the filters" "$D" gen --operator ALL --count 1 --seed 1 --out "$tmp/x" --max-dims 3 --feature-level 2_1
contains "$tmp/err" "no operator has a case that meets the filters" "gen ALL impossible message"
contains "$tmp/err" "skipped JOIN: no case meets the filters" "gen ALL names the operators it skips"

# every FLOAT16 prints as a decimal that, read as a double and rounded to nearest-even FLOAT16,
# gives back its bits, though most decimals are not the exact value (docs/cli.md, gen's files)
if py - "$D" "$tmp/allhalf.json" <<'PY' 2>"$tmp/err"
import json, subprocess, sys
import numpy as np
d, path = sys.argv[1:]
json.dump({"operator": "ELEMENT_WISE_IDENTITY", "InputTensor": {"DataType": "FLOAT16", "Sizes": [65536],
           "data": [f"0x{b:04x}" for b in range(65536)]}, "OutputTensor": {"DataType": "FLOAT16", "Sizes": [65536]}},
          open(path, "w"))
out = json.loads(subprocess.run([d, "run", path], capture_output=True, text=True, check=True).stdout,
                 parse_float=str, parse_int=str)["OutputTensor"]["data"]
inexact = 0
for b, s in enumerate(out):
    if s in ("nan", "inf", "-inf") or s.startswith("0x"):
        continue
    h = np.float16(np.float64(s))
    assert int(np.array(h).view(np.uint16)) == b, (b, s)
    inexact += float(h) != float(s)
assert out[0x533C] == "57.88" and inexact > 40000, (out[0x533C], inexact)
PY
then ok; else no "FLOAT16 decimals read back through a double"; fi

# the reader accepts "features" (an object, contents ignored) and refuses any other form
cat >"$tmp/feat.json" <<'JSON'
{"operator": "JOIN", "Axis": 0, "features": {"anything": [1, {"x": null}], "data_types": "ignored"},
 "InputTensors": [{"DataType": "INT8", "Sizes": [2], "data": [1, 2]}],
 "OutputTensor": {"DataType": "INT8", "Sizes": [2]}, "expected": {"OutputTensor": [1, 2, -51, -51]}}
JSON
expect 0 "run a case with features" "$D" run "$tmp/feat.json"
sed 's/"features": {"anything": \[1, {"x": null}\], "data_types": "ignored"}/"features": ["INT8"]/' "$tmp/feat.json" >"$tmp/feat2.json"
expect 3 "run a case whose features is a list" "$D" run "$tmp/feat2.json"
contains "$tmp/err" "features: expected an object" "features message"

# ---- bench -------------------------------------------------------------------------
cat >"$tmp/bench.json" <<'JSON'
{"operator": "GATHER", "Axis": 0, "IndexDimensions": 1,
 "InputTensor": {"DataType": "FLOAT32", "Sizes": [256, 64], "random": {"seed": 1, "low": -1, "high": 1}},
 "IndicesTensor": {"DataType": "INT32", "Sizes": [1, 128], "random": {"seed": 2, "low": 0, "high": 255}},
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [128, 64]}}
JSON
expect 0 "bench" "$D" bench "$tmp/bench.json" --repeat 3 --threads 1
if py -c 'import json, sys
b = json.load(open(sys.argv[1]))
assert set(b) >= {"median_ns", "bytes_moved", "gb_per_s", "repeat", "threads", "kernel"}, b
assert b["bytes_moved"] == 2 * 128 * 64 * 4 + 128 * 4, b
assert b["repeat"] == 3 and b["threads"] == 1 and b["median_ns"] > 0 and isinstance(b["kernel"], str), b' "$tmp/out" 2>"$tmp/err"
then ok; else no "bench prints its JSON"; fi
expect 0 "bench SCATTER_ND" "$D" bench "$CASES/scatter_nd_doc.json" --repeat=2
if py -c 'import json, sys
b = json.load(open(sys.argv[1])); assert b["bytes_moved"] == 2 * 8 * 4 + 4 * 4, b' "$tmp/out" 2>"$tmp/err"
then ok; else no "bench bytes_moved for SCATTER_ND"; fi
# tiny operators: a batch of calls per sample, dmlref_execute or dmlref_run (scripts/tiny.sh)
expect 0 "bench --batch" "$D" bench "$CASES/gather_doc1.json" --batch 50 --repeat 3
if py -c 'import json, sys
b = json.load(open(sys.argv[1])); assert b["batch"] == 50 and b["timed"] == "execute" and b["median_ns"] >= 0, b' "$tmp/out" 2>"$tmp/err"
then ok; else no "bench --batch reports the batch and what it timed"; fi
expect 0 "bench --run" "$D" bench "$CASES/gather_doc1.json" --run --batch=4 --repeat 3 --threads 1
if py -c 'import json, sys
b = json.load(open(sys.argv[1])); assert b["batch"] == 4 and b["timed"] == "run" and b["threads"] == 1, b' "$tmp/out" 2>"$tmp/err"
then ok; else no "bench --run times dmlref_run"; fi
# --pool P: through a pthread pool of P threads (dmlref_options.threadpool); no timing checked
expect 0 "bench --pool" "$D" bench "$tmp/bench.json" --repeat 2 --pool 2
if py -c 'import json, sys
b = json.load(open(sys.argv[1])); assert b["pool"] == 2 and b["threads"] == 0 and b["median_ns"] > 0, b' "$tmp/out" 2>"$tmp/err"
then ok; else no "bench --pool reports the pool"; fi
expect 0 "bench without --pool" "$D" bench "$tmp/bench.json" --repeat 1
if py -c 'import json, sys
b = json.load(open(sys.argv[1])); assert b["pool"] == 0, b' "$tmp/out" 2>"$tmp/err"
then ok; else no "bench without --pool reports pool 0"; fi
expect 4 "bench --pool 0" "$D" bench "$tmp/bench.json" --pool 0
contains "$tmp/err" "--pool needs a number in [1, 1024]" "bench --pool 0 message"
expect 4 "bench --threads above --pool" "$D" bench "$tmp/bench.json" --pool 2 --threads 3
contains "$tmp/err" "options.threads (3) exceeds options.threadpool->threads (2)" "bench --threads above --pool message"
expect 4 "bench --batch 0" "$D" bench "$CASES/gather_doc1.json" --batch 0
contains "$tmp/err" "--batch needs a number in [1, 1000000]" "bench --batch 0 message"
expect 4 "bench an unknown option" "$D" bench "$CASES/gather_doc1.json" --bogus
contains "$tmp/err" "unknown option '--bogus'" "bench unknown option message"
if [ -s "$tmp/out" ]; then no "bench with an unknown option printed a result"; else ok; fi
expect 0 "bench --help after a case" "$D" bench "$CASES/gather_doc1.json" --help
contains "$tmp/out" "usage: dmlref bench" "bench --help after a case prints usage"
expect 2 "bench an invalid case" "$D" bench "$CASES/bad/e2_axis.json"
expect 3 "bench a malformed case" "$D" bench "$CASES/bad/e3_unknown_key.json"

# ---- the workloads program ($BUILD/bench, bench/bench.c): help and usage errors, nothing timed
B="$BUILD/bench"
if [ -x "$B" ]; then
    expect 0 "bench program --help" "$B" --help
    contains "$tmp/out" "usage: bench [--repeat N]" "bench program --help prints usage"
    grep -q "memcpy_64MiB" "$tmp/out" && no "bench program --help ran the benchmarks" || ok
    expect 0 "bench program -h" "$B" -h
    expect 4 "bench program unknown option" "$B" --bogus
    contains "$tmp/err" "bench: unknown option '--bogus'" "bench program unknown option message"
    contains "$tmp/err" "usage: bench" "bench program prints usage on stderr"
    if [ -s "$tmp/out" ]; then no "bench program with an unknown option ran"; else ok; fi
    expect 4 "bench program --repeat x" "$B" --repeat x
    expect 4 "bench program --repeat without a value" "$B" --repeat
else
    echo "cli: SKIP: $B is not built (make BUILD=$BUILD $B): the bench program's options are not checked"
    skipped=$((skipped + 1))
fi

# ---- duplicate keys: the empty key too, and an empty object (fuzz_case found a
# null-pointer offset in the duplicate scan of an object without keys) ----------
printf '{"": 1, "": 2}\n' >"$tmp/dupempty.json"
expect 3 "a repeated empty key" "$D" validate "$tmp/dupempty.json"
contains "$tmp/err" 'duplicate key "" in the top-level object (first at line 1, column 2)' "repeated empty key message"
printf '{\n}\n\n' >"$tmp/emptyobj.json"
expect 3 "an empty object" "$D" validate "$tmp/emptyobj.json"
contains "$tmp/err" 'missing "operator"' "empty object message"

# ---- keys and strings that parsers read differently (issue 23, item 4) ----
# A C reader keeps C strings: json-c, the reader's parser then, took a key "Axis\u0000x" for the
# key "Axis" (the later value won, and the duplicate check, on decoded keys, saw two keys) and
# "GATHER\u0000X" for GATHER, where Python's json sees Axis 0 and an operator "GATHER\x00X".
# json-c also read a lone surrogate escape as U+FFFD where Python keeps U+D800.  Each is refused
# with its line, column and JSON path.
G1='"IndexDimensions": 1, "InputTensor": {"DataType": "FLOAT32", "Sizes": [4], "data": [11, 12, 13, 14]},
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [5]}, "expected": {"OutputTensor": [14, 12, 14, 11, 13]}'
IDX='"IndicesTensor": {"DataType": "UINT32", "Sizes": [5], "data": [3, 1, 3, 0, 2]}'
meaning() { # NAME EXPECTED-MESSAGE JSON-TEXT
    printf '%s\n' "$3" >"$tmp/meaning_$1.json"
    expect 3 "$1 refused" "$D" run "$tmp/meaning_$1.json"
    contains "$tmp/err" "$2" "$1: message"
    if [ -s "$tmp/out" ]; then no "$1 printed outputs"; else ok; fi
}
meaning nul_key 'line 1, column 40: the key at "Axis\u0000x" holds \u0000: a key or string may not hold U+0000' \
    "{\"operator\": \"GATHER\", \"Axis\": 0, \"Axis\\u0000x\": 1, $G1, $IDX}"
meaning nul_operator 'line 1, column 21: the string at "operator" holds \u0000' \
    "{\"operator\": \"GATHER\\u0000X\", \"Axis\": 0, $G1, $IDX}"
meaning nul_datatype 'the string at "IndicesTensor.DataType" holds \u0000' \
    "{\"operator\": \"GATHER\", \"Axis\": 0, $G1, \"IndicesTensor\": {\"DataType\": \"UINT32\\u0000garbage\", \"Sizes\": [5], \"data\": [3, 1, 3, 0, 2]}}"
meaning nul_comment 'the string at "comment[1]" holds \u0000' \
    "{\"comment\": [\"a\", \"b\\u0000\"], \"operator\": \"GATHER\", \"Axis\": 0, $G1, $IDX}"
meaning lone_high 'line 1, column 15: the string at "comment" holds a lone surrogate escape: a high surrogate' \
    "{\"comment\": \"a\\uD800\", \"operator\": \"GATHER\", \"Axis\": 0, $G1, $IDX}"
meaning lone_high_then_other 'the string at "name" holds a lone surrogate escape: a high surrogate' \
    "{\"name\": \"\\ud83d\\u0041\", \"operator\": \"GATHER\", \"Axis\": 0, $G1, $IDX}"
meaning lone_low 'the string at "description" holds a lone surrogate escape: a low surrogate' \
    "{\"description\": \"\\uDE00\\uD83D\", \"operator\": \"GATHER\", \"Axis\": 0, $G1, $IDX}"
meaning lone_key 'the key at "comment.\uDC00" holds a lone surrogate escape: a low surrogate' \
    "{\"comment\": {\"\\uDC00\": 1}, \"operator\": \"GATHER\", \"Axis\": 0, $G1, $IDX}"
# json-c read both keys below as U+FFFD: one key to it (the later value won), two to Python;
# a repeated key does not hide the lone surrogate's path (it once emptied it)
meaning lone_dup 'the key at "comment.\uD800" holds a lone surrogate escape' \
    "{\"comment\": {\"\\uD800\": 1, \"\\uFFFD\": 2}, \"operator\": \"GATHER\", \"Axis\": 0, $G1, $IDX}"
meaning dup_then_lone 'line 1, column 32: the key at "comment.b\uD800" holds a lone surrogate escape' \
    "{\"comment\": {\"a\": 1, \"a\": 2, \"b\\uD800\": 3}, \"operator\": \"GATHER\", \"Axis\": 0, $G1, $IDX}"
# a pair is one character, escaped or not; \u0001 is an ordinary character (json-c's reader refused
# it: it marked numbers with it)
printf '%s\n' "{\"comment\": \"\\uD83D\\uDE00 \\ud83d\\ude00 $(printf '\360\237\230\200') \\u0001\", \"operator\": \"GATHER\", \"Axis\": 0, $G1, $IDX}" >"$tmp/pair.json"
expect 0 "surrogate pairs, escaped and literal, and \\u0001 accepted" "$D" run "$tmp/pair.json"
# nesting is limited (64 levels), without recursion: 100000 brackets are a message
"$PYTHON" -c 'import sys; sys.stdout.write("[" * 100000)' >"$tmp/deep.json"
expect 3 "100000 nested brackets refused" "$D" validate "$tmp/deep.json"
contains "$tmp/err" "deep.json: not JSON: line 1: nesting deeper than 64 levels" "100000 nested brackets: message"

# ---- strict UTF-8 (RFC 3629) over the raw bytes (issue 23, item 5) ----------------
# json-c's check (the reader's parser then) let overlong forms and encoded surrogates through;
# Python's reader refuses them.  Each bad sequence in a key, in a string value and in an ignorable field, refused
# with its byte offset.
for bad in overlong_c0af:'\300\257' overlong_e080af:'\340\200\257' surrogate_eda080:'\355\240\200' \
           surrogate_edbfbf:'\355\277\277' above_10ffff:'\364\220\200\200' five_bytes:'\370\210\200\200\200' \
           lone_continuation:'\200' cut_short:'\342\202'; do
    name=${bad%%:*} seq=${bad#*:}
    printf "{\"comment\": \"$seq\", \"operator\": \"GATHER\", \"Axis\": 0, $G1, $IDX}\n" >"$tmp/u8_comment.json"
    printf "{\"comment\": {\"a$seq\": 1}, \"operator\": \"GATHER\", \"Axis\": 0, $G1, $IDX}\n" >"$tmp/u8_key.json"
    printf "{\"operator\": \"GATHER\", \"name\": \"x$seq\", \"Axis\": 0, $G1, $IDX}\n" >"$tmp/u8_name.json"
    printf "{\"operator\": \"GATHER\", \"Axis$seq\": 0, $G1, $IDX}\n" >"$tmp/u8_field.json"
    for where in comment:13 key:15 name:33 field:28; do
        w=${where%%:*} off=${where#*:}
        expect 3 "UTF-8 $name in $w refused" "$D" validate "$tmp/u8_$w.json"
        contains "$tmp/err" "not UTF-8: byte offset $off (line 1, column $((off + 1)))" "UTF-8 $name in $w: message"
    done
done
printf '{"comment": "\302\200 \337\277 \340\240\200 \355\237\277 \356\200\200 \357\277\277 \360\220\200\200 \364\217\277\277", "operator": "GATHER", "Axis": 0, %s, %s}\n' "$G1" "$IDX" >"$tmp/u8_edges.json"
expect 0 "UTF-8 at the edges of each form accepted" "$D" run "$tmp/u8_edges.json"

# ---- validate --json: status, rule id and field apart from the message -----
jq_py='import json,sys
v = json.load(sys.stdin)
print(v["valid"], v.get("status", ""), v.get("rule", ""), v.get("field", ""), v.get("message", "")[:24])'
verdict() { # FILE EXPECTED-LINE-PREFIX
    "$D" validate --json "$1" >"$tmp/v.json" 2>"$tmp/err"
    line=$(py -c "$jq_py" <"$tmp/v.json" 2>&1)
    case "$line" in "$2"*) ok ;; *) no "validate --json $1: '$line', wanted '$2'" ;; esac
}
verdict "$CASES/bad/e2_axis.json" "False DMLREF_ERROR_PARAMETER G3 Axis GATHER: Axis (1) must"
verdict "$CASES/bad/e2_dimension_count.json" "False DMLREF_ERROR_DIMENSION_COUNT G1 IndicesTensor.DimensionCount"
verdict "$CASES/bad/e2_join_empty.json" "False DMLREF_ERROR_PARAMETER J1 InputCount"
verdict "$CASES/bad/e2_output_overlap.json" "False DMLREF_ERROR_OUTPUT_OVERLAP T15 OutputTensor.Strides"
verdict "$CASES/bad/e2_total_too_small.json" "False DMLREF_ERROR_TENSOR_SIZE T13 InputTensor.TotalTensorSizeInBytes"
verdict "$CASES/bad/e2_feature_level.json" "False DMLREF_ERROR_UNSUPPORTED_OPERATOR   GATHER_ELEMENTS: not ava"
verdict "$CASES/bad/e7_cannot_verify.json" "False DMLREF_ERROR_CANNOT_VERIFY T15 OutputTensor.Strides"
verdict "$CASES/gather_doc1.json" "True"
expect 2 "validate --json exits 2 when invalid" "$D" validate --json "$CASES/bad/e2_axis.json"
expect 3 "validate --json: a malformed file is still reported on stderr" "$D" validate --json "$CASES/bad/e3_unknown_key.json"
if [ -s "$tmp/out" ]; then no "validate --json printed a verdict for a malformed file"; else ok; fi
# several cases: one line each, naming it; a malformed one only on stderr; the first failing status
expect 2 "validate three cases" "$D" validate "$CASES/join_doc1.json" "$CASES/bad/e2_axis.json" --feature-level 4_1 \
    "$CASES/bad/e3_unknown_key.json" "$CASES/gather_doc1.json"
[ "$(cat "$tmp/out")" = "$CASES/join_doc1.json: valid
$CASES/bad/e2_axis.json: GATHER: Axis (1) must be in [0, InputTensor.DimensionCount) = [0, 1)
$CASES/gather_doc1.json: valid" ] && ok || no "validate of several cases prints: $(cat "$tmp/out")"
contains "$tmp/err" "e3_unknown_key.json" "validate of several cases: the malformed one on stderr"
expect 3 "validate: a malformed case first" "$D" validate "$CASES/bad/e3_unknown_key.json" "$CASES/bad/e2_axis.json"
expect 0 "validate two valid cases" "$D" validate "$CASES/join_doc1.json" "$CASES/gather_doc1.json"
expect 2 "validate --json of several cases" "$D" validate --json "$CASES/gather_doc1.json" "$CASES/bad/e2_axis.json"
py -c 'import json, sys
v = [json.loads(l) for l in open(sys.argv[1])]
assert [(x["case"], x["valid"], x.get("rule")) for x in v] == [(sys.argv[2], True, None), (sys.argv[3], False, "G3")], v' \
    "$tmp/out" "$CASES/gather_doc1.json" "$CASES/bad/e2_axis.json" 2>"$tmp/err" && ok || no "validate --json of several cases: $(cat "$tmp/out")"

# ---- hostile doors (issue 23): outputs over inputs, a full stdout, what is wrong said plainly ----
# an output file that is (or links to) an input of the same command is refused before anything is
# written: exit 5, naming both; the input stays as it was
mkdir -p "$tmp/io" "$tmp/io_elsewhere"
cp "$tmp/npyin/in_v1.npy" "$tmp/io/OutputTensor.npy"
cp "$tmp/npyin/in_v1.npy" "$tmp/io_elsewhere/data.npy"
ioc() { # FILE NPY-REFERENCE
    cat >"$1" <<JSON
{"operator": "GATHER", "Axis": 1, "IndexDimensions": 1,
 "InputTensor": {"DataType": "INT64", "Sizes": [3, 4], "npy": "$2"},
 "IndicesTensor": {"DataType": "UINT32", "Sizes": [1, 2], "data": [2, 0]},
 "OutputTensor": {"DataType": "INT64", "Sizes": [3, 2]}}
JSON
}
ioc "$tmp/io/case.json" OutputTensor.npy
expect 5 "run --npy over the case's npy input" "$D" run "$tmp/io/case.json" --npy "$tmp/io"
contains "$tmp/err" "dmlref: $tmp/io/OutputTensor.npy: the output would overwrite an input of this command ($tmp/io/OutputTensor.npy); nothing written" "run --npy over an input: both named"
if cmp -s "$tmp/npyin/in_v1.npy" "$tmp/io/OutputTensor.npy"; then ok; else no "run --npy over an input changed the input"; fi
expect 0 "the case still runs" "$D" run "$tmp/io/case.json"
# the same file by another spelling of the directory
expect 5 "run --npy io/../io over the case's npy input" "$D" run "$tmp/io/case.json" --npy "$tmp/io/../io/"
# --logical writes <T>.logical.npy: an input by that name
cp "$tmp/npyin/in_v1.npy" "$tmp/io/OutputTensor.logical.npy"
ioc "$tmp/io/case_l.json" OutputTensor.logical.npy
expect 5 "run --logical --npy over the case's npy input" "$D" run "$tmp/io/case_l.json" --logical --npy "$tmp/io"
expect 0 "run --npy (whole buffers) beside that input" "$D" run "$tmp/io/case_l.json" --npy "$tmp/io/sub"
# an output path that is a symbolic link to the input
mkdir -p "$tmp/io_link"
ln -s "$tmp/io_elsewhere/data.npy" "$tmp/io_link/OutputTensor.npy"
ioc "$tmp/io_elsewhere/case.json" data.npy
expect 5 "run --npy where the output is a link to the input" "$D" run "$tmp/io_elsewhere/case.json" --npy "$tmp/io_link"
contains "$tmp/err" "($tmp/io_elsewhere/data.npy)" "run --npy over a link to an input: the input named"
if [ -L "$tmp/io_link/OutputTensor.npy" ] && cmp -s "$tmp/npyin/in_v1.npy" "$tmp/io_elsewhere/data.npy"; then ok
else no "run --npy over a link to an input changed the link or the input"; fi
# the case file itself under an output's name
mkdir -p "$tmp/io_self"
cp "$CASES/gather_doc1.json" "$tmp/io_self/OutputTensor.npy"
expect 5 "run --npy over the case file" "$D" run "$tmp/io_self/OutputTensor.npy" --npy "$tmp/io_self"
if cmp -s "$CASES/gather_doc1.json" "$tmp/io_self/OutputTensor.npy"; then ok; else no "run --npy replaced the case file"; fi

# a failed write to standard output: exit 5 and a message, for every command that prints
for args in "--version" "--help" "run --help" "validate --help" "bench --help" "gen --help" "export --help" \
            "run $CASES/gather_doc1.json" "run $CASES/gather_doc1.json --logical" "validate $CASES/gather_doc1.json" \
            "validate --json $CASES/gather_doc1.json" "validate $CASES/bad/e2_axis.json" \
            "validate --json $CASES/bad/e2_axis.json" "bench $CASES/gather_doc1.json --repeat 1"; do
    # shellcheck disable=SC2086 # the words of $args are the arguments
    repro_note "$D" $args
    # shellcheck disable=SC2086
    "$D" $args >/dev/full 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 5 ]; then ok; else no "dmlref $args >/dev/full: exit $rc, wanted 5"; fi
    contains "$tmp/err" "dmlref: cannot write standard output: No space left on device" "dmlref $args >/dev/full: message"
done
# commands that print nothing on success are not troubled by it
expect 0 "run --npy with stdout at /dev/full" sh -c '"$1" run "$2" --npy "$3" >/dev/full' sh "$D" "$CASES/gather_doc1.json" "$tmp/full_npy"
expect 0 "gen with stdout at /dev/full" sh -c '"$1" gen --operator JOIN --count 1 --seed 1 --out "$2" >/dev/full' sh "$D" "$tmp/full_gen"
expect 0 "export with stdout at /dev/full" sh -c '"$1" export "$2" --out "$3" >/dev/full' sh "$D" "$CASES/gather_doc1.json" "$tmp/full_export"
# a closed standard output is a failed write too
expect 5 "validate with stdout closed" sh -c '"$1" validate "$2" >&-' sh "$D" "$CASES/gather_doc1.json"
contains "$tmp/err" "dmlref: cannot write standard output: Bad file descriptor" "validate with stdout closed: message"

# a top-level literal without a trailing newline is a value like any other
for top in "null:got null" "true:got a boolean" "false:got a boolean" "42:got a number"; do
    printf '%s' "${top%:*}" >"$tmp/top_nonl.json"
    expect 3 "run a case file holding ${top%:*} (no newline)" "$D" run "$tmp/top_nonl.json"
    contains "$tmp/err" "top_nonl.json: the case must be a JSON object, ${top##*:}" "message for ${top%:*} without a newline"
done
printf 'nul' >"$tmp/top_nonl.json"
expect 3 "run a case file holding nul" "$D" run "$tmp/top_nonl.json"
contains "$tmp/err" "top_nonl.json: not JSON: line 1: unexpected end of data" "message for nul"
# a directory as the case file, and as an npy input
mkdir -p "$tmp/dir.json" "$tmp/io_dir/dir.npy"
expect 3 "run a directory named dir.json" "$D" run "$tmp/dir.json"
contains "$tmp/err" "dmlref: cannot read $tmp/dir.json: Is a directory" "a directory as the case file: why"
ioc "$tmp/io_dir/case.json" dir.npy
expect 3 "run a case whose npy input is a directory" "$D" run "$tmp/io_dir/case.json"
contains "$tmp/err" "InputTensor.npy: $tmp/io_dir/dir.npy: cannot read: Is a directory" "a directory as an npy input: why"
# --npy at a dangling symbolic link, a link loop, and below them
ln -s "$tmp/nowhere" "$tmp/dangling"
ln -s "$tmp/loop" "$tmp/loop"
expect 5 "run --npy at a dangling link" "$D" run "$CASES/gather_doc1.json" --npy "$tmp/dangling"
contains "$tmp/err" "cannot create $tmp/dangling: a dangling symbolic link is in the way" "--npy at a dangling link: why"
expect 5 "run --npy below a dangling link" "$D" run "$CASES/gather_doc1.json" --npy "$tmp/dangling/sub"
contains "$tmp/err" "cannot create $tmp/dangling: a dangling symbolic link is in the way" "--npy below a dangling link: why"
expect 5 "run --npy at a link loop" "$D" run "$CASES/gather_doc1.json" --npy "$tmp/loop"
contains "$tmp/err" "cannot create $tmp/loop: Too many levels of symbolic links" "--npy at a link loop: why"
[ -e "$tmp/nowhere" ] && no "--npy at a dangling link created its target" || ok
# bench: a bad library variable is a bad command line (exit 4, docs/environment.md), as for run
# and export; bench said 5 (an execution failure)
expect 4 "bench with DMLREF_PAR_GRAIN=-1" env DMLREF_PAR_GRAIN=-1 "$D" bench "$CASES/gather_doc1.json" --repeat 1
contains "$tmp/err" 'DMLREF_PAR_GRAIN has the value "-1"' "bench names the bad variable"
expect 4 "bench with DMLREF_FORCE_ORACLE=2" env DMLREF_FORCE_ORACLE=2 "$D" bench "$CASES/gather_doc1.json" --repeat 1 --run
contains "$tmp/err" 'DMLREF_FORCE_ORACLE has the value "2"' "bench --run names the bad variable"
if [ -s "$tmp/out" ]; then no "bench with a bad variable printed a result"; else ok; fi
# gen: an empty --out or --suite is a bad command line (4), as run's --npy= and export's --out=;
# --suite= wrote /small, /large and /bits at the root (exit 0), --out= said "cannot create : ..." (5)
expect 4 "gen --out=" "$D" gen --operator GATHER --count 1 --seed 1 --out=
contains "$tmp/err" "dmlref gen: --out needs a directory" "gen --out= says what is missing"
expect 4 "gen --suite=" "$D" gen --suite= --seed 1 --operator GATHER --count 0 --large-count 0 --bits-count 0
contains "$tmp/err" "dmlref gen: --suite needs a directory" "gen --suite= says what is missing"
expect 4 "gen --suite ''" "$D" gen --suite "" --seed 1 --operator GATHER --count 0 --large-count 0 --bits-count 0
# more operators than gen keeps: said so, not "unknown operator 'GATHER'"
ops65=GATHER
for i in $(seq 64); do ops65="$ops65,GATHER"; done
expect 4 "gen --operator with 65 names" "$D" gen --operator "$ops65" --count 1 --seed 1 --out "$tmp/g65"
contains "$tmp/err" "dmlref gen: --operator names more than 64 operators" "gen: 65 names"
if grep -q "unknown operator" "$tmp/err"; then no "gen called GATHER unknown"; else ok; fi

# ---- host limits: the verdict never depends on the host --------------------
# A valid SPLIT whose input claims 2^32 + 4 bytes (more than the 4 elements
# need, which is allowed).  With the default 4 GiB limit every host refuses
# to allocate it (exit 3, the same message); the descriptor itself is valid
# everywhere.  With the limit raised, a 32-bit host cannot address the buffer:
# exit 6 (valid, but too large for this host), never 2 (invalid).  A 64-bit
# host would allocate 4 GiB there, so that half runs on 32-bit hosts only.
cat >"$tmp/host_limit.json" <<'EOF'
{"operator": "SPLIT", "Axis": 0,
 "InputTensor": {"DataType": "UINT8", "Sizes": [4], "TotalTensorSizeInBytes": 4294967300, "data": [1, 2, 3, 4]},
 "OutputTensors": [{"DataType": "UINT8", "Sizes": [4]}]}
EOF
expect 3 "validate host_limit.json (default memory limit)" "$D" validate "$tmp/host_limit.json"
contains "$tmp/err" "InputTensor: TotalTensorSizeInBytes 4294967300 (aligned to 64) would take the case's buffers beyond the limit of 4294967296 bytes" "host_limit.json: the limit message, not a verdict"
# ---- "derive_output_sizes": the outputs' Sizes from the library (dmlref_output_sizes) ----
printf '%s\n' '{"operator": "GATHER", "Axis": 0, "IndexDimensions": 1, "derive_output_sizes": true,
 "InputTensor": {"DataType": "FLOAT32", "Sizes": [4], "data": [11, 12, 13, 14]},
 "IndicesTensor": {"DataType": "UINT32", "Sizes": [5], "data": [3, 1, 3, 0, 2]},
 "OutputTensor": {"DataType": "FLOAT32"},
 "expected": {"OutputTensor": [14, 12, 14, 11, 13]}}' >"$tmp/derive_gather.json"
expect 0 "derive_output_sizes: GATHER's output Sizes derived" "$D" run "$tmp/derive_gather.json"
contains "$tmp/out" '"Sizes": [5]' "derive_output_sizes: GATHER's Sizes"
# SPLIT: each output's Sizes is the placeholder that gives its share of Axis
printf '%s\n' '{"operator": "SPLIT", "Axis": 0, "derive_output_sizes": true,
 "InputTensor": {"DataType": "INT8", "Sizes": [5, 2], "data": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]},
 "OutputTensors": [{"DataType": "INT8", "Sizes": [2, 7]}, {"DataType": "INT8", "Sizes": [3, 9]}],
 "expected": {"OutputTensors": [[1, 2, 3, 4], [5, 6, 7, 8, 9, 10]]}}' >"$tmp/derive_split.json"
expect 0 "derive_output_sizes: SPLIT's placeholders" "$D" run "$tmp/derive_split.json"
contains "$tmp/out" '"Sizes": [3, 2]' "derive_output_sizes: SPLIT's second Sizes"
# without the placeholder SPLIT needs: the library's message (exit 2)
sed 's/, "Sizes": \[2, 7\]//' "$tmp/derive_split.json" >"$tmp/derive_split_bad.json"
expect 2 "derive_output_sizes: SPLIT without a placeholder" "$D" run "$tmp/derive_split_bad.json"
contains "$tmp/err" 'OutputTensors[0].DimensionCount (0) must be in [1, 8]' "derive_output_sizes: SPLIT's message"
sed 's/"DataType": "FLOAT32"}/"DataType": "FLOAT32", "Strides": [1]}/' "$tmp/derive_gather.json" >"$tmp/derive_strides.json"
expect 3 "derive_output_sizes: an output's Strides refused" "$D" run "$tmp/derive_strides.json"
contains "$tmp/err" 'OutputTensor: Strides is not given with "derive_output_sizes"' "derive_output_sizes: Strides message"
sed 's/"derive_output_sizes": true/"derive_output_sizes": 1/' "$tmp/derive_gather.json" >"$tmp/derive_one.json"
expect 3 "derive_output_sizes: not a boolean" "$D" run "$tmp/derive_one.json"
contains "$tmp/err" 'derive_output_sizes: expected true or false, got a number' "derive_output_sizes: type message"
sed 's/"derive_output_sizes": true/"derive_output_sizes": false/' "$tmp/derive_gather.json" >"$tmp/derive_off.json"
expect 3 "derive_output_sizes: false needs Sizes" "$D" run "$tmp/derive_off.json"
contains "$tmp/err" 'OutputTensor: missing Sizes' "derive_output_sizes: false message"

host_bits=$("$D" --version | sed -n 's/.*host: \([0-9]*\)-bit.*/\1/p')
case "$host_bits" in
32)
    DMLREF_MAX_BYTES=8589934592 expect 6 "run host_limit.json on a 32-bit host" "$D" run "$tmp/host_limit.json"
    contains "$tmp/err" "InputTensor: TotalTensorSizeInBytes 4294967300 is valid but larger than this host can address (SIZE_MAX 4294967295)" "host_limit.json: exit 6 message"
    if [ -s "$tmp/out" ]; then no "host_limit.json printed outputs"; else ok; fi
    DMLREF_MAX_BYTES=8589934592 expect 6 "validate host_limit.json on a 32-bit host" "$D" validate "$tmp/host_limit.json"
    ;;
64)
    echo "cli: SKIP: exit status 6 needs a 32-bit host (this one is 64-bit)"
    skipped=$((skipped + 1))
    ;;
*)
    no "dmlref --version does not say the host's word size"
    ;;
esac

if [ "$skipped" -gt 0 ]; then echo "cli: $pass passed, $fail failed, $skipped skipped"
else echo "cli: $pass passed, $fail failed"; fi
[ "$fail" -eq 0 ]
