#!/bin/sh
# dmlref export, run --logical, --int64-strings and directories created like mkdir -p
# (docs/cli.md): the files export writes and their bytes (tests/export/check_dirs.py over
# every documented case, a generated suite and the bits cases), slot maps and values of
# strided, broadcast and gapped tensors, NaN payloads and -0.0, the framework form of the
# documented examples, every exit status with nothing written, and 64-bit integers as
# strings read by node's JSON.parse.
# Environment: BUILD (default build), PYTHON (default /usr/bin/python3).
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
    echo "export: $D is missing (make BUILD=$BUILD cli)"
    echo "export: 0 passed, 1 failed"
    exit 1
fi
repro_suite=export
. tests/repro.sh # repro_note, repro_print: the "repro: ..." line of a failure
ok() { pass=$((pass + 1)); }
no() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    [ -s "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err" | head -n 5
    repro_print
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

# ---- the files and their bytes: every documented case, a generated suite, the bits cases
"$D" gen --operator ALL --count 8 --seed 31 --out "$tmp/suite" >/dev/null 2>&1 || no "gen"
sh tests/harness/bits_cases.sh "$tmp/suite"
# layouts gen does not write: span-long input data, an output prefilled with data, a larger
# TotalTensorSizeInBytes, a one-byte type's rounding tail
cat >"$tmp/suite/layouts.json" <<'JSON'
{"operator": "JOIN", "Axis": 0,
 "InputTensors": [{"DataType": "INT8", "Sizes": [2, 3], "Strides": [4, 1], "data": [1, -2, 3, 0, -128, 127, 5]},
                  {"DataType": "INT8", "Sizes": [1, 3], "TotalTensorSizeInBytes": 12, "data": [7, 8, 9]}],
 "OutputTensor": {"DataType": "INT8", "Sizes": [3, 3], "Strides": [1, 3], "TotalTensorSizeInBytes": 16,
                  "data": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 42, 43, 44, 45]},
 "expected": {"OutputTensor": [1, -128, 7, -2, 127, 8, 3, 5, 9, 0, 0, 0, 42, 43, 44, 45]}}
JSON
pairs=""
for f in "$CASES"/*.json "$tmp"/suite/*.json; do
    out="$tmp/x/$(basename "$f" .json)"
    if "$D" export "$f" --out "$out" >"$tmp/out" 2>"$tmp/err"; then ok; else no "export $f"; fi
    pairs="$pairs $f=$out"
done
if "$PYTHON" tests/export/check_dirs.py --dmlref "$D" $pairs >"$tmp/pyout" 2>&1; then ok; else no "check_dirs.py"; fi
tail -n 12 "$tmp/pyout"

# ---- slot maps and values of strided, broadcast, gapped and transposed tensors; NaN
# payloads, signalling NaNs and -0.0 arrive bit for bit (by hand, not through the checker)
py "GATHER FLOAT32: strided input, transposed output, NaN payloads, -0.0" - "$tmp/x/bits_gather_f32" <<'PY'
import sys, numpy as np
d = sys.argv[1] + "/"
ld = lambda n: np.load(d + n)
assert ld("InputTensor.slots.npy").tolist() == [[0, 1], [3, 4], [6, 7], [9, 10]]
assert ld("OutputTensor.slots.npy").tolist() == [[0, 5], [1, 6], [2, 7], [3, 8], [4, 9]]
assert ld("IndicesTensor.slots.npy").tolist() == [[0, 1, 2, 3, 4]]
rows = [[0xFF800000, 0x80000000], [0xFF800000, 0x80000000], [0x7FC00001, 0x80000000],
        [0x7F800001, 0xFF800002], [0x3FC00000, 0x00000001]]
assert ld("OutputTensor.logical.npy").view("<u4").tolist() == rows
assert ld("OutputTensor.npy").view("<u4").tolist() == [r[0] for r in rows] + [r[1] for r in rows]
assert ld("InputTensor.npy").view("<u4").tolist()[:5] == [0x7FC00001, 0x80000000, 0, 0x7F800001, 0xFF800002]
assert ld("IndicesTensor.logical.npy").dtype == np.dtype("<i8")
PY
py "JOIN FLOAT16: a broadcast input, a gapped output, subnormals and signalling NaNs" - "$tmp/x/bits_join_f16" <<'PY'
import sys, numpy as np
d = sys.argv[1] + "/"
ld = lambda n: np.load(d + n)
assert ld("InputTensors_1.slots.npy").tolist() == [[0, 1], [0, 1]]
assert ld("OutputTensor.slots.npy").tolist() == [[0, 1, 2, 3, 4], [6, 7, 8, 9, 10]]
assert ld("InputTensors_1.logical.npy").view("<u2").tolist() == [[0x8001, 0x7D00], [0x8001, 0x7D00]]
want = [[0x7E01, 0x7C01, 0x8000, 0x8001, 0x7D00], [0x0001, 0x03FF, 0xFE00, 0x8001, 0x7D00]]
assert ld("OutputTensor.logical.npy").view("<u2").tolist() == want
buf = ld("OutputTensor.npy").view("<u2").tolist()
assert len(buf) == 12 and buf[5] == buf[11] == 0xCDCD, buf  # the gap and the tail: dmlref's 0xCD
PY
py "SPLIT FLOAT64: a permuted input, a gapped output" - "$tmp/x/bits_split_f64" <<'PY'
import sys, numpy as np
d = sys.argv[1] + "/"
ld = lambda n: np.load(d + n)
assert ld("InputTensor.slots.npy").tolist() == [[[0, 2, 4], [1, 3, 5]]]
assert ld("OutputTensors_1.slots.npy").tolist() == [[[0, 1], [4, 5]]]
assert ld("OutputTensors_0.logical.npy").view("<u8").tolist() == [[[0x7FF8000000000001], [0x8000000000000000]]]
assert ld("OutputTensors_1.logical.npy").view("<u8").tolist() == [[[0x7FF0000000000001, 0xFFF8000000000000], [1, 1]]]
PY
py "the manifest: every key, valid JSON" - "$tmp/x/layouts" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
assert list(m) == ["format", "case", "operator", "feature_level", "expected_from", "parameters", "inputs", "outputs", "framework"], list(m)
assert m["expected_from"] == "case" and m["parameters"] == {"Axis": 0, "InputCount": 2}
i0, i1 = m["inputs"]
assert i0["name"] == "InputTensors_0" and i0["slot"] == "InputTensors" and i0["index"] == 0 and i0["indices"] is False
assert i0["Strides"] == [4, 1] and i0["strides_given"] and i0["buffer_elements"] == 8 and i0["span_elements"] == 7
assert i1["Strides"] == [3, 1] and not i1["strides_given"] and i1["TotalTensorSizeInBytes"] == 12 and i1["buffer_elements"] == 12
o = m["outputs"][0]
assert o["expected_from"] == "case" and o["elements"] == 9 and o["buffer_elements"] == 16 and o["span_elements"] == 9
assert (o["buffer"], o["slots"], o["logical"]) == ("OutputTensor.npy", "OutputTensor.slots.npy", "OutputTensor.logical.npy")
assert m["framework"] == {"onnx": "Concat", "webnn": "concat", "pytorch": "cat", "axis": 0,
                          "shapes": {"InputTensors_0": [2, 3], "InputTensors_1": [1, 3], "OutputTensor": [3, 3]}}
PY
if command -v node >/dev/null 2>&1; then
    if node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$tmp/x/layouts/manifest.json" 2>"$tmp/err"; then ok; else no "node reads the manifest"; fi
else skipped=$((skipped + 1)); fi
# without expected, export runs the case (and says so)
py "expected_from run" -c 'import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
assert m["expected_from"] == "run" and [o["expected_from"] for o in m["outputs"]] == ["run", "run"], m["expected_from"]' "$tmp/x/bits_split_f64"

# ---- the framework form of the documented examples -------------------------------------
fw() { # CASE EXPECTED-FRAMEWORK-JSON
    "$D" export "$CASES/$1.json" --out "$tmp/fw/$1" >/dev/null 2>"$tmp/err" || no "export $1"
    py "framework form of $1" -c 'import json, sys
got = json.load(open(sys.argv[1] + "/manifest.json"))["framework"]
want = json.loads(sys.argv[2])
assert got == want, (got, want)' "$tmp/fw/$1" "$2"
}
fw gather_doc1 '{"onnx": "Gather", "webnn": "gather", "pytorch": "index_select", "axis": 0, "shapes": {"InputTensor": [4], "IndicesTensor": [5], "OutputTensor": [5]}}'
fw gather_doc3 '{"onnx": "Gather", "webnn": "gather", "pytorch": "index_select", "axis": 1, "shapes": {"InputTensor": [3, 2], "IndicesTensor": [2], "OutputTensor": [3, 2]}}'
fw gather_doc4 '{"onnx": "Gather", "webnn": "gather", "pytorch": "index_select", "axis": 1, "shapes": {"InputTensor": [3, 3], "IndicesTensor": [1, 2], "OutputTensor": [3, 1, 2]}}'
fw gather_doc5 '{"onnx": "Gather", "webnn": "gather", "pytorch": "index_select", "axis": 0, "shapes": {"InputTensor": [3, 2], "IndicesTensor": [2, 2], "OutputTensor": [2, 2, 2]}}'
fw gather_onnx_scalar '{"onnx": "Gather", "webnn": "gather", "pytorch": "index_select", "axis": 0, "shapes": {"InputTensor": [3, 4], "IndicesTensor": [], "OutputTensor": [4]}}'
fw gather_elements_doc_fl2_1 '{"onnx": "GatherElements", "webnn": "gatherElements", "pytorch": "gather", "axis": 0, "shapes": {"InputTensor": [3, 3], "IndicesTensor": [2, 3], "OutputTensor": [2, 3]}}'
fw scatter_nd_doc '{"onnx": "ScatterND", "webnn": "scatterND", "pytorch": "index_put", "shapes": {"InputTensor": [8], "IndicesTensor": [4, 1], "UpdatesTensor": [4], "OutputTensor": [8]}}'
fw scatter_nd_doc_shapes '{"onnx": "ScatterND", "webnn": "scatterND", "pytorch": "index_put", "shapes": {"InputTensor": [3, 4, 5, 6, 7], "IndicesTensor": [1, 2, 3], "UpdatesTensor": [1, 2, 6, 7], "OutputTensor": [3, 4, 5, 6, 7]}}'
fw scatter_nd_slices '{"onnx": "ScatterND", "webnn": "scatterND", "pytorch": "index_put", "shapes": {"InputTensor": [4, 4, 4], "IndicesTensor": [2, 1], "UpdatesTensor": [2, 4, 4], "OutputTensor": [4, 4, 4]}}'
fw split_doc1 '{"onnx": "Split", "webnn": "split", "pytorch": "split", "axis": 0, "split": [2, 1, 3], "shapes": {"InputTensor": [6, 2], "OutputTensors_0": [2, 2], "OutputTensors_1": [1, 2], "OutputTensors_2": [3, 2]}}'
fw split_doc2 '{"onnx": "Split", "webnn": "split", "pytorch": "split", "axis": 1, "split": [1, 1], "shapes": {"InputTensor": [6, 2], "OutputTensors_0": [6, 1], "OutputTensors_1": [6, 1]}}'
fw join_doc1 '{"onnx": "Concat", "webnn": "concat", "pytorch": "cat", "axis": 1, "shapes": {"InputTensors_0": [2, 3], "InputTensors_1": [2, 4], "OutputTensor": [2, 7]}}'
fw join_doc2_axis1 '{"onnx": "Concat", "webnn": "concat", "pytorch": "cat", "axis": 0, "shapes": {"InputTensors_0": [1, 2, 2], "InputTensors_1": [1, 2, 2], "InputTensors_2": [1, 2, 2], "OutputTensor": [3, 2, 2]}}'
if [ -f "$CASES/scatter_doc2.json" ]; then
    fw scatter_doc2 '{"onnx": "ScatterElements", "webnn": "scatterElements", "pytorch": "scatter", "axis": 0, "shapes": {"InputTensor": [3, 3], "IndicesTensor": [2, 3], "UpdatesTensor": [2, 3], "OutputTensor": [3, 3]}}'
    fw scatter_doc1_fl2_0 '{"onnx": "ScatterElements", "webnn": "scatterElements", "pytorch": "scatter", "axis": 0, "shapes": {"InputTensor": [5], "IndicesTensor": [4], "UpdatesTensor": [4], "OutputTensor": [5]}}'
fi
if [ -f "$CASES/tile_doc.json" ]; then
    fw tile_doc '{"onnx": "Tile", "webnn": "tile", "pytorch": "tile", "repeats": [3, 3], "shapes": {"InputTensor": [2, 3], "OutputTensor": [6, 9]}}'
fi
fw depth_to_space1_doc_crd '{"onnx": "DepthToSpace", "webnn": "reshape+transpose", "pytorch": "pixel_shuffle", "mode": "CRD", "blocksize": 2, "shapes": {"InputTensor": [1, 8, 2, 3], "OutputTensor": [1, 2, 4, 6]}}'
fw space_to_depth_doc '{"onnx": "SpaceToDepth", "webnn": "reshape+transpose", "pytorch": "reshape+permute", "mode": "DCR", "blocksize": 2, "shapes": {"InputTensor": [1, 2, 4, 6], "OutputTensor": [1, 8, 2, 3]}}'
fw gather_nd1_doc3 '{"onnx": "GatherND", "webnn": "gatherND", "pytorch": "getitem", "batch_dims": 1, "shapes": {"InputTensor": [3, 2, 2], "IndicesTensor": [3, 2, 2], "OutputTensor": [3, 2]}}'
fw slice1_doc2 '{"onnx": "Slice", "webnn": "slice", "pytorch": "getitem+flip", "starts": [3, 1], "ends": [0, 4], "axes": [0, 1], "steps": [-2, 2], "shapes": {"InputTensor": [4, 4], "OutputTensor": [2, 2]}}'
fw slice_doc1 '{"onnx": "Slice", "webnn": "slice", "pytorch": "getitem+flip", "starts": [1, 2], "ends": [4, 4], "axes": [0, 1], "steps": [1, 1], "shapes": {"InputTensor": [4, 4], "OutputTensor": [3, 2]}}'
fw one_hot_doc3 '{"onnx": "OneHot", "webnn": "oneHot", "pytorch": "one_hot", "axis": 1, "depth": 4, "shapes": {"IndicesTensor": [3], "ValuesTensor": [3, 1], "OutputTensor": [3, 4]}}'
fw diagonal_matrix_doc_offset1 '{"onnx": "EyeLike", "webnn": "triangular", "pytorch": "eye", "dtype": "float32", "value_bits": "0x3f800000", "begin": 1, "end": 2, "shapes": {"OutputTensor": [3, 3]}}'
fw diagonal_matrix1_doc_inverted '{"onnx": "Trilu", "webnn": "triangular", "pytorch": "triu", "dtype": "float32", "value_bits": "0x0", "begin": 1, "end": 0, "shapes": {"InputTensor": [4, 5], "OutputTensor": [4, 5]}}'
mkdir -p "$tmp/fwcases"
if [ -f "$CASES/padding_doc_constant.json" ]; then
    fw padding_doc_constant '{"onnx": "Pad", "webnn": "pad", "pytorch": "pad", "mode": "constant", "dtype": "float32", "value_bits": "0x41100000", "pads": [1, 2, 3, 4], "shapes": {"InputTensor": [4, 4], "OutputTensor": [8, 10]}}'
    fw padding_doc_1d_wrap '{"onnx": "Pad", "webnn": "pad", "pytorch": "pad", "mode": "wrap", "pads": [7, 7], "shapes": {"InputTensor": [3], "OutputTensor": [17]}}'
fi
if [ -f "$CASES/padding1_doc_symmetric.json" ]; then
    fw padding1_doc_symmetric '{"onnx": "Pad", "webnn": "pad", "pytorch": "pad", "mode": "symmetric", "pads": [1, 2, 3, 4], "shapes": {"InputTensor": [4, 4], "OutputTensor": [8, 10]}}'
    fw padding1_doc_constant '{"onnx": "Pad", "webnn": "pad", "pytorch": "pad", "mode": "constant", "dtype": "float32", "value_bits": "0x41100000", "pads": [1, 2, 3, 4], "shapes": {"InputTensor": [4, 4], "OutputTensor": [8, 10]}}'
fi
if [ -f "$CASES/reverse_subsequences_doc2.json" ]; then
    fw reverse_subsequences_doc2 '{"onnx": "ReverseSequence", "webnn": "where+gatherElements", "pytorch": "flip", "axis": 0, "shapes": {"InputTensor": [3, 4], "SequenceLengthsTensor": [1, 4], "OutputTensor": [3, 4]}}'
fi
# PADDING1's union holds its element in host byte order (a FLOAT16 as its binary16 uint16_t):
# value_bits is that element, on any host; a leading 1 with pads around it stays
cat >"$tmp/fwcases/pad_f16.json" <<'JSON'
{"operator": "PADDING1", "feature_level": "6_4", "PaddingMode": "CONSTANT", "PaddingValueDataType": "FLOAT16",
 "PaddingValue": 0.333, "StartPadding": [0, 1, 2], "EndPadding": [0, 2, 0],
 "InputTensor": {"DataType": "FLOAT16", "Sizes": [1, 1, 2], "data": [1, 2]}, "OutputTensor": {"DataType": "FLOAT16", "Sizes": [1, 4, 4]}}
JSON
cat >"$tmp/fwcases/pad_i64.json" <<'JSON'
{"operator": "PADDING1", "feature_level": "6_4", "PaddingMode": "CONSTANT", "PaddingValueDataType": "INT64",
 "PaddingValue": -9223372036854775807, "StartPadding": [1], "EndPadding": [0],
 "InputTensor": {"DataType": "INT64", "Sizes": [2], "data": [1, 2]}, "OutputTensor": {"DataType": "INT64", "Sizes": [3]}}
JSON
CASES="$tmp/fwcases" fw pad_f16 '{"onnx": "Pad", "webnn": "pad", "pytorch": "pad", "mode": "constant", "dtype": "float16", "value_bits": "0x3554", "pads": [1, 2, 2, 0], "shapes": {"InputTensor": [1, 2], "OutputTensor": [4, 4]}}'
CASES="$tmp/fwcases" fw pad_i64 '{"onnx": "Pad", "webnn": "pad", "pytorch": "pad", "mode": "constant", "dtype": "int64", "value_bits": "0x8000000000000001", "pads": [1, 0], "shapes": {"InputTensor": [2], "OutputTensor": [3]}}'
# a reversal down to the first element: ONNX would read an end of -1 as the last, so -(size + 1)
cat >"$tmp/reverse.json" <<'JSON'
{"operator": "SLICE1", "InputTensor": {"DataType": "INT8", "Sizes": [4], "data": [1, 2, 3, 4]},
 "OutputTensor": {"DataType": "INT8", "Sizes": [4]}, "DimensionCount": 1,
 "InputWindowOffsets": [0], "InputWindowSizes": [4], "InputWindowStrides": [-1]}
JSON
cp "$tmp/reverse.json" "$tmp/fwcases/"
CASES="$tmp/fwcases" fw reverse '{"onnx": "Slice", "webnn": "slice", "pytorch": "getitem+flip", "starts": [3], "ends": [-5], "axes": [0], "steps": [-1], "shapes": {"InputTensor": [4], "OutputTensor": [4]}}'
cat >"$tmp/identity.json" <<'JSON'
{"operator": "ELEMENT_WISE_IDENTITY", "InputTensor": {"DataType": "UINT16", "Sizes": [1, 1, 2, 3], "Strides": [0, 0, 0, 1], "data": [1, 2, 3]},
 "OutputTensor": {"DataType": "UINT16", "Sizes": [1, 1, 2, 3], "Strides": [6, 6, 1, 2]}}
JSON
"$D" export "$tmp/identity.json" --out "$tmp/fw/identity" >/dev/null 2>"$tmp/err" || no "export identity"
py "framework form and slot maps of ELEMENT_WISE_IDENTITY" -c 'import json, sys, numpy as np
d = sys.argv[1] + "/"
got = json.load(open(d + "manifest.json"))["framework"]
assert got == {"onnx": "Identity", "webnn": "identity", "pytorch": "clone", "shapes": {"InputTensor": [2, 3], "OutputTensor": [2, 3]}}, got
assert np.load(d + "InputTensor.slots.npy").tolist() == [[[[0, 1, 2], [0, 1, 2]]]]
assert np.load(d + "OutputTensor.slots.npy").tolist() == [[[[0, 2, 4], [1, 3, 5]]]]
assert np.load(d + "OutputTensor.npy").tolist() == [1, 1, 2, 2, 3, 3]' "$tmp/fw/identity"

# ---- exit statuses; nothing is written when export fails ---------------------------------
expect 0 "export --help" "$D" export --help
contains "$tmp/out" "usage: dmlref export" "export --help"
expect 4 "export without arguments" "$D" export
expect 4 "export without --out" "$D" export "$CASES/gather_doc1.json"
contains "$tmp/err" "missing --out DIR" "export without --out: message"
expect 4 "export --out without a value" "$D" export "$CASES/gather_doc1.json" --out
expect 4 "export --out=" "$D" export "$CASES/gather_doc1.json" --out=
expect 4 "export with an unknown option" "$D" export "$CASES/gather_doc1.json" --out "$tmp/u" --bogus
# two cases are a batch (tests/suites/export_onnx.sh): one numbered directory each
expect 0 "export with two cases" "$D" export "$CASES/gather_doc1.json" "$CASES/join_doc1.json" --out "$tmp/two"
[ -f "$tmp/two/0000_gather_doc1/manifest.json" ] && [ -f "$tmp/two/0001_join_doc1/manifest.json" ] && ok || no "export with two cases: a batch"
expect 4 "export with two cases and a bad option" "$D" export "$CASES/gather_doc1.json" "$CASES/join_doc1.json" --out "$tmp/u" --onnxx
expect 4 "export --feature-level 9_9" "$D" export "$CASES/gather_doc1.json" --out "$tmp/u" --feature-level 9_9
expect 4 "export --threads x" "$D" export "$CASES/gather_doc1.json" --out "$tmp/u" --threads x
absent "$tmp/u" "usage errors write nothing"
expect 3 "export a missing file" "$D" export "$tmp/nope.json" --out "$tmp/u"
absent "$tmp/u" "a missing case writes nothing"
for f in "$CASES"/bad/*.json; do
    want=$(basename "$f" | sed -n 's/^e\([0-9]\)_.*/\1/p')
    expect "$want" "export $f" "$D" export "$f" --out "$tmp/bad/$(basename "$f" .json)"
    absent "$tmp/bad/$(basename "$f" .json)" "export $f wrote files"
done
contains "$CASES/bad/e1_differ.json" '"expected"' "e1_differ has expected"
"$D" export "$CASES/bad/e1_differ.json" --out "$tmp/differ" 2>"$tmp/err"
contains "$tmp/err" "dmlref's outputs differ from the case's expected; nothing written" "exit 1 message"
# out-of-range indices: a warning (clamped), or with --strict exit 2 and nothing written
expect 0 "export a clamping case" "$D" export "$CASES/gather_clamp_wpt.json" --out "$tmp/clamp"
contains "$tmp/err" "warning" "export warns about clamped indices"
expect 2 "export --strict a clamping case" "$D" export "$CASES/gather_clamp_wpt.json" --out "$tmp/clamp_strict" --strict
absent "$tmp/clamp_strict" "export --strict wrote files"
# --feature-level replaces the case's, in the manifest too
expect 0 "export --feature-level 4_1" "$D" export "$CASES/gather_doc1.json" --out "$tmp/fl" --feature-level=4_1
contains "$tmp/fl/manifest.json" '"feature_level": "4_1"' "manifest feature level"
expect 2 "export --feature-level 2_1 of a 1-D GATHER" "$D" export "$CASES/gather_doc1.json" --out "$tmp/fl21" --feature-level 2_1
# --out names a file, or a path through one: exit 5
: >"$tmp/afile"
expect 5 "export --out a file" "$D" export "$CASES/gather_doc1.json" --out "$tmp/afile"
contains "$tmp/err" "afile: it exists and is not a directory" "export --out a file: message"
expect 5 "export --out below a file" "$D" export "$CASES/gather_doc1.json" --out "$tmp/afile/sub"
# a failed write leaves no manifest: the old one goes first, the new one comes last
expect 0 "export into a fresh directory" "$D" export "$CASES/gather_doc1.json" --out "$tmp/again"
rm "$tmp/again/OutputTensor.npy" && mkdir "$tmp/again/OutputTensor.npy"
expect 5 "export over a directory in the way" "$D" export "$CASES/gather_doc1.json" --out "$tmp/again"
absent "$tmp/again/manifest.json" "a failed export left the old manifest"
if ls "$tmp/again" | grep -q tmp; then no "a failed export left a temporary file"; else ok; fi
rmdir "$tmp/again/OutputTensor.npy"
expect 0 "export again into the same directory" "$D" export "$CASES/join_doc1.json" --out "$tmp/again"
contains "$tmp/again/manifest.json" '"operator": "JOIN"' "the second export's manifest"
# an output over an input of the same export (issue 23): exit 5, both named, nothing written or removed
mkdir -p "$tmp/ex1"
cp "$CASES/gather_doc1.json" "$tmp/ex1/manifest.json"
expect 5 "export ex1/manifest.json --out ex1" "$D" export "$tmp/ex1/manifest.json" --out "$tmp/ex1"
contains "$tmp/err" "dmlref export: $tmp/ex1/manifest.json: the output would overwrite an input of this command ($tmp/ex1/manifest.json); nothing written" "export over its case file: both named"
if cmp -s "$CASES/gather_doc1.json" "$tmp/ex1/manifest.json"; then ok; else no "export replaced its case file"; fi
if [ "$(ls "$tmp/ex1")" = manifest.json ]; then ok; else no "export over its case file wrote: $(ls "$tmp/ex1" | tr '\n' ' ')"; fi
# the case file under a tensor's name, reached by a link
mkdir -p "$tmp/ex2" "$tmp/ex2_out"
cp "$CASES/gather_doc1.json" "$tmp/ex2/case.json"
ln -s "$tmp/ex2/case.json" "$tmp/ex2_out/IndicesTensor.slots.npy"
expect 5 "export --out where a tensor's file links to the case" "$D" export "$tmp/ex2/case.json" --out "$tmp/ex2_out"
contains "$tmp/err" "($tmp/ex2/case.json)" "export over a link to its case file: the case named"
absent "$tmp/ex2_out/manifest.json" "export over a link to its case file wrote a manifest"
# an npy input under the name export gives the tensor's buffer
mkdir -p "$tmp/ex3"
"$PYTHON" -c 'import numpy as np, sys; np.save(sys.argv[1], np.arange(12, dtype=">i8"))' "$tmp/ex3/InputTensor.npy"
cp "$tmp/ex3/InputTensor.npy" "$tmp/ex3_orig.npy"
cat >"$tmp/ex3/case.json" <<'JSON'
{"operator": "GATHER", "Axis": 1, "IndexDimensions": 1,
 "InputTensor": {"DataType": "INT64", "Sizes": [3, 4], "npy": "InputTensor.npy"},
 "IndicesTensor": {"DataType": "UINT32", "Sizes": [1, 2], "data": [2, 0]},
 "OutputTensor": {"DataType": "INT64", "Sizes": [3, 2]}}
JSON
expect 5 "export --out over the case's npy input" "$D" export "$tmp/ex3/case.json" --out "$tmp/ex3"
contains "$tmp/err" "$tmp/ex3/InputTensor.npy: the output would overwrite an input of this command ($tmp/ex3/InputTensor.npy)" "export over its npy input: named"
if cmp -s "$tmp/ex3_orig.npy" "$tmp/ex3/InputTensor.npy"; then ok; else no "export replaced its npy input"; fi
expect 0 "export the same case elsewhere" "$D" export "$tmp/ex3/case.json" --out "$tmp/ex3/out"
expect 0 "export --int64-strings" "$D" export "$CASES/gather_onnx_scalar.json" --out "$tmp/i64" --int64-strings

# ---- directories are created like mkdir -p --------------------------------------------------
expect 0 "export --out a/b/c" "$D" export "$CASES/gather_doc1.json" --out "$tmp/p1/a/b/c/"
[ -f "$tmp/p1/a/b/c/manifest.json" ] && ok || no "export --out a/b/c made no manifest"
expect 0 "run --npy a/b/c" "$D" run "$CASES/gather_doc1.json" --npy "$tmp/p2/a/b/c"
[ -f "$tmp/p2/a/b/c/OutputTensor.npy" ] && ok || no "run --npy a/b/c wrote no file"
expect 0 "run --npy a//b (doubled slash)" "$D" run "$CASES/gather_doc1.json" --npy "$tmp/p3/a//b"
expect 0 "gen --out a/b/c" "$D" gen --operator JOIN --count 1 --seed 1 --out "$tmp/p4/a/b/c"
[ -f "$tmp/p4/a/b/c/gen_join_1_0.json" ] && ok || no "gen --out a/b/c wrote no case"
expect 5 "run --npy below a file" "$D" run "$CASES/gather_doc1.json" --npy "$tmp/afile/x"

# ---- run --logical ---------------------------------------------------------------------------
expect 0 "run --logical" "$D" run "$tmp/suite/bits_join_f16.json" --logical
py "run --logical prints each output as a packed tensor of its logical shape" - "$tmp/out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
t = doc["OutputTensor"]
assert sorted(t) == ["DataType", "Sizes", "data"], sorted(t)
assert t["Sizes"] == [2, 5] and t["data"] == [["0x7e01", "0x7c01", -0.0, -6e-08, "0x7d00"], [6e-08, 6.1e-05, "0xfe00", -6e-08, "0x7d00"]], t["data"]
PY
expect 0 "run --logical --npy" "$D" run "$CASES/split_doc1.json" --logical --npy "$tmp/lnpy"
py "run --logical --npy files" -c 'import os, sys, numpy as np
d = sys.argv[1]
assert sorted(os.listdir(d)) == ["OutputTensors_%d.logical.npy" % i for i in range(3)], os.listdir(d)
assert np.load(d + "/OutputTensors_2.logical.npy").tolist() == [[[[7, 8], [9, 10], [11, 12]]]]' "$tmp/lnpy"
# a logical print pasted into `expected` of a packed output compares equal
"$PYTHON" - "$CASES/gather_doc2.json" "$tmp/pasted.json" "$D" >"$tmp/err" 2>&1 <<'PY'
import json, subprocess, sys
case = json.load(open(sys.argv[1]))
out = json.loads(subprocess.run([sys.argv[3], "run", sys.argv[1], "--logical"], capture_output=True, text=True).stdout)
case["expected"] = {"OutputTensor": out["OutputTensor"]["data"]}
json.dump(case, open(sys.argv[2], "w"))
PY
expect 0 "a logical print pasted into expected" "$D" run "$tmp/pasted.json"

# ---- --int64-strings: 64-bit integers as "0x..." strings, exact for JSON.parse ------------------
cat >"$tmp/u64.json" <<'JSON'
{"operator": "JOIN", "Axis": 1,
 "InputTensors": [{"DataType": "UINT64", "Sizes": [1, 3], "data": [18446744073709551615, 9007199254740993, 0]},
                  {"DataType": "UINT64", "Sizes": [1, 1], "data": ["0x8000000000000001"]}],
 "OutputTensor": {"DataType": "UINT64", "Sizes": [1, 4], "Strides": [5, 1]}}
JSON
for c in "$tmp/u64.json" "$CASES/gather_onnx_scalar.json" "$tmp/suite/bits_scatter_nd_i64.json"; do
    name=$(basename "$c" .json)
    expect 0 "run --int64-strings $name" "$D" run "$c" --int64-strings
    cp "$tmp/out" "$tmp/$name.strings.json"
    expect 0 "run --int64-strings --logical $name" "$D" run "$c" --int64-strings --logical
    cp "$tmp/out" "$tmp/$name.lstrings.json"
    expect 0 "run --npy $name" "$D" run "$c" --npy "$tmp/$name.npy.d"
    # every 64-bit value is a string of 16 hex digits; Python reads the bits back exactly
    py "--int64-strings output of $name" - "$tmp/$name.strings.json" "$tmp/$name.lstrings.json" "$tmp/$name.npy.d/OutputTensor.npy" <<'PY'
import json, re, sys, numpy as np
doc, ldoc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = np.load(sys.argv[3]).view("<u8").tolist()
data = doc["OutputTensor"]["data"]
assert all(isinstance(v, str) and re.fullmatch("0x[0-9a-f]{16}", v) for v in data), data
assert [int(v, 16) for v in data] == want
flat = lambda v: [y for x in v for y in flat(x)] if isinstance(v, list) else [v]
assert all(isinstance(v, str) for v in flat(ldoc["OutputTensor"]["data"]))
PY
    # node's JSON.parse: BigInt reads them exactly (numbers beyond 2^53 would be rounded)
    if command -v node >/dev/null 2>&1; then
        node -e '
const fs = require("fs");
const doc = JSON.parse(fs.readFileSync(process.argv[1], "utf8")), t = doc.OutputTensor;
const signed = t.DataType === "INT64";
const got = t.data.map((s) => (signed ? BigInt.asIntN(64, BigInt(s)) : BigInt(s)));
const buf = fs.readFileSync(process.argv[2]), h = buf.readUInt16LE(8);
const want = buf.buffer.slice(buf.byteOffset + 10 + h, buf.byteOffset + buf.length);
const arr = signed ? new BigInt64Array(want) : new BigUint64Array(want);
if (got.length !== arr.length || got.some((v, i) => v !== arr[i])) { console.log(got, arr); process.exit(1); }
' "$tmp/$name.strings.json" "$tmp/$name.npy.d/OutputTensor.npy" >"$tmp/err" 2>&1 && ok || no "node reads --int64-strings of $name exactly"
    else skipped=$((skipped + 1)); fi
done
# the strings are case-file values: the printed list pasted into `expected` compares equal
"$PYTHON" - "$tmp/u64.json" "$tmp/u64.strings.json" "$tmp/u64_pasted.json" <<'PY'
import json, sys
case = json.load(open(sys.argv[1]))
case["expected"] = {"OutputTensor": json.load(open(sys.argv[2]))["OutputTensor"]["data"]}
json.dump(case, open(sys.argv[3], "w"))
PY
expect 0 "--int64-strings output pasted into expected" "$D" run "$tmp/u64_pasted.json"
# other types print the same with and without the option
"$D" run "$CASES/gather_doc2.json" >"$tmp/plain.json" 2>/dev/null
"$D" run "$CASES/gather_doc2.json" --int64-strings >"$tmp/strings.json" 2>/dev/null
if cmp -s "$tmp/plain.json" "$tmp/strings.json"; then ok; else no "--int64-strings changed a FLOAT32 output"; fi

echo "export: $pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
