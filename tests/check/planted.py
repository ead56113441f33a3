#!/usr/bin/env python3
"""Planted-bug stand-in backends for `dmlref check` (tests/suites/check.sh,
docs/testing-your-backend.md, "Shrinking a failure"):

    python3 tests/check/planted.py --bug KIND CASE_DIR OUT_DIR

reads the case `dmlref export` wrote in CASE_DIR, runs it through the numpy stand-in
(examples/backend_numpy.py, the framework form) with one bug planted, and writes
OUT_DIR/<output>.npy.  Like a device writing into a buffer it allocated, every output
has the framework shape: a result of another size is cut or padded with zeros.

KIND: none (correct), axis-off-by-one (Gather on the next axis, indices wrapped into it),
negative-not-wrapped (negative Gather indices read element 0), clamp-not-wrap (Pad's wrap
mode computed as edge), f16-nan-canonical (every float16 NaN becomes 0x7e00), zero-sign-lost
(-0.0 becomes +0.0), int64-53bit (INT64/UINT64 through float64), strides-ignored (inputs
read from the start of the whole buffer T.npy, as if packed), join-last-dropped (Concat
leaves the last piece's place zero), no-float64 (exit 77: FLOAT64 unsupported),
garbage (writes a truncated .npy), crash (exit 3).
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
from backend_numpy import run_backend  # noqa: E402


def fit(o, shape, dtype):
    """o into an array of the expected shape: cut, or padded with zeros."""
    flat = np.zeros(int(np.prod(shape, dtype=np.int64)), dtype)
    src = np.asarray(o).astype(dtype, copy=False).reshape(-1)
    n = min(flat.size, src.size)
    flat[:n] = src[:n]
    return flat.reshape(shape)


def main(argv):
    if len(argv) != 4 or argv[0] != "--bug":
        print(__doc__, file=sys.stderr)
        return 2
    bug, d, out = argv[1], argv[2], argv[3]
    m = json.load(open(os.path.join(d, "manifest.json")))
    fw = m["framework"]
    if bug == "crash":
        print("planted: crashing on purpose", file=sys.stderr)
        return 3
    if bug == "no-float64" and any(t["DataType"] == "FLOAT64" for t in m["inputs"] + m["outputs"]):
        print("planted: FLOAT64 is not supported", file=sys.stderr)
        return 77

    def load(t):
        if bug == "strides-ignored":  # the buffer's first elements, as if it were packed
            n = int(np.prod(t["Sizes"], dtype=np.int64))
            return np.load(os.path.join(d, t["buffer"]))[:n].reshape(fw["shapes"][t["name"]])
        return np.load(os.path.join(d, t["logical"])).reshape(fw["shapes"][t["name"]])

    xs = [load(t) for t in m["inputs"]]
    op = fw["onnx"]
    if bug == "axis-off-by-one" and op == "Gather" and xs[0].ndim > 1:
        a = (fw["axis"] + 1) % xs[0].ndim
        outs = [np.take(xs[0], xs[1].astype(np.int64), axis=a, mode="wrap")]
    elif bug == "negative-not-wrapped" and op == "Gather":
        outs = [np.take(xs[0], np.maximum(xs[1].astype(np.int64), 0), axis=fw["axis"])]
    elif bug == "clamp-not-wrap" and op == "Pad" and fw["mode"] == "wrap":
        outs = run_backend(dict(fw, mode="edge"), xs)
    elif bug == "join-last-dropped" and op == "Concat":
        outs = [np.concatenate(xs[:-1], axis=fw["axis"])] if len(xs) > 1 else [np.zeros(0, xs[0].dtype)]
    else:
        outs = run_backend(fw, xs)
    for t, o in zip(m["outputs"], outs):
        dt = np.load(os.path.join(d, t["logical"])).dtype
        o = fit(o, fw["shapes"][t["name"]], dt)
        bits = o.view("u%d" % o.itemsize)
        if bug == "f16-nan-canonical" and o.dtype == np.float16:
            o = np.where(np.isnan(o), np.array(np.nan, np.float16), o)
        elif bug == "zero-sign-lost" and o.dtype.kind == "f":
            o = np.where(bits == np.array(1, bits.dtype) << (8 * o.itemsize - 1), np.zeros_like(o), o)
        elif bug == "int64-53bit" and o.dtype in (np.int64, np.uint64):
            with np.errstate(all="ignore"):
                o = o.astype(np.float64).astype(o.dtype)
        path = os.path.join(out, t["name"] + ".npy")
        if bug == "garbage":
            open(path, "wb").write(b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }")
            continue
        np.save(path, o)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
