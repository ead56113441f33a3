#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_case (fuzz/corpus/fuzz_case/): every case
file under tests/cases/ (valid and malformed), a few .npy files (versions 1,
2 and 3, several dtypes, a scalar, a truncated and a big-endian one), and
cases that reference a .npy appended after the "#NPY" line (see the comment
at the top of fuzz/fuzz_case.c).

    python3 fuzz/gen_case_corpus.py [OUTDIR]
"""
import glob
import hashlib
import os
import struct
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def npy(descr, shape, payload, version=1, fortran=False):
    shape_s = "(" + "".join(f"{s}, " for s in shape)[:-2] + ("," if len(shape) == 1 else "") + ")"
    header = f"{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {shape_s}, }}"
    prefix = 10 if version == 1 else 12
    pad = (64 - (prefix + len(header) + 1) % 64) % 64
    header = (header + " " * pad + "\n").encode("latin1" if version < 3 else "utf-8")
    size = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + size + header + payload


def case_with_npy(json_text, npy_bytes):
    return json_text.encode() + b"\n#NPY\n" + npy_bytes


def seeds():
    s = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "cases", "**", "*.json"), recursive=True)):
        rel = os.path.relpath(path, os.path.join(ROOT, "tests", "cases")).replace("/", "_")
        with open(path, "rb") as f:
            s["case_" + rel[:-5]] = f.read()
    f4 = struct.pack("<4f", 11, 12, 13, 14)
    s["npy_v1_f4"] = npy("<f4", [4], f4)
    s["npy_v2_u4_2d"] = npy("<u4", [1, 5], struct.pack("<5I", 3, 1, 3, 0, 2), version=2)
    s["npy_v3_i8"] = npy("<i8", [3], struct.pack("<3q", -1, 0, 2**63 - 1), version=3)
    s["npy_f2_scalar"] = npy("<f2", [], struct.pack("<e", 1.5))
    s["npy_u1_empty"] = npy("|u1", [0], b"")
    s["npy_bad_truncated"] = npy("<f8", [4], struct.pack("<2d", 1, 2))
    s["npy_bad_big_endian"] = npy(">f4", [4], f4)
    s["npy_bad_fortran"] = npy("<f4", [2, 2], f4, fortran=True)
    gather = """{"operator": "GATHER", "feature_level": "4_1", "Axis": 0, "IndexDimensions": 1,
 "InputTensor": {"DataType": "FLOAT32", "Sizes": [4], "npy": "a.npy"},
 "IndicesTensor": {"DataType": "UINT32", "Sizes": [5], "data": [3, 1, 3, 0, 2]},
 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [5]},
 "expected": {"OutputTensor": [14, 12, 14, 11, 13]}}"""
    s["npy_case_gather_input"] = case_with_npy(gather, npy("<f4", [4], f4))
    s["npy_case_gather_wrong_dtype"] = case_with_npy(gather, npy("<f8", [4], struct.pack("<4d", 1, 2, 3, 4)))
    split = """{"operator": "SPLIT", "Axis": 1, "OutputCount": 2,
 "InputTensor": {"DataType": "INT64", "Sizes": [2, 3], "Strides": [4, 1], "npy": "a.npy"},
 "OutputTensors": [{"DataType": "INT64", "Sizes": [2, 1]}, {"DataType": "INT64", "Sizes": [2, 2], "Strides": [1, 2]}]}"""
    s["npy_case_split_strided"] = case_with_npy(split, npy("<i8", [7], struct.pack("<7q", *range(7)), version=2))
    return s


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "fuzz", "corpus", "fuzz_case")
    os.makedirs(outdir, exist_ok=True)
    items = seeds()
    for name, blob in sorted(items.items()):
        with open(os.path.join(outdir, f"{name}-{hashlib.sha1(blob).hexdigest()[:8]}"), "wb") as f:
            f.write(blob)
    print(f"{len(items)} seeds in {outdir}")


if __name__ == "__main__":
    main()
