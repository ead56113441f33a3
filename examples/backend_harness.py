#!/usr/bin/env python3
"""Tests a backend against dmlref's golden files, bit for bit (docs/testing-your-backend.md).

    dmlref gen --operator ALL --count 50 --seed 1 --out suite/
    for f in suite/*.json; do dmlref export "$f" --out "golden/$(basename "$f" .json)"; done
    python3 backend_harness.py golden/*/

Each directory is one case as `dmlref export` writes it: manifest.json (operator,
parameters, the framework form: ONNX / WebNN / PyTorch shapes and axis) and .npy files.
Replace run_backend() with calls into your device; numpy stands in for one here.
"""
import json
import os
import sys

import numpy as np


def run_backend(fw, xs):
    """The operator in its framework form: fw is the manifest's "framework" (the ONNX
    name, axis, split sizes), xs the inputs in fw's shapes; returns the outputs."""
    op, axis = fw["onnx"], fw.get("axis")
    if op == "Gather":
        return [np.take(xs[0], xs[1].astype(np.int64), axis=axis)]
    if op == "GatherElements":
        return [np.take_along_axis(xs[0], xs[1].astype(np.int64), axis=axis)]
    if op == "ScatterND":
        out, idx, updates = xs[0].copy(), xs[1].astype(np.int64), xs[2]
        t = idx.shape[-1]  # coordinates per index tuple
        out[tuple(idx.reshape(-1, t).T)] = updates.reshape((-1,) + out.shape[t:])
        return [out]
    if op == "Split":
        return np.split(xs[0], np.cumsum(fw["split"])[:-1], axis=axis)
    if op == "Concat":
        return [np.concatenate(xs, axis=axis)]
    if op == "Identity":
        return [xs[0].copy()]
    if op == "ScatterElements":
        out = xs[0].copy()
        np.put_along_axis(out, xs[1].astype(np.int64), xs[2], axis=axis)
        return [out]
    if op == "Tile":
        return [np.tile(xs[0], fw["repeats"])]
    raise NotImplementedError(op)


def bits(a):
    """The elements as unsigned integers of their width: NaN payloads and -0.0 compare exactly."""
    a = np.ascontiguousarray(a)
    return a.view(np.dtype("u%d" % a.itemsize).newbyteorder(a.dtype.byteorder))


def check(case_dir, backend=run_backend):
    """The problems found in one exported case (an empty list: it passes)."""
    m = json.load(open(os.path.join(case_dir, "manifest.json")))
    fw = m["framework"]
    load = lambda t: np.load(os.path.join(case_dir, t["logical"])).reshape(fw["shapes"][t["name"]])
    outs = backend(fw, [load(t) for t in m["inputs"]])
    if len(outs) != len(m["outputs"]):
        return ["%d outputs, expected %d" % (len(outs), len(m["outputs"]))]
    problems = []
    for t, got in zip(m["outputs"], outs):
        want, got = load(t), np.asarray(got)
        if got.dtype.str[1:] != want.dtype.str[1:] or got.shape != want.shape:
            problems.append("%s: got %s %s, expected %s %s" % (t["name"], got.dtype, got.shape, want.dtype, want.shape))
            continue
        diff = np.flatnonzero(bits(got) != bits(want))
        if diff.size:
            i = np.unravel_index(diff[0], want.shape)
            problems.append("%s: %d of %d elements differ, first at %s: got 0x%x, expected 0x%x" % (
                t["name"], diff.size, want.size, list(i), bits(got)[i], bits(want)[i]))
    return problems


def main(dirs, backend=run_backend):
    failed = 0
    for d in dirs:
        try:
            problems = check(d, backend)
        except Exception as e:  # a backend that raises fails the case
            problems = ["%s: %s" % (type(e).__name__, e)]
        failed += bool(problems)
        for p in problems:
            print("FAIL %s: %s" % (d, p))
    print("harness: %d passed, %d failed" % (len(dirs) - failed, failed))
    return 1 if failed or not dirs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
