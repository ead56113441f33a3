#!/bin/sh
# dmlref export --onnx, --webnn and batch export (docs/cli.md, "dmlref export";
# docs/testing-your-backend.md, "ONNX and WebNN forms"): every documented case and a generated
# suite of all operators (two seeds, plain and bits flavours) exported in one batch; with
# python3-onnx, onnx.checker passes on every model whose opset it knows and the TensorProto
# files hold the logical views bit for bit (tests/export/check_onnx.py); a numpy interpreter of
# the WebNN form reproduces every expected output bit for bit (tests/export/run_webnn.py); with
# onnxruntime-node (ORT_NODE, or a package node resolves) ONNX Runtime runs every model and
# matches bit for bit except its known divergences (tests/export/run_ort.mjs); the cases ONNX
# and WebNN cannot express, with their reasons; gen --expressible; the bytes pinned (sha256),
# so a host that writes other bytes fails.  A check whose tool is missing is a skip, printed
# with the reason, never a pass.
# Environment: BUILD (default build), PYTHON (default /usr/bin/python3), ORT_NODE.
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
D="$BUILD/dmlref"
CASES=tests/cases
pass=0
fail=0
skipped=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$D" ]; then
    echo "export_onnx: $D is missing (make BUILD=$BUILD cli)"
    echo "export_onnx: 0 passed, 1 failed"
    exit 1
fi
repro_suite=export_onnx
. tests/repro.sh # repro_note, repro_print: the "repro: ..." line of a failure
ok() { pass=$((pass + 1)); }
no() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    [ -s "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err" | head -n 5
    repro_print
}
skip() {
    skipped=$((skipped + 1))
    echo "SKIP: $*"
}
expect() { # STATUS DESCRIPTION COMMAND...
    want=$1 desc=$2
    shift 2
    repro_note "$@"
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else no "$desc: exit $rc, wanted $want"; fi
}
contains() { # FILE TEXT DESCRIPTION
    if grep -qF -- "$2" "$1"; then ok; else no "$3: '$2' not in $(basename "$1")"; fi
}
absent() { # PATH DESCRIPTION
    if [ -e "$1" ]; then no "$2: $1 exists"; else ok; fi
}
py() { # a Python check: passes when it exits 0
    desc=$1
    shift
    if "$PYTHON" "$@" >"$tmp/pyout" 2>"$tmp/err"; then ok; else no "$desc"; cat "$tmp/pyout"; fi
}

# ---- the cases: every documented example, all operators of two seeds (plain and bits)
for s in 11 12; do
    "$D" gen --operator ALL --count 5 --seed $s --out "$tmp/suite/small" >/dev/null 2>&1 || no "gen seed $s"
    "$D" gen --operator ALL --count 2 --seed $s --bits --out "$tmp/suite/bits" >/dev/null 2>&1 || no "gen --bits seed $s"
done
n_gen=$(ls "$tmp/suite/small" "$tmp/suite/bits" | grep -c '\.json$')
n_doc=$(ls "$CASES"/*.json | wc -l)

# ---- batch: numbered, sorted directories, the progress and the final line
expect 0 "batch export of the documented cases" "$D" export "$CASES"/*.json --out "$tmp/doc" --onnx --webnn
contains "$tmp/err" "dmlref export: wrote $n_doc cases to $tmp/doc; ONNX: " "batch: final line"
contains "$tmp/err" "dmlref export: $n_doc/$n_doc cases" "batch: progress line"
expect 0 "batch export of a gen directory" "$D" export "$tmp/suite" --out "$tmp/gen" --onnx --webnn
contains "$tmp/err" "wrote $n_gen cases to $tmp/gen" "batch of a directory: every case"
"$PYTHON" - "$tmp/doc" "$CASES" >"$tmp/pyout" 2>&1 <<'PY' && ok || { no "batch: one numbered directory per case, in order"; cat "$tmp/pyout"; }
import glob, os, sys
out, cases = sys.argv[1], sorted(glob.glob(sys.argv[2] + "/*.json"))
dirs = sorted(os.listdir(out))
want = [f"{i:04d}_{os.path.basename(c)[:-5]}" for i, c in enumerate(cases)]
assert dirs == want, (dirs[:3], want[:3])
assert all(os.path.exists(os.path.join(out, d, "manifest.json")) for d in dirs)
PY
# the search skips hidden entries and does not follow links to directories (a loop stays one case)
mkdir -p "$tmp/loop/a/.hidden"
cp "$CASES/gather_doc1.json" "$tmp/loop/a/"
cp "$CASES/join_doc1.json" "$tmp/loop/a/.hidden/"
ln -s .. "$tmp/loop/a/up"
expect 0 "batch export of a directory with a link loop" "$D" export "$tmp/loop" --out "$tmp/loopx"
contains "$tmp/err" "wrote 1 cases to $tmp/loopx" "batch: links to directories and hidden entries skipped"
# the single-case form still writes into DIR itself
expect 0 "single case --onnx" "$D" export "$CASES/gather_doc4.json" --out "$tmp/one" --onnx --webnn
for f in model.onnx test_data_set_0/input_0.pb test_data_set_0/input_1.pb test_data_set_0/output_0.pb webnn.json manifest.json; do
    [ -f "$tmp/one/$f" ] && ok || no "single case: $f missing"
done
# a batch goes on past a failing case, counts it and exits with its status
expect 1 "batch with a case whose expected differs" "$D" export "$CASES/gather_doc4.json" "$CASES/bad/e1_differ.json" \
    "$CASES/gather_doc1.json" --out "$tmp/mixed" --onnx
contains "$tmp/err" "wrote 2 cases to $tmp/mixed; ONNX: 2 models, 0 not expressible; 1 failed" "batch: failures counted"
[ -f "$tmp/mixed/0002_gather_doc1/model.onnx" ] && ok || no "batch: the case after a failure was not written"

# ---- every operator's documented cases have an ONNX model, and a WebNN test where WebNN has the operator
py "every operator's doc cases export to ONNX and WebNN" - "$tmp/doc" <<'PY'
import collections, glob, json, os, sys
onnx, webnn = collections.Counter(), collections.Counter()
ops = set()
for m in glob.glob(sys.argv[1] + "/*/manifest.json"):
    j = json.load(open(m))
    ops.add(j["operator"])
    onnx[j["operator"]] += j["onnx"]["expressible"]
    webnn[j["operator"]] += j["webnn"]["expressible"]
import re
want = set(re.findall(r"^DMLREF_OP\(([A-Z0-9_]+),", open("src/core/operators.def").read(), re.M))
assert ops == want, sorted(want - ops)
# ELEMENT_WISE_IDENTITY's documented cases all have a ScaleBias (arithmetic: not expressible);
# the generated suite has its plain copies.  UNFOLD: neither ONNX nor WebNN has the operator
assert sorted(o for o in ops if not onnx[o]) == ["ELEMENT_WISE_IDENTITY", "UNFOLD"], [o for o in ops if not onnx[o]]
# WebNN has no oneHot, no fill, no unpooling, no nonzero, no unfold and no top-k; the RESAMPLE
# family: WebNN's resample2d has its own nearest-neighbour rounding (cli/webnn.c)
assert sorted(o for o in ops if not webnn[o]) == ["ELEMENT_WISE_IDENTITY", "FILL_VALUE_CONSTANT", "FILL_VALUE_SEQUENCE",
                                                  "MAX_UNPOOLING", "NONZERO_COORDINATES", "ONE_HOT", "RESAMPLE",
                                                  "RESAMPLE1", "RESAMPLE2", "RESAMPLE3", "TOP_K", "TOP_K1", "UNFOLD",
                                                  "UPSAMPLE_2D"], [o for o in ops if not webnn[o]]
PY

# ---- onnx.checker, and the TensorProto files against the .npy files
if "$PYTHON" -c "import onnx" 2>/dev/null; then
    for set in doc gen; do
        if "$PYTHON" tests/export/check_onnx.py "$tmp/$set"/*/ >"$tmp/pyout" 2>&1; then ok; else no "check_onnx.py $set"; fi
        tail -n 1 "$tmp/pyout"
        # the opsets the installed onnx knows are checked: most models, never none
        checked=$(sed -n 's/^onnx-check: \([0-9]*\) checked.*/\1/p' "$tmp/pyout")
        [ "${checked:-0}" -gt 0 ] && ok || no "check_onnx.py $set checked no model"
    done
else
    skip "onnx.checker: python3-onnx is not installed (apt-get install python3-onnx)"
fi

# ---- the WebNN form through a numpy interpreter, bit for bit
for set in doc gen; do
    if "$PYTHON" tests/export/run_webnn.py "$tmp/$set"/*/ >"$tmp/pyout" 2>&1; then ok; else no "run_webnn.py $set"; fi
    tail -n 1 "$tmp/pyout"
done

# ---- ONNX Runtime (onnxruntime-node), where installed
ort_node=${ORT_NODE:-}
if [ -z "$ort_node" ] && command -v node >/dev/null 2>&1; then
    ort_node=$(node -e 'try { console.log(require("path").dirname(require.resolve("onnxruntime-node/package.json"))) } catch (e) {}' 2>/dev/null)
fi
if [ -n "$ort_node" ] && command -v node >/dev/null 2>&1; then
    # in groups of 50 models a process (ORT has crashed a process holding several hundred sessions)
    ls -d "$tmp/doc"/*/ "$tmp/gen"/*/ | ORT_NODE="$ort_node" xargs -n 50 node tests/export/run_ort.mjs >"$tmp/ort" 2>&1
    rc=$?
    totals=$(grep '^ort:' "$tmp/ort" | awk '{m+=$2; d+=$4; k+=$6; n+=$8; e+=$11} END {printf "%d %d %d %d %d", m, d, k, n, e}')
    set -- $totals
    echo "ort: $1 matched bit for bit, $2 differ, $3 known ORT divergences, $4 without an ORT kernel, $5 errors"
    grep -E '^(mismatch|error)' "$tmp/ort" | head -n 10
    if [ "$rc" -eq 0 ] && [ "${2:-1}" -eq 0 ] && [ "${5:-1}" -eq 0 ] && [ "${1:-0}" -gt 0 ]; then ok; else no "ONNX Runtime: unexplained differences or errors (exit $rc)"; fi
else
    skip "ONNX Runtime: onnxruntime-node not found (npm install --ignore-scripts onnxruntime-node@1.30.0; ORT_NODE=its directory)"
fi

# ---- what ONNX and WebNN cannot express, with the reason, and no model or test written
reason() { # DIR KEY TEXT DESCRIPTION: the manifest's KEY entry is not expressible, its reason has TEXT
    "$PYTHON" - "$1/manifest.json" "$2" "$3" >"$tmp/pyout" 2>&1 <<'PY' && ok || { no "$4"; cat "$tmp/pyout"; }
import json, sys
e = json.load(open(sys.argv[1]))[sys.argv[2]]
assert e["expressible"] is False and sys.argv[3] in e["reason"], e
PY
}
d="$tmp/doc/$(ls "$tmp/doc" | grep '_padding1_doc_symmetric' | head -n 1)"
reason "$d" onnx "SYMMETRIC padding" "SYMMETRIC padding is not expressible in ONNX"
reason "$d" webnn "SYMMETRIC padding" "SYMMETRIC padding is not expressible in WebNN"
absent "$d/model.onnx" "SYMMETRIC padding: no model"
absent "$d/webnn.json" "SYMMETRIC padding: no WebNN test"
cat >"$tmp/reflect.json" <<'JSON'
{"operator": "PADDING", "PaddingMode": "REFLECTION", "PaddingValue": 0, "StartPadding": [3], "EndPadding": [0],
 "InputTensor": {"DataType": "FLOAT32", "Sizes": [3], "data": [1, 2, 3]},
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [6]}}
JSON
expect 0 "export a reflect pad as large as the axis" "$D" export "$tmp/reflect.json" --out "$tmp/reflect" --onnx --webnn
reason "$tmp/reflect" onnx "reflect pads 3 and 0 on an axis of size 3" "a reflect pad >= the axis is not expressible in ONNX"
reason "$tmp/reflect" webnn "reflection pads 3 and 0" "a reflect pad >= the axis is not expressible in WebNN"
sed 's/"StartPadding": \[3\]/"StartPadding": [2]/; s/"Sizes": \[6\]/"Sizes": [5]/' "$tmp/reflect.json" >"$tmp/reflect2.json"
expect 0 "export a reflect pad smaller than the axis" "$D" export "$tmp/reflect2.json" --out "$tmp/reflect" --onnx --webnn
[ -f "$tmp/reflect/model.onnx" ] && [ -f "$tmp/reflect/webnn.json" ] && ok || no "reflect pad < axis: no model or test"
# an old model of the same directory goes when the new case has none
expect 0 "re-export the large reflect pad" "$D" export "$tmp/reflect.json" --out "$tmp/reflect" --onnx --webnn
absent "$tmp/reflect/model.onnx" "a stale model.onnx"
absent "$tmp/reflect/webnn.json" "a stale webnn.json"
# out-of-range indices (clamped by DirectML) and duplicate scatter targets
cat >"$tmp/oob.json" <<'JSON'
{"operator": "GATHER", "Axis": 0, "IndexDimensions": 1,
 "InputTensor": {"DataType": "FLOAT32", "Sizes": [2], "data": [1, 2]},
 "IndicesTensor": {"DataType": "INT32", "Sizes": [1], "data": [5]},
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1]}}
JSON
expect 0 "export out-of-range indices" "$D" export "$tmp/oob.json" --out "$tmp/oob" --onnx --webnn
reason "$tmp/oob" onnx "out-of-range indices" "out-of-range indices are not expressible in ONNX"
reason "$tmp/oob" webnn "out-of-range indices" "out-of-range indices are not expressible in WebNN"
d="$tmp/doc/$(ls "$tmp/doc" | grep '_scatter_doc1_fl2_0' | head -n 1)"
reason "$d" onnx "duplicate scatter targets" "duplicate scatter targets are not expressible in ONNX"
# ScaleBias (arithmetic), ONE_HOT and FLOAT64 in WebNN
"$D" gen --operator ELEMENT_WISE_IDENTITY --count 1 --seed 3 --scale-bias --out "$tmp/sb" >/dev/null 2>&1
expect 0 "export a ScaleBias case" "$D" export "$tmp/sb"/*.json --out "$tmp/sbx" --onnx --webnn
reason "$tmp/sbx" onnx "ScaleBias is arithmetic" "ScaleBias is not expressible in ONNX"
d="$tmp/doc/$(ls "$tmp/doc" | grep '_one_hot_doc' | head -n 1)"
reason "$d" webnn "WebNN has no oneHot" "ONE_HOT is not expressible in WebNN"
d="$tmp/doc/$(ls "$tmp/doc" | grep '_unfold_doc1' | head -n 1)"
reason "$d" onnx "ONNX has no Unfold or Im2Col operator" "UNFOLD is not expressible in ONNX"
reason "$d" webnn "WebNN has no unfold" "UNFOLD is not expressible in WebNN"
"$D" gen --operator JOIN --count 1 --seed 3 --data-types FLOAT64 --out "$tmp/f64" >/dev/null 2>&1
expect 0 "export a FLOAT64 case" "$D" export "$tmp/f64"/*.json --out "$tmp/f64x" --onnx --webnn
reason "$tmp/f64x" webnn "is FLOAT64: WebNN's types are" "FLOAT64 is not expressible in WebNN"

# ---- gen --expressible: every case has a model (a test); ONE_HOT has no WebNN case
expect 0 "gen --expressible onnx" "$D" gen --operator PADDING,PADDING1 --count 30 --seed 4 --expressible onnx --out "$tmp/eo"
contains "$tmp/eo/gen_padding_4_0.json" "--expressible onnx" "gen --expressible: the comment names it"
expect 0 "export gen --expressible onnx" "$D" export "$tmp/eo" --out "$tmp/eox" --onnx
contains "$tmp/err" "wrote 60 cases to $tmp/eox; ONNX: 60 models, 0 not expressible" "gen --expressible onnx: every case has a model"
# onnx.backend.test's loader takes such a batch directory as it is (data_dir, kind = its parent, its name)
if "$PYTHON" -c "import onnx" 2>/dev/null; then
    py "onnx.backend.test.loader loads the batch" - "$tmp" eox <<'PY'
import glob, os, sys
import onnx
from onnx import numpy_helper
from onnx.backend.test.loader import load_model_tests
tests = load_model_tests(data_dir=sys.argv[1], kind=sys.argv[2])
assert len(tests) == 60, len(tests)
for t in tests:  # what the runner reads: the model and every data set's tensors
    onnx.load(os.path.join(t.model_dir, "model.onnx"))
    pbs = glob.glob(os.path.join(t.model_dir, "test_data_set_*", "*.pb"))
    assert len(pbs) >= 2, t.model_dir
    for pb in pbs:
        tp = onnx.TensorProto()
        tp.ParseFromString(open(pb, "rb").read())
        numpy_helper.to_array(tp)
PY
else
    skip "onnx.backend.test.loader: python3-onnx is not installed"
fi
expect 4 "gen --scale-bias --expressible onnx" "$D" gen --operator ELEMENT_WISE_IDENTITY --count 1 --seed 4 --scale-bias \
    --expressible onnx --out "$tmp/eo2"
contains "$tmp/err" "not expressible in ONNX (first: ScaleBias is arithmetic" "gen --expressible: the reason"
expect 0 "gen --expressible webnn" "$D" gen --operator ALL --count 4 --seed 4 --expressible webnn --out "$tmp/ew"
contains "$tmp/err" "skipped ONE_HOT" "gen --expressible webnn skips ONE_HOT"
contains "$tmp/err" "skipped UNFOLD" "gen --expressible webnn skips UNFOLD"
contains "$tmp/err" "skipped MAX_UNPOOLING" "gen --expressible webnn skips MAX_UNPOOLING (WebNN has no unpooling)"
expect 0 "export gen --expressible webnn" "$D" export "$tmp/ew" --out "$tmp/ewx" --webnn
n=$(sed -n 's/.*wrote \([0-9]*\) cases to .*/\1/p' "$tmp/err")
[ "${n:-0}" -ge 80 ] && ok || no "export gen --expressible webnn wrote ${n:-no} cases, not at least 80"
contains "$tmp/err" "wrote $n cases to $tmp/ewx; WebNN: $n tests, 0 not expressible" "gen --expressible webnn: every case has a test"
expect 4 "gen ONE_HOT --expressible webnn" "$D" gen --operator ONE_HOT --count 1 --seed 1 --expressible webnn --out "$tmp/e1"
expect 4 "gen --expressible bad" "$D" gen --operator GATHER --count 1 --seed 1 --expressible tflite --out "$tmp/e2"
# (without --expressible gen writes what it wrote before: tests/suites/cli.sh pins those bytes)

# ---- the bytes: the same on a second run, and pinned (a host that writes other bytes fails)
expect 0 "batch export again" "$D" export "$CASES"/*.json --out "$tmp/doc2" --onnx --webnn
pinned="gather_doc4 gather_nd1_doc1 scatter_nd_doc one_hot_doc1 diagonal_matrix1_doc_band padding_doc_wrap
padding1_doc_constant reverse_subsequences_doc1 space_to_depth1_doc_crd depth_to_space1_doc_dcr slice1_doc1 split_doc1 tile_doc"
(cd "$tmp/doc" && find . -name model.onnx -o -name '*.pb' -o -name webnn.json | LC_ALL=C sort) >"$tmp/list"
same=1
while read -r f; do cmp -s "$tmp/doc/$f" "$tmp/doc2/$f" || { same=0; echo "    differs: $f"; }; done <"$tmp/list"
[ $same -eq 1 ] && ok || no "a second export wrote other bytes"
pin() { # DIR: sha256 over the list of ONNX and WebNN files and their bytes
    (cd "$1" && find . -name model.onnx -o -name '*.pb' -o -name webnn.json | LC_ALL=C sort | while read -r f; do
        printf '%s %s\n' "$f" "$(sha256sum <"$f" | cut -d' ' -f1)"
    done) | sha256sum | cut -d' ' -f1
}
mkdir -p "$tmp/pindoc"
for c in $pinned; do cp "$CASES/$c.json" "$tmp/pindoc/"; done
"$D" export "$tmp/pindoc" --out "$tmp/pindocx" --onnx --webnn >/dev/null 2>&1
want=e4a74832d38ab2e41bb8736c0eea36c6cd7bfa6780dc98b6abf14d751e3ab0e2
got=$(pin "$tmp/pindocx")
[ "$got" = "$want" ] && ok || no "the documented cases' ONNX and WebNN files have sha256 $got, pinned $want (host-dependent bytes?)"
"$D" gen --operator ALL --count 2 --seed 1 --bits --out "$tmp/pinsuite" >/dev/null 2>&1
"$D" export "$tmp/pinsuite" --out "$tmp/pinx" --onnx --webnn >/dev/null 2>&1
want=794ea32945e82ae487f808b50430863b533f79286c6c367a52f883f61250e29d
got=$(pin "$tmp/pinx")
[ "$got" = "$want" ] && ok || no "gen --bits --seed 1's ONNX and WebNN files have sha256 $got, pinned $want (host-dependent bytes?)"

echo "export_onnx: $pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
