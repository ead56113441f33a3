#!/usr/bin/env python3
"""What `dmlref export CASE --out DIR` wrote, checked against the case and against `dmlref run`.

    check_dirs.py --dmlref build/dmlref CASE.json=DIR ...

For each pair:
  - the directory holds manifest.json and exactly the files it names, each .npy a format 1.0
    file with a little-endian descr ('<' or '|' for one byte), fortran_order False, its header
    padded to a multiple of 64 bytes, the dtype and shape the manifest gives;
  - every slot map is sum(c[d] * Strides[d]) over the coordinates, row-major over Sizes, in
    the logical shape, and its largest slot + 1 is span_elements; every logical view is the
    buffer gathered through the slot map, bit for bit;
  - input buffers hold the case's `data` (decoded here, independently of the command: hex
    patterns, "nan", "inf", -0.0, span-long lists padded with zeros); output buffers are
    byte-identical to `dmlref run CASE --npy` and, where the case has a whole-buffer
    `expected`, equal to it ("nan" matching any NaN);
  - `run --logical` (JSON, read with Python's json) and `run --logical --npy` give the same
    values and bytes as the exported logical views;
  - the manifest's operator, feature level, parameters, expected_from and tensor fields
    match the case, and every framework shape (when the operator has a form) is the tensor's
    Sizes with 1s dropped.

Ends with "export-dirs: N passed, N failed" (one count per case).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

DT = {"FLOAT32": "<f4", "FLOAT16": "<f2", "FLOAT64": "<f8", "UINT8": "|u1", "INT8": "|i1", "UINT16": "<u2",
      "INT16": "<i2", "UINT32": "<u4", "INT32": "<i4", "UINT64": "<u8", "INT64": "<i8"}
CANON = {2: 0x7E00, 4: 0x7FC00000, 8: 0x7FF8000000000000}


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view("<u%d" % a.itemsize if a.itemsize > 1 else "u1")


def flat(v):
    return [y for x in v for y in flat(x)] if isinstance(v, list) else [v]


def decode(values, name):
    """A case's element list as (array, any-NaN mask), without dmlref."""
    dt = np.dtype(DT[name])
    out = np.zeros(len(values), dt)
    anynan = np.zeros(len(values), bool)
    ub = bits(out)
    for i, v in enumerate(values):
        if isinstance(v, str) and v.startswith("0x"):
            ub[i] = int(v, 16)
        elif v == "nan":
            ub[i] = CANON[dt.itemsize]
            anynan[i] = True
        elif isinstance(v, str):
            out[i] = float(v)
        elif dt.kind == "f":
            out[i] = dt.type(v)  # json gave a float or int; FLOAT16 values here are exact decimals
        else:
            ub[i] = int(v) % (1 << (8 * dt.itemsize))
    return out, anynan


def read_npy(path):
    """(descr, shape, data bytes) with the header checked."""
    raw = open(path, "rb").read()
    assert raw[:8] == b"\x93NUMPY\x01\x00", "%s: not a format 1.0 .npy" % path
    hlen = raw[8] | raw[9] << 8
    assert (10 + hlen) % 64 == 0, "%s: header not padded to 64 bytes" % path
    header = eval(raw[10:10 + hlen].decode("latin1"))  # a Python dict literal, as numpy writes it
    assert header["fortran_order"] is False
    assert header["descr"][0] in "<|", "%s: descr %s is not little-endian" % (path, header["descr"])
    return header["descr"], tuple(header["shape"]), raw[10 + hlen:]


def slots_expected(t):
    sizes, strides = t["Sizes"], t["Strides"]
    idx = np.indices(sizes, dtype=np.uint64) if sizes else np.zeros((0,), np.uint64)
    return sum(idx[d] * np.uint64(strides[d]) for d in range(len(sizes)))


def tensors_of(case, key_filter):
    for slot, v in case.items():
        if isinstance(v, dict) and "DataType" in v and key_filter(slot):
            yield slot, v
        elif isinstance(v, list) and v and isinstance(v[0], dict) and "DataType" in v[0] and key_filter(slot):
            for i, t in enumerate(v):
                yield "%s_%d" % (slot, i), t


def check(dmlref, case_path, d):
    case = json.load(open(case_path))
    m = json.load(open(os.path.join(d, "manifest.json")))
    assert m["format"] == "dmlref-export-1"
    alias = {"SCATTER_ELEMENTS": "SCATTER"}  # the manifest names the operator as the library does
    assert m["operator"] == alias.get(case["operator"], case["operator"]), m["operator"]
    assert m["feature_level"] == case.get("feature_level", "6_4"), m["feature_level"]
    for k, v in m["parameters"].items():
        if k in case:
            assert case[k] == v, (k, case[k], v)
    names = set(["manifest.json"])
    tensors = m["inputs"] + m["outputs"]
    for t in tensors:
        names |= {t["buffer"], t["slots"], t["logical"]}
    assert set(os.listdir(d)) == names, sorted(set(os.listdir(d)) ^ names)
    given = dict(tensors_of(case, lambda s: s != "expected"))
    assert sorted(given) == sorted(t["name"] for t in tensors), (sorted(given), [t["name"] for t in tensors])
    tmp = tempfile.mkdtemp()
    try:
        for flags, sub in ([], "run"), (["--logical"], "logical"):
            p = subprocess.run([dmlref, "run", case_path, "--npy", os.path.join(tmp, sub)] + flags, capture_output=True)
            assert p.returncode == 0, p.stderr
        js = json.loads(subprocess.run([dmlref, "run", case_path, "--logical"], capture_output=True, text=True).stdout)
        for t in tensors:
            ct = given[t["name"]]
            assert t["DataType"] == ct["DataType"] and t["Sizes"] == ct["Sizes"] and t["dtype"] == DT[ct["DataType"]]
            assert t["strides_given"] == ("Strides" in ct)
            if "Strides" in ct:
                assert t["Strides"] == ct["Strides"]
            descr, shape, buf = read_npy(os.path.join(d, t["buffer"]))
            assert descr == t["dtype"] and shape == (t["buffer_elements"],)
            assert t["buffer_elements"] == t["TotalTensorSizeInBytes"] // np.dtype(descr).itemsize
            buffer = np.frombuffer(buf, descr)
            descr, shape, raw = read_npy(os.path.join(d, t["slots"]))
            assert descr == "<u8" and shape == tuple(t["Sizes"])
            slots = np.frombuffer(raw, "<u8").reshape(shape)
            assert np.array_equal(slots, slots_expected(t)), t["name"]
            assert int(slots.max()) + 1 == t["span_elements"] and slots.size == t["elements"]
            descr, shape, raw = read_npy(os.path.join(d, t["logical"]))
            assert descr == t["dtype"] and shape == tuple(t["Sizes"])
            logical = np.frombuffer(raw, descr).reshape(shape)
            assert np.array_equal(bits(logical), bits(buffer[slots.astype(np.int64)])), t["name"]
            if m["framework"] is not None:  # null for an operator export has no form for
                fw = m["framework"]["shapes"][t["name"]]
                assert int(np.prod(fw)) == t["elements"] and [n for n in fw if n != 1] == [n for n in t["Sizes"] if n != 1], (t["name"], fw)
            if t in m["outputs"]:
                ran = os.path.join(tmp, "run", t["buffer"])
                assert open(ran, "rb").read() == open(os.path.join(d, t["buffer"]), "rb").read(), t["name"]
                lg = os.path.join(tmp, "logical", t["logical"])
                assert open(lg, "rb").read() == open(os.path.join(d, t["logical"]), "rb").read(), t["name"]
                slot, _, i = t["name"].rpartition("_") if t["slot"] != t["name"] else (t["name"], "", "")
                jt = js[t["slot"]][int(i)] if i else js[t["slot"]]
                jv, _ = decode(flat(jt["data"]), t["DataType"])
                assert np.array_equal(bits(jv), bits(logical.reshape(-1))), t["name"]
                exp = case.get("expected", {}).get(t["slot"])
                if exp is not None and i:
                    exp = exp[int(i)]
                assert t["expected_from"] == ("case" if exp is not None else "run"), t["expected_from"]
                if exp is not None and len(flat(exp)) == t["buffer_elements"]:
                    ev, anynan = decode(flat(exp), t["DataType"])
                    same = bits(ev) == bits(buffer)
                    if buffer.dtype.kind == "f":
                        same |= anynan & np.isnan(buffer)
                    assert same.all(), t["name"]
            elif isinstance(ct.get("data"), list):
                dv, _ = decode(flat(ct["data"]), t["DataType"])
                want = np.zeros(t["buffer_elements"], descr)
                bits(want)[:dv.size] = bits(dv)
                assert np.array_equal(bits(want), bits(buffer)), t["name"]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dmlref", required=True)
    ap.add_argument("pairs", nargs="+")
    args = ap.parse_args()
    passed = failed = 0
    for pair in args.pairs:
        case_path, d = pair.split("=", 1)
        try:
            check(args.dmlref, case_path, d)
            passed += 1
        except Exception as e:  # AssertionError and anything a malformed file raises
            failed += 1
            print("FAIL %s -> %s: %s: %s" % (case_path, d, type(e).__name__, e))
    print("export-dirs: %d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
