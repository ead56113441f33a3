#!/bin/sh
# dmlref check (docs/cli.md, "dmlref check"; docs/testing-your-backend.md, "The result taxonomy"):
# planted-bug stand-in backends (tests/check/planted.py) over small generated suites.  For every
# bug kind: found (at least one case fails), classified as expected, and the first failing case
# of that class shrunk to at most 16 elements; the minimal case validates, runs, and its repro
# line fails the same way again.  Then: the correct backend passes everything (every operator),
# a type the backend does not support is type-unsupported (exit 0), a crash, a garbage .npy, a
# FIFO, a wrong dtype and a hang are backend-error with a reason (exit 1), unaddressed bytes of a
# whole buffer are unaddressed-bytes (exit 0), a manifest's "expressible" reason is
# not-expressible, --junit writes XML that parses, a bad command line is exit 4.
# Environment: BUILD (default build), PYTHON (default /usr/bin/python3).
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
D="$(pwd)/$BUILD/dmlref"
P="$PYTHON $(pwd)/tests/check/planted.py"
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
no() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    [ -s "$tmp/log" ] && sed 's/^/    /' "$tmp/log" | tail -n 12
}
if [ ! -x "$D" ]; then
    echo "check: $D is missing (make BUILD=$BUILD cli)"
    echo "check: 0 passed, 1 failed"
    exit 1
fi
ROOT=$(pwd)
cd "$tmp" || exit 1

# ---- the suites ------------------------------------------------------------------------------
gen() { "$D" gen --seed 5 "$@" >/dev/null 2>"$tmp/log" || no "dmlref gen $*"; }
gen --operator GATHER --count 30 --out s/gather
gen --operator PADDING,PADDING1 --count 30 --out s/pad
gen --operator GATHER,TILE --bits --data-types FLOAT16 --count 8 --out s/f16
gen --operator ELEMENT_WISE_IDENTITY,JOIN --bits --data-types FLOAT32 --count 8 --out s/f32
gen --operator TILE,GATHER --bits --data-types INT64,UINT64 --count 8 --out s/i64
gen --operator ELEMENT_WISE_IDENTITY --count 20 --out s/ident
gen --operator JOIN --count 20 --out s/join
gen --operator ALL --count 2 --out s/all

# ---- each planted bug: found, classified, shrunk to <= 16 elements, reproduced -----------------
for spec in "axis-off-by-one gather other" "negative-not-wrapped gather other" "clamp-not-wrap pad other" \
    "f16-nan-canonical f16 nan-payload" "zero-sign-lost f32 zero-sign" "int64-53bit i64 int64-53bit" \
    "strides-ignored ident other" "join-last-dropped join other"; do
    set -- $spec
    bug=$1 suite=$2 class=$3
    "$D" check --min "min_$bug" --backend "$P --bug $bug {case} {out}" "s/$suite" >"$tmp/log" 2>&1
    rc=$?
    found=$(grep -c "^$class s/" "$tmp/log")
    total=$(ls "s/$suite" | wc -l)
    line=$(grep "^shrink $class: " "$tmp/log")
    after=$(echo "$line" | sed -n 's/.* -> .* (\([0-9]*\) elements) in .*/\1/p')
    before=$(echo "$line" | sed -n 's/^shrink [a-z0-9-]*: [^ ]* (\([0-9]*\) elements) -> .*/\1/p')
    runs=$(echo "$line" | sed -n 's/.* in \([0-9]*\) backend runs: .*/\1/p')
    min=$(echo "$line" | sed -n 's/.* -> \([^ ]*\) (.*/\1/p')
    echo "planted $bug: found in $found of $total cases, class $class, shrunk ${before:-?} -> ${after:-?} elements in ${runs:-?} backend runs ($min)"
    [ $rc -eq 1 ] && [ "$found" -gt 0 ] && ok || no "$bug: check exit $rc (want 1), $found cases of class $class"
    [ -n "$after" ] && [ "$after" -le 16 ] && ok || no "$bug: shrunk to ${after:-nothing} elements (want <= 16)"
    # the minimal case validates and runs (dmlref computes its outputs), and its repro fails the same way
    if [ -n "$min" ] && "$D" validate "$min" >/dev/null 2>&1 && "$D" run "$min" >/dev/null 2>&1 &&
        grep -q "^repro: dmlref run $min\$" "$tmp/log"; then ok; else no "$bug: the minimal case $min does not run"; fi
    repro=$(grep '^repro: mkdir' "$tmp/log" | head -n 1 | sed 's/^repro: //')
    [ -n "$repro" ] && sh -c "$repro" >/dev/null 2>&1 && ok || no "$bug: the repro line fails to run: $repro"
    # the exported minimal case, checked again, fails the same way
    "$D" check --no-shrink --backend "$P --bug $bug {case} {out}" "${min%.json}" >"$tmp/log" 2>&1
    grep -q "^$class ${min%.json}: " "$tmp/log" && ok || no "$bug: the minimal case is not $class again"
done

# ---- the correct backend: every operator passes ------------------------------------------------
n=$(ls s/all | wc -l)
"$D" check --backend "$P --bug none {case} {out}" s/all >"$tmp/log" 2>&1
rc=$?
# a case export gives no framework form (a RESAMPLE2 crop: cli/framework.c) is not-expressible, skipped
k=$(grep -c '^not-expressible s/all/' "$tmp/log")
[ $rc -eq 0 ] && grep -q "^check: $((n - k)) passed, 0 failed, $k skipped$" "$tmp/log" && ! [ -e check-min ] && ok || no "the correct backend over every operator"
# exported directories are taken as they are, and --junit
for f in s/all/*.json; do "$D" export "$f" --out "exp/$(basename "$f" .json)" >/dev/null 2>&1 || no "export $f"; done
"$D" check --junit junit.xml --backend "$P --bug none {case} {out}" exp >"$tmp/log" 2>&1 &&
    grep -q "^check: $((n - k)) passed, 0 failed" "$tmp/log" && ok || no "the correct backend over exported directories"
"$PYTHON" -c "import xml.etree.ElementTree as E, sys; s = E.parse('junit.xml').getroot()[0]; sys.exit(0 if s.get('tests') == '$n' and s.get('failures') == '0' else 1)" && ok || no "junit.xml of a passing run"

# ---- type-unsupported, backend errors, hostile outputs ------------------------------------------
"$D" gen --operator GATHER --count 1 --seed 9 --data-types FLOAT64 --out s/f64 >/dev/null
"$D" check --backend "$P --bug no-float64 {case} {out}" s/f64 >"$tmp/log" 2>&1
[ $? -eq 0 ] && grep -q "^type-unsupported s/f64/.*: planted: FLOAT64 is not supported$" "$tmp/log" && ok || no "exit 77 is type-unsupported (exit 0)"
"$D" check --backend "echo 'no int8 here' > {out}/UNSUPPORTED" s/f64 >"$tmp/log" 2>&1
[ $? -eq 0 ] && grep -q "^type-unsupported s/f64/.*: no int8 here$" "$tmp/log" && ok || no "{out}/UNSUPPORTED is type-unsupported"
one=s/gather/gen_gather_5_0.json
expect_error() { # what, backend, message pattern
    "$D" check --no-shrink --timeout 2 --backend "$2" $one >"$tmp/log" 2>&1
    rc=$?
    [ $rc -eq 1 ] && grep -q "^backend-error $one: $3" "$tmp/log" && ok || no "$1: exit $rc, want 1 and backend-error: $3"
}
expect_error "a crash" "$P --bug crash {case} {out}" "exit status 3: planted: crashing on purpose$"
expect_error "a garbage .npy" "$P --bug garbage {case} {out}" "OutputTensor.npy: not a .npy file"
expect_error "no output" "true" "OutputTensor.npy: missing$"
expect_error "a FIFO" "mkfifo {out}/OutputTensor.npy" "OutputTensor.npy: not a regular file$"
expect_error "a wrong dtype" "$PYTHON -c 'import numpy, sys; numpy.save(sys.argv[1] + \"/OutputTensor.npy\", numpy.zeros(3, \"<f8\"))' {out}" \
    "OutputTensor.npy: dtype '<f8', expected '<"
expect_error "a wrong element count" "$PYTHON -c 'import numpy as n, sys; a = n.load(sys.argv[1]).reshape(-1); n.save(sys.argv[2], n.concatenate([a, a, a]))' {case}/OutputTensor.logical.npy {out}/OutputTensor.npy" \
    "OutputTensor.npy: [0-9]* elements, expected [0-9]* (or the whole buffer's [0-9]*)$"
expect_error "a hang" "sleep 30" "timed out after 2 s$"
expect_error "a signal" "kill -9 \$\$" "killed by signal 9$"
# a backend that overwrites the golden file in {case} does not change what it is compared with
"$D" check --no-shrink --backend "cp {case}/OutputTensor.logical.npy {out}/OutputTensor.npy" $one >"$tmp/log" 2>&1 &&
    grep -q "^check: 1 passed, 0 failed" "$tmp/log" && ok || no "a backend copying the expected file passes"
"$D" check --no-shrink --backend "$PYTHON -c 'import numpy as n, sys; a = n.load(sys.argv[1]); b = n.zeros_like(a) + 7; n.save(sys.argv[1], b); n.save(sys.argv[2], b)' {case}/OutputTensor.logical.npy {out}/OutputTensor.npy" $one >"$tmp/log" 2>&1
[ $? -eq 1 ] && grep -q "^other $one: " "$tmp/log" && ok || no "a backend that overwrites the golden file still fails"
# the backend failure is shrunk too, and the shrunk case fails the same way
"$D" check --min min_crash --backend "$P --bug crash {case} {out}" $one >"$tmp/log" 2>&1
grep -q "^shrink backend-error: $one (.*) -> min_crash/gather_0000.json (" "$tmp/log" && ok || no "a backend-error is shrunk"

# a case DirectML leaves open (an index out of range, clamped by dmlref) is classified, not shrunk
cat >oor.json <<'EOF2'
{"operator": "GATHER", "Axis": 0, "IndexDimensions": 1,
 "InputTensor": {"DataType": "FLOAT32", "Sizes": [3], "data": [1, 2, 3]},
 "IndicesTensor": {"DataType": "INT32", "Sizes": [2], "data": [5, -1]},
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2]}}
EOF2
"$D" check --backend "$P --bug crash {case} {out}" oor.json >"$tmp/log" 2>&1
[ $? -eq 1 ] && grep -q "^shrink backend-error: oor.json: has an out-of-range index .*: not shrunk$" "$tmp/log" && ok || no "an out-of-range index: not shrunk"

# ---- unaddressed bytes: the whole buffer back, gaps changed; not-expressible -------------------
cat >whole.py <<'PY'
import json, os, sys
import numpy as np
d, out = sys.argv[1:]
for t in json.load(open(d + "/manifest.json"))["outputs"]:
    buf = np.load(os.path.join(d, t["buffer"]))
    keep = np.zeros(buf.size, bool)
    keep[np.load(os.path.join(d, t["slots"])).reshape(-1).astype(np.int64)] = True
    buf.view("u%d" % buf.itemsize)[~keep] = 0  # the gaps, not dmlref's 0xCD
    np.save(os.path.join(out, t["name"] + ".npy"), buf)
PY
gaps=$(grep -l '"gaps": true' s/ident/*.json | head -n 1)
"$D" check --backend "$PYTHON whole.py {case} {out}" "$gaps" >"$tmp/log" 2>&1
[ $? -eq 0 ] && grep -q "^unaddressed-bytes $gaps: OutputTensor: [0-9]* of [0-9]* unaddressed slots differ$" "$tmp/log" && ok || no "unaddressed-bytes"
"$D" export $one --out ne >/dev/null 2>&1
"$PYTHON" -c "
import json; m = json.load(open('ne/manifest.json')); m['expressible'] = {'onnx': 'no such mode', 'webnn': True}
json.dump(m, open('ne/manifest.json', 'w'))"
"$D" check --form onnx --backend "false" ne >"$tmp/log" 2>&1
[ $? -eq 0 ] && grep -q "^not-expressible ne: onnx: no such mode$" "$tmp/log" && ok || no "not-expressible (--form onnx)"
"$D" check --form webnn --backend "$P --bug none {case} {out}" ne >"$tmp/log" 2>&1 && grep -q "^check: 1 passed" "$tmp/log" && ok || no "expressible (--form webnn)"

# undefined elements (NONZERO_COORDINATES' rows past the count; the manifest's defined_elements):
# a backend that writes anything there passes, one with a wrong defined row fails (other)
cat >nz.py <<'PY'
import sys
import numpy as np
d, out, how = sys.argv[1:]
np.save(out + "/OutputCountTensor.npy", np.load(d + "/OutputCountTensor.logical.npy"))
co = np.load(d + "/OutputCoordinatesTensor.logical.npy").copy()
if how == "past":
    co.reshape(-1)[12:] = 0xDEADBEEF  # the doc case: count 4, N 3
else:
    co.reshape(-1)[11] ^= 1  # the last defined component
np.save(out + "/OutputCoordinatesTensor.npy", co)
PY
"$D" check --no-shrink --backend "$PYTHON nz.py {case} {out} past" "$ROOT/tests/cases/nonzero_coordinates_doc1.json" >"$tmp/log" 2>&1 &&
    grep -q "^check: 1 passed, 0 failed" "$tmp/log" && ok || no "NONZERO rows past the count are not compared"
"$D" check --no-shrink --backend "$PYTHON nz.py {case} {out} row" "$ROOT/tests/cases/nonzero_coordinates_doc1.json" >"$tmp/log" 2>&1
[ $? -eq 1 ] && grep -q "^other .*OutputCoordinatesTensor: 1 of 24 elements differ, first at \[11\]" "$tmp/log" && ok ||
    no "NONZERO a wrong defined row fails"

# gen --suite's subdirectories are searched
"$D" gen --suite gs --operator JOIN --seed 3 --count 2 --large-count 1 --bits-count 1 >/dev/null 2>&1
"$D" check --backend "$P --bug none {case} {out}" gs >"$tmp/log" 2>&1 && grep -q "^check: 4 passed, 0 failed" "$tmp/log" && ok || no "gen --suite DIR as one PATH"

# ---- the command line --------------------------------------------------------------------------
"$D" check s/gather >"$tmp/log" 2>&1; [ $? -eq 4 ] && ok || no "no --backend: exit 4"
"$D" check --backend true >"$tmp/log" 2>&1; [ $? -eq 4 ] && ok || no "no PATH: exit 4"
"$D" check --backend true --max-runs 0 s/gather >"$tmp/log" 2>&1; [ $? -eq 4 ] && ok || no "--max-runs 0: exit 4"
"$D" check --backend true nothing-here >"$tmp/log" 2>&1; [ $? -eq 3 ] && ok || no "a missing PATH: exit 3"
"$D" check --help | grep -q "^usage: dmlref check" && ok || no "check --help"

echo "check: $pass passed, $fail failed"
[ $fail -eq 0 ]
