#!/bin/sh
# Writes the hand-made cases of tests/suites/harness.sh into DIR: the bits a device is
# likeliest to change (NaN payloads, signalling NaNs, -0.0, subnormals, 64-bit integers
# beyond 2^53) in strided, gapped, transposed and broadcast layouts, without `expected`
# (export computes it).
dir=$1
mkdir -p "$dir" || exit 1
cat >"$dir/bits_gather_f32.json" <<'JSON'
{"operator": "GATHER", "Axis": 0, "IndexDimensions": 1,
 "InputTensor": {"DataType": "FLOAT32", "Sizes": [4, 2], "Strides": [3, 1],
   "data": ["0x7fc00001", -0.0, 0, "0x7f800001", "0xff800002", 0, 1.5, "0x00000001", 0, "-inf", "0x80000000"]},
 "IndicesTensor": {"DataType": "INT64", "Sizes": [1, 5], "data": [3, -1, 0, 1, 2]},
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [5, 2], "Strides": [1, 5]}}
JSON
cat >"$dir/bits_join_f16.json" <<'JSON'
{"operator": "JOIN", "Axis": 1,
 "InputTensors": [{"DataType": "FLOAT16", "Sizes": [2, 3], "data": ["0x7e01", "0x7c01", "0x8000", "0x0001", "0x03ff", "0xfe00"]},
                  {"DataType": "FLOAT16", "Sizes": [2, 2], "Strides": [0, 1], "data": ["0x8001", "0x7d00"]}],
 "OutputTensor": {"DataType": "FLOAT16", "Sizes": [2, 5], "Strides": [6, 1]}}
JSON
cat >"$dir/bits_scatter_nd_i64.json" <<'JSON'
{"operator": "SCATTER_ND", "InputDimensionCount": 2, "IndicesDimensionCount": 2,
 "InputTensor": {"DataType": "INT64", "Sizes": [3, 2], "data": [1, 2, 3, 4, 5, 6]},
 "IndicesTensor": {"DataType": "INT32", "Sizes": [2, 1], "data": [2, -3]},
 "UpdatesTensor": {"DataType": "INT64", "Sizes": [2, 2],
   "data": [9007199254740993, -9223372036854775808, 9223372036854775807, -9007199254740993]},
 "OutputTensor": {"DataType": "INT64", "Sizes": [3, 2]}}
JSON
cat >"$dir/bits_split_f64.json" <<'JSON'
{"operator": "SPLIT", "Axis": 2,
 "InputTensor": {"DataType": "FLOAT64", "Sizes": [1, 2, 3], "Strides": [6, 1, 2],
   "data": ["0x7ff8000000000001", -0.0, "0x7ff0000000000001", "0x0000000000000001", "0xfff8000000000000", 5e-324]},
 "OutputTensors": [{"DataType": "FLOAT64", "Sizes": [1, 2, 1]}, {"DataType": "FLOAT64", "Sizes": [1, 2, 2], "Strides": [8, 4, 1]}]}
JSON
